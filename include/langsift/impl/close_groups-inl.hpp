// langsift — implementation of langsift/close_groups.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY).
//
// File format (little-endian, every section 8-byte aligned):
//   0  "LSCG", u32 version (1)
//   8  u64 xxh3 of bytes [16, size)
//  16  u64 size of the file
//  24  u64 checksum of the model it was made for (0: not recorded)
//  32  u32 groups, u32 info bytes; then the info text, padded to 8
//      per group a record of kRecordBytes: u32 members, u32 features, f32 step, the five f32 of
//      close_group_params, u32 prior_min_bytes, u32 min_bytes, char codes[8][16] (NUL-padded),
//      f32 share[8], u64 keys offset, u64 weights offset, u64 directory offset, u32 directory
//      bits, u32 filter bits, u64 filter offset
//      per group the keys (u64, strictly ascending), the weights (int8, features × members),
//      the directory: 2^bits + 1 u32, entry b the first key whose top `bits` bits are >= b, and
//      the filter: 2^filter bits bits, bit (key mod 2^filter bits) set for every key (most words
//      of a text are no key: one bit, likely in cache, answers for them)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "langsift/close_groups.hpp"
#include "langsift/detail/binio.hpp"
#include "langsift/detail/xxhash.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace close_file {
inline constexpr char kMagic[4] = {'L', 'S', 'C', 'G'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::size_t kHeaderBytes = 40, kCodeBytes = 16, kRecordBytes = 40 + max_close_members * kCodeBytes + max_close_members * 4 + 40;
/// Directory bits for n features: about four keys per bucket.
constexpr std::uint32_t directory_bits(std::size_t n) noexcept {
  std::uint32_t b = 1;
  while (b < 24 && (std::size_t{1} << b) * 4 < n) ++b;
  return b;
}
inline constexpr std::size_t pad8(std::size_t n) noexcept { return (n + 7) & ~std::size_t{7}; }
}  // namespace close_file
}  // namespace detail

LANGSIFT_INLINE close_group_info close_groups::group(std::size_t g) const noexcept {
  const group_view& v = groups_[g];
  return {std::span<const std::string_view>(v.codes.data(), v.n), std::span<const float>(v.share.data(), v.n), v.params,
          v.features};
}

LANGSIFT_INLINE float close_groups::weight_step(std::size_t g) const noexcept { return groups_[g].step; }

LANGSIFT_INLINE const std::int8_t* close_groups::find(std::size_t g, std::uint64_t hash) const noexcept {
  const group_view& v = groups_[g];
  const std::uint64_t bit = hash & ((std::uint64_t{1} << v.filter_bits) - 1);
  if (!(v.filter[bit >> 6] >> (bit & 63) & 1)) return nullptr;
  const std::uint64_t bucket = hash >> (64 - v.bits);
  for (std::uint32_t k = v.dir[bucket], end = v.dir[bucket + 1]; k < end; ++k)
    if (v.keys[k] >= hash) return v.keys[k] == hash ? v.weights + std::size_t{k} * v.n : nullptr;
  return nullptr;
}

LANGSIFT_INLINE void close_groups::add_weights(std::size_t g, std::span<std::uint64_t> hashes,
                                               std::int32_t* sum) const noexcept {
  const group_view& v = groups_[g];
  const std::uint64_t low = (std::uint64_t{1} << v.filter_bits) - 1;
  for (const std::uint64_t h : hashes) __builtin_prefetch(v.filter + ((h & low) >> 6));
  std::size_t kept = 0;  // the hashes the filter lets through, packed at the front
  for (const std::uint64_t h : hashes) {
    const std::uint64_t bit = h & low;
    if (!(v.filter[bit >> 6] >> (bit & 63) & 1)) continue;
    hashes[kept++] = h;
    __builtin_prefetch(v.dir + (h >> (64 - v.bits)));
  }
  for (std::size_t i = 0; i < kept; ++i) __builtin_prefetch(v.keys + v.dir[hashes[i] >> (64 - v.bits)]);
  for (std::size_t i = 0; i < kept; ++i) {
    const std::uint64_t h = hashes[i];
    const std::uint64_t bucket = h >> (64 - v.bits);
    for (std::uint32_t k = v.dir[bucket], end = v.dir[bucket + 1]; k < end; ++k) {
      if (v.keys[k] < h) continue;
      if (v.keys[k] == h) {
        const std::int8_t* w = v.weights + std::size_t{k} * v.n;
        for (std::size_t c = 0; c < v.n; ++c) sum[c] += w[c];
      }
      break;
    }
  }
}

LANGSIFT_INLINE status close_groups::parse(std::string_view bytes, close_groups& out, bool verify_checksum,
                                           bool verify_structure) noexcept {
  namespace f = detail::close_file;
  using detail::binio::fits;
  using detail::binio::get;
  if (const status s = detail::binio::host_order(); s != status::ok) return s;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  if (n < f::kHeaderBytes || std::memcmp(b, f::kMagic, 4) != 0) return status::corrupt_model;
  if (get<std::uint32_t>(b + 4) != f::kVersion) return status::model_version;
  if (get<std::uint64_t>(b + 16) != n) return status::corrupt_model;
  const std::uint64_t sum = get<std::uint64_t>(b + 8);
  if (verify_checksum && XXH3_64bits(b + 16, n - 16) != sum) return status::corrupt_model;
  close_groups r;
  r.bytes_ = bytes;
  r.checksum_ = sum;
  r.model_checksum_ = get<std::uint64_t>(b + 24);
  const std::uint32_t ng = get<std::uint32_t>(b + 32), info = get<std::uint32_t>(b + 36);
  if (!fits(n, f::kHeaderBytes, info)) return status::corrupt_model;
  r.info_ = std::string_view(bytes.data() + f::kHeaderBytes, info);
  std::size_t at = f::pad8(f::kHeaderBytes + info);
  if (ng == 0 || ng > 4096 || !fits(n, at, std::uint64_t{ng} * f::kRecordBytes)) return status::corrupt_model;
  try {
    r.groups_.resize(ng);
  } catch (...) {
    return status::out_of_memory;
  }
  for (std::uint32_t g = 0; g < ng; ++g, at += f::kRecordBytes) {
    const unsigned char* p = b + at;
    group_view& v = r.groups_[g];
    v.n = get<std::uint32_t>(p);
    v.features = get<std::uint32_t>(p + 4);
    v.step = get<float>(p + 8);
    v.params = {get<float>(p + 12), get<float>(p + 16), get<float>(p + 20), get<float>(p + 24), get<float>(p + 28),
                get<std::uint32_t>(p + 32), get<std::uint32_t>(p + 36)};
    if (v.n < 2 || v.n > max_close_members || !(v.step > 0) || !(v.step < 1e6f)) return status::corrupt_model;
    for (const float x : {v.params.model_weight, v.params.discriminator_weight, v.params.prior_weight, v.params.prior_cap,
                          v.params.trigger})
      if (!std::isfinite(x) || x < 0 || x > 1e6f) return status::corrupt_model;
    for (std::size_t i = 0; i < v.n; ++i) {
      const char* c = reinterpret_cast<const char*>(p + 40 + i * f::kCodeBytes);
      const std::size_t len = strnlen(c, f::kCodeBytes);
      if (len == 0 || len == f::kCodeBytes) return status::corrupt_model;
      v.codes[i] = std::string_view(c, len);
      v.share[i] = get<float>(p + 40 + max_close_members * f::kCodeBytes + i * 4);
      if (!(v.share[i] >= 0) || !(v.share[i] <= 1)) return status::corrupt_model;
    }
    const unsigned char* q = p + 40 + max_close_members * f::kCodeBytes + max_close_members * 4;
    const std::uint64_t keys = get<std::uint64_t>(q), weights = get<std::uint64_t>(q + 8);
    if (keys % 8 || !fits(n, keys, std::uint64_t{v.features} * 8) || !fits(n, weights, std::uint64_t{v.features} * v.n))
      return status::corrupt_model;
    v.keys = reinterpret_cast<const std::uint64_t*>(b + keys);
    v.weights = reinterpret_cast<const std::int8_t*>(b + weights);
    for (std::size_t k = 1; verify_structure && k < v.features; ++k)
      if (!(v.keys[k - 1] < v.keys[k])) return status::corrupt_model;
    const std::uint64_t dir = get<std::uint64_t>(q + 16);
    v.bits = get<std::uint32_t>(q + 24);
    const std::uint64_t buckets = std::uint64_t{1} << std::min<std::uint32_t>(v.bits, 32);
    if (v.bits < 1 || v.bits > 24 || dir % 4 || !fits(n, dir, (buckets + 1) * 4)) return status::corrupt_model;
    v.dir = reinterpret_cast<const std::uint32_t*>(b + dir);
    v.filter_bits = get<std::uint32_t>(q + 28);
    const std::uint64_t filter = get<std::uint64_t>(q + 32);
    if (v.filter_bits < 6 || v.filter_bits > 30 || filter % 8 || !fits(n, filter, (std::uint64_t{1} << v.filter_bits) / 8))
      return status::corrupt_model;
    v.filter = reinterpret_cast<const std::uint64_t*>(b + filter);
    for (std::size_t k = 0; verify_structure && k < v.features; ++k) {
      const std::uint64_t bit = v.keys[k] & ((std::uint64_t{1} << v.filter_bits) - 1);
      if (!(v.filter[bit >> 6] >> (bit & 63) & 1)) return status::corrupt_model;
    }
    // Each bucket's range holds exactly the keys of that bucket.
    if (v.dir[0] != 0 || v.dir[buckets] != v.features) return status::corrupt_model;
    for (std::uint64_t k = 0; verify_structure && k < buckets; ++k) {
      if (v.dir[k] > v.dir[k + 1] || v.dir[k + 1] > v.features) return status::corrupt_model;
      for (std::uint32_t i = v.dir[k]; i < v.dir[k + 1]; ++i)
        if (v.keys[i] >> (64 - v.bits) != k) return status::corrupt_model;
    }
  }
  out = std::move(r);
  return status::ok;
}

LANGSIFT_INLINE status close_groups::load_view(std::string_view bytes, close_groups& out, std::string* message) noexcept {
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % 8) {
    detail::binio::set_message(message, {"close groups: bytes not 8-byte aligned"});
    return status::invalid_argument;
  }
  const status s = parse(bytes, out, /*verify_checksum=*/true);
  if (s != status::ok) detail::binio::set_message(message, {"close groups: not a close-groups file, or truncated or corrupt (", status_name(s), ")"});
  return s;
}

LANGSIFT_INLINE status close_groups::load_copy(std::string_view bytes, close_groups& out, std::string* message) noexcept {
  std::shared_ptr<const std::string> owned;
  try {
    owned = std::make_shared<const std::string>(bytes);
  } catch (...) {
    detail::binio::set_message(message, {"close groups: out of memory"});
    return status::out_of_memory;
  }
  close_groups r;
  const status s = load_view(*owned, r, message);
  if (s != status::ok) return s;
  r.owned_ = std::move(owned);
  out = std::move(r);
  return status::ok;
}

LANGSIFT_INLINE status close_groups::load_file(const std::string& path, close_groups& out, std::string* message,
                                               std::size_t max_bytes) noexcept {
  std::shared_ptr<std::string> data;
  try {
    data = std::make_shared<std::string>();
  } catch (...) {
    return status::out_of_memory;
  }
  const std::size_t limit = max_bytes ? max_bytes : std::size_t{1} << 30;
  status s = detail::binio::read_file(path, *data, limit, "", message, std::string_view(detail::close_file::kMagic, 4));
  if (s == status::io_error && data->size() > limit) s = status::too_large;
  if (s != status::ok) return s;
  close_groups r;
  s = parse(*data, r, /*verify_checksum=*/true);  // std::string's buffer is aligned for any fundamental type
  if (s != status::ok) {
    detail::binio::set_message(message, {path, ": not a close-groups file, or truncated or corrupt (", status_name(s), ")"});
    return s;
  }
  r.owned_ = std::move(data);
  out = std::move(r);
  return status::ok;
}

LANGSIFT_INLINE std::string write_close_groups(const std::vector<close_group_entry>& groups, std::uint64_t model_checksum,
                                               std::string_view info) {
  namespace f = detail::close_file;
  using detail::binio::put;
  using detail::binio::put_at;
  if (groups.empty()) throw std::invalid_argument("close groups: no group");
  std::string out;
  out.append(f::kMagic, 4);
  put<std::uint32_t>(out, f::kVersion);
  put<std::uint64_t>(out, 0);  // checksum, below
  put<std::uint64_t>(out, 0);  // size, below
  put<std::uint64_t>(out, model_checksum);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(groups.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(info.size()));
  out.append(info);
  out.resize(f::pad8(out.size()), '\0');
  const std::size_t records = out.size();
  out.resize(records + groups.size() * f::kRecordBytes, '\0');
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const close_group_entry& e = groups[g];
    const std::size_t m = e.members.size();
    if (m < 2 || m > max_close_members || e.web_share.size() != m) throw std::invalid_argument("close groups: 2 to 8 members, one share each");
    // Sorted by hash, one entry per hash; weights quantised by the group's largest magnitude.
    std::vector<std::size_t> order(e.features.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e.features[a].first < e.features[b].first; });
    float top = 0;
    for (const auto& [h, w] : e.features) {
      if (w.size() != m) throw std::invalid_argument("close groups: a feature's weights are not one per member");
      for (const float x : w) top = std::max(top, std::fabs(x));
    }
    const float step = top > 0 ? top / 127.0f : 1.0f;
    out.resize(f::pad8(out.size()), '\0');
    const std::size_t keys = out.size();
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::uint64_t h = e.features[order[i]].first;
      if (i && h == last) throw std::invalid_argument("close groups: a feature twice");
      put<std::uint64_t>(out, last = h);
    }
    const std::size_t weights = out.size();
    for (const std::size_t i : order)
      for (const float x : e.features[i].second)
        out.push_back(static_cast<char>(static_cast<std::int8_t>(std::lround(std::clamp(x / step, -127.0f, 127.0f)))));
    out.resize(f::pad8(out.size()), '\0');
    const std::uint32_t bits = f::directory_bits(order.size());
    const std::size_t dir = out.size();
    std::size_t k = 0;
    for (std::uint64_t bucket = 0; bucket <= (std::uint64_t{1} << bits); ++bucket) {
      while (k < order.size() && (e.features[order[k]].first >> (64 - bits)) < bucket) ++k;
      put<std::uint32_t>(out, static_cast<std::uint32_t>(k));
    }
    out.resize(f::pad8(out.size()), '\0');
    const std::uint32_t fbits = bits + 5;  // 32 bits a bucket of about four keys: ~12 % of absent words pass
    const std::size_t filter = out.size();
    out.resize(filter + (std::size_t{1} << fbits) / 8, '\0');
    for (const std::size_t i : order) {
      const std::uint64_t bit = e.features[i].first & ((std::uint64_t{1} << fbits) - 1);
      out[filter + bit / 8] = static_cast<char>(static_cast<unsigned char>(out[filter + bit / 8]) | (1u << (bit % 8)));
    }
    char* p = out.data() + records + g * f::kRecordBytes;
    put_at<std::uint32_t>(p, static_cast<std::uint32_t>(m));
    put_at<std::uint32_t>(p + 4, static_cast<std::uint32_t>(order.size()));
    put_at<float>(p + 8, step);
    put_at<float>(p + 12, e.params.model_weight);
    put_at<float>(p + 16, e.params.discriminator_weight);
    put_at<float>(p + 20, e.params.prior_weight);
    put_at<float>(p + 24, e.params.prior_cap);
    put_at<float>(p + 28, e.params.trigger);
    put_at<std::uint32_t>(p + 32, e.params.prior_min_bytes);
    put_at<std::uint32_t>(p + 36, e.params.min_bytes);
    for (std::size_t i = 0; i < m; ++i) {
      if (e.members[i].empty() || e.members[i].size() >= f::kCodeBytes) throw std::invalid_argument("close groups: a member code of 1 to 15 bytes");
      std::memcpy(p + 40 + i * f::kCodeBytes, e.members[i].data(), e.members[i].size());
      put_at<float>(p + 40 + max_close_members * f::kCodeBytes + i * 4, e.web_share[i]);
    }
    char* q = p + 40 + max_close_members * f::kCodeBytes + max_close_members * 4;
    put_at<std::uint64_t>(q, keys);
    put_at<std::uint64_t>(q + 8, weights);
    put_at<std::uint64_t>(q + 16, dir);
    put_at<std::uint32_t>(q + 24, bits);
    put_at<std::uint32_t>(q + 28, fbits);
    put_at<std::uint64_t>(q + 32, filter);
  }
  out.resize(f::pad8(out.size()), '\0');
  put_at<std::uint64_t>(out.data() + 16, out.size());
  put_at<std::uint64_t>(out.data() + 8, XXH3_64bits(out.data() + 16, out.size() - 16));
  return out;
}

}  // namespace v1
}  // namespace langsift
