// libFuzzer: language identification on arbitrary bytes, text-only and through the whole page
// pipeline (decode -> HTML -> detect), with options derived from the input. Invariants: no crash,
// at most three languages, percents within 0..100 and summing to at most 100, bytes within the
// text, identical answers on a second call (no state leaks between calls); the probabilities
// (top_k from the input) descending, in (0, 1], summing to at most 1, codes of the model, the top
// one's the confidence, and top_k changing nothing else; with the default model and with the
// built-in "wide" one (with its language priors, without them, and with priors the input sets).
// detect_page's kept text (keep_text) is extract_page_text's, and valid UTF-8. The SSE2 count of
// the signs of non-language text (count_text_signs) is the byte loop's.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "langsift/page.hpp"
#include "langsift/unicode.hpp"

namespace {

/// detection::probabilities: at most top_k (and max_top_k), each in (0, 1], descending, distinct
/// codes the model (or a script) answers, summing to at most 1; none for und; confidence in 0..1.
void check_probabilities(const langsift::model& m, const langsift::detection& d, std::size_t k) {
  if (d.probability_count > std::min(k, langsift::max_top_k)) std::abort();
  if (!d.count && (d.probability_count || d.confidence != 0)) std::abort();
  double sum = 0;
  for (std::size_t i = 0; i < d.probability_count; ++i) {
    const langsift::language_probability& p = d.probabilities[i];
    if (!(p.p > 0 && p.p <= 1) || (i && p.p > d.probabilities[i - 1].p)) std::abort();
    const std::string_view code = p.code;
    if (!langsift::unknown_codes(m, std::span<const std::string_view>(&code, 1)).empty()) std::abort();
    for (std::size_t j = 0; j < i; ++j)
      if (d.probabilities[j].code == p.code) std::abort();
    sum += p.p;
  }
  if (sum > 1.0) std::abort();
  if (d.probability_count && d.probabilities[0].code == d.language() && d.probabilities[0].p != d.confidence) std::abort();
}

void check(const langsift::detection& d) {
  if (d.count > 3) std::abort();
  int sum = 0;
  for (std::size_t i = 0; i < d.count; ++i) {
    const auto& e = d.languages[i];
    if (e.percent < 0 || e.percent > 100 || e.code.empty() || !(e.score >= 0) || e.bytes > d.text_bytes + 1) std::abort();
    sum += e.percent;
  }
  if (sum > 100 || !(d.confidence >= 0 && d.confidence <= 1)) std::abort();
  if (d.count && d.language() == "und") std::abort();
}

bool same(const langsift::detection& a, const langsift::detection& b) {
  if (a.count != b.count || a.text_bytes != b.text_bytes || a.reliable != b.reliable) return false;
  for (std::size_t i = 0; i < a.count; ++i)
    if (a.languages[i].code != b.languages[i].code || a.languages[i].percent != b.languages[i].percent) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const langsift::model& m = langsift::default_model();
  if (m.empty()) std::abort();
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const unsigned char flags = size ? data[0] : 0;

  langsift::detect_options opt;
  opt.unit_bytes = 16 + (flags & 0x3F);
  opt.max_text_bytes = (flags & 0x40) ? 300 : 64 * 1024;  // exercise sampling on small inputs too
  opt.method = (flags & 0x80) ? langsift::scorer::rank : langsift::scorer::bayes;
  std::vector<std::string_view> only = {"de", "zh", "sr"};
  if ((flags & 0x41) == 0x41) opt.only = only;
  opt.hints.content_language = in.substr(0, std::min<std::size_t>(size, 12));
  opt.top_k = size > 1 ? data[1] % (langsift::max_top_k + 1) : 1;

  const langsift::detection a = langsift::detect(m, in, opt);
  check(a);
  check_probabilities(m, a, opt.top_k);
  if (!same(a, langsift::detect(m, in, opt))) std::abort();
  // top_k changes the probabilities listed, nothing else.
  langsift::detect_options all = opt;
  all.top_k = langsift::max_top_k;
  const langsift::detection a16 = langsift::detect(m, in, all);
  check_probabilities(m, a16, all.top_k);
  if (!same(a, a16) || a16.confidence != a.confidence) std::abort();
  for (std::size_t i = 0; i < a.probability_count; ++i)
    if (a.probabilities[i].p != a16.probabilities[i].p || a.probabilities[i].code != a16.probabilities[i].code) std::abort();
  all.top_k = langsift::max_top_k + 1;
  if (langsift::detect(m, in, all).st != langsift::status::invalid_argument) std::abort();

  // The signs of text that is not language: the SSE2 pass counts as the byte-by-byte definition
  // (code marks: token_code_marks summed over the tokens, runs of bytes > 0x20).
  {
    langsift::detail::text_signs got, want;
    langsift::detail::count_text_signs(data, size, got);
    std::size_t token = 0;
    for (std::size_t i = 0; i <= size; ++i) {
      if (i == size || data[i] <= 0x20) {
        if (i > token) want.code_marks += langsift::detail::token_code_marks(data + token, i - token);
        token = i + 1;
        if (i == size) break;
      }
      const unsigned char prev = i ? data[i - 1] : ' ';
      want.spaces += data[i] == ' ';
      if (langsift::detail::is_code_symbol(static_cast<char>(data[i]))) want.code_symbols += data[i] != prev;
      want.case_switches += data[i] >= 'A' && data[i] <= 'Z' && prev >= 'a' && prev <= 'z';
    }
    if (got.code_symbols != want.code_symbols || got.case_switches != want.case_switches ||
        got.code_marks != want.code_marks || got.spaces != want.spaces)
      std::abort();
  }

  // Whole pipeline.
  const langsift::decoded_text page = langsift::decode_to_utf8(in);
  langsift::html_options ho;
  ho.main_content = flags & 1;
  const langsift::html_result html = langsift::extract_html(page.text, ho);
  check(langsift::detect(m, html.text, opt));

  // detect_page, with the text it examined, and extract_page_text (no detection): the same text.
  langsift::page_options po;
  po.main_content = flags & 1;
  po.content_type = (flags & 2) ? "text/plain" : (flags & 4) ? "text/html; charset=shift_jis" : "";
  po.keep_text = true;
  const langsift::page_result pr = langsift::detect_page(m, in, po);
  check(pr.detection);
  const langsift::page_text pt = langsift::extract_page_text(in, po);
  if (pt.text != pr.text || !langsift::is_valid_utf8(pt.text) || pt.is_html != pr.is_html) std::abort();

  // The built-in "wide" model (parsed on the first input), same invariants.
  const langsift::model* wide = nullptr;
  if (langsift::builtin_model("wide", wide) != langsift::status::ok || wide->empty()) std::abort();
  const langsift::detection w = langsift::detect(*wide, in, opt);
  check(w);
  check_probabilities(*wide, w, opt.top_k);
  if (!same(w, langsift::detect(*wide, in, opt))) std::abort();
  // Its language priors (model::language_prior) on and off, and set on a copy of the model for
  // languages the input picks.
  langsift::detect_options no_prior = opt;
  no_prior.web_prior = false;
  const langsift::detection wn = langsift::detect(*wide, in, no_prior);
  check(wn);
  check_probabilities(*wide, wn, opt.top_k);
  static langsift::model with_priors = *wide;  // (the fuzzer is single-threaded)
  if (size > 3) {
    const std::size_t l = data[2] % with_priors.language_count();
    if (with_priors.set_language_prior(l, -static_cast<float>(data[3] % 51)) != langsift::status::ok) std::abort();
    if (with_priors.language_prior(l) != -static_cast<float>(data[3] % 51)) std::abort();
  }
  const langsift::detection wp = langsift::detect(with_priors, in, opt);
  check(wp);
  check_probabilities(with_priors, wp, opt.top_k);
  return 0;
}
