// langsift — implementation of langsift/spans.hpp (compiled into langsift::core with the detector
// whose stages it runs, in src/core/detector.cpp; or included by the header under
// LANGSIFT_HEADER_ONLY). detect_spans runs detect's stages 0, 2, 3 and 4
// (langsift/impl/detect_stages.hpp) over consecutive windows of the text, then turns the units'
// labels into spans: stretches of one label, the short ones (or unclear ones) joined to a
// neighbour, long letterless stretches and units that are not language "und".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detector-inl.hpp"
#include "langsift/spans.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// A stretch of consecutive units with one label, in text order (detect_spans).
struct span_piece {
  std::size_t begin = 0, end = 0;   // bytes of the text: its first unit's start, its last unit's end
  int lang = -1;                    // model language, or -1: decided by its script, or und (`code`)
  std::string_view code;            // the label
  double bytes = 0;                 // bytes of its units
  std::size_t first = 0, last = 0;  // its units [first, last) in the window's scratch.units
  bool settled = false;             // long and clear enough to stand alone
};

inline constexpr std::string_view kUnd = "und";

/// detect_spans' buffers (per thread, grown and reused as detect_scratch).
struct span_scratch {
  std::vector<span_piece> pieces;                            // of the window
  std::vector<span_piece> all;                               // of the text, in order
  std::vector<std::pair<std::size_t, std::size_t>> letterless;  // long stretches without a letter
  std::vector<float> sum;                                    // per local language of a group
  std::vector<span> carved;                                  // spans with the letterless stretches cut out
};

inline span_scratch& thread_span_scratch() {
  thread_local span_scratch s;
  return s;
}

/// The sum of the scores of language `l` over the scored units of [first, last) in l's group;
/// `n` counts those units.
inline double piece_score(const model& m, const detect_scratch& s, std::size_t first, std::size_t last, int l,
                          std::size_t& n) {
  const auto& rec = m.language(static_cast<std::size_t>(l));
  double sum = 0;
  n = 0;
  for (std::size_t k = first; k < last; ++k) {
    const unit& u = s.units[k];
    if (!u.scored || !u.g || u.group != rec.group) continue;
    sum += s.scores[u.score_begin + rec.local];
    ++n;
  }
  return sum;
}

/// Whether piece `p` can stand alone: at least min_span_bytes, and its language clear against its
/// strongest rival of another base on its own units (calibrated as detection::confidence), unless
/// its script decided it or nothing rivals it.
inline bool piece_settled(const model& m, const span_options& so, double min_z, detect_scratch& s, span_scratch& x,
                          const span_piece& p) {
  if (p.code == kUnd) return p.bytes >= static_cast<double>(so.min_und_bytes);
  if (p.bytes < static_cast<double>(so.min_span_bytes)) return false;
  if (p.lang < 0 || min_z <= -1e300) return true;
  const auto& rec = m.language(static_cast<std::size_t>(p.lang));
  const group_table& g = m.group(rec.group);
  const std::size_t pad = g.size_pad();
  x.sum.assign(pad, 0.0f);
  bool any = false;
  for (std::size_t k = p.first; k < p.last; ++k) {
    const unit& u = s.units[k];
    if (!u.scored || !u.g || u.group != rec.group) continue;
    add_scaled(x.sum.data(), 1.0f, s.scores.data() + u.score_begin, pad);
    any = true;
  }
  if (!any) return true;  // decided without scores (rank scorer's shares are scores too)
  const float own = x.sum[rec.local];
  const std::uint16_t base = m.base_id(static_cast<std::size_t>(p.lang));
  float rival = kNoScore;
  for (std::uint32_t c = 0; c < g.size(); ++c)
    if (static_cast<int>(c) != rec.local && m.base_id(g.langs[c]) != base) rival = std::max(rival, x.sum[c]);
  if (!(rival > kNoScore / 2)) return true;  // no allowed rival
  const model_params& P = m.params();
  return P.calibration_a * (static_cast<double>(own) - rival) + P.calibration_b >= min_z;
}

/// Whether unit `u` is not natural language, by the tests detect() applies to a document (code-like
/// symbols and marks, case changes inside words, repetition, lorem ipsum, a poor fit to its label)
/// over the unit.
inline bool unit_not_language(const model& m, const detect_options& opt, const detect_scratch& s, const unit& u) {
  language_signs x{};
  const auto* bytes = reinterpret_cast<const unsigned char*>(u.text.data());
  count_text_signs(bytes, u.text.size(), x.t);
  std::uint64_t seen[4] = {};
  count_letter_bytes(bytes, u.text.size(), seen, x.distinct);
  const script_run& run = s.runs[u.run - 1];  // one region per window: its runs are numbered from 1
  const std::size_t run_bytes = run.end - run.begin;
  x.letters = run_bytes ? run.letters * u.bytes / run_bytes : 0;
  x.latin_letters = run.sc == script::latin ? x.letters : 0;
  x.fit = 1.0f;
  x.fit_letters = 0;
  if (u.lang >= 0 && u.scored && u.g && !s.use_rank && u.features > 0) {
    const auto& rec = m.language(static_cast<std::size_t>(u.lang));
    // Languages decided by their script (Chinese by Han) fit by definition, as in detect().
    if (rec.group == u.group && static_cast<script>(rec.script) != script::han && rec.expected_fit > 0) {
      x.fit = static_cast<float>(s.hits[u.score_begin + rec.local] / u.features / rec.expected_fit);
      x.fit_letters = u.letters;
    }
  }
  const std::span<const unit> one(&u, 1);
  return not_language(opt, x) || (x.distinct <= kFewLetterBytes && repeated_words(one)) ||
         (u.lang >= 0 && m.language_code(static_cast<std::size_t>(u.lang)) == "la" && lorem_ipsum(one));
}

/// The pieces of the window's units into x.pieces, the short or unclear ones joined to the
/// neighbour whose language scores them best.
inline void window_pieces(const model& m, const detect_options& opt, const span_options& so, double min_z,
                          const char* text, detect_scratch& s, span_scratch& x) {
  x.pieces.clear();
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    const unit& u = s.units[k];
    std::string_view code = u.lang >= 0 ? m.language_code(static_cast<std::size_t>(u.lang)) : u.decided;
    if (code.empty()) continue;  // unattributed: joins a neighbour
    const bool und = unit_not_language(m, opt, s, u);
    const int lang = und ? -1 : u.lang;
    if (und) code = kUnd;
    const std::size_t b = static_cast<std::size_t>(u.text.data() - text), e = b + u.text.size();
    if (!x.pieces.empty() && x.pieces.back().lang == lang && x.pieces.back().code == code) {
      span_piece& p = x.pieces.back();
      p.end = e;
      p.last = k + 1;
      p.bytes += static_cast<double>(u.bytes);
      continue;
    }
    span_piece p;
    p.begin = b;
    p.end = e;
    p.lang = lang;
    p.code = code;
    p.bytes = static_cast<double>(u.bytes);
    p.first = k;
    p.last = k + 1;
    x.pieces.push_back(p);
  }
  auto& ps = x.pieces;
  for (span_piece& p : ps) p.settled = piece_settled(m, so, min_z, s, x, p);
  while (ps.size() > 1) {
    std::size_t i = ps.size();
    for (std::size_t k = 0; k < ps.size(); ++k)
      if (!ps[k].settled && (i == ps.size() || ps[k].bytes < ps[i].bytes)) i = k;
    if (i == ps.size()) break;
    // The neighbour that takes it: the one whose language scores its units best (when both can
    // be scored there), else the longer one.
    std::size_t into = i == 0 ? 1 : i - 1;
    if (i > 0 && i + 1 < ps.size()) {
      const span_piece &l = ps[i - 1], &r = ps[i + 1];
      std::size_t nl = 0, nr = 0;
      const double sl = l.lang >= 0 ? piece_score(m, s, ps[i].first, ps[i].last, l.lang, nl) : 0;
      const double sr = r.lang >= 0 ? piece_score(m, s, ps[i].first, ps[i].last, r.lang, nr) : 0;
      if (nl > 0 && nr > 0) into = sr > sl ? i + 1 : i - 1;
      else into = r.bytes > l.bytes ? i + 1 : i - 1;
    }
    span_piece& t = ps[into];
    t.begin = std::min(t.begin, ps[i].begin);
    t.end = std::max(t.end, ps[i].end);
    t.first = std::min(t.first, ps[i].first);
    t.last = std::max(t.last, ps[i].last);
    t.bytes += ps[i].bytes;
    ps.erase(ps.begin() + static_cast<std::ptrdiff_t>(i));
    // Its two neighbours are now next to each other: one piece if they have one label.
    const std::size_t left = into < i ? into : into - 1;
    if (left + 1 < ps.size() && ps[left].lang == ps[left + 1].lang && ps[left].code == ps[left + 1].code) {
      ps[left].end = ps[left + 1].end;
      ps[left].last = ps[left + 1].last;
      ps[left].bytes += ps[left + 1].bytes;
      ps.erase(ps.begin() + static_cast<std::ptrdiff_t>(left + 1));
    }
    ps[left].settled = piece_settled(m, so, min_z, s, x, ps[left]);
    if (left + 1 < ps.size()) ps[left + 1].settled = piece_settled(m, so, min_z, s, x, ps[left + 1]);
  }
}

/// The end of the window that starts at `a` and should be about `target` bytes: the last line
/// break, else space, in its last eighth, else a code point boundary.
inline std::size_t window_end(std::string_view text, std::size_t a, std::size_t target) noexcept {
  if (text.size() - a <= target + target / 4) return text.size();
  const std::size_t stop = a + target, lo = stop - target / 8;
  for (char want : {'\n', ' '})
    for (std::size_t p = stop; p > lo; --p)
      if (text[p] == want) return p;
  return utf8_cut_back(text.data(), stop, a + target / 2);
}

inline bool is_ascii_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/// The first byte at or after `p` that is not ASCII whitespace, at most `end`.
inline std::size_t skip_space(std::string_view text, std::size_t p, std::size_t end) noexcept {
  while (p < end && is_ascii_space(text[p])) ++p;
  return p;
}

/// The stretches of `text` without a letter (no ASCII letter, no byte of a multi-byte sequence)
/// that hold at least `min_bytes` from the first whitespace after their start to the last one
/// before their end, as [after that first whitespace and any more, after the last whitespace):
/// the punctuation that ends a sentence and the quote that opens the next stay with them. A stretch
/// at the start of the text begins at 0, one at its end ends there.
inline void letterless_stretches(std::string_view text, std::size_t min_bytes,
                                 std::vector<std::pair<std::size_t, std::size_t>>& out) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    if (kByteFlags[p[i]] & 8u) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && !(kByteFlags[p[j]] & 8u)) ++j;
    std::size_t b = i, e = j;
    if (b > 0) {
      while (b < e && !is_ascii_space(text[b])) ++b;
      b = skip_space(text, b, e);
    }
    if (e < n) {
      while (e > b && !is_ascii_space(text[e - 1])) --e;
    }
    if (e > b && e - b >= min_bytes) out.push_back({b, e});
    i = j;
  }
}

/// Cuts x.letterless (sorted, disjoint stretches) out of the spans they fall in, as und spans.
inline void carve_letterless(std::vector<span>& out, span_scratch& x) {
  auto& c = x.carved;
  c.clear();
  auto add = [&](std::size_t b, std::size_t e, std::string_view code) {
    if (b >= e) return;
    if (!c.empty() && c.back().code == code) c.back().end = e;
    else c.push_back({b, e, code});
  };
  std::size_t li = 0;
  for (const span& sp : out) {
    std::size_t b = sp.begin;
    while (li < x.letterless.size() && x.letterless[li].first < sp.end) {
      const auto [lb, le] = x.letterless[li];
      add(b, std::max(b, lb), sp.code);
      add(std::max(b, lb), std::min(le, sp.end), kUnd);
      b = std::max(b, std::min(le, sp.end));
      if (le > sp.end) break;  // goes on in the next span
      ++li;
    }
    add(b, sp.end, sp.code);
  }
  out.swap(c);
}

/// Makes neighbouring spans of one language one span.
inline void merge_neighbours(std::vector<span>& out) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (w && out[w - 1].code == out[i].code) {
      out[w - 1].end = out[i].end;
      continue;
    }
    out[w++] = out[i];
  }
  out.resize(w);
}

}  // namespace detail

LANGSIFT_INLINE status detect_spans(const model& m, std::string_view text, std::vector<span>& out,
                                    const detect_options& opt, const span_options& so) {
  out.clear();
  if (m.language_count() == 0) return status::invalid_argument;
  for (const std::string_view code : opt.only)
    if (!detail::model_knows(m, code)) return status::invalid_argument;
  if (text.empty()) return status::empty_input;
  namespace stage = detail::detect_stage;
  detect_options o = opt;
  o.skim = false;  // every unit is scored: a language may sit in any of them
  o.switch_penalty = so.switch_penalty;
  o.unit_bytes = std::clamp<std::size_t>(so.unit_bytes, 16, std::size_t{1} << 20);
  detail::detect_scratch& s = detail::thread_scratch();
  detail::span_scratch& x = detail::thread_span_scratch();
  const double mc = static_cast<double>(so.min_confidence);
  const double min_z = !(mc > 0) ? -1e301 : mc >= 1 ? 1e300 : std::log(mc / (1.0 - mc));
  stage::begin(m, o, s);
  x.all.clear();
  x.letterless.clear();
  bool letters = false;
  {
    struct units_for_spans {  // detect's own units again afterwards, even when this call throws
      detail::detect_scratch& s;
      explicit units_for_spans(detail::detect_scratch& y) : s(y) { s.span_units = true; }
      ~units_for_spans() { s.span_units = false; }
      units_for_spans(const units_for_spans&) = delete;
      units_for_spans& operator=(const units_for_spans&) = delete;
    } guard(s);
    // Windows of about max_text_bytes (at least 4 KB), as equal as the text allows.
    const std::size_t cap = std::max<std::size_t>(opt.max_text_bytes, 4096);
    const std::size_t windows = (text.size() + cap - 1) / cap, target = (text.size() + windows - 1) / windows;
    for (std::size_t a = 0; a < text.size();) {
      const std::size_t e = detail::window_end(text, a, target);
      s.regions[0] = {a, e};
      s.nregions = 1;
      s.sampled = false;
      stage::script_units(m, o, text, s);
      if (s.text_bytes > 0) {
        letters = true;
        stage::score(m, o, s);
        stage::segment(m, o, s);
        detail::window_pieces(m, o, so, min_z, text.data(), s, x);
        for (const detail::span_piece& p : x.pieces) {
          if (!x.all.empty() && x.all.back().code == p.code) {  // one language across windows
            x.all.back().end = p.end;
            x.all.back().bytes += p.bytes;
          } else {
            x.all.push_back(p);
          }
        }
      }
      a = e;
    }
  }
  if (x.all.empty()) {  // no letters, or none attributed (a restriction that allows none of them)
    out.push_back({0, text.size(), detail::kUnd});
    return letters ? status::ok : status::empty_input;
  }
  // One span per piece: from its first non-whitespace byte (the text before the first piece
  // belongs to it) to the next one's start.
  for (const detail::span_piece& p : x.all) {
    const std::size_t b = out.empty() ? 0 : detail::skip_space(text, p.begin, p.end);
    if (!out.empty()) out.back().end = b;
    out.push_back({b, text.size(), p.code});
  }
  // The long letterless stretches are und, cut out of the spans they fall in.
  detail::letterless_stretches(text, std::max<std::size_t>(so.min_und_bytes, 1), x.letterless);
  if (!x.letterless.empty()) detail::carve_letterless(out, x);
  detail::merge_neighbours(out);
  return status::ok;
}

LANGSIFT_INLINE std::vector<span> detect_spans(const model& m, std::string_view text, const detect_options& opt,
                                               const span_options& so) {
  std::vector<span> out;
  detect_spans(m, text, out, opt, so);
  return out;
}

LANGSIFT_INLINE std::string kept_text(std::string_view text, std::span<const span> spans,
                                      std::span<const std::string_view> codes) {
  std::string out;
  auto kept = [&](const span& sp) {
    if (sp.begin >= sp.end || sp.end > text.size()) return false;
    for (const std::string_view c : codes)
      if (detail::code_matches(sp.code, c)) return true;
    return false;
  };
  for (std::size_t i = 0; i < spans.size();) {
    if (!kept(spans[i])) {
      ++i;
      continue;
    }
    std::size_t b = spans[i].begin, e = spans[i].end;
    for (++i; i < spans.size() && kept(spans[i]) && spans[i].begin == e; ++i) e = spans[i].end;
    while (b < e && detail::is_ascii_space(text[b])) ++b;
    while (e > b && detail::is_ascii_space(text[e - 1])) --e;
    if (b == e) continue;
    if (!out.empty()) out += '\n';
    out.append(text.substr(b, e - b));
  }
  return out;
}

}  // namespace v1
}  // namespace langsift
