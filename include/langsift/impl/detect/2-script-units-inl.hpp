// langsift — detect, stage 2: script runs cut into units, and the signs of text that is not
// natural language (code-like symbols and marks, case changes inside words, very few distinct
// letters).
// See langsift/impl/detect_stages.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/0-begin-inl.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"
#include "langsift/script.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// Adds to `distinct` the byte values of letters in bytes[0, n) not yet in `seen` (a bit per
/// byte value), until there are more than kFewLetterBytes (natural text: a few letters).
inline void count_letter_bytes(const unsigned char* bytes, std::size_t n, std::uint64_t (&seen)[4], int& distinct) noexcept {
  int d = distinct;
  for (std::size_t i = 0; i < n && d <= kFewLetterBytes; ++i) {  // without a branch per byte
    const unsigned b = bytes[i];
    const std::uint64_t letter = 0 - static_cast<std::uint64_t>((kByteFlags[b] >> 3) & 1u);
    const std::uint64_t bit = (std::uint64_t{1} << (b & 63)) & letter & ~seen[b >> 6];
    seen[b >> 6] |= bit;
    d += bit != 0;
  }
  distinct = d;
}

/// The units of script run `run` of `region`: one unit with its language when the script decides
/// it (one candidate language, or a script no model group has), else pieces of about unit_bytes.
inline void add_run_units(const model& m, const detect_options& opt, detect_scratch& s, std::string_view region,
                          const script_run& run, std::uint32_t run_index) {
  const std::size_t run_bytes = run.end - run.begin;
  s.text_bytes += run_bytes;
  s.letters += run.letters;
  if (run.sc == script::latin) s.latin_letters += run.letters;
  unit u{};
  u.sc = run.sc;
  u.run = run_index;
  const group_table* g = m.group_of_script(run.sc);
  std::size_t candidates = 0;
  if (g) {
    u.group = static_cast<std::uint32_t>(g - &m.group(0));
    candidates = s.restricted ? (allowed_mask(m, opt, s, u.group), s.allowed_count[u.group]) : g->size();
  }
  if (candidates <= 1) {  // decided by the script
    u.bytes = run_bytes;
    u.text = region.substr(run.begin, run_bytes);
    if (candidates == 1) {
      for (std::uint32_t i = 0; i < g->size(); ++i)
        if (!s.restricted || allowed_mask(m, opt, s, u.group)[i] == 0.0f) u.lang = g->langs[i];
    } else if (!g) {
      const std::string_view code = script_language(run.sc);
      if (!code.empty() && allowed_code(code, opt.only)) u.decided = code;
    }
    s.units.push_back(u);
    return;
  }
  u.g = g;
  // A run too short to hold two languages worth telling apart (under 3 units) is one unit; spans
  // cut every run, and end units at sentence ends (next_sentence_piece).
  const bool spans = s.span_units;
  const std::size_t piece = run_bytes < 3 * opt.unit_bytes && !spans ? run_bytes : opt.unit_bytes;
  for (std::size_t a = run.begin; a < run.end;) {
    const std::size_t b = spans ? next_sentence_piece(region, a, run.end, piece) : next_piece(region, a, run.end, piece);
    u.bytes = b - a;
    u.text = region.substr(a, b - a);
    u.score_begin = static_cast<std::uint32_t>(s.score_size);
    s.score_size += g->size_pad();
    s.units.push_back(u);
    a = b;
  }
}

namespace detect_stage {

LANGSIFT_INLINE void script_units(const model& m, const detect_options& opt, std::string_view text, detect_scratch& s) {
  s.units.clear();
  s.examined = s.text_bytes = s.letters = s.latin_letters = s.score_size = 0;
  s.signs = {};
  s.distinct = 0;
  std::uint64_t letter_bytes[4] = {};  // which byte values occur in letters (ASCII or UTF-8 sequences)
  std::uint32_t run_index = 0;
  for (std::size_t r = 0; r < s.nregions; ++r) {
    const std::string_view region = text.substr(s.regions[r].first, s.regions[r].second - s.regions[r].first);
    s.examined += region.size();
    const auto* bytes = reinterpret_cast<const unsigned char*>(region.data());
    count_text_signs(bytes, region.size(), s.signs);
    count_letter_bytes(bytes, region.size(), letter_bytes, s.distinct);
    split_script_runs(region, s.runs);
    for (const script_run& run : s.runs) add_run_units(m, opt, s, region, run, ++run_index);
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
