// Conversion to UTF-8: own fast paths for UTF-8, UTF-16 and single-byte tables; ICU for the rest.
#include <cstdint>
#include <cstring>
#include <new>

#include "langsift/detail/cpu.hpp"
#if defined(LANGSIFT_AVX2_DISPATCH)
#include <immintrin.h>
#endif

#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucnv_err.h>

#include "internal.hpp"
#include "langsift/encoding.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

namespace {

#if defined(LANGSIFT_AVX2_DISPATCH)

/// The start of the character that [0, e) of a well-formed prefix ends inside, or e when it
/// ends at a character boundary.
std::size_t boundary_before(const unsigned char* p, std::size_t e) noexcept {
  if (e == 0) return 0;
  const std::size_t j = utf8_cut_back(reinterpret_cast<const char*>(p), e - 1, e > 4 ? e - 4 : 0);  // its lead
  if (p[j] < 0xC0) return e;
  const std::size_t len = p[j] >= 0xF0 ? 4 : p[j] >= 0xE0 ? 3 : 2;
  return j + len > e ? j : e;
}

/// Keiser and Lemire's UTF-8 validation ("Validating UTF-8 in less than one instruction per byte",
/// 2021; the lookup algorithm of simdjson and simdutf), 32 bytes at a time: the bytes before
/// and at each position index three 16-entry tables whose AND is the errors a pair of bytes can
/// show, and the third and fourth bytes of 3- and 4-byte sequences are checked by their distance
/// to a lead.
struct avx2_utf8 {
  static constexpr std::uint8_t kTooShort = 1 << 0, kTooLong = 1 << 1, kOverlong3 = 1 << 2, kTooLarge = 1 << 3,
                                kSurrogate = 1 << 4, kOverlong2 = 1 << 5, kTooLarge1000 = 1 << 6,
                                kOverlong4 = 1 << 6, kTwoConts = 1 << 7;
  static constexpr std::uint8_t kCarry = kTooShort | kTooLong | kTwoConts;

  /// A 16-entry table in both 128-bit lanes (what _mm256_shuffle_epi8 looks up per lane).
  template <class... T>
  __attribute__((target("avx2"))) static __m256i table(T... t) noexcept {
    static_assert(sizeof...(T) == 16);
    return _mm256_broadcastsi128_si256(_mm_setr_epi8(static_cast<char>(t)...));
  }

  /// The bytes of `input` shifted by n with the last n of `prev` in front.
  template <int N>
  __attribute__((target("avx2"))) static __m256i prev_bytes(__m256i input, __m256i prev) noexcept {
    return _mm256_alignr_epi8(input, _mm256_permute2x128_si256(prev, input, 0x21), 16 - N);
  }

  __attribute__((target("avx2"))) static __m256i high_nibbles(__m256i x) noexcept {
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0F));
  }

  /// The errors of the 32 bytes of `input` after `prev` (non-zero lanes: an error there).
  __attribute__((target("avx2"))) static __m256i errors(__m256i input, __m256i prev) noexcept {
    const __m256i prev1 = prev_bytes<1>(input, prev);
    const __m256i byte_1_high = _mm256_shuffle_epi8(
        table(kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTwoConts, kTwoConts,
              kTwoConts, kTwoConts, kTooShort | kOverlong2, kTooShort, kTooShort | kOverlong3 | kSurrogate,
              kTooShort | kTooLarge | kTooLarge1000 | kOverlong4),
        high_nibbles(prev1));
    const __m256i byte_1_low = _mm256_shuffle_epi8(
        table(kCarry | kOverlong3 | kOverlong2 | kOverlong4, kCarry | kOverlong2, kCarry, kCarry, kCarry | kTooLarge,
              kCarry | kTooLarge | kTooLarge1000, kCarry | kTooLarge | kTooLarge1000, kCarry | kTooLarge | kTooLarge1000,
              kCarry | kTooLarge | kTooLarge1000, kCarry | kTooLarge | kTooLarge1000, kCarry | kTooLarge | kTooLarge1000,
              kCarry | kTooLarge | kTooLarge1000, kCarry | kTooLarge | kTooLarge1000,
              kCarry | kTooLarge | kTooLarge1000 | kSurrogate, kCarry | kTooLarge | kTooLarge1000,
              kCarry | kTooLarge | kTooLarge1000),
        _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)));
    const __m256i byte_2_high = _mm256_shuffle_epi8(
        table(kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
              kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge1000 | kOverlong4,
              kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge,
              kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge,
              kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge, kTooShort, kTooShort, kTooShort, kTooShort),
        high_nibbles(input));
    const __m256i special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);
    // Third and fourth bytes: 2 after a lead of 111_____, 3 after one of 1111____ (only those
    // have the high bit after the saturating subtraction).
    const __m256i third = _mm256_subs_epu8(prev_bytes<2>(input, prev), _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev_bytes<3>(input, prev), _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
    const __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
    return _mm256_xor_si256(must23, special);
  }

  /// Whether the 32 bytes end inside a sequence (a lead in the last three bytes that needs more).
  __attribute__((target("avx2"))) static bool ends_incomplete(__m256i input) noexcept {
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1),
                                         static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
    const __m256i over = _mm256_subs_epu8(input, max);
    return !_mm256_testz_si256(over, over);
  }
};

/// scan_utf8's counts over the longest well-formed prefix of p[0, n) that the 32-byte blocks
/// reach, up to a character boundary: returns that prefix's length (0 when the first block has
/// an error); `s` receives its counts (every lead byte starts a valid sequence there).
__attribute__((target("avx2"))) std::size_t scan_valid_prefix_avx2(const unsigned char* p, std::size_t n,
                                                                   utf8_stats& s) noexcept {
  const std::size_t m = n & ~std::size_t{31};
  __m256i prev = _mm256_setzero_si256();
  bool prev_incomplete = false;
  std::size_t e = 0, nonascii = 0, leads = 0, long_leads = 0;
  const __m256i c0 = _mm256_set1_epi8(static_cast<char>(0xBF)), e0 = _mm256_set1_epi8(static_cast<char>(0xDF));
  for (; e < m; e += 32) {
    const __m256i input = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + e));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(input));
    if (high == 0) {  // ASCII: an error only if a sequence was left open before it
      if (prev_incomplete) break;
    } else {
      const __m256i err = avx2_utf8::errors(input, prev);
      if (!_mm256_testz_si256(err, err)) break;
      prev_incomplete = avx2_utf8::ends_incomplete(input);
      // Bytes >= 0xC0 (leads) and >= 0xE0 (3- and 4-byte leads): signed, above 0xBF / 0xDF and negative.
      nonascii += static_cast<std::size_t>(__builtin_popcount(high));
      leads += static_cast<std::size_t>(
          __builtin_popcount(high & static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(input, c0)))));
      long_leads += static_cast<std::size_t>(
          __builtin_popcount(high & static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(input, e0)))));
    }
    prev = input;
  }
  const std::size_t k = boundary_before(p, e);
  for (std::size_t x = k; x < e; ++x) {  // the open sequence's bytes were counted: take them back
    nonascii -= p[x] >= 0x80;
    leads -= p[x] >= 0xC0;
    long_leads -= p[x] >= 0xE0;
  }
  s.nonascii_bytes = nonascii;
  s.multibyte = leads;
  s.long_sequences = long_leads;
  return k;
}
#endif

}  // namespace

utf8_stats scan_utf8_bytewise(const unsigned char* p, std::size_t n, std::size_t i, utf8_stats s) noexcept {
  while (i < n) {
    i += ascii_prefix_length(p + i, n - i);
    if (i >= n) break;
    utf8_step st = utf8_decode_step(p + i, n - i);
    if (st.kind == utf8_step_kind::incomplete) {
      s.incomplete_tail = true;
      s.nonascii_bytes += n - i;
      break;
    }
    s.nonascii_bytes += st.length;
    if (st.kind == utf8_step_kind::valid) {
      ++s.multibyte;
      if (st.length >= 3) ++s.long_sequences;
    } else {
      ++s.invalid;
      // Clearly not UTF-8: every decision made from these counts is settled; stop early.
      if (s.invalid >= 64 && s.invalid * 2 > s.multibyte) break;
    }
    i += st.length;
  }
  return s;
}

utf8_stats scan_utf8(const unsigned char* p, std::size_t n) noexcept {
  utf8_stats s;
  std::size_t i = 0;
#if defined(LANGSIFT_AVX2_DISPATCH)
  // Well-formed text (most of the web) is validated and counted 32 bytes at a time; from the first
  // block with an error (or the last, partial one) on, byte by byte.
  if (n >= 64 && cpu_has_avx2()) i = scan_valid_prefix_avx2(p, n, s);
#endif
  return scan_utf8_bytewise(p, n, i, s);
}

}  // namespace detail

using namespace detail;

namespace {

// Counts the input bytes ICU hands to the error callback, and writes U+FFFD.
struct icu_callback_state {
  std::size_t replaced = 0;
};

void U_CALLCONV count_and_substitute(const void* context, UConverterToUnicodeArgs* args,
                                     const char* /*codeUnits*/, int32_t length,
                                     UConverterCallbackReason reason, UErrorCode* err) {
  if (reason > UCNV_IRREGULAR) return;  // reset/close/clone: nothing to do
  auto* st = static_cast<icu_callback_state*>(const_cast<void*>(context));
  st->replaced += static_cast<std::size_t>(length > 0 ? length : 0);
  static const UChar fffd = 0xFFFD;
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &fffd, 1, 0, err);
}

}  // namespace

struct utf8_converter::impl {
  const encoding_info* enc = nullptr;
  const sbcs_table* table = nullptr;
  UConverter* cnv = nullptr;
  icu_callback_state cb;
  unsigned char pending[8];   // own decoders: bytes of a sequence split across chunks
  std::size_t npending = 0;
  char16_t high_surrogate = 0;  // ICU path: a lead surrogate at the end of an output block
  bool replacement_done = false;

  ~impl() {
    if (cnv) ucnv_close(cnv);
  }

  void reset() {
    npending = 0;
    high_surrogate = 0;
    replacement_done = false;
    cb.replaced = 0;
    if (cnv) ucnv_resetToUnicode(cnv);
  }

  status open(std::string_view label) {
    if (cnv) {
      ucnv_close(cnv);
      cnv = nullptr;
    }
    enc = nullptr;
    table = nullptr;
    reset();
    const encoding_info* e = find_encoding(label);
    if (!e) return status::unknown_encoding;
    switch (e->kind) {
      case codec::none: return status::unknown_encoding;
      case codec::ascii:
      case codec::sbcs_icu:
      case codec::sbcs_table:
      case codec::user_defined:
        table = get_sbcs_table(*e);
        if (!table) return status::unknown_encoding;
        break;
      case codec::icu: {
        UErrorCode err = U_ZERO_ERROR;
        cnv = ucnv_open(e->icu_name, &err);
        if (U_FAILURE(err) || !cnv) {
          if (cnv) ucnv_close(cnv);
          cnv = nullptr;
          return status::unknown_encoding;
        }
        ucnv_setToUCallBack(cnv, count_and_substitute, &cb, nullptr, nullptr, &err);
        if (U_FAILURE(err)) return status::internal_error;
        break;
      }
      default: break;
    }
    enc = e;
    return status::ok;
  }

  // --- UTF-8 and UTF-16: one sequence at a time, with a carry of split sequences ----------------
  // A step decodes one sequence at p[0..n): valid (append cp, or copy the bytes for UTF-8),
  // invalid (one U+FFFD for `length` bytes) or incomplete (`length` = bytes to replace if the
  // input ends here).
  struct step {
    utf8_step_kind kind;
    std::uint8_t length;
    char32_t cp;
  };

  static step utf8_at(const unsigned char* p, std::size_t n) {
    utf8_step s = utf8_decode_step(p, n);
    if (s.kind == utf8_step_kind::incomplete) return {s.kind, static_cast<std::uint8_t>(n), 0};
    return {s.kind, s.length, 0};
  }

  template <bool BE>
  static step utf16_at(const unsigned char* p, std::size_t n) {
    auto unit = [](const unsigned char* q) -> char16_t {
      return BE ? static_cast<char16_t>(q[0] << 8 | q[1]) : static_cast<char16_t>(q[1] << 8 | q[0]);
    };
    if (n < 2) return {utf8_step_kind::incomplete, 1, 0};
    char16_t u = unit(p);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (n < 4) return {utf8_step_kind::incomplete, 2, 0};
      char16_t lo = unit(p + 2);
      if (lo >= 0xDC00 && lo <= 0xDFFF)
        return {utf8_step_kind::valid, 4, 0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (lo - 0xDC00)};
      return {utf8_step_kind::invalid, 2, 0};
    }
    if (u >= 0xDC00 && u <= 0xDFFF) return {utf8_step_kind::invalid, 2, 0};
    return {utf8_step_kind::valid, 2, u};
  }

  // Emits one decoded step; for UTF-8 the valid bytes are copied as they are.
  template <bool Utf8>
  static void emit(const unsigned char* p, const step& s, std::string& out, conversion_result& r) {
    if (s.kind == utf8_step_kind::valid) {
      if constexpr (Utf8)
        out.append(reinterpret_cast<const char*>(p), s.length);
      else
        detail::append_utf8(out, s.cp);
    } else {
      out.append(k_replacement_utf8, 3);
      r.replaced_bytes += s.length;
    }
  }

  template <bool Utf8, step (*At)(const unsigned char*, std::size_t)>
  void unicode_body(const unsigned char* p, std::size_t n, bool last, std::string& out,
                    conversion_result& r) {
    std::size_t i = 0;
    if (npending) {  // finish a sequence split across chunks: decode pending + the first bytes of p
      unsigned char buf[8];
      std::memcpy(buf, pending, npending);
      std::size_t take = n < 4 ? n : 4;
      std::memcpy(buf + npending, p, take);
      std::size_t total = npending + take, pos = 0;
      while (pos < npending) {
        step s = At(buf + pos, total - pos);
        if (s.kind == utf8_step_kind::incomplete) {
          // pending holds at most 3 bytes of one sequence, so 4 more bytes always decide it;
          // incomplete here means the whole (short) chunk was absorbed.
          if (!last) {
            std::memmove(pending, buf + pos, total - pos);
            npending = total - pos;
            return;
          }
          s.kind = utf8_step_kind::invalid;  // truncated at the end of the input
        }
        emit<Utf8>(buf + pos, s, out, r);
        pos += s.length;
      }
      i = pos - npending;
      npending = 0;
    }
    std::size_t run = i;  // UTF-8: start of a valid run not yet copied
    while (i < n) {
      if constexpr (Utf8) {
        i += ascii_prefix_length(p + i, n - i);
        if (i >= n) break;
      }
      step s = At(p + i, n - i);
      if constexpr (Utf8) {
        if (s.kind == utf8_step_kind::valid) {
          i += s.length;
          continue;
        }
        out.append(reinterpret_cast<const char*>(p + run), i - run);
      } else {
        if (s.kind == utf8_step_kind::valid && s.cp < 0x80) {
          out.push_back(static_cast<char>(s.cp));
          i += s.length;
          continue;
        }
      }
      if (s.kind == utf8_step_kind::incomplete) {
        if (!last) {
          std::memcpy(pending, p + i, n - i);
          npending = n - i;
          run = i = n;
          break;
        }
        s.kind = utf8_step_kind::invalid;
      }
      emit<Utf8>(p + i, s, out, r);
      i += s.length;
      run = i;
    }
    if constexpr (Utf8) out.append(reinterpret_cast<const char*>(p + run), n - run);
  }

  // --- single-byte tables ----------------------------------------------------------------------
  void sbcs_body(const unsigned char* p, std::size_t n, std::string& out, conversion_result& r) {
    std::size_t i = 0;
    while (i < n) {
      if (table->ascii_identity) {
        std::size_t a = ascii_prefix_length(p + i, n - i);
        out.append(reinterpret_cast<const char*>(p + i), a);
        i += a;
        if (i >= n) break;
      }
      char16_t u = table->map[p[i]];
      if (u == 0xFFFF) {
        out.append(k_replacement_utf8, 3);
        ++r.replaced_bytes;
      } else {
        detail::append_utf8(out, u);
      }
      ++i;
    }
  }

  // --- ICU -------------------------------------------------------------------------------------
  status icu_body(const char* p, std::size_t n, bool last, std::string& out, conversion_result& r) {
    UChar buf[2048];
    const char* src = p;
    const char* limit = p + n;
    cb.replaced = 0;
    for (;;) {
      UErrorCode err = U_ZERO_ERROR;
      UChar* dst = buf;
      if (high_surrogate) {
        *dst++ = high_surrogate;
        high_surrogate = 0;
      }
      ucnv_toUnicode(cnv, &dst, buf + 2048, &src, limit, nullptr, last, &err);
      if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err)) {
        r.replaced_bytes += cb.replaced;
        return status::conversion_error;
      }
      std::size_t m = static_cast<std::size_t>(dst - buf);
      if (m && buf[m - 1] >= 0xD800 && buf[m - 1] <= 0xDBFF &&
          (err == U_BUFFER_OVERFLOW_ERROR || !last)) {
        high_surrogate = buf[--m];
      }
      for (std::size_t k = 0; k < m; ++k) {
        char16_t u = buf[k];
        if (u < 0x80) {
          out.push_back(static_cast<char>(u));
        } else if (u >= 0xD800 && u <= 0xDBFF && k + 1 < m && buf[k + 1] >= 0xDC00 && buf[k + 1] <= 0xDFFF) {
          detail::append_utf8(out, 0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (buf[k + 1] - 0xDC00));
          ++k;
        } else if (u >= 0xD800 && u <= 0xDFFF) {
          out.append(k_replacement_utf8, 3);  // ICU does not emit lone surrogates; be safe
        } else {
          detail::append_utf8(out, u);
        }
      }
      if (err != U_BUFFER_OVERFLOW_ERROR) break;
    }
    r.replaced_bytes += cb.replaced;
    cb.replaced = 0;
    return status::ok;
  }

  conversion_result convert(std::string_view chunk, bool last, std::string& out) {
    conversion_result r;
    std::size_t before = out.size();
    if (!enc) {
      r.st = status::unknown_encoding;
      return r;
    }
    if (!chunk.data()) chunk = std::string_view("", 0);  // never offset or copy from null
    const auto* p = reinterpret_cast<const unsigned char*>(chunk.data());
    std::size_t n = chunk.size();
    switch (enc->kind) {
      case codec::utf8: unicode_body<true, utf8_at>(p, n, last, out, r); break;
      case codec::utf16le: unicode_body<false, utf16_at<false>>(p, n, last, out, r); break;
      case codec::utf16be: unicode_body<false, utf16_at<true>>(p, n, last, out, r); break;
      case codec::ascii:
      case codec::sbcs_icu:
      case codec::sbcs_table:
      case codec::user_defined: sbcs_body(p, n, out, r); break;
      case codec::replacement:
        if (n && !replacement_done) {
          out.append(k_replacement_utf8, 3);
          replacement_done = true;
        }
        r.replaced_bytes = n;
        break;
      case codec::icu: r.st = icu_body(chunk.data(), n, last, out, r); break;
      case codec::none: r.st = status::unknown_encoding; break;
    }
    r.input_bytes = n;
    r.output_bytes = out.size() - before;
    if (last) {
      npending = 0;
      high_surrogate = 0;
      replacement_done = false;
      if (cnv) ucnv_resetToUnicode(cnv);
    }
    return r;
  }
};

utf8_converter::utf8_converter() noexcept : impl_(nullptr) {}
utf8_converter::~utf8_converter() { delete impl_; }
utf8_converter::utf8_converter(utf8_converter&& other) noexcept : impl_(other.impl_) { other.impl_ = nullptr; }
utf8_converter& utf8_converter::operator=(utf8_converter&& other) noexcept {
  if (this != &other) {
    delete impl_;
    impl_ = other.impl_;
    other.impl_ = nullptr;
  }
  return *this;
}

status utf8_converter::open(std::string_view encoding) noexcept {
  if (!impl_) {
    impl_ = new (std::nothrow) impl;
    if (!impl_) return status::out_of_memory;
  }
  return impl_->open(encoding);
}

conversion_result utf8_converter::convert(std::string_view chunk, bool last, std::string& out_append) noexcept {
  conversion_result r;
  if (!impl_ || !impl_->enc) {
    r.st = status::unknown_encoding;
    return r;
  }
  std::size_t before = out_append.size();
  try {
    return impl_->convert(chunk, last, out_append);
  } catch (const std::bad_alloc&) {
    r.st = status::out_of_memory;
  } catch (...) {
    r.st = status::internal_error;
  }
  if (out_append.size() > before) out_append.resize(before);
  impl_->reset();
  return r;
}

void utf8_converter::reset() noexcept {
  if (impl_) impl_->reset();
}

std::string_view utf8_converter::encoding() const noexcept {
  return impl_ && impl_->enc ? impl_->enc->name : std::string_view{};
}

bool utf8_converter::is_open() const noexcept { return impl_ && impl_->enc; }

conversion_result convert_to_utf8(std::string_view input, std::string_view encoding, std::string& out) noexcept {
  conversion_result r;
  const encoding_info* e = find_encoding(encoding);
  if (!e || e->kind == codec::none) {
    r.st = status::unknown_encoding;
    return r;
  }
  // Fast path: valid UTF-8 (and 7-bit text in any ASCII-compatible encoding) is one copy.
  try {
    if (e->kind == codec::utf8 || e->kind == codec::ascii) {
      const auto* p = reinterpret_cast<const unsigned char*>(input.data());
      std::size_t a = ascii_prefix_length(p, input.size());
      if (a == input.size()) {
        out.append(input.data(), input.size());
        r.input_bytes = r.output_bytes = input.size();
        return r;
      }
    }
  } catch (const std::bad_alloc&) {
    r.st = status::out_of_memory;
    return r;
  }
  utf8_converter c;
  status st = c.open(encoding);
  if (st != status::ok) {
    r.st = st;
    return r;
  }
  return c.convert(input, true, out);
}

conversion_result convert_to_utf8(const char* data, std::size_t len, std::string_view encoding,
                                  std::string& out) noexcept {
  if (!data && len) {
    conversion_result r;
    r.st = status::invalid_argument;
    return r;
  }
  return convert_to_utf8(std::string_view(data ? data : "", len), encoding, out);
}

}  // namespace v1
}  // namespace langsift
