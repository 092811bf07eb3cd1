// langsift — implementation of langsift/url/model_file.hpp (compiled into langsift::core, or
// included by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/url/model_file.hpp"

#include <cmath>
#include <cstring>

#include "langsift/detail/binio.hpp"
#include "langsift/impl/url_kernels.hpp"
#include "langsift/detail/xxhash.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE void url_model::add_bucket(std::uint32_t b, std::int32_t* s) const noexcept {
  detail::url_add_bucket(*this, b, s);
}

LANGSIFT_INLINE void url_model::build_buckets(std::vector<std::vector<std::pair<std::uint8_t, float>>>& acc,
                                              float prune) {
  float maxw = 1e-6f;
  for (const auto& a : acc)
    for (const auto& [l, w] : a) maxw = std::max(maxw, std::fabs(w));
  scale = maxw / 127.f;
  buckets.assign(acc.size(), 0);
  postings.clear();
  rows.clear();
  for (std::size_t i = 0; i < acc.size(); ++i) {
    auto& list = acc[i];
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return std::fabs(a.second) > std::fabs(b.second); });
    if (list.size() > 255) list.resize(255);
    posting q[255];
    std::size_t kept = 0;
    bool small = true;
    for (const auto& [l, w] : list) {
      if (std::fabs(w) < prune) continue;
      const long v = std::lround(w / scale);
      if (v == 0) continue;
      q[kept++] = {l, static_cast<std::int8_t>(std::clamp(v, -127L, 127L))};
      small = small && v >= -63 && v <= 63;
    }
    if (kept == 0) continue;
    if (kept <= 2 && small) {
      std::uint32_t b = 0;
      for (std::size_t k = 0; k < kept; ++k)
        b |= (static_cast<std::uint32_t>(q[k].lang) | (static_cast<std::uint32_t>(q[k].weight) & 0x7F) << 8) << (15 * k);
      buckets[i] = b;
    } else if (kept > kDenseFrom) {
      const std::size_t row = rows.size() / languages.size();
      rows.resize(rows.size() + languages.size(), 0);
      for (std::size_t k = 0; k < kept; ++k) rows[row * languages.size() + q[k].lang] = q[k].weight;
      buckets[i] = 0xC0000000u | static_cast<std::uint32_t>(row);
    } else {
      buckets[i] = 0x80000000u | static_cast<std::uint32_t>(postings.size() << 8 | kept);
      postings.insert(postings.end(), q, q + kept);
    }
  }
}

LANGSIFT_INLINE std::string url_model::save() const {
  if (detail::binio::host_order() != status::ok) return {};
  std::string body;
  auto put = [&](const void* p, std::size_t n) { body.append(static_cast<const char*>(p), n); };
  for (const auto& l : languages) {
    char code[8] = {};
    std::memcpy(code, l.data(), std::min<std::size_t>(l.size(), 8));
    put(code, 8);
  }
  put(bias.data(), bias.size() * 4);
  put(buckets.data(), buckets.size() * 4);
  put(postings.data(), postings.size() * sizeof(posting));
  put(rows.data(), rows.size());
  std::string h(64, '\0');
  char* p = h.data();
  std::memcpy(p, "LSURL\0\0\1", 8);
  auto w32 = [&](std::size_t at, std::uint32_t v) { detail::binio::put_at(p + at, v); };
  w32(8, 64);
  w32(12, kind);
  w32(16, static_cast<std::uint32_t>(languages.size()));
  w32(20, bits);
  w32(24, static_cast<std::uint32_t>(postings.size()));
  detail::binio::put_at(p + 28, scale);
  w32(32, features.kinds);
  p[36] = static_cast<char>(features.min_order);
  p[37] = static_cast<char>(features.max_order);
  p[38] = static_cast<char>(features.host_space);
  detail::binio::put_at(p + 40, temperature);
  detail::binio::put_at(p + 44, std::uint64_t{XXH3_64bits(body.data(), body.size())});
  std::memcpy(p + 52, name.data(), std::min<std::size_t>(name.size(), 8));
  w32(60, static_cast<std::uint32_t>(languages.empty() ? 0 : rows.size() / languages.size()));
  return h + body;
}

LANGSIFT_INLINE status url_model::load_copy(std::string_view bytes, url_model& out, std::string* message) noexcept {
  status s;
  try {
    s = parse(bytes, out);
  } catch (const std::bad_alloc&) {
    s = status::out_of_memory;
  }
  switch (s) {
    case status::ok: break;
    case status::corrupt_model:
      detail::binio::set_message(message, {"not a langsift URL model, or truncated or corrupt (checksum or structure)"});
      break;
    case status::model_version: detail::binio::set_message(message, {"URL model format version is not 1"}); break;
    default: detail::binio::set_message(message, {status_name(s)});
  }
  return s;
}

LANGSIFT_INLINE status url_model::load_file(const std::string& path, url_model& out, std::string* message) noexcept {
  std::string bytes;
  // no URL model is 2 GiB
  status s = detail::binio::read_file(path, bytes, std::size_t{1} << 31, "", message, std::string_view("LSURL\0\0", 7));
  if (s != status::ok) return s;
  s = load_copy(bytes, out, message);
  if (s != status::ok && message) detail::binio::set_message(message, {path, ": ", *message});
  return s;
}

LANGSIFT_INLINE status url_model::parse(std::string_view bytes, url_model& out) {
  if (const status h = detail::binio::host_order(); h != status::ok) return h;
  if (bytes.size() < 64 || std::memcmp(bytes.data(), "LSURL\0\0", 7) != 0) return status::corrupt_model;
  if (bytes[7] != 1) return status::model_version;
  const char* p = bytes.data();
  auto r32 = [&](std::size_t at) { return detail::binio::get<std::uint32_t>(p + at); };
  if (r32(8) != 64) return status::corrupt_model;
  const std::uint32_t kind = r32(12), nl = r32(16), bits = r32(20), np = r32(24), nr = r32(60);
  if ((kind != words && kind != linear) || nl == 0 || nl > 255 || bits < 4 || bits > 26 || np >= (1u << 22) ||
      nr >= (1u << 22))
    return status::corrupt_model;
  const std::size_t nb = std::size_t{1} << bits;
  const std::size_t need =
      64 + std::size_t{nl} * 12 + nb * 4 + std::size_t{np} * sizeof(posting) + std::size_t{nr} * nl;
  if (bytes.size() != need) return status::corrupt_model;
  if (XXH3_64bits(p + 64, bytes.size() - 64) != detail::binio::get<std::uint64_t>(p + 44)) return status::corrupt_model;
  url_model m;
  m.kind = static_cast<kind_t>(kind);
  m.bits = bits;
  m.scale = detail::binio::get<float>(p + 28);
  m.temperature = detail::binio::get<float>(p + 40);
  m.features.kinds = r32(32);
  m.features.min_order = static_cast<std::uint8_t>(p[36]);
  m.features.max_order = static_cast<std::uint8_t>(p[37]);
  m.features.host_space = static_cast<std::uint8_t>(p[38]);
  if (!(m.scale > 0) || !(m.scale < 1e6f) || !(m.temperature > 0) || !(m.temperature < 1e6f) ||
      m.features.min_order < 1 || m.features.max_order > 7 || m.features.min_order > m.features.max_order ||
      m.features.host_space > 2)
    return status::corrupt_model;
  m.name.assign(p + 52, strnlen(p + 52, 8));
  const char* q = p + 64;
  for (std::uint32_t i = 0; i < nl; ++i, q += 8) {
    const std::size_t len = strnlen(q, 8);
    if (len == 0) return status::corrupt_model;
    m.languages.emplace_back(q, len);
  }
  m.bias.resize(nl);
  std::memcpy(m.bias.data(), q, nl * 4);
  q += nl * 4;
  for (float b : m.bias)
    if (!(std::fabs(b) < 1e6f)) return status::corrupt_model;
  m.buckets.resize(nb);
  std::memcpy(m.buckets.data(), q, nb * 4);
  q += nb * 4;
  m.postings.resize(np);
  std::memcpy(m.postings.data(), q, np * sizeof(posting));
  q += np * sizeof(posting);
  m.rows.resize(std::size_t{nr} * nl);
  if (!m.rows.empty()) std::memcpy(m.rows.data(), q, m.rows.size());
  for (std::uint32_t b : m.buckets) {
    if ((b & 0xC0000000u) == 0xC0000000u) {
      if ((b & 0x3FFFFFFFu) >= nr) return status::corrupt_model;
    } else if (b & 0x80000000u) {
      const std::uint32_t c = b & 0xFF, first = (b >> 8) & 0x3FFFFF;
      if (c == 0 || first + c > np) return status::corrupt_model;
    } else if ((b & 0xFF) >= nl || ((b >> 15) & 0xFF) >= nl) {
      return status::corrupt_model;
    }
  }
  for (const posting& x : m.postings)
    if (x.lang >= nl) return status::corrupt_model;
  out = std::move(m);
  return status::ok;
}

}  // namespace v1
}  // namespace langsift
