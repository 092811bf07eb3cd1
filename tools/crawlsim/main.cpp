// langsift-crawlsim — a SIMULATED crawl over a generated web graph (graph.hpp), comparing frontier
// strategies for a language-focused crawl: breadth-first, ccTLD, URL classifier, referrer votes
// and votes + URL classifier combined, all through langsift::frontier. Pages are detected with
// langsift::detect and the built-in model; URLs classified by the built-in URL classifier.
// Also: --measure N, the frontier's memory and update/decide throughput for N URLs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <thread>
#include <vector>

#include "common/cli.hpp"
#include "crawlsim/graph.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/frontier.hpp"
#include "langsift/options.hpp"
#include "langsift/url.hpp"
#include "langsift/url_models.hpp"

namespace {

constexpr const char* kProgram = "langsift-crawlsim";

/// What the command line gives langsift-crawlsim.
struct crawl_args {
  std::string data, targets_arg = "de,ja,pl,sv";
  std::size_t pages = 100000, budget = 10000, quota_each = 1000, measure_n = 0;
  std::uint64_t seed = 1;
  langsift::frontier_options fo;
};

using option_row = langsift::cli::option<crawl_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of langsift-crawlsim: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  using A = crawl_args;
  using V = option_value;
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-crawlsim --data DIR [options]\n"
       "       langsift-crawlsim --measure N\n"
       "\n"
       "A simulated crawl (not a real one): generates a web graph whose pages carry text from\n"
       "DIR/<code>.txt (the training corpora) and crawls it with five frontier strategies.\n"
       "\n"
       "options:\n"},
      {value_kind::text, "--data", nullptr, "DIR", "",  // in the usage line above
       [](A& a, const V& v) { a.data = v.text; return true; }, 0, 0, nullptr, "a directory"},
      {value_kind::size, "--pages", nullptr, "N", "pages in the graph (default 100000)",
       [](A& a, const V& v) { a.pages = static_cast<std::size_t>(v.size); return true; }, 1000, 0, nullptr,
       "a number >= 1000"},
      {value_kind::size, "--seed", nullptr, "N", "graph seed (default 1)",
       [](A& a, const V& v) { a.seed = v.size; return true; }, 0, 0, nullptr, "a number"},
      {value_kind::text, "--targets", nullptr, "L,...",
       "single-target runs, one per language of the graph (default de,ja,pl,sv;\n"
       "the graph's: en,de,fr,es,ja,ru,zh,pt,it,nl,pl,sv,tr; another is a usage error)",
       [](A& a, const V& v) { a.targets_arg = v.text; return true; }, 0, 0, nullptr, "language codes"},
      {value_kind::size, "--budget", nullptr, "N", "fetches per single-target run (default 10000)",
       [](A& a, const V& v) { a.budget = static_cast<std::size_t>(v.size); return true; }, 1, 0, nullptr,
       "a positive number"},
      {value_kind::size, "--quota", nullptr, "N",
       "per-language quota of the multi-quota run over all languages (default 1000;\n"
       "0 skips it); its budget is 1.5 x the quotas' sum",
       [](A& a, const V& v) { a.quota_each = static_cast<std::size_t>(v.size); return true; }, 0, 0, nullptr, "a number"},
      {value_kind::real, "--url-weight", nullptr, "K",
       "frontier_options::url_weight (default 2: the URL classifier counts as\n"
       "two referrer votes in the combined strategy)",
       [](A& a, const V& v) { a.fo.url_weight = static_cast<float>(v.real); return true; }, 0, 3.4e38, nullptr,
       "a number >= 0"},
      {value_kind::size, "--measure", nullptr, "N", "frontier memory and throughput for N URLs, then exit",
       [](A& a, const V& v) { a.measure_n = static_cast<std::size_t>(v.size); return true; }, 1, 0, nullptr,
       "a positive number"},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 19); }

using langsift::frontier;
using clk = std::chrono::steady_clock;

double seconds_since(clk::time_point t0) { return std::chrono::duration<double>(clk::now() - t0).count(); }

std::size_t rss_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, res = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &res);
  std::fclose(f);
  return n == 2 ? res * 4096ul : 0;
}

// ---- measurement -------------------------------------------------------------------------------
int measure(std::size_t n) {
  std::vector<std::string> urls;
  urls.reserve(n);
  crawlsim::rng r(7);
  for (std::size_t i = 0; i < n; ++i)
    urls.push_back("http://www.host" + std::to_string(r.below(n / 20 + 1)) + ".example.com/section/page-" +
                   std::to_string(i) + ".html");
  const std::string_view langs[] = {"de", "en", "fr", "ja"};
  std::vector<std::uint64_t> keys(n);
  auto t0 = clk::now();
  for (std::size_t i = 0; i < n; ++i) keys[i] = langsift::url_key(urls[i]);
  const double key_s = seconds_since(t0);
  std::printf("frontier measurement, %zu URLs (synthetic URLs of ~60 bytes, 2 votes each)\n\n", n);
  std::printf("| measure | value |\n|---|---|\n");
  std::printf("| url_key (normalise + XXH3), 1 thread | %.2f M URLs/s |\n", static_cast<double>(n) / key_s / 1e6);
  {
    const std::size_t rss0 = rss_bytes();
    frontier f;
    t0 = clk::now();
    for (std::size_t i = 0; i < n; ++i) f.vote_key(keys[i], langs[i % 4]);
    const double s1 = seconds_since(t0);
    for (std::size_t i = 0; i < n; ++i) f.vote_key(keys[i], langs[(i / 4) % 4]);
    const std::size_t rss1 = rss_bytes();
    std::printf("| URLs known | %zu |\n", f.size());
    std::printf("| memory_bytes() | %.1f MB = %.1f bytes/URL = %.1f MB per million URLs |\n",
                static_cast<double>(f.memory_bytes()) / 1e6, static_cast<double>(f.memory_bytes()) / static_cast<double>(n),
                static_cast<double>(f.memory_bytes()) / static_cast<double>(n));
    std::printf("| RSS growth while filling | %.1f MB = %.1f MB per million URLs |\n", static_cast<double>(rss1 - rss0) / 1e6,
                static_cast<double>(rss1 - rss0) / static_cast<double>(n));
    std::printf("| vote_key, new URLs, 1 thread | %.2f M/s |\n", static_cast<double>(n) / s1 / 1e6);
    t0 = clk::now();
    double sink = 0;
    for (std::size_t i = 0; i < n; ++i) sink += f.decide_key(keys[i]).priority;
    const double s2 = seconds_since(t0);
    std::printf("| decide_key (votes only), 1 thread | %.2f M/s |\n", static_cast<double>(n) / s2 / 1e6);
    const langsift::url_result ur = langsift::default_url_classifier().classify(urls[0]);
    t0 = clk::now();
    for (std::size_t i = 0; i < n; ++i) sink += f.decide_key(keys[i], &ur).priority;
    const double s3 = seconds_since(t0);
    std::printf("| decide_key (votes + given URL scores), 1 thread | %.2f M/s |\n", static_cast<double>(n) / s3 / 1e6);
    const std::size_t m = std::min<std::size_t>(n, 200000);
    t0 = clk::now();
    for (std::size_t i = 0; i < m; ++i) sink += f.decide(urls[i], langsift::default_url_classifier()).priority;
    const double s4 = seconds_since(t0);
    std::printf("| decide(url, classifier) incl. url_key and classification, 1 thread | %.3f M/s |\n",
                static_cast<double>(m) / s4 / 1e6);
    t0 = clk::now();
    const std::string saved = f.save();
    const double s5 = seconds_since(t0);
    frontier g;
    t0 = clk::now();
    std::string message;
    const langsift::status io = frontier::load_copy(saved, g, &message);
    const double s6 = seconds_since(t0);
    std::printf("| save() | %.1f MB in %.2f s |\n| load_copy() | %s in %.2f s |\n", static_cast<double>(saved.size()) / 1e6, s5,
                io == langsift::status::ok ? "ok" : message.c_str(), s6);
    if (sink < 0) std::printf("\n");
  }
  {
    frontier f;
    const unsigned T = 2;
    t0 = clk::now();
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < T; ++t)
      ts.emplace_back([&, t] {
        for (std::size_t i = t; i < n; i += T) f.vote_key(keys[i], langs[i % 4]);
      });
    for (auto& th : ts) th.join();
    const double s = seconds_since(t0);
    std::printf("| vote_key, new URLs, %u threads | %.2f M/s |\n", T, static_cast<double>(n) / s / 1e6);
  }
  return 0;
}

// ---- the crawl ---------------------------------------------------------------------------------
enum class url_source { none, cctld, classifier };

struct strategy {
  const char* name;
  bool language_aware;
  bool votes;
  url_source urls;
};

const strategy kStrategies[] = {
    {"breadth-first", false, false, url_source::none},
    {"ccTLD", true, false, url_source::cctld},
    {"URL classifier", true, false, url_source::classifier},
    {"referrer votes", true, true, url_source::none},
    {"combined", true, true, url_source::classifier},
};

struct sim {
  const crawlsim::graph& g;
  std::vector<std::uint64_t> keys;
  std::vector<std::optional<langsift::detection>> det;
  std::vector<std::optional<langsift::url_result>> cls, cc;
  std::vector<std::string> cc_codes;  // storage for ccTLD answers

  explicit sim(const crawlsim::graph& gr) : g(gr), keys(gr.pages.size()), det(gr.pages.size()), cls(gr.pages.size()), cc(gr.pages.size()) {
    for (std::size_t i = 0; i < g.pages.size(); ++i) keys[i] = langsift::url_key(g.pages[i].url);
  }
  const langsift::detection& detection(std::uint32_t p) {
    if (!det[p]) det[p] = langsift::detect(langsift::default_model(), g.text_of(g.pages[p]));
    return *det[p];
  }
  const langsift::url_result* url_scores(std::uint32_t p, url_source s) {
    if (s == url_source::none) return nullptr;
    if (s == url_source::classifier) {
      if (!cls[p]) cls[p] = langsift::default_url_classifier().classify(g.pages[p].url);
      return &*cls[p];
    }
    if (!cc[p]) {
      langsift::url_result r;
      langsift::url_parts parts;
      if (langsift::parse_url(g.pages[p].url, parts) == langsift::status::ok) {
        const std::string_view l = langsift::cctld_language(parts);
        if (!l.empty()) {
          r.count = 1;
          r.languages[0] = {l, 1.0f};  // views into static country tables
        }
      }
      cc[p] = r;
    }
    return &*cc[p];
  }
};

struct run_result {
  std::vector<std::pair<std::size_t, double>> harvest;  // fetches, cumulative harvest
  std::vector<std::pair<std::size_t, double>> window;   // fetches, harvest since the previous checkpoint
  std::size_t fetched = 0, skipped = 0;
  std::size_t all_met_at = 0;                  // fetches when every quota was met (true language); 0 never
  std::vector<std::size_t> true_count;         // per language
  std::vector<std::size_t> detected_count;     // per language, as the frontier counted
  std::size_t useful = 0;                      // fetches that counted toward an unmet quota (true language)
  bool exhausted = false;                      // frontier empty before the budget
};

struct entry {
  float pri;
  std::uint32_t seq, page;
  bool operator<(const entry& o) const { return pri != o.pri ? pri < o.pri : seq > o.seq; }
};

run_result crawl(sim& s, const strategy& st, const std::vector<std::size_t>& quota, std::size_t budget,
                 const std::vector<std::size_t>& checkpoints, const langsift::frontier_options& fo) {
  const crawlsim::graph& g = s.g;
  const std::size_t L = g.langs.size();
  frontier f(fo);
  for (std::size_t l = 0; l < L; ++l)
    if (quota[l]) f.set_quota(g.langs[l].code, quota[l]);
  run_result res;
  res.true_count.assign(L, 0);
  res.detected_count.assign(L, 0);
  std::vector<float> pushed(g.pages.size(), -1.0f);
  std::vector<std::uint8_t> done(g.pages.size(), 0);
  std::priority_queue<entry> pq;
  std::uint32_t seq = 0;
  auto consider = [&](std::uint32_t q) {
    if (done[q]) return;
    if (!st.language_aware) {
      if (pushed[q] < 0) {
        pushed[q] = 0;
        pq.push({0, seq++, q});
      }
      return;
    }
    const langsift::frontier_decision d = f.decide_key(s.keys[q], s.url_scores(q, st.urls));
    if (!d.fetch()) return;
    if (d.priority != pushed[q]) {
      pushed[q] = d.priority;
      pq.push({d.priority, seq++, q});
    }
  };
  for (std::uint32_t p : g.seeds) consider(p);
  std::size_t cp = 0, hits = 0, window_hits = 0, window_start = 0;
  const bool single = std::count_if(quota.begin(), quota.end(), [](std::size_t q) { return q > 0; }) == 1;
  std::size_t target = 0;
  for (std::size_t l = 0; l < L; ++l)
    if (quota[l]) target = l;
  while (res.fetched < budget) {
    if (pq.empty()) {
      res.exhausted = true;
      break;
    }
    const entry e = pq.top();
    pq.pop();
    if (done[e.page] || e.pri != pushed[e.page]) continue;  // fetched, or a stale entry
    if (st.language_aware) {
      const langsift::frontier_decision d = f.decide_key(s.keys[e.page], s.url_scores(e.page, st.urls));
      if (!d.fetch()) {
        pushed[e.page] = -1;
        ++res.skipped;
        continue;
      }
      if (d.priority < e.pri) {  // quotas filled since: requeue at the new priority
        pushed[e.page] = d.priority;
        pq.push({d.priority, seq++, e.page});
        continue;
      }
    }
    // fetch
    done[e.page] = 1;
    ++res.fetched;
    const crawlsim::page& p = g.pages[e.page];
    const langsift::detection& d = s.detection(e.page);
    f.record_fetch_key(s.keys[e.page], d);
    for (std::size_t l = 0; l < L; ++l)
      if (d.count && d.language() == g.langs[l].code) ++res.detected_count[l];
    const bool useful = quota[p.lang] && res.true_count[p.lang] < quota[p.lang];
    ++res.true_count[p.lang];
    if (useful) ++res.useful;
    const bool hit = single ? p.lang == target : useful;
    hits += hit;
    window_hits += hit;
    if (!res.all_met_at) {
      bool all = true;
      for (std::size_t l = 0; l < L; ++l)
        if (quota[l] && res.true_count[l] < quota[l]) all = false;
      if (all) res.all_met_at = res.fetched;
    }
    if (cp < checkpoints.size() && res.fetched == checkpoints[cp]) {
      res.harvest.emplace_back(res.fetched, static_cast<double>(hits) / static_cast<double>(res.fetched));
      res.window.emplace_back(res.fetched, static_cast<double>(window_hits) / static_cast<double>(res.fetched - window_start));
      window_hits = 0;
      window_start = res.fetched;
      ++cp;
    }
    // out-links
    thread_local std::vector<std::uint64_t> ks;
    ks.clear();
    for (std::uint32_t i = p.links_begin; i < p.links_end; ++i) ks.push_back(s.keys[g.links[i]]);
    if (st.votes) f.add_votes_keys(d, ks);
    for (std::uint32_t i = p.links_begin; i < p.links_end; ++i) consider(g.links[i]);
    if (!single && f.all_saturated()) break;  // ClueWeb09: every quota met (as detected)
  }
  return res;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", 100.0 * x);
  return b;
}

/// The corpora of the graph's languages, DIR/<code>.txt: their lines and frequent words. False
/// after the error.
bool read_corpora(const std::string& data, crawlsim::graph& g) {
  const std::size_t L = g.langs.size();
  g.corpora.resize(L);
  for (std::size_t l = 0; l < L; ++l) {
    std::string err;
    crawlsim::corpus& c = g.corpora[l];
    if (!langsift::cli::read_file(data + "/" + g.langs[l].code + ".txt", c.bytes, err)) return langsift::cli::fail(kProgram, err) == 0;
    std::string_view b = c.bytes;
    while (!b.empty()) {
      const std::size_t nl = b.find('\n');
      const std::string_view line = b.substr(0, nl);
      if (line.size() > 1) c.lines.push_back(line);
      if (nl == std::string_view::npos) break;
      b.remove_prefix(nl + 1);
    }
    if (c.lines.size() < 100) return langsift::cli::fail(kProgram, data + "/" + g.langs[l].code + ".txt: too few lines");
    std::map<std::string, int> freq;
    for (std::size_t i = 0; i < c.lines.size(); i += 3)
      for (auto& w : crawlsim::ascii_words(c.lines[i], g.langs[l].code))
        if (w.size() >= 4 && w.size() <= 12) ++freq[w];
    for (auto& [w, n] : freq)
      if (n >= 3) c.words.push_back(w);
  }
  return true;
}

/// The graph's statistics: pages and link locality per language, links to other hosts, sample URLs.
void print_graph_stats(const crawlsim::graph& g, std::uint64_t seed) {
  const std::size_t L = g.langs.size();
  std::vector<std::size_t> n(L, 0);
  std::vector<std::vector<std::size_t>> m(L, std::vector<std::size_t>(L, 0));
  std::size_t cross = 0;
  for (const auto& p : g.pages) {
    ++n[p.lang];
    for (std::uint32_t i = p.links_begin; i < p.links_end; ++i) {
      const auto& q = g.pages[g.links[i]];
      ++m[p.lang][q.lang];
      cross += q.host != p.host;
    }
  }
  std::printf("| language | pages | share | links to same language | links to en (non-en) / to non-en (en) |\n|---|---|---|---|---|\n");
  for (std::size_t l = 0; l < L; ++l) {
    std::size_t out = 0;
    for (std::size_t k = 0; k < L; ++k) out += m[l][k];
    const double same = out ? static_cast<double>(m[l][l]) / static_cast<double>(out) : 0;
    const double other = out ? (l == 0 ? 1.0 - same : static_cast<double>(m[l][0]) / static_cast<double>(out)) : 0;
    std::printf("| %s | %zu | %s %% | %s %% | %s %% |\n", g.langs[l].code.c_str(), n[l],
                pct(static_cast<double>(n[l]) / static_cast<double>(g.pages.size())).c_str(), pct(same).c_str(), pct(other).c_str());
  }
  std::printf("\nlinks to other hosts: %s %%\n\n", pct(static_cast<double>(cross) / static_cast<double>(g.links.size())).c_str());
  std::printf("sample URLs:\n\n");
  crawlsim::rng r(seed + 99);
  for (int i = 0; i < 12; ++i) {
    const auto& p = g.pages[r.below(g.pages.size())];
    std::printf("    %s  %s\n", g.langs[p.lang].code.c_str(), p.url.c_str());
  }
  std::printf("\n");
}

/// The components' accuracy on this graph (every 10th page): detection, URL classifier, ccTLD.
void print_components(sim& s) {
  const crawlsim::graph& g = s.g;
  const std::size_t L = g.langs.size();
  auto t0 = clk::now();
  std::size_t n = 0, det_ok = 0, short_n = 0, url_ok = 0, url_und = 0, cc_ok = 0, cc_none = 0;
  std::vector<std::size_t> ln(L, 0), ld(L, 0), lu(L, 0), lc(L, 0), lu_said(L, 0), lc_said(L, 0), lc_said_ok(L, 0);
  for (std::uint32_t p = 0; p < g.pages.size(); p += 10) {
    const auto& pg = g.pages[p];
    const std::string_view code = g.langs[pg.lang].code;
    const auto& d = s.detection(p);
    ++n;
    det_ok += d.language() == code;
    short_n += d.is_short;
    const auto* u = s.url_scores(p, url_source::classifier);
    url_ok += u->language() == code;
    url_und += u->count == 0;
    const auto* c = s.url_scores(p, url_source::cctld);
    cc_ok += c->language() == code;
    cc_none += c->count == 0;
    ++ln[pg.lang];
    ld[pg.lang] += d.language() == code;
    lu[pg.lang] += u->language() == code;
    lc[pg.lang] += c->language() == code;
    for (std::size_t l = 0; l < L; ++l) {
      lu_said[l] += u->language() == g.langs[l].code;
      lc_said[l] += c->language() == g.langs[l].code;
    }
    if (c->language() == code) ++lc_said_ok[pg.lang];
  }
  auto sh = [&](std::size_t k) { return pct(static_cast<double>(k) / static_cast<double>(n)); };
  std::fprintf(stderr, "%s: components measured in %.1f s\n", kProgram, seconds_since(t0));
  std::printf("components on every 10th page (%zu pages):\n\n", n);
  std::printf("| component | top language = true language | other |\n|---|---|---|\n");
  std::printf("| langsift::detect, built-in model | %s %% | %s %% of pages are short (< 400 text bytes) |\n",
              sh(det_ok).c_str(), sh(short_n).c_str());
  std::printf("| URL classifier (built-in) | %s %% | %s %% und |\n", sh(url_ok).c_str(), sh(url_und).c_str());
  std::printf("| ccTLD | %s %% | %s %% no ccTLD |\n\n", sh(cc_ok).c_str(), sh(cc_none).c_str());
  auto ratio = [](std::size_t a, std::size_t b) { return b ? pct(static_cast<double>(a) / static_cast<double>(b)) : std::string("–"); };
  std::printf("per language: recall (top answer = true language) of detection, URL classifier and ccTLD, and "
              "precision (true language = the answer) of the URL classifier and ccTLD:\n\n");
  std::printf("| language | pages | detect | URL recall | URL precision | ccTLD recall | ccTLD precision |\n"
              "|---|---|---|---|---|---|---|\n");
  for (std::size_t l = 0; l < L; ++l)
    std::printf("| %s | %zu | %s | %s | %s | %s | %s |\n", g.langs[l].code.c_str(), ln[l], ratio(ld[l], ln[l]).c_str(),
                ratio(lu[l], ln[l]).c_str(), ratio(lu[l], lu_said[l]).c_str(), ratio(lc[l], ln[l]).c_str(),
                ratio(lc_said_ok[l], lc_said[l]).c_str());
  std::printf("\n");
}

/// The single-target runs, one per --targets language: harvest rates per strategy. 0, or the exit
/// status (reported).
int run_single_targets(sim& s, const crawl_args& a, const std::vector<std::string>& targets) {
  const crawlsim::graph& g = s.g;
  const std::size_t L = g.langs.size(), budget = a.budget;
  const langsift::frontier_options& fo = a.fo;
  clk::time_point t0;
  std::vector<std::size_t> cps;
  for (std::size_t c : {500, 1000, 2000, 5000, 10000, 20000, 50000, 100000})
    if (c <= budget) cps.push_back(c);
  if (cps.empty() || cps.back() != budget) cps.push_back(budget);
  for (const std::string& tcode : targets) {
    std::size_t tl = L;
    for (std::size_t l = 0; l < L; ++l)
      if (g.langs[l].code == tcode) tl = l;
    if (tl == L) return langsift::cli::fail(kProgram, "--targets: no language " + tcode + " in the graph");
    std::vector<std::size_t> quota(L, 0);
    quota[tl] = g.pages.size();  // never met: the run measures harvest, not stopping
    std::size_t in_graph = 0;
    for (const auto& p : g.pages) in_graph += p.lang == tl;
    std::printf("## target %s (%zu pages of %zu in the graph, %s %%), budget %zu fetches\n\n", tcode.c_str(), in_graph,
                g.pages.size(), pct(static_cast<double>(in_graph) / static_cast<double>(g.pages.size())).c_str(), budget);
    std::printf("harvest rate (%% of fetched pages in %s, cumulative) after N fetches:\n\n| strategy |", tcode.c_str());
    for (std::size_t c : cps) std::printf(" %zu |", c);
    std::printf(" skipped |\n|---|");
    for (std::size_t i = 0; i < cps.size(); ++i) std::printf("---|");
    std::printf("---|\n");
    std::vector<run_result> rs;
    for (const strategy& st : kStrategies) {
      t0 = clk::now();
      run_result r = crawl(s, st, quota, budget, cps, fo);
      std::printf("| %s |", st.name);
      for (std::size_t i = 0; i < cps.size(); ++i) {
        if (i < r.harvest.size()) std::printf(" %s |", pct(r.harvest[i].second).c_str());
        else std::printf(" – |");
      }
      std::printf(" %zu%s |\n", r.skipped, r.exhausted ? " (frontier empty)" : "");
      std::fprintf(stderr, "%s: %s, target %s: %.1f s\n", kProgram, st.name, tcode.c_str(), seconds_since(t0));
      rs.push_back(std::move(r));
    }
    std::printf("\nharvest rate in each interval (fetches since the previous checkpoint):\n\n| strategy |");
    for (std::size_t c : cps) std::printf(" ≤%zu |", c);
    std::printf("\n|---|");
    for (std::size_t i = 0; i < cps.size(); ++i) std::printf("---|");
    std::printf("\n");
    for (std::size_t k = 0; k < rs.size(); ++k) {
      std::printf("| %s |", kStrategies[k].name);
      for (std::size_t i = 0; i < cps.size(); ++i) {
        if (i < rs[k].window.size()) std::printf(" %s |", pct(rs[k].window[i].second).c_str());
        else std::printf(" – |");
      }
      std::printf("\n");
    }
    std::printf("\n");
  }

  return 0;
}

/// The multi-quota run (ClueWeb09: a quota per language, stop a language when its quota is met).
void run_quotas(sim& s, const crawl_args& a) {
  const crawlsim::graph& g = s.g;
  const std::size_t L = g.langs.size(), quota_each = a.quota_each;
  const langsift::frontier_options& fo = a.fo;
  std::vector<std::size_t> quota(L, quota_each);
  const std::size_t mbudget = quota_each * L * 3 / 2;
  std::printf("## quotas: %zu pages for each of the %zu languages, budget %zu fetches\n\n", quota_each, L, mbudget);
  std::printf("quota completion (true language of fetched pages, capped at the quota) at the end; useful = "
              "fetches that counted toward an unmet quota:\n\n| strategy | fetched | useful | completion | all met after |");
  for (const auto& l : g.langs) std::printf(" %s |", l.code.c_str());
  std::printf("\n|---|---|---|---|---|");
  for (std::size_t l = 0; l < L; ++l) std::printf("---|");
  std::printf("\n");
  std::vector<std::size_t> mcps;
  for (std::size_t c : {1000, 2000, 5000, 10000, 15000, 20000, 30000, 50000})
    if (c < mbudget) mcps.push_back(c);
  mcps.push_back(mbudget);
  std::vector<run_result> rs;
  for (const strategy& st : kStrategies) {
    run_result r = crawl(s, st, quota, mbudget, mcps, fo);
    std::size_t met = 0;
    for (std::size_t l = 0; l < L; ++l) met += std::min(r.true_count[l], quota[l]);
    std::printf("| %s | %zu | %s %% | %s %% | %s |", st.name, r.fetched,
                pct(static_cast<double>(r.useful) / static_cast<double>(std::max<std::size_t>(r.fetched, 1))).c_str(),
                pct(static_cast<double>(met) / static_cast<double>(quota_each * L)).c_str(),
                r.all_met_at ? std::to_string(r.all_met_at).c_str() : "not met");
    for (std::size_t l = 0; l < L; ++l)
      std::printf(" %s |", pct(std::min(1.0, static_cast<double>(r.true_count[l]) / static_cast<double>(quota[l]))).c_str());
    std::printf("\n");
    rs.push_back(std::move(r));
  }
  std::printf("\nuseful fetches (%% of fetched, cumulative) after N fetches:\n\n| strategy |");
  for (std::size_t c : mcps) std::printf(" %zu |", c);
  std::printf("\n|---|");
  for (std::size_t i = 0; i < mcps.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (std::size_t k = 0; k < rs.size(); ++k) {
    std::printf("| %s |", kStrategies[k].name);
    for (std::size_t i = 0; i < mcps.size(); ++i) {
      if (i < rs[k].harvest.size()) std::printf(" %s |", pct(rs[k].harvest[i].second).c_str());
      else std::printf(" – |");
    }
    std::printf("\n");
  }
  std::printf("\n");
}

}  // namespace

int run_main(int argc, char** argv) {
  crawl_args a;
  std::vector<std::string> positional;
  if (const int rc = langsift::cli::parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0)
    return rc;
  if (!positional.empty())
    return langsift::cli::fail(kProgram, "unexpected argument '" + positional[0] + "'; see --help") + 1;
  if (a.measure_n) return measure(a.measure_n);
  // The targets are languages of the simulated graph: another code is a usage error, before any work.
  const std::vector<std::string> targets = langsift::parse_code_list(a.targets_arg);  // either ISO form, any case
  for (const std::string& t : targets) {
    bool known = false;
    for (const auto& l : crawlsim::default_languages()) known = known || l.code == t;
    if (!known) return langsift::cli::fail(kProgram, "--targets: not a language of the simulated graph: " + t) + 1;
  }
  if (a.data.empty()) {
    return langsift::cli::fail(kProgram, "--data DIR is required; see --help") + 1;
  }
  crawlsim::graph g;
  g.langs = crawlsim::default_languages();
  if (!read_corpora(a.data, g)) return 1;
  crawlsim::graph_options go;
  go.pages = a.pages;
  go.seed = a.seed;
  auto t0 = clk::now();
  crawlsim::generate(g, go);
  std::printf("# langsift-crawlsim: a simulated crawl\n\n");
  std::printf("This is a simulation over a generated graph, not a crawl of the web.\n\n");
  std::fprintf(stderr, "%s: graph generated in %.1f s\n", kProgram, seconds_since(t0));
  std::printf("graph: %zu pages, %zu hosts, %zu links, %zu seeds, seed %llu; frontier url_weight %g\n\n", g.pages.size(),
              g.hosts.size(), g.links.size(), g.seeds.size(), static_cast<unsigned long long>(a.seed),
              static_cast<double>(a.fo.url_weight));
  print_graph_stats(g, a.seed);
  sim s(g);
  print_components(s);
  if (const int rc = run_single_targets(s, a, targets); rc != 0) return rc;
  if (a.quota_each) run_quotas(s, a);
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run(kProgram, "lower --pages", [&] { return run_main(argc, argv); });
}
