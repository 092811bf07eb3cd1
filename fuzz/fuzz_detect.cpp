// libFuzzer: language identification on arbitrary bytes, text-only and through the whole page
// pipeline (decode -> HTML -> detect), with options derived from the input. Invariants: no crash,
// at most three languages, percents within 0..100 and summing to at most 100, bytes within the
// text, identical answers on a second call (no state leaks between calls); with the default model
// and with the built-in "wide" one. detect_page's kept text (keep_text) is extract_page_text's, and
// valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "langsift/page.hpp"
#include "langsift/unicode.hpp"

namespace {

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

  const langsift::detection a = langsift::detect(m, in, opt);
  check(a);
  if (!same(a, langsift::detect(m, in, opt))) std::abort();

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
  if (!same(w, langsift::detect(*wide, in, opt))) std::abort();
  return 0;
}
