// HTML text extraction throughput (MB/s of HTML in, documents/s), full text and main content.
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON
//   ninja -C build-bench langsift-microbench
//   build-bench/langsift-microbench --benchmark_filter='html|uri'
//
// Inputs (from tests/data/html/main-content):
//   large  ~39 KB: news-article + blog-comments + wiki-article concatenated (scripts, styles,
//          navigation, comments, tables, many links: the composition of a real page)
//   pages  the 9 gold pages in turn (6-15 KB, 9.9 KB on average)
//   small  ~1.4 KB: a short page with a header, a menu, two paragraphs and a footer
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/html.hpp"
#include "langsift/uri.hpp"

namespace {

std::string read(const std::string& name) {
  std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/html/main-content/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const std::vector<std::string>& pages() {
  static const std::vector<std::string> p = [] {
    std::vector<std::string> v;
    for (const char* n : {"news-article.html", "blog-comments.html", "forum-thread.html", "product-page.html",
                          "wiki-article.html", "language-picker-cookie.html", "german-news.html",
                          "japanese-blog.html", "portal-home.html"})
      v.push_back(read(n));
    return v;
  }();
  return p;
}

const std::string& large_page() {
  static const std::string s = read("news-article.html") + read("blog-comments.html") + read("wiki-article.html");
  return s;
}

const std::string& small_page() {
  static const std::string s =
      "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Opening hours | Riverside Library</title>"
      "<link rel=stylesheet href=/s.css><script>var t=Date.now();</script></head><body>"
      "<header><a href=/><img src=/logo.png alt='Riverside Library'></a><nav><ul><li><a href=/>Home</a>"
      "<li><a href=/books>Books</a><li><a href=/events>Events</a><li><a href=/visit>Visit</a>"
      "<li><a href=/contact>Contact</a></ul></nav></header><main><h1>Opening hours</h1>"
      "<p>The library is open from 9am to 7pm on weekdays and from 10am to 4pm on Saturdays. It is "
      "closed on Sundays and on public holidays. The reading room closes fifteen minutes earlier.</p>"
      "<p>During the summer holidays the children&rsquo;s section runs story mornings every Tuesday "
      "and Thursday at 10.30am. There is no need to book, but please arrive a few minutes early.</p>"
      "</main><footer><p>&copy; 2024 Riverside Library &middot; <a href=/privacy>Privacy</a> &middot; "
      "<a href=/accessibility>Accessibility</a></p></footer></body></html>";
  return s;
}

void run(benchmark::State& state, const std::vector<const std::string*>& docs, bool main_content) {
  langsift::html_options o;
  o.base_url = "https://www.example.com/section/page.html";
  o.main_content = main_content;
  langsift::html_result r;  // reused: the steady state of a crawler's worker
  std::size_t bytes = 0, i = 0;
  for (auto _ : state) {
    const std::string& d = *docs[i];
    i = (i + 1) % docs.size();
    langsift::extract_html(d, o, r);
    benchmark::DoNotOptimize(r.text.data());
    bytes += d.size();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_html_large(benchmark::State& state) { run(state, {&large_page()}, state.range(0) != 0); }
void BM_html_pages(benchmark::State& state) {
  std::vector<const std::string*> v;
  for (const auto& p : pages()) v.push_back(&p);
  run(state, v, state.range(0) != 0);
}
void BM_html_small(benchmark::State& state) { run(state, {&small_page()}, state.range(0) != 0); }

void BM_html_large_fresh_result(benchmark::State& state) {
  langsift::html_options o;
  o.base_url = "https://www.example.com/section/page.html";
  for (auto _ : state) {
    langsift::html_result r = langsift::extract_html(large_page(), o);
    benchmark::DoNotOptimize(r.text.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large_page().size()));
}

void BM_uri_resolve(benchmark::State& state) {
  const char* refs[] = {"../img/a.png", "/section/other.html?x=1&y=2", "//cdn.example.net/s.js",
                        "page2.html#top", "https://other.example/path/to/page"};
  std::string out;
  std::size_t i = 0;
  for (auto _ : state) {
    langsift::resolve_uri("https://www.example.com/section/sub/page.html?q=1", refs[i % 5], out);
    benchmark::DoNotOptimize(out.data());
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace

BENCHMARK(BM_html_large)->ArgName("main")->Arg(0)->Arg(1);
BENCHMARK(BM_html_pages)->ArgName("main")->Arg(0)->Arg(1);
BENCHMARK(BM_html_small)->ArgName("main")->Arg(0)->Arg(1);
BENCHMARK(BM_html_large_fresh_result);
BENCHMARK(BM_uri_resolve);
