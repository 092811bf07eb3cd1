// langsift — implementation of langsift/model.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include <sys/stat.h>

#include "langsift/model.hpp"

#include <charconv>

#include "langsift/detail/binio.hpp"
#include "langsift/detail/cpu.hpp"
#include "langsift/detail/xxhash.hpp"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace langsift {
inline namespace v1 {
namespace detail {

/// acc[i] += rows[idx[k] × n + i] for every k < count and i < n (n a multiple of 32): widening
/// byte adds. Integer adds, so every kernel gives the same sums; the AVX2 kernel is chosen at run
/// time (cpu_has_avx2), so a build for the x86-64 baseline has it too.
inline void add_rows_portable(std::uint16_t* acc, const std::uint8_t* rows, const std::uint32_t* idx, std::size_t count,
                              std::size_t n) noexcept {
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint8_t* row = rows + std::size_t{idx[k]} * n;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (std::size_t i = 0; i < n; i += 16) {
      const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
      __m128i* a0 = reinterpret_cast<__m128i*>(acc + i);
      __m128i* a1 = reinterpret_cast<__m128i*>(acc + i + 8);
      _mm_storeu_si128(a0, _mm_add_epi16(_mm_loadu_si128(a0), _mm_unpacklo_epi8(w, zero)));
      _mm_storeu_si128(a1, _mm_add_epi16(_mm_loadu_si128(a1), _mm_unpackhi_epi8(w, zero)));
    }
#else
    for (std::size_t i = 0; i < n; ++i) acc[i] = static_cast<std::uint16_t>(acc[i] + row[i]);
#endif
  }
}

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))

/// add_rows_portable with AVX2 instructions (16 lanes of u16 per add); only called when the CPU
/// has AVX2.
__attribute__((target("avx2"))) inline void add_rows_avx2(std::uint16_t* acc, const std::uint8_t* rows,
                                                          const std::uint32_t* idx, std::size_t count,
                                                          std::size_t n) noexcept {
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint8_t* row = rows + std::size_t{idx[k]} * n;
    for (std::size_t i = 0; i < n; i += 16) {
      const __m256i w = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i)));
      __m256i* a = reinterpret_cast<__m256i*>(acc + i);
      _mm256_storeu_si256(a, _mm256_add_epi16(_mm256_loadu_si256(a), w));
    }
  }
}

/// add_rows_portable with the best kernel of the CPU.
inline void add_rows(std::uint16_t* acc, const std::uint8_t* rows, const std::uint32_t* idx, std::size_t count,
                     std::size_t n) noexcept {
  if (cpu_has_avx2()) add_rows_avx2(acc, rows, idx, count, n);
  else add_rows_portable(acc, rows, idx, count, n);
}
#else
/// add_rows_portable: the only kernel here.
inline void add_rows(std::uint16_t* acc, const std::uint8_t* rows, const std::uint32_t* idx, std::size_t count,
                     std::size_t n) noexcept {
  add_rows_portable(acc, rows, idx, count, n);
}
#endif

}  // namespace detail

LANGSIFT_INLINE std::uint32_t group_table::find(const detail::slot_address& a) const noexcept {
  const std::uint32_t* s1 = slots + 4 * static_cast<std::size_t>(a.b1);
  const std::uint32_t* s2 = slots + 4 * static_cast<std::size_t>(a.b2);
  const unsigned shift = 32 - fp_bits;
#if defined(__SSE2__)
  // The last match in the first bucket, else the first in the second (as the loops below).
  const __m128i fp = _mm_set1_epi32(static_cast<int>(a.fp)), count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const auto match = [&](const std::uint32_t* b) {
    const __m128i x = _mm_srl_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), count);
    return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, fp))));
  };
  // Both buckets are fetched anyway; selects instead of branches (which bucket holds a feature,
  // and whether any does, is a coin toss the branch predictor loses).
  const unsigned m1 = match(s1), m2 = match(s2);
  const std::uint32_t v1 = s1[31 - __builtin_clz(m1 | 1u)], v2 = s2[__builtin_ctz(m2 | 8u)];
  const std::uint32_t use1 = 0u - static_cast<std::uint32_t>(m1 != 0), use2 = 0u - static_cast<std::uint32_t>(m2 != 0);
  return (v1 & use1) | (v2 & use2 & ~use1);  // masks: the compiler kept a branch for "?:"
#else
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (s1[i] >> shift) == a.fp ? s1[i] : v;
  for (int i = 0; i < 4; ++i) v = (!v && (s2[i] >> shift) == a.fp) ? s2[i] : v;
  return v;
#endif
}

LANGSIFT_INLINE void group_table::add_all(const std::uint32_t* v, std::size_t n, std::uint32_t* scratch, std::uint16_t* acc) const noexcept {
  const unsigned payload_bits = 30 - fp_bits;
  const std::uint32_t payload_mask = (1u << payload_bits) - 1;
  std::uint32_t* const by_type[4] = {scratch, scratch + n, scratch + 2 * n, scratch + 3 * n};
  std::size_t count[4] = {};
  for (std::size_t i = 0; i < n; ++i) {  // without branches: every list written, one advances
    const std::uint32_t type = (v[i] >> payload_bits) & 3u, payload = v[i] & payload_mask;
    for (std::uint32_t t = 0; t < 4; ++t) {
      by_type[t][count[t]] = payload;
      count[t] += t == type;
    }
  }
  const unsigned qb = rec->inline_q_bits;
  const std::uint32_t qmask = (1u << qb) - 1;
  for (std::size_t i = 0; i < count[0]; ++i) acc[by_type[0][i] >> qb] += static_cast<std::uint16_t>(by_type[0][i] & qmask);
  auto add_lists = [&](auto entry) LANGSIFT_ALWAYS_INLINE {  // the entry width tested once, not per record
    using Entry = decltype(entry);
    for (std::size_t i = 0; i < count[1]; ++i) add_record<kListEntries, Entry>(lists, by_type[1][i], acc);
    for (std::size_t i = 0; i < count[3]; ++i) add_record<kShortListEntries, Entry>(short_lists, by_type[3][i], acc);
  };
  if (rec->entry_bytes == 2) add_lists(std::uint16_t{});
  else add_lists(std::uint32_t{});
  if (count[2]) detail::add_rows(acc, rows, by_type[2], count[2], rec->size_pad);
}

LANGSIFT_INLINE status model::load_in_place(std::string_view bytes, model& out, bool verify_checksum,
                                    bool verify_structure) noexcept {
  model m;
  m.bytes_ = bytes;
  status s = m.parse(verify_checksum, verify_structure);
  if (s == status::ok) out = std::move(m);
  return s;
}

LANGSIFT_INLINE status model::load_view(std::string_view bytes, model& out, std::string* message,
                                        bool verify_structure) noexcept {
  const status s = load_in_place(bytes, out, /*verify_checksum=*/true, verify_structure);
  if (s != status::ok) set_load_message(s, "model bytes", message);
  return s;
}

LANGSIFT_INLINE status model::load_copy(std::string_view bytes, model& out, std::string* message,
                                        std::size_t max_bytes) noexcept {
  if (max_bytes && bytes.size() > max_bytes) {
    set_over_cap_message(bytes.size(), max_bytes, "model bytes", message);
    return status::too_large;
  }
  status s;
  try {
    s = adopt(std::make_shared<const std::string>(bytes), out);
  } catch (const std::length_error&) {  // a length no string can hold, as (size_t)-1 from the C ABI
    s = status::out_of_memory;
  } catch (const std::bad_alloc&) {
    s = status::out_of_memory;
  }
  if (s != status::ok) set_load_message(s, "model bytes", message);
  return s;
}

LANGSIFT_INLINE status model::adopt(std::shared_ptr<const std::string> owned, model& out) noexcept {
  model m;
  m.bytes_ = *owned;
  m.owned_ = std::move(owned);
  const status s = m.parse(/*verify_checksum=*/true, /*verify_structure=*/true);
  if (s == status::ok) out = std::move(m);
  return s;
}

LANGSIFT_INLINE void model::set_load_message(status s, std::string_view what, std::string* message) noexcept {
  using detail::binio::set_message;
  switch (s) {
    case status::ok: break;
    case status::model_version: {
      char lo[16], hi[16];
      const auto a = std::to_chars(lo, lo + sizeof lo, kOldestModelFormatVersion);
      const auto b = std::to_chars(hi, hi + sizeof hi, kModelFormatVersion);
      set_message(message, {what, ": model format version is not ", std::string_view(lo, static_cast<std::size_t>(a.ptr - lo)),
                            " to ", std::string_view(hi, static_cast<std::size_t>(b.ptr - hi))});
      break;
    }
    case status::corrupt_model:
      set_message(message, {what, ": not a langsift model, or truncated or corrupt (checksum or structure)"});
      break;
    case status::invalid_argument: set_message(message, {what, ": not 8-byte aligned"}); break;
    default: set_message(message, {what, ": ", status_name(s)});
  }
}

LANGSIFT_INLINE void model::set_over_cap_message(std::uint64_t size, std::size_t max_bytes, std::string_view what,
                                                  std::string* message) noexcept {
  char a[24], b[24];
  const auto x = std::to_chars(a, a + sizeof a, size);
  const auto y = std::to_chars(b, b + sizeof b, max_bytes);
  detail::binio::set_message(message, {what, ": the model has ", std::string_view(a, static_cast<std::size_t>(x.ptr - a)),
                                       " bytes, over the cap of ", std::string_view(b, static_cast<std::size_t>(y.ptr - b)),
                                       " (refused, not read)"});
}

LANGSIFT_INLINE status model::load_file(const std::string& path, model& out, std::string* message,
                                        std::size_t max_bytes) noexcept {
  std::size_t limit = std::size_t{1} << 32;  // no model is 4 GiB
  if (max_bytes) {
    // Refused before it is read: the size on disk is what the loaded model keeps in memory.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
      set_over_cap_message(static_cast<std::uint64_t>(st.st_size), max_bytes, path, message);
      return status::too_large;
    }
    limit = std::min(limit, max_bytes);
  }
  // Read into the buffer the model keeps: no second copy (peak memory = the model's size).
  std::shared_ptr<std::string> data;
  try {
    data = std::make_shared<std::string>();
  } catch (const std::bad_alloc&) {
    set_load_message(status::out_of_memory, path, message);
    return status::out_of_memory;
  }
  status s = detail::binio::read_file(path, *data, limit, "", message,
                                       std::string_view(kModelMagic, sizeof kModelMagic));
  if (s != status::ok) return s;
  s = adopt(std::move(data), out);
  if (s != status::ok) set_load_message(s, path, message);
  return s;
}

namespace detail {

/// The header and section table of a model file, checked (model::parse_header).
struct model_sections {
  const unsigned char* b = nullptr;
  std::size_t n = 0;
  std::uint32_t version = 0;
  std::uint32_t count = 0;

  /// The section called `name`: its bytes and size, or null when it is missing or lies outside the
  /// file or is not 8-byte aligned.
  const unsigned char* find(const char (&name)[5], std::size_t& size) const noexcept {
    const std::uint32_t tag = model_tag(name);
    for (std::uint32_t i = 0; i < count; ++i) {
      const unsigned char* e = b + 64 + std::size_t{i} * 24;
      if (binio::get<std::uint32_t>(e) != tag) continue;
      const std::uint64_t off = binio::get<std::uint64_t>(e + 8), sz = binio::get<std::uint64_t>(e + 16);
      if (off % 8 || !binio::fits(n, off, sz)) return nullptr;
      size = static_cast<std::size_t>(sz);
      return b + off;
    }
    return nullptr;
  }
};

}  // namespace detail

namespace detail {

/// The probability calibrations fitted for the built-in models (models/README.md, "Probability
/// calibration"), by the checksum of their file: the same file loaded from disk gets them too.
struct fitted_probability_calibration {
  std::uint64_t checksum;
  probability_calibration c;
};
inline constexpr fitted_probability_calibration kFittedProbabilityCalibrations[] = {
    {0x50eede133542d3c4ull, {0.1119f, 0.00497f}},  // default.lsm
    {0x6db886b0037471e6ull, {0.1136f, 0.005765f}},  // wide.lsm
};
/// A model without a fit of its own gets the default model's calibration (the wide model's fit,
/// with the same training recipe on 231 languages, came out within 1 % of it).
inline probability_calibration probability_calibration_for(std::uint64_t checksum) noexcept {
  for (const auto& f : kFittedProbabilityCalibrations)
    if (f.checksum == checksum) return f.c;
  return kFittedProbabilityCalibrations[0].c;
}

/// The wide model's 128 languages whose base code default.lsm lacks (a test checks the list).
inline constexpr std::string_view kWideRareLanguages[] = {
    "acu", "agr", "ahr", "ake", "amo", "amu", "ba", "bdv", "bem", "ber", "bfz", "bgc", "bgg", "bhd", "bht", "bo",
    "bpx", "br", "bsj", "bsn", "bwo", "cak", "ch", "chq", "chr", "cjp", "ckb", "cni", "cop", "csy", "dao", "dif",
    "din", "djk", "dop", "dov", "dso", "dv", "dz", "ee", "ena", "ff", "fj", "fo", "gaq", "gbi", "gmv", "gof", "grc",
    "gsw", "gux", "gv", "hlt", "ia", "isn", "jac", "jbo", "jid", "jiv", "jni", "juy", "kab", "kbh", "kiz", "kos",
    "kr", "kxv", "lbm", "lfn", "ln", "luo", "mam", "mni", "nag", "nce", "ndg", "nds", "nhg", "nlx", "nr", "nso",
    "nus", "oj", "om", "peg", "pon", "pot", "poy", "ppk", "qu", "quc", "reg", "rmn", "rmy", "row", "rw", "sa", "sbk",
    "sbs", "sby", "sch", "shi", "ss", "syr", "tdx", "tgj", "ti", "tk", "tkr", "to", "toki", "tt", "ttq", "tvt", "tw",
    "ty", "ug", "ulk", "unx", "usp", "ve", "wal", "wbi", "wo", "xnj", "yao", "yom", "zga",
};

/// The language priors given to the built-in models (models/README.md, "Language priors"), by
/// the checksum of their file: log-odds and the languages that get them.
struct fitted_language_prior {
  std::uint64_t checksum;
  float log_odds;
  std::span<const std::string_view> codes;
};
inline constexpr fitted_language_prior kFittedLanguagePriors[] = {
    {0x6db886b0037471e6ull, -1.75f, kWideRareLanguages},  // wide.lsm
};

}  // namespace detail

LANGSIFT_INLINE status model::set_language_prior(std::size_t i, float log_odds) noexcept {
  if (i >= langs_.size() || !(log_odds <= 0.0f) || !(log_odds >= -50.0f)) return status::invalid_argument;
  const language_record& L = langs_[i];
  try {
    if (group_priors_.size() != groups_.size()) group_priors_.assign(groups_.size(), {});
    if (group_priors_[L.group].empty()) group_priors_[L.group].assign(groups_[L.group].size_pad(), 0.0f);
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
  group_priors_[L.group][L.local] = log_odds;
  return status::ok;
}

/// Gives the languages of a built-in model (by its checksum) their fitted priors.
LANGSIFT_INLINE status model::apply_fitted_priors() noexcept {
  group_priors_.clear();
  for (const auto& f : detail::kFittedLanguagePriors) {
    if (f.checksum != checksum_) continue;
    for (const std::string_view code : f.codes)
      if (const int l = find_language(code); l >= 0)
        if (const status s = set_language_prior(static_cast<std::size_t>(l), f.log_odds); s != status::ok) return s;
  }
  return status::ok;
}

LANGSIFT_INLINE status model::set_probability_calibration(const langsift::probability_calibration& c) noexcept {
  if (!(c.scale > 0) || !std::isfinite(c.scale) || !(c.rest >= 0) || !std::isfinite(c.rest)) return status::invalid_argument;
  prob_ = c;
  return status::ok;
}

LANGSIFT_INLINE status model::set_close_groups(std::shared_ptr<const langsift::close_groups> groups,
                                               std::string* message) noexcept {
  using detail::binio::set_message;
  if (!groups || groups->empty()) {
    close_.reset();
    close_of_.clear();
    close_members_.clear();
    return status::ok;
  }
  try {
    std::vector<std::int16_t> of(langs_.size(), -1);
    std::vector<std::vector<std::uint16_t>> members(groups->group_count());
    for (std::size_t g = 0; g < groups->group_count(); ++g) {
      const close_group_info info = groups->group(g);
      for (const std::string_view code : info.members) {
        const int l = find_language(code);
        if (l < 0) {
          set_message(message, {"close groups: ", code, " is not a language of the model"});
          return status::invalid_argument;
        }
        if (of[static_cast<std::size_t>(l)] >= 0) {
          set_message(message, {"close groups: ", code, " is in two groups"});
          return status::invalid_argument;
        }
        if (!members[g].empty() && langs_[static_cast<std::size_t>(l)].group != langs_[members[g][0]].group) {
          set_message(message, {"close groups: ", code, " is written in another script than ", codes_[members[g][0]]});
          return status::invalid_argument;
        }
        of[static_cast<std::size_t>(l)] = static_cast<std::int16_t>(g);
        members[g].push_back(static_cast<std::uint16_t>(l));
      }
    }
    close_of_ = std::move(of);
    close_members_ = std::move(members);
    close_ = std::move(groups);
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
  return status::ok;
}

// Reading a model file: the header and section table, then each section in the order the later
// ones depend on (PARM before LANG before GRUP/TABL; RANK last). Every size, offset and count is
// checked before use; `verify` (structure) also checks every table entry.
LANGSIFT_INLINE status model::parse(bool verify_checksum, bool verify) noexcept {
  detail::model_sections sec;
  if (const status s = parse_header(verify_checksum, sec); s != status::ok) return s;
  std::size_t sz = 0;
  const unsigned char* p = sec.find("INFO", sz);
  if (!p) return status::corrupt_model;
  info_ = std::string_view(reinterpret_cast<const char*>(p), sz);
  if (const status s = parse_params(sec); s != status::ok) return s;
  prob_ = detail::probability_calibration_for(checksum_);
  if (const status s = parse_languages(sec); s != status::ok) return s;
  try {
    if (const status s = parse_groups(sec, verify); s != status::ok) return s;
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
  if (const status s = apply_fitted_priors(); s != status::ok) return s;
  return parse_rank(sec, verify);
}

LANGSIFT_INLINE status model::parse_header(bool verify_checksum, detail::model_sections& sec) noexcept {
  if (const status h = detail::binio::host_order(); h != status::ok) return h;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data());
  const std::size_t n = bytes_.size();
  if (n < 64 || std::memcmp(b, kModelMagic, 8) != 0) return status::corrupt_model;
  const std::uint32_t version = detail::binio::get<std::uint32_t>(b + 8);
  if (version < kOldestModelFormatVersion || version > kModelFormatVersion) return status::model_version;
  if (detail::binio::get<std::uint32_t>(b + 12) != 64 || detail::binio::get<std::uint64_t>(b + 16) != n) return status::corrupt_model;
  checksum_ = detail::binio::get<std::uint64_t>(b + 24);
  hashing_ = hashing_of_version(version);
  for (std::size_t i = 36; i < 64; ++i)  // flags and padding: reserved, zero (the checksum starts at 64)
    if (b[i]) return status::corrupt_model;
  if (verify_checksum && XXH3_64bits(b + 64, n - 64) != checksum_) return status::corrupt_model;
  const std::uint32_t nsec = detail::binio::get<std::uint32_t>(b + 32);
  if (nsec > 64 || 64 + std::size_t{nsec} * 24 > n) return status::corrupt_model;
  if (reinterpret_cast<std::uintptr_t>(b) % 8 != 0) return status::invalid_argument;  // needs 8-byte alignment
  sec = {b, n, version, nsec};
  return status::ok;
}

LANGSIFT_INLINE status model::parse_params(const detail::model_sections& sec) noexcept {
  std::size_t sz = 0;
  const unsigned char* p = sec.find("PARM", sz);
  if (!p || sz != sizeof(model_params)) return status::corrupt_model;
  std::memcpy(&params_, p, sizeof params_);
  const model_params& P = params_;
  if (P.min_order < 1 || P.max_order > kMaxNgramOrder || P.min_order > P.max_order) return status::corrupt_model;
  if (P.fp_bits < 8 || P.fp_bits > 20) return status::corrupt_model;
  if (!(P.weight_step > 0) || P.weight_step > 1e6f) return status::corrupt_model;
  if (P.language_count == 0 || P.language_count > 65535) return status::corrupt_model;
  if (P.group_count == 0 || P.group_count > P.language_count) return status::corrupt_model;
  for (float w : P.order_weight)
    if (!(w >= 0) || w > 1e6f) return status::corrupt_model;
  if (!(P.calibration_a > 0) || P.calibration_a > 1e3f || !(std::fabs(P.calibration_b) < 1e3f)) return status::corrupt_model;
  return status::ok;
}

LANGSIFT_INLINE status model::parse_languages(const detail::model_sections& sec) noexcept {
  const model_params& P = params_;
  std::size_t sz = 0;
  const unsigned char* p = sec.find("LANG", sz);
  if (!p || sz != std::size_t{P.language_count} * sizeof(language_record)) return status::corrupt_model;
  langs_ = {reinterpret_cast<const language_record*>(p), P.language_count};
  for (const auto& L : langs_) {
    if (L.code[0] == 0 || L.code[sizeof L.code - 1] != 0) return status::corrupt_model;
    if (L.script >= script_count || L.group >= P.group_count) return status::corrupt_model;
    for (float f : L.floor)
      if (!(f <= 0) || f < -1e9f) return status::corrupt_model;
    if (!(L.expected_fit >= 0) || L.expected_fit > 1e9f) return status::corrupt_model;
  }
  return status::ok;
}

LANGSIFT_INLINE status model::parse_groups(const detail::model_sections& sec, bool verify) {
  const model_params& P = params_;
  std::size_t gsz = 0, tsz = 0;
  const unsigned char* gp = sec.find("GRUP", gsz);
  const unsigned char* tp = sec.find("TABL", tsz);
  if (!gp || !tp || gsz != std::size_t{P.group_count} * sizeof(group_record)) return status::corrupt_model;
  // The languages' codes, and for each the first language with the same base code (zh, zh-Hant).
  codes_.clear();
  for (const auto& L : langs_) codes_.emplace_back(L.code, strnlen(L.code, sizeof L.code));
  base_ids_.assign(codes_.size(), 0);
  for (std::size_t i = 0; i < codes_.size(); ++i) {
    const std::string_view base = codes_[i].substr(0, codes_[i].find('-'));
    base_ids_[i] = static_cast<std::uint16_t>(i);
    for (std::size_t j = 0; j < i; ++j)
      if (codes_[j].substr(0, codes_[j].find('-')) == base) {
        base_ids_[i] = base_ids_[j];
        break;
      }
  }
  zh_ = find_language("zh");
  zh_hant_ = find_language("zh-Hant");
  groups_.assign(P.group_count, group_table{});
  script_group_.assign(script_count, -1);
  std::vector<std::uint8_t> seen(P.language_count, 0);
  for (std::uint32_t gi = 0; gi < P.group_count; ++gi) {
    const auto* rec = reinterpret_cast<const group_record*>(gp + std::size_t{gi} * sizeof(group_record));
    if (const status s = parse_group(gi, rec, tp, tsz, sec.version, verify, seen); s != status::ok) return s;
  }
  for (std::uint8_t x : seen)
    if (!x) return status::corrupt_model;  // every language in exactly one group
  group_floors_.assign(P.group_count, {});
  for (std::uint32_t gi = 0; gi < P.group_count; ++gi) {
    const group_table& g = groups_[gi];
    auto& f = group_floors_[gi];
    f.assign(std::size_t{feature_kind_count} * g.size_pad(), 0.0f);
    for (std::uint32_t i = 0; i < g.size(); ++i)
      for (unsigned k = 0; k < feature_kind_count; ++k) f[k * g.size_pad() + i] = langs_[g.langs[i]].floor[k];
  }
  for (const auto& L : langs_)
    if (static_cast<int>(L.group) != script_group_[L.script]) return status::corrupt_model;
  return status::ok;
}

LANGSIFT_INLINE status model::parse_group(std::uint32_t gi, const group_record* rec, const unsigned char* tp,
                                          std::size_t tsz, std::uint32_t version, bool verify,
                                          std::vector<std::uint8_t>& seen) noexcept {
  const model_params& P = params_;
  const unsigned shift = 32 - P.fp_bits, payload_bits = shift - 2;
  // Every array must lie inside TABL, aligned for its type.
  auto array = [&](std::uint64_t off, std::uint64_t count, std::uint64_t elem, std::uint64_t align) -> const unsigned char* {
    if (off % align || off > tsz || count > (tsz - off) / elem) return nullptr;
    return tp + off;
  };
  if (rec->script >= script_count || script_group_[rec->script] >= 0) return status::corrupt_model;
  if (rec->size == 0 || rec->size > P.language_count || rec->size_pad < rec->size || rec->size_pad % 32 ||
      rec->size_pad > 65536)
    return status::corrupt_model;
  if (rec->entry_bytes != 2 && rec->entry_bytes != 4) return status::corrupt_model;
  if (rec->entry_bytes == 2 && rec->size > 256) return status::corrupt_model;
  if (rec->inline_q_bits < 1 || rec->inline_q_bits > 8 || rec->lang_bits + rec->inline_q_bits > payload_bits ||
      (std::size_t{1} << rec->lang_bits) < rec->size)
    return status::corrupt_model;
  if (rec->size_pad > 512 || rec->bucket_count == 0 || rec->list_count >= (1u << payload_bits) ||
      rec->short_list_count >= (1u << payload_bits) || rec->row_count >= (1u << payload_bits))
    return status::corrupt_model;
  group_table& g = groups_[gi];
  g.rec = rec;
  g.fp_bits = P.fp_bits;
  // Format 1 had no per-group kinds: every group holds the kinds weighted in PARM.
  const std::uint32_t kinds = version >= 2 ? rec->kinds : weighted_kinds(P.order_weight);
  if (kinds == 0 || (kinds & ~0x7Eu)) return status::corrupt_model;
  g.features = features_of_kinds(kinds);
  g.features.hashing = hashing_;
  g.langs = reinterpret_cast<const std::uint16_t*>(array(rec->langs_offset, rec->size, 2, 2));
  g.slots = reinterpret_cast<const std::uint32_t*>(array(rec->slots_offset, std::uint64_t{rec->bucket_count} * 4, 4, 4));
  g.lists = array(rec->lists_offset, std::uint64_t{rec->list_count} * group_table::kListEntries, rec->entry_bytes,
                  rec->entry_bytes);
  g.short_lists = array(rec->short_lists_offset, std::uint64_t{rec->short_list_count} * group_table::kShortListEntries,
                        rec->entry_bytes, rec->entry_bytes);
  g.rows = array(rec->rows_offset, std::uint64_t{rec->row_count} * rec->size_pad, 1, 1);
  if (!g.langs || !g.slots || !g.lists || !g.short_lists || !g.rows) return status::corrupt_model;
  for (std::uint32_t i = 0; i < rec->size; ++i) {
    const std::uint16_t l = g.langs[i];
    if (l >= P.language_count || seen[l] || langs_[l].group != gi || langs_[l].local != i ||
        (i && g.langs[i - 1] >= l))
      return status::corrupt_model;
    seen[l] = 1;
  }
  if (verify && !group_entries_valid(g, payload_bits)) return status::corrupt_model;
  script_group_[rec->script] = static_cast<int>(gi);
  return status::ok;
}

LANGSIFT_INLINE bool model::group_entries_valid(const group_table& g, unsigned payload_bits) noexcept {
  const group_record* rec = g.rec;
  // List entries name languages of the group; a zero entry ends a list, and the rest of its
  // record is zero too (detection adds every entry of a record, without testing for the end).
  for (const auto& [base, count, cap] :
       {std::tuple{g.lists, std::size_t{rec->list_count} * group_table::kListEntries, std::size_t{group_table::kListEntries}},
        std::tuple{g.short_lists, std::size_t{rec->short_list_count} * group_table::kShortListEntries,
                   std::size_t{group_table::kShortListEntries}}}) {
    bool ended = false;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t x = rec->entry_bytes == 2 ? reinterpret_cast<const std::uint16_t*>(base)[i]
                                                    : reinterpret_cast<const std::uint32_t*>(base)[i];
      if (i % cap == 0) ended = false;
      if ((x >> 8) >= rec->size || (ended && x)) return false;
      ended = ended || !x;
    }
  }
  // Padding lanes of the rows are zero, so no weight lands beyond the group's languages.
  for (std::uint32_t r = 0; r < rec->row_count; ++r)
    for (std::uint32_t i = rec->size; i < rec->size_pad; ++i)
      if (g.rows[std::size_t{r} * rec->size_pad + i]) return false;
  // Slots: each payload names a language (inline), a list, a row or a short list that exists.
  for (std::size_t i = 0; i < std::size_t{rec->bucket_count} * 4; ++i) {
    const std::uint32_t v = g.slots[i];
    if (!v) continue;
    const std::uint32_t type = (v >> payload_bits) & 3u, payload = v & ((1u << payload_bits) - 1);
    if (type == 0 ? (payload >> rec->inline_q_bits) >= rec->size
                  : type == 1 ? payload >= rec->list_count
                              : type == 2 ? payload >= rec->row_count : payload >= rec->short_list_count)
      return false;
  }
  return true;
}

// Rank-order profiles: u32 key count, u32 posting count, u64 keys (ascending), u32 offsets
// [key count + 1], then (u16 language, u16 rank) postings.
LANGSIFT_INLINE status model::parse_rank(const detail::model_sections& sec, bool verify) noexcept {
  const model_params& P = params_;
  std::size_t sz = 0;
  const unsigned char* p = sec.find("RANK", sz);
  if (!p || sz < 8) return status::corrupt_model;
  const std::uint32_t nk = detail::binio::get<std::uint32_t>(p), np = detail::binio::get<std::uint32_t>(p + 4);
  const std::size_t need = 8 + std::size_t{nk} * 8 + (std::size_t{nk} + 1) * 4 + std::size_t{np} * 4;
  if (nk > sz / 8 || np > sz / 4 || need > sz) return status::corrupt_model;
  rank_keys_ = reinterpret_cast<const std::uint64_t*>(p + 8);
  rank_key_count_ = nk;
  rank_offsets_ = reinterpret_cast<const std::uint32_t*>(p + 8 + std::size_t{nk} * 8);
  rank_postings_ = reinterpret_cast<const posting*>(p + 8 + std::size_t{nk} * 8 + (std::size_t{nk} + 1) * 4);
  if (rank_offsets_[0] != 0 || rank_offsets_[nk] != np) return status::corrupt_model;
  for (std::uint32_t i = 0; verify && i < nk; ++i)
    if ((i && rank_keys_[i - 1] >= rank_keys_[i]) || rank_offsets_[i] > rank_offsets_[i + 1]) return status::corrupt_model;
  for (std::uint32_t i = 0; verify && i < np; ++i)
    if (rank_postings_[i].lang >= P.language_count || rank_postings_[i].q >= P.rank_profile_size)
      return status::corrupt_model;
  return status::ok;
}

}  // namespace v1
}  // namespace langsift

