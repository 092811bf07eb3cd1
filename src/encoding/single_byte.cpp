// Single-byte plausibility: does the text decode to words? A byte next to letters should be a
// letter of the same script, case should not flip inside a word, controls and undefined bytes
// should not appear. Used to check uchardet's single-byte answers and, when it has none, to
// choose among the single-byte encodings (DOS, Mac, ... code pages uchardet 0.0.7 lacks).
#include <algorithm>
#include <iterator>
#include <string_view>

#include "detect_parts.hpp"
#include "internal.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

// Single-byte encodings tried when uchardet has no plausible answer, most common first; the
// first of equally good candidates wins.
constexpr std::string_view k_single_byte_candidates[] = {
    "windows-1252", "windows-1250", "windows-1251", "windows-1253", "windows-1254", "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "windows-874", "iso-8859-2", "iso-8859-3",
    "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-10", "iso-8859-13",
    "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u", "ibm866", "macintosh",
    "x-mac-cyrillic", "ibm850", "ibm437", "ibm852", "ibm855", "ibm857", "ibm860", "ibm861", "ibm863",
    "ibm865", "ibm737", "ibm869", "ibm862", "ibm864", "ibm775", "x-mac-ce", "x-mac-greek",
    "x-mac-turkish", "viscii", "georgian-academy", "georgian-ps",
};

}  // namespace

sb_plausibility single_byte_plausibility(std::string_view sample, const sbcs_table& t) {
  sb_plausibility r;
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  const std::size_t n = std::min<std::size_t>(sample.size(), 8 * 1024);  // bounds the search cost
  char_kind prev = ck_space;
  UScriptCode prev_script = USCRIPT_COMMON;
  for (std::size_t i = 0; i < n; ++i) {
    char16_t u = t.map[p[i]];
    char_kind k = kind_of(u);
    UScriptCode sc = USCRIPT_COMMON;
    if (p[i] >= 0x80) {
      ++r.nonascii;
      char_kind next = i + 1 < n ? kind_of(t.map[p[i + 1]]) : ck_space;
      if (k == ck_undefined || k == ck_control) {
        r.bad += 2;
      } else if (is_letterish(k)) {
        ++r.letters;
        if (k != ck_mark) {
          sc = script_of(u);
          if (is_letterish(prev) && prev_script != USCRIPT_COMMON && sc != USCRIPT_COMMON &&
              sc != USCRIPT_INHERITED && sc != prev_script)
            ++r.bad;  // two scripts inside one word
          if (k == ck_upper && prev == ck_lower) ++r.bad;  // "wOrd"
          if (k == ck_upper && prev == ck_upper) ++r.caps;  // inside an all-caps word
        }
      } else if (k == ck_symbol && is_letterish(prev) && is_letterish(next) && !word_internal(u)) {
        ++r.bad;  // a symbol between two letters: "k›benhavn"
      }
    } else if (is_letterish(k)) {
      sc = USCRIPT_LATIN;
    }
    if (is_letterish(k) && k != ck_mark) prev_script = sc;
    if (k != ck_mark) prev = k;
  }
  return r;
}

sb_choice best_single_byte(std::string_view sample) {
  sb_choice best;
  double best_score = -1e9;
  for (std::string_view c : k_single_byte_candidates) {
    const encoding_info* e = find_encoding(c);
    const sbcs_table* t = e ? get_sbcs_table(*e) : nullptr;
    if (!t) continue;
    sb_plausibility pl = single_byte_plausibility(sample, *t);
    if (pl.score() > best_score + 1e-9) {
      best_score = pl.score();
      best = {e->name, pl};
    }
  }
  return best;
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
