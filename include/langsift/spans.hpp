// langsift — language spans: where in a text each language is.
//
//   const langsift::model& m = langsift::default_model();
//   std::vector<langsift::span> spans = langsift::detect_spans(m, text);
//   for (const langsift::span& s : spans)  // {begin, end, code}: bytes of `text`
//     std::string_view piece = text.substr(s.begin, s.end - s.begin);
//   std::string breton = langsift::kept_text(text, spans, codes);  // only the spans in `codes`
//
// The spans cover the whole text: the first begins at 0, the last ends at text.size(), each
// begins where the one before ends, and neighbours differ in language. They are the detector's own
// segmentation (docs/detection.md): the text is cut into script runs and units, each unit scored
// against the languages of its script, and the units of a run labelled by the best path through
// them (Viterbi, a change of language costing `span_options::switch_penalty`). For spans, units end
// at sentence ends and line breaks where there are any, every unit is scored (no skimming), and the
// whole text is read, in consecutive windows of `detect_options::max_text_bytes` (memory stays
// bounded; time grows linearly with the text; nothing is sampled or cut).
//
// Then a span is never shorter than what can be identified: a stretch of fewer than
// `min_span_bytes` bytes, or whose language is not clear on its own (calibrated confidence below
// `min_confidence` against its strongest rival), joins the neighbour whose language scores it
// best. Text between the scored units — whitespace, digits, punctuation, symbols, a short run the
// detector left unattributed ("iPhone" in Russian prose) — joins the span before it (the first
// span takes what precedes it); a span after the first begins at a non-whitespace character.
//
// "und" (no language) spans: a text without letters is one "und" span; a letterless stretch of
// at least `min_und_bytes` (a table of numbers) is an "und" span of its own; and a span that is not
// natural language as a whole — by the tests detect() applies to a document: code-like symbols
// and marks of code inside words, case changes inside words, repeated words, lorem ipsum, a poor
// fit to its language — is "und".
//
// Thread safety: as detect(); each thread uses its own scratch space.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/config.hpp"
#include "langsift/detector.hpp"
#include "langsift/model.hpp"

namespace langsift {
inline namespace v1 {

/// A stretch of text in one language: bytes [begin, end) of the text, and the language's code as
/// detect() answers it ("und" where there is none). Codes are views into the model (or static).
struct span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view code;
  friend bool operator==(const span&, const span&) = default;
};

/// Settings of the segmentation into spans (the scoring itself follows detect_options).
/// The defaults were chosen on held-out training text (docs/detection.md, "Spans").
struct span_options {
  /// Units of about this many bytes (16..1M), ended at sentence ends where there are any (detect()
  /// uses detect_options::unit_bytes, which spans do not read).
  std::size_t unit_bytes = 48;
  /// Score a change of language between two units costs (detect() uses
  /// detect_options::switch_penalty, which spans do not read).
  float switch_penalty = 300.0f;
  /// Bytes below which a span joins a neighbour.
  std::size_t min_span_bytes = 40;
  /// Calibrated confidence (0..1) of a span's language against its strongest rival on the span's
  /// own text, below which the span joins a neighbour. 0 (the default: any higher value cost bytes
  /// right on held-out text and removed no more spurious spans): only min_span_bytes applies.
  float min_confidence = 0.0f;
  /// A letterless stretch (no script run: digits, punctuation, symbols, whitespace) of at least this
  /// many bytes is an "und" span; a shorter one joins a neighbour.
  std::size_t min_und_bytes = 100;
};

/// Spans of `text` into `out` (cleared first; its capacity is reused). Returns ok; empty_input
/// when the text has no letters (one "und" span covers it; none when it is empty);
/// invalid_argument, with no spans, when `opt.only` names a code the model lacks or the model has
/// no languages (as detect).
status detect_spans(const model& m, std::string_view text, std::vector<span>& out, const detect_options& opt = {},
                    const span_options& so = {});

/// The spans of `text`, as above (none for an empty text or an invalid call).
std::vector<span> detect_spans(const model& m, std::string_view text, const detect_options& opt = {},
                               const span_options& so = {});

/// The text of the spans whose language is one of `codes` ("zh" keeps zh-Hant too, as
/// detect_options::only reads codes): each stretch of consecutive kept spans, without the
/// whitespace at its two ends, the stretches joined by "\n". Empty when nothing is kept.
/// `spans` are `text`'s (detect_spans); spans that do not fit the text are skipped.
std::string kept_text(std::string_view text, std::span<const span> spans, std::span<const std::string_view> codes);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/spans-inl.hpp"
#endif
