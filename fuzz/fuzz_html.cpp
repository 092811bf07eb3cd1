// libFuzzer target for the HTML extractor and URI resolution:
//   CC=clang CXX=clang++ cmake -B build-fuzz -DLANGSIFT_BUILD_FUZZERS=ON -DLANGSIFT_SANITIZE=address,undefined
//   build-fuzz/fuzz_html fuzz/corpus/html -max_total_time=300
//
// Input layout: byte 0 chooses options; up to the first '\n' (at most 200 bytes) is the page
// URL; the rest is the page. The same bytes also drive resolve_uri (base = the URL part,
// reference = the first line of the page part).
//
// Invariants: text, title, language fields and anchor texts are valid UTF-8; text has no empty
// lines and no leading/trailing spaces; links are absolute http(s) URLs without fragment that
// parse; blocks lie inside the text in order; extracting into a reused result equals a fresh
// extraction; main-content text equals the kept blocks of the full text, as mark_main_content
// decides on them; resolve_uri's results parse, are valid UTF-8, and resolve to themselves.
// The start-tag view of the conformance test (detail::extract_html_observed) changes nothing:
// its result equals extract_html's, and each tag it reports ended with '>' in the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "langsift/html.hpp"
#include "langsift/impl/html/extractor.hpp"  // detail::extract_html_observed
#include "langsift/uri.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool valid_utf8(std::string_view s) { return langsift::is_valid_utf8(s); }

void check_text(std::string_view t) {
  check(valid_utf8(t));
  if (t.empty()) return;
  check(t.front() != '\n' && t.back() != '\n' && t.front() != ' ' && t.back() != ' ');
  check(t.find("\n\n") == std::string_view::npos);
  check(t.find("  ") == std::string_view::npos);
  check(t.find(" \n") == std::string_view::npos);
  check(t.find("\n ") == std::string_view::npos);
}

void check_result(const langsift::html_result& r, bool main_content) {
  check_text(r.text);
  check(valid_utf8(r.title) && valid_utf8(r.html_lang) && valid_utf8(r.content_language));
  for (const auto& l : r.links) {
    check(l.url.rfind("http://", 0) == 0 || l.url.rfind("https://", 0) == 0);
    check(l.url.find('#') == std::string::npos);
    check(valid_utf8(l.url));
    auto u = langsift::parse_uri(l.url);
    check(u && u->has_authority && !u->host.empty());
    check(valid_utf8(l.text));
    check(l.text.find('\n') == std::string::npos);
  }
  std::size_t prev_end = 0;
  for (const auto& b : r.blocks) {
    check(b.begin <= b.end && b.begin >= prev_end);
    check(b.linked_words <= b.words);
    if (!main_content) check(b.end <= r.text.size());
    prev_end = b.end;
  }
  check(r.st == langsift::status::ok || r.st == langsift::status::empty_input ||
        r.st == langsift::status::truncated);
}

bool same(const langsift::html_result& a, const langsift::html_result& b) {
  if (a.text != b.text || a.title != b.title || a.html_lang != b.html_lang ||
      a.content_language != b.content_language || a.base_url != b.base_url || a.st != b.st ||
      a.invalid_sequences != b.invalid_sequences || a.links.size() != b.links.size() ||
      a.blocks.size() != b.blocks.size())
    return false;
  for (std::size_t i = 0; i < a.links.size(); ++i)
    if (a.links[i].url != b.links[i].url || a.links[i].text != b.links[i].text) return false;
  for (std::size_t i = 0; i < a.blocks.size(); ++i)
    if (a.blocks[i].begin != b.blocks[i].begin || a.blocks[i].end != b.blocks[i].end ||
        a.blocks[i].words != b.blocks[i].words || a.blocks[i].kept != b.blocks[i].kept)
      return false;
  return true;
}

void fuzz_resolve(std::string_view base, std::string_view ref) {
  std::string out = langsift::resolve_uri(base, ref);
  if (out.empty()) return;
  check(valid_utf8(out));
  auto u = langsift::parse_uri(out);
  check(u && u->is_absolute());
  check(langsift::resolve_uri("", out) == out);         // resolution is idempotent
  check(langsift::resolve_uri(out, "") == [&] {         // "" resolves to the base minus fragment
    std::string s = out;
    std::size_t h = s.find('#');
    if (h != std::string::npos) s.resize(h);
    return s;
  }());
}

/// Counts what the extractor reports; checks the calls come in order (a tag, its attributes, its end).
struct tag_counter {
  static constexpr bool enabled = true;
  const char* begin;
  const char* end;
  bool open = false;
  std::size_t tags = 0, attributes = 0;
  void start_tag(std::string_view name) {
    check(name.data() > begin && name.data() + name.size() <= end && name.data()[-1] == '<');
    open = true;
  }
  void attribute(std::string_view name, std::string_view value) {
    check(open && !name.empty());
    check(name.data() >= begin && name.data() + name.size() <= end);
    check(value.empty() || (value.data() >= begin && value.data() + value.size() <= end));
    ++attributes;
  }
  void end_of_start_tag() {
    check(open);
    open = false;
    ++tags;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t nl = rest.substr(0, 200).find('\n');
  std::string_view url = nl == std::string_view::npos ? std::string_view() : rest.substr(0, nl);
  std::string_view html = nl == std::string_view::npos ? rest : rest.substr(nl + 1);

  langsift::html_options o;
  o.base_url = url;
  o.collect_links = !(flags & 2);
  if (flags & 4) o.max_input_bytes = html.size() / 2;
  if (flags & 8) o.max_links = 3;

  // Full text, fresh and into a reused result.
  static langsift::html_result reused;  // buffers carried over from earlier inputs
  langsift::html_result full = langsift::extract_html(html, o);
  check_result(full, false);
  langsift::extract_html(html, o, reused);
  check(same(full, reused));

  // Main content, fresh and reused; equal to the kept blocks of the full text.
  o.main_content = true;
  langsift::html_result main = langsift::extract_html(html, o);
  check_result(main, true);
  langsift::extract_html(html, o, reused);
  check(same(main, reused));
  langsift::mark_main_content(full);
  std::string kept;
  for (const auto& b : full.blocks)
    if (b.kept) {
      if (!kept.empty()) kept += '\n';
      kept.append(full.text, b.begin, b.end - b.begin);
    }
  check(kept == main.text);

  // The observed extraction (full text) is the same extraction.
  o.main_content = false;
  tag_counter counter{html.data(), html.data() + html.size()};
  langsift::html_result observed;
  langsift::detail::extract_html_observed(html, o, observed, &counter);
  check(same(observed, langsift::extract_html(html, o)));
  check(counter.tags <= html.size() / 3 + 1);  // "<a>" is the shortest tag

  // decode_html_entities never produces invalid UTF-8.
  check(valid_utf8(langsift::decode_html_entities(html.substr(0, 4096), flags & 1)));
  (void)langsift::looks_like_html(html);

  // URI resolution.
  std::string_view ref = html.substr(0, html.find('\n'));
  fuzz_resolve(url, ref.substr(0, 512));
  return 0;
}
