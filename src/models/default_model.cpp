// The built-in models: their bytes come from langsift_data_v1_get (builtin_data.h): the shared
// library liblangsift_data.so.0, or compiled into this library (LANGSIFT_EMBED_MODELS).
#include "langsift/default_model.hpp"
#include "langsift/close_groups.hpp"
#include "langsift/detail/binio.hpp"
#include "langsift/detail/immortal.hpp"
#include "langsift/detector.hpp"

#include <array>
#include <memory>
#include <new>
#include <string>

#include "builtin_data.h"

namespace langsift {
inline namespace v1 {

namespace detail {
struct builtin_model_loader {
  // Header, section bounds and tables checked as for any model; not the checksum, nor the
  // structure scan: the bytes are this library's own (test_model.cpp verifies both), and hashing
  // them all was most of the start-up time (0.7-1.0 of 0.8-1.2 ms on the 2-core CI VM, for the
  // 7 MB model of then; the models are now 25 and 44 MB).
  static status load(std::string_view bytes, model& out) noexcept {
    return model::load_in_place(bytes, out, /*verify_checksum=*/false, /*verify_structure=*/false);
  }
  // The close groups too (header and sizes checked; test_close_groups.cpp verifies the checksum
  // and every key).
  static status load(std::string_view bytes, close_groups& out) noexcept {
    return close_groups::parse(bytes, out, /*verify_checksum=*/false, /*verify_structure=*/false);
  }
};
}  // namespace detail

namespace {

constexpr std::array<std::string_view, 2> kBuiltinNames = {"default", "wide"};

std::string_view data_bytes(langsift_data_v1_id which) noexcept {
  std::size_t size = 0;
  const char* p = langsift_data_v1_get(which, &size);
  return p ? std::string_view(p, size) : std::string_view();
}

std::string_view wide_model_bytes() noexcept { return data_bytes(LANGSIFT_DATA_WIDE_MODEL); }

// A built-in model and the status of its one load (empty model on failure).
struct loaded_builtin {
  model m;
  status st = status::internal_error;
};

/// Attaches the close groups in `bytes` (the library's own: an empty view for none) to `m` when
/// they were made for it. The tests check that the built-in ones load and attach.
status attach_close_groups(model& m, std::string_view bytes) noexcept {
  if (bytes.empty() || m.empty()) return status::ok;
  close_groups g;
  if (const status st = detail::builtin_model_loader::load(bytes, g); st != status::ok) return st;
  if (g.model_checksum() != m.checksum()) return status::ok;
  try {
    return m.set_close_groups(std::make_shared<const close_groups>(std::move(g)));
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
}

loaded_builtin load_builtin(std::string_view bytes, std::string_view close_bytes) noexcept {
  loaded_builtin b;
  b.st = detail::builtin_model_loader::load(bytes, b.m);
  // Groups that fail to attach leave the model without them (test_close_groups.cpp rules it out
  // for the built-in ones): the model itself is sound, and is what a rebuild of them needs.
  if (b.st == status::ok) (void)attach_close_groups(b.m, close_bytes);
  return b;
}

// Parsed on the first call only (a function-local static: thread-safe initialisation); never
// destroyed (detail::immortal: threads may still detect with it while the process exits).
const loaded_builtin& wide() noexcept {
  static const detail::immortal<loaded_builtin> b(load_builtin(wide_model_bytes(), builtin_close_groups_bytes("wide")));
  return b.get();
}

}  // namespace

std::string_view default_model_bytes() noexcept { return data_bytes(LANGSIFT_DATA_DEFAULT_MODEL); }

const model& default_model() noexcept {
  // Empty on failure; never destroyed (detail::immortal: threads may still use it at exit).
  static const detail::immortal<loaded_builtin> b(load_builtin(default_model_bytes(), builtin_close_groups_bytes("default")));
  return b.get().m;
}

std::span<const std::string_view> builtin_model_names() noexcept { return kBuiltinNames; }

std::string_view builtin_close_groups_bytes(std::string_view name) noexcept {
  if (name == "default") return data_bytes(LANGSIFT_DATA_CLOSE_DEFAULT);
  if (name == "wide") return data_bytes(LANGSIFT_DATA_CLOSE_WIDE);
  return {};
}

std::string_view builtin_model_bytes(std::string_view name) noexcept {
  if (name == "default") return default_model_bytes();
  if (name == "wide") return wide_model_bytes();
  return {};
}

status builtin_model(std::string_view name, const model*& out, std::string* message) noexcept {
  // A message is a courtesy: if it cannot be allocated, the status is still the answer.
  using detail::binio::set_message;
  const model* m = nullptr;
  status st = status::ok;
  if (name == "default") {
    m = &default_model();
  } else if (name == "wide") {
    m = &wide().m;
    st = wide().st;
  } else {
    set_message(message, {"no built-in model named \"", name, "\" (built-in models: default, wide)"});
    return status::invalid_argument;
  }
  if (st != status::ok || m->empty()) {
    set_message(message, {"the built-in model \"", name, "\" failed to load"});
    return st == status::ok ? status::corrupt_model : st;
  }
  out = m;
  return status::ok;
}

bool is_builtin_model_name(std::string_view name) noexcept {
  for (const std::string_view n : kBuiltinNames)
    if (n == name) return true;
  return false;
}

status resolve_model(std::string_view name_or_path, const model*& out, model& storage, std::string* message,
                     std::size_t max_bytes) noexcept {
  if (name_or_path.empty()) name_or_path = "default";
  if (is_builtin_model_name(name_or_path)) return builtin_model(name_or_path, out, message);
  std::string path;
  try {
    path.assign(name_or_path);
  } catch (...) {  // std::bad_alloc
    return status::out_of_memory;
  }
  status st = model::load_file(path, storage, message, max_bytes);
  // A built-in model's own file gets its close groups, as the built-in model does.
  for (const std::string_view n : kBuiltinNames)
    if (st == status::ok) st = attach_close_groups(storage, builtin_close_groups_bytes(n));
  if (st != status::ok) {
    if (message && message->empty()) detail::binio::set_message(message, {name_or_path, ": ", status_name(st)});
    return st;
  }
  out = &storage;
  return status::ok;
}

std::vector<std::string_view> unknown_builtin_codes(std::span<const std::string_view> codes, const model* also) {
  // The wide model holds every language of the default one; should it have failed to set up
  // (ruled out by the build's tests), the default model stands in.
  const model& widest = wide().st == status::ok && !wide().m.empty() ? wide().m : default_model();
  std::vector<std::string_view> out = unknown_codes(widest, codes);  // script-decided ones count
  if (also && !out.empty()) out = unknown_codes(*also, out);
  return out;
}

}  // namespace v1
}  // namespace langsift
