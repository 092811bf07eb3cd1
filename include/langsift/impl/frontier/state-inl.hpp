// langsift — implementation of langsift/frontier.hpp: the state-file codec: save() and the loaders
// (compiled into langsift::core, or included by the header under LANGSIFT_HEADER_ONLY; see
// langsift/config.hpp).
#pragma once

#include "langsift/frontier.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <new>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "langsift/detail/binio.hpp"
#include "langsift/detail/xxhash.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE std::string frontier::save() const {
  if (detail::binio::host_order() != status::ok) return {};
  // languages, sorted by code, old index -> new index
  std::vector<std::string> codes;
  std::vector<std::uint64_t> tg, ct;
  std::array<std::uint8_t, 256> remap;
  remap.fill(kNone);
  remap[kFetched] = kFetched;
  std::vector<slot> all;
  {
    std::shared_lock lk(lang_mu_);
    std::vector<std::size_t> order(codes_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return codes_[a] < codes_[b]; });
    for (std::size_t j = 0; j < order.size(); ++j) {
      remap[order[j]] = static_cast<std::uint8_t>(j);
      codes.push_back(codes_[order[j]]);
      tg.push_back(target_[order[j]].load(std::memory_order_relaxed));
      ct.push_back(count_[order[j]].load(std::memory_order_relaxed));
    }
    for (std::size_t i = 0; i < kShards; ++i) {
      std::lock_guard sl(shards_[i].mu);
      for (const slot& e : shards_[i].slots)
        if (e.key) all.push_back(e);
    }
  }
  for (slot& e : all) canonical(e, remap);
  std::sort(all.begin(), all.end(), [](const slot& a, const slot& b) { return a.key < b.key; });
  std::string out;
  std::size_t lang_bytes = 0;
  for (const auto& c : codes) lang_bytes += 1 + c.size() + 16;
  out.reserve(kHeaderBytes + lang_bytes + all.size() * sizeof(slot) + 8);
  out.append(kMagic, 8);
  detail::binio::put<std::uint32_t>(out, kFormatVersion);
  detail::binio::put<std::uint32_t>(out, static_cast<std::uint32_t>(codes.size()));
  detail::binio::put<std::uint64_t>(out, all.size());
  detail::binio::put<std::uint64_t>(out, dropped_.load(std::memory_order_relaxed));
  for (std::size_t j = 0; j < codes.size(); ++j) {
    out.push_back(static_cast<char>(codes[j].size()));
    out.append(codes[j]);
    detail::binio::put<std::uint64_t>(out, tg[j]);
    detail::binio::put<std::uint64_t>(out, ct[j]);
  }
  for (const slot& e : all) {
    detail::binio::put<std::uint64_t>(out, e.key);
    out.append(reinterpret_cast<const char*>(e.lang.data()), 4);
    out.append(reinterpret_cast<const char*>(e.votes.data()), 4);
  }
  detail::binio::put<std::uint64_t>(out, XXH3_64bits(out.data(), out.size()));
  return out;
}

LANGSIFT_INLINE status frontier::save_file(const std::string& path, std::string* message) const noexcept {
  using detail::binio::set_message;
  if (const status h = detail::binio::host_order(); h != status::ok) {
    set_message(message, {"frontier state: this host cannot write the little-endian format"});
    return h;
  }
  try {
    const std::string bytes = save();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      // A device or a pipe (/dev/null, a FIFO) is written in place: renaming a file over it would
      // replace the device itself.
      std::ofstream f(path, std::ios::binary);
      f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      f.close();
      if (f.fail()) {
        set_message(message, {"frontier state: cannot write ", path});
        return status::io_error;
      }
      return status::ok;
    }
    // Beside the target, named by the process and a counter: two savers never share one.
    static std::atomic<unsigned> counter{0};
    const std::string tmp = path + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
    // (an ofstream, not fwrite: the C ABI library is checked to import no printing function)
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) {
      set_message(message, {"frontier state: cannot open ", tmp, " for writing"});
      return status::io_error;
    }
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const bool ok = static_cast<bool>(f);
    f.close();
    const bool closed = !f.fail();
    if (!ok || !closed) {
      std::remove(tmp.c_str());
      set_message(message, {"frontier state: cannot write ", tmp});
      return status::io_error;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::remove(tmp.c_str());
      set_message(message, {"frontier state: cannot rename ", tmp, " to ", path});
      return status::io_error;
    }
    return status::ok;
  } catch (const std::bad_alloc&) {
    set_message(message, {"frontier state: out of memory while saving"});
    return status::out_of_memory;
  }
}

LANGSIFT_INLINE status frontier::load_copy(std::string_view bytes, frontier& out, std::string* message) noexcept {
  try {
    return out.load_state(bytes, message);
  } catch (const std::bad_alloc&) {
    detail::binio::set_message(message, {"frontier state: out of memory while loading"});
    return status::out_of_memory;
  }
}

LANGSIFT_INLINE status frontier::load_file(const std::string& path, frontier& out, std::string* message) noexcept {
  std::string bytes;
  // 16 bytes a URL: no state file is 64 GiB
  status s = detail::binio::read_file(path, bytes, std::size_t{1} << 36, "frontier state: ", message,
                                       std::string_view(kMagic, sizeof kMagic));
  if (s != status::ok) return s;
  s = load_copy(bytes, out, message);
  if (s != status::ok && message) detail::binio::set_message(message, {*message, " (", path, ")"});
  return s;
}

LANGSIFT_INLINE status frontier::load_state(std::string_view b, std::string* message) {
  using detail::binio::get;
  auto corrupt = [&](const std::string& what) {
    detail::binio::set_message(message, {"frontier state: ", what});
    return status::corrupt_state;
  };
  if (const status h = detail::binio::host_order(); h != status::ok) {
    detail::binio::set_message(message, {"frontier state: this host cannot read the little-endian format"});
    return h;
  }
  if (b.size() < 8 || std::memcmp(b.data(), kMagic, 8) != 0)
    return corrupt(b.size() < 8 ? "truncated (" + std::to_string(b.size()) + " bytes)"
                                : "not a langsift frontier state file (bad magic)");
  if (b.size() < kHeaderBytes + 8)
    return corrupt("truncated (" + std::to_string(b.size()) + " bytes, header needs " +
                   std::to_string(kHeaderBytes + 8) + ")");
  const char* p = b.data();
  const std::uint32_t version = get<std::uint32_t>(p + 8);
  if (version != kFormatVersion) {
    detail::binio::set_message(message, {"frontier state: format version ", std::to_string(version),
                                         ", this library reads version ", std::to_string(kFormatVersion)});
    return status::model_version;
  }
  const std::uint32_t nl = get<std::uint32_t>(p + 12);
  const std::uint64_t ns = get<std::uint64_t>(p + 16);
  const std::uint64_t dropped = get<std::uint64_t>(p + 24);
  if (nl > kMaxLanguages) return corrupt("too many languages (" + std::to_string(nl) + ")");
  // languages: variable size; check bounds as we go, then the size of the slots
  std::size_t at = kHeaderBytes;
  const std::size_t body_end = b.size() - 8;
  std::vector<std::string> codes;
  std::vector<std::uint64_t> tg, ct;
  for (std::uint32_t i = 0; i < nl; ++i) {
    if (!detail::binio::fits(body_end, at, 1)) return corrupt("truncated in the language table");
    const std::size_t len = static_cast<unsigned char>(p[at]);
    if (len == 0 || len > 15) return corrupt("bad language code length");
    if (!detail::binio::fits(body_end, at + 1, len + 16)) return corrupt("truncated in the language table");
    codes.emplace_back(p + at + 1, len);
    tg.push_back(get<std::uint64_t>(p + at + 1 + len));
    ct.push_back(get<std::uint64_t>(p + at + 1 + len + 8));
    at += 1 + len + 16;
  }
  if (ns > (body_end - at) / sizeof(slot) || (body_end - at) != ns * sizeof(slot))
    return corrupt("size mismatch: " + std::to_string(b.size()) + " bytes for " + std::to_string(ns) +
                   " URLs (truncated or extended file)");
  if (XXH3_64bits(p, body_end) != get<std::uint64_t>(p + body_end)) return corrupt("checksum mismatch (corrupt file)");
  for (std::size_t i = 1; i < codes.size(); ++i)
    if (!(codes[i - 1] < codes[i])) return corrupt("language codes not sorted (or repeated)");
  std::unique_ptr<shard[]> fresh(new shard[kShards]);
  std::uint64_t prev = 0;
  for (std::uint64_t i = 0; i < ns; ++i, at += sizeof(slot)) {
    slot e;
    e.key = get<std::uint64_t>(p + at);
    std::memcpy(e.lang.data(), p + at + 8, 4);
    std::memcpy(e.votes.data(), p + at + 12, 4);
    if (e.key == 0 || (i && e.key <= prev)) return corrupt("URL keys not strictly increasing");
    prev = e.key;
    if (e.lang[0] == kFetched) {
      for (std::size_t j = 0; j < kGuesses; ++j)
        if ((j && e.lang[j] != kNone) || e.votes[j]) return corrupt("bad fetched URL slot");
    } else {
      // canonical: languages increasing, then empty guesses
      for (std::size_t j = 0; j < kGuesses; ++j) {
        if (e.lang[j] == kNone) {
          if (e.votes[j]) return corrupt("votes without a language");
        } else if (e.lang[j] >= nl || e.votes[j] == 0) {
          return corrupt("bad language index in a URL slot");
        }
        if (j && !(e.lang[j - 1] < e.lang[j] || (e.lang[j - 1] == kNone && e.lang[j] == kNone)))
          return corrupt("URL slot guesses not in order");
      }
    }
    shard& s = fresh[e.key >> (64 - kShardBits)];
    slot* d = s.find_or_insert(e.key, 0);
    *d = e;
  }
  // install
  std::unique_lock lk(lang_mu_);
  std::array<std::unique_lock<std::mutex>, kShards> locks;
  for (std::size_t i = 0; i < kShards; ++i) locks[i] = std::unique_lock(shards_[i].mu);
  for (std::size_t i = 0; i < kShards; ++i) {
    shards_[i].slots.swap(fresh[i].slots);
    shards_[i].used = fresh[i].used;
  }
  codes_ = std::move(codes);
  index_.clear();
  std::uint32_t qs = 0;
  for (std::size_t i = 0; i < kMaxLanguages; ++i) {
    const bool have = i < codes_.size();
    if (have) index_.emplace(codes_[i], static_cast<std::uint8_t>(i));
    target_[i].store(have ? tg[i] : 0, std::memory_order_relaxed);
    count_[i].store(have ? ct[i] : 0, std::memory_order_relaxed);
    qs += have && tg[i];
  }
  quotas_set_.store(qs, std::memory_order_relaxed);
  dropped_.store(dropped, std::memory_order_relaxed);
  return status::ok;
}

LANGSIFT_INLINE void frontier::canonical(slot& e, const std::array<std::uint8_t, 256>& remap) const {
  for (auto& l : e.lang) l = remap[l];
  if (e.lang[0] == kFetched) return;
  std::array<std::pair<std::uint8_t, std::uint8_t>, kGuesses> g;
  for (std::size_t i = 0; i < kGuesses; ++i) g[i] = {e.lang[i], e.votes[i]};
  std::sort(g.begin(), g.end());  // kNone (0xFE) sorts after every language
  for (std::size_t i = 0; i < kGuesses; ++i) {
    e.lang[i] = g[i].first;
    e.votes[i] = g[i].second;
  }
}

}  // namespace v1
}  // namespace langsift
