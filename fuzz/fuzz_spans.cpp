// libFuzzer: language spans (detect_spans, kept_text) on arbitrary bytes, with options derived
// from the input. Invariants: the spans cover the input in order (the first begins at 0, the last
// ends at its size, each begins where the one before ends, none is empty), neighbours differ in
// language, every code is "und" or one detect can answer; in valid UTF-8 no boundary falls inside
// a character; a second call answers the same, and detect() answers as before the spans were
// computed (the scratch the two share is left as detect needs it); kept_text holds only bytes of
// the input's kept spans. With the default model and the built-in "wide" one.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"
#include "langsift/spans.hpp"
#include "langsift/unicode.hpp"

namespace {

void check(const langsift::model& m, std::string_view in, const std::vector<langsift::span>& spans) {
  if (in.empty()) {
    if (!spans.empty()) std::abort();
    return;
  }
  if (spans.empty() || spans.front().begin != 0 || spans.back().end != in.size()) std::abort();
  const bool valid = langsift::is_valid_utf8(in);
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const langsift::span& s = spans[i];
    if (s.begin >= s.end) std::abort();
    if (i && (s.begin != spans[i - 1].end || s.code == spans[i - 1].code)) std::abort();
    const std::string_view code[] = {s.code};
    if (s.code != "und" && !langsift::unknown_codes(m, code).empty()) std::abort();
    if (valid && langsift::detail::is_utf8_continuation(static_cast<unsigned char>(in[s.begin]))) std::abort();
  }
}

bool same(const langsift::detection& a, const langsift::detection& b) {
  if (a.count != b.count || a.text_bytes != b.text_bytes || a.reliable != b.reliable || a.confidence != b.confidence)
    return false;
  for (std::size_t i = 0; i < a.count; ++i)
    if (a.languages[i].code != b.languages[i].code || a.languages[i].percent != b.languages[i].percent) return false;
  return true;
}

void run(const langsift::model& m, std::string_view in, const langsift::detect_options& opt,
         const langsift::span_options& so) {
  const langsift::detection before = langsift::detect(m, in, opt);
  std::vector<langsift::span> spans;
  langsift::detect_spans(m, in, spans, opt, so);
  check(m, in, spans);
  if (langsift::detect_spans(m, in, opt, so) != spans) std::abort();
  if (!same(before, langsift::detect(m, in, opt))) std::abort();
  // Kept text: the first span's language: at most its spans' bytes and a line break between
  // stretches; the whole input, trimmed, when there is one span.
  if (spans.empty()) return;
  const std::vector<std::string_view> keep = {spans.front().code};
  const std::string kept = langsift::kept_text(in, spans, keep);
  std::size_t bytes = 0, stretches = 0;
  for (const langsift::span& s : spans)
    if (langsift::detail::code_matches(s.code, keep[0])) bytes += s.end - s.begin, ++stretches;  // "sr" keeps sr-Latn
  if (kept.size() > bytes + stretches) std::abort();
  if (spans.size() == 1) {
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    std::size_t b = 0, e = in.size();
    while (b < e && space(in[b])) ++b;
    while (e > b && space(in[e - 1])) --e;
    if (kept != in.substr(b, e - b)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const langsift::model& m = langsift::default_model();
  if (m.empty()) std::abort();
  const unsigned char flags = size ? data[0] : 0, more = size > 1 ? data[1] : 0;
  const std::string_view in(reinterpret_cast<const char*>(data), size);

  langsift::detect_options opt;
  opt.max_text_bytes = (flags & 0x40) ? 300 : 64 * 1024;  // windows of 4 KB, the least there are
  opt.method = (flags & 0x80) ? langsift::scorer::rank : langsift::scorer::bayes;
  opt.early_exit = !(flags & 0x20);
  std::vector<std::string_view> only = {"de", "zh", "sr"};
  if ((flags & 0x41) == 0x41) opt.only = only;
  opt.hints.content_language = in.substr(0, std::min<std::size_t>(size, 12));
  langsift::span_options so;
  so.unit_bytes = 16 + (flags & 0x1F) * 4;
  so.min_span_bytes = more & 0x3F;
  so.min_und_bytes = 1 + (more >> 2);
  so.min_confidence = (more & 0x80) ? 0.9f : 0.0f;
  so.switch_penalty = (more & 0x40) ? 30.0f : 300.0f;
  run(m, in, opt, so);

  const langsift::model* wide = nullptr;
  if (langsift::builtin_model("wide", wide) != langsift::status::ok || wide->empty()) std::abort();
  run(*wide, in, opt, so);
  return 0;
}
