// langsift-crawlsim: the generated web graph. Deterministic for a seed (own PRNG and
// distributions, nothing from <random>, so every platform generates the same graph).
//
// Pages carry real text (consecutive lines of the training corpora) and real-looking URLs: hosts
// under ccTLDs (mostly of the language's countries) and generic TLDs, host names and path words
// from the page's language (transliterated or romanised for Cyrillic and CJK where sites usually
// are), opaque paths (?id=N, /node/N), and language-code patterns on multilingual hosts (/de/,
// de.host, ?lang=de). Links show language locality: most links stay on the host; links to other
// hosts stay within the language, and non-English pages link to English more often than English
// pages link to other languages (Baykan et al. observed this).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/detail/ascii.hpp"
#include "langsift/detail/hex.hpp"
#include "langsift/detail/utf8.hpp"

namespace crawlsim {

// ---- deterministic randomness ------------------------------------------------------------------
struct rng {
  std::uint64_t s;
  explicit rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(uniform() * static_cast<double>(n)) : 0; }
  bool chance(double p) { return uniform() < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

// ---- languages ---------------------------------------------------------------------------------
struct tld_choice {
  std::string suffix;  // "de", "co.uk", "com.br"
};

struct language_spec {
  std::string code;
  double share;                     // of pages on the simulated web
  std::vector<std::string> cctlds;  // its countries' suffixes
  double cc_prob;                   // hosts under one of them (else a generic TLD)
};

inline std::vector<language_spec> default_languages() {
  return {
      {"en", 0.40, {"co.uk", "us", "com.au", "ie", "ca", "co.nz"}, 0.20},
      {"de", 0.08, {"de", "de", "de", "at", "ch"}, 0.65},
      {"fr", 0.07, {"fr", "fr", "fr", "be", "ca", "ch"}, 0.60},
      {"es", 0.07, {"es", "es", "com.mx", "com.ar", "co", "cl"}, 0.60},
      {"ja", 0.06, {"jp", "co.jp"}, 0.70},
      {"ru", 0.06, {"ru", "ru", "ru", "by", "kz"}, 0.70},
      {"zh", 0.06, {"cn", "com.cn", "tw", "com.tw"}, 0.50},
      {"pt", 0.04, {"com.br", "com.br", "pt"}, 0.65},
      {"it", 0.04, {"it"}, 0.65},
      {"nl", 0.03, {"nl", "nl", "be"}, 0.65},
      {"pl", 0.03, {"pl"}, 0.75},
      {"sv", 0.02, {"se"}, 0.70},
      {"tr", 0.02, {"com.tr", "tr"}, 0.70},
  };
}

// ---- the graph ---------------------------------------------------------------------------------
struct text_ref {
  std::uint32_t first = 0, count = 0;  // lines of the language's corpus
};

struct page {
  std::uint8_t lang;           // true language (index into the language table)
  std::uint32_t host;
  text_ref text;               // main text, in `lang`
  text_ref boiler;             // English boilerplate lines (count 0: none)
  std::string url;
  std::uint32_t links_begin = 0, links_end = 0;
};

struct host {
  std::string name;  // without "www."
  std::uint8_t lang;        // primary language
  std::int16_t lang2 = -1;  // second language on a multilingual host
  std::uint8_t pattern = 0; // 0 path prefix, 1 subdomain, 2 query parameter
  bool prefix_primary = false;
  std::vector<std::uint32_t> pages;  // pages[0] is the home page
  std::vector<std::string> sections;
};

struct corpus {
  std::string bytes;
  std::vector<std::string_view> lines;
  std::vector<std::string> words;  // ASCII host/path words (folded, transliterated, romanised)
};

struct graph {
  std::vector<language_spec> langs;
  std::vector<corpus> corpora;
  std::vector<host> hosts;
  std::vector<page> pages;
  std::vector<std::uint32_t> links;
  std::vector<std::vector<std::uint32_t>> hosts_of_lang;  // hosts with pages in the language
  std::vector<std::uint32_t> seeds;

  std::string text_of(const page& p) const {
    std::string t;
    const corpus& c = corpora[p.lang];
    for (std::uint32_t i = 0; i < p.text.count; ++i) {
      t.append(c.lines[p.text.first + i]);
      t.push_back('\n');
    }
    const corpus& e = corpora[0];
    for (std::uint32_t i = 0; i < p.boiler.count; ++i) {
      t.append(e.lines[p.boiler.first + i]);
      t.push_back('\n');
    }
    return t;
  }
};

// ---- URL words ---------------------------------------------------------------------------------
namespace detail {

// Latin letter (with diacritics) -> ASCII as a slug generator would write it; "" if not a letter.
inline std::string fold_latin(char32_t c) {
  if (c < 0x80 && langsift::detail::is_ascii_alpha(static_cast<unsigned char>(c)))
    return std::string(1, langsift::detail::ascii_lower(static_cast<char>(c)));
  static const char* l1 = "aaaaaaaceeeeiiiidnooooo ouuuuyty";  // U+00E0..U+00FF (and U+00C0.. folded)
  if (c >= 0xC0 && c <= 0xFF && c != 0xD7 && c != 0xF7) {
    if (c == 0xDF) return "ss";
    if (c == 0xE6 || c == 0xC6) return "ae";
    const char r = l1[(c & 0x1F)];
    return r == ' ' ? std::string() : std::string(1, r);
  }
  struct m { char32_t c; const char* a; };
  static const m ext[] = {{0x105, "a"}, {0x107, "c"}, {0x10D, "c"}, {0x119, "e"}, {0x11B, "e"}, {0x11F, "g"},
                          {0x131, "i"}, {0x142, "l"}, {0x144, "n"}, {0x148, "n"}, {0x151, "o"}, {0x153, "oe"},
                          {0x159, "r"}, {0x15B, "s"}, {0x15F, "s"}, {0x161, "s"}, {0x165, "t"}, {0x16F, "u"},
                          {0x171, "u"}, {0x17A, "z"}, {0x17C, "z"}, {0x17E, "z"}, {0x104, "a"}, {0x106, "c"},
                          {0x118, "e"}, {0x141, "l"}, {0x143, "n"}, {0x15A, "s"}, {0x15E, "s"}, {0x179, "z"},
                          {0x17B, "z"}, {0x130, "i"}, {0x11E, "g"}};
  for (const m& x : ext)
    if (x.c == c) return x.a;
  return {};
}

inline std::string translit_cyrillic(char32_t c) {
  static const char* t[] = {"a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
                            "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"};
  if (c >= 0x430 && c <= 0x44F) return t[c - 0x430];
  if (c >= 0x410 && c <= 0x42F) return t[c - 0x410];
  if (c == 0x451 || c == 0x401) return "e";
  return {};
}

inline bool is_cjk_lang(std::string_view code) { return code == "ja" || code == "zh"; }

}  // namespace detail

/// ASCII words of a line as a slug generator would write them (lower case, diacritics folded,
/// Cyrillic transliterated). CJK text yields nothing.
inline std::vector<std::string> ascii_words(std::string_view line, std::string_view code) {
  std::vector<std::string> out;
  std::string w;
  std::size_t i = 0;
  const bool cyr = code == "ru";
  auto flush = [&] {
    if (w.size() >= 2) out.push_back(w);
    w.clear();
  };
  while (i < line.size()) {
    const langsift::detail::utf8_decoded d = langsift::detail::decode_utf8_step(
        reinterpret_cast<const unsigned char*>(line.data() + i), reinterpret_cast<const unsigned char*>(line.data() + line.size()));
    const char32_t c = d.cp;
    i += d.len;
    std::string a = cyr ? detail::translit_cyrillic(c) : std::string();
    if (a.empty()) a = detail::fold_latin(c);
    const bool letter = !a.empty() || (cyr && (c == 0x44A || c == 0x44C || c == 0x42A || c == 0x42C));
    if (letter) w += a;
    else flush();
  }
  flush();
  return out;
}

inline std::string percent_encode(std::string_view s) {
  const char* const hex = langsift::detail::hex_digits_upper;
  std::string o;
  for (unsigned char c : s) {
    if (langsift::detail::is_ascii_alnum(c) || c == '-' || c == '_' || c == '.') {
      o.push_back(static_cast<char>(c));
    } else {
      o.push_back('%');
      o.push_back(hex[c >> 4]);
      o.push_back(hex[c & 15]);
    }
  }
  return o;
}

// Romanised syllables for host names of Japanese and Chinese sites.
inline std::string romanised_name(rng& r, std::string_view code) {
  static const std::vector<std::string> ja = {"ka", "ki", "ku", "ko", "sa", "shi", "su", "ta", "to", "na", "ni", "ha",
                                              "hi", "ma", "mi", "ya", "yama", "kawa", "moto", "tsu", "ra", "ri", "ro",
                                              "no", "da", "shin", "kyo", "go", "ken", "nihon", "tokyo", "osaka"};
  static const std::vector<std::string> zh = {"bei", "jing", "shang", "hai", "zhong", "guo", "xin", "hua", "tian",
                                              "wang", "li", "zhang", "chen", "long", "feng", "dong", "nan", "xi",
                                              "bao", "jia", "ren", "min", "sina", "sou", "hu", "qq", "163", "tao"};
  const auto& v = code == "ja" ? ja : zh;
  std::string s;
  const std::size_t n = 2 + r.below(3);
  for (std::size_t i = 0; i < n; ++i) s += r.pick(v);
  return s;
}

// ---- generation --------------------------------------------------------------------------------
struct graph_options {
  std::size_t pages = 100000;
  std::uint64_t seed = 1;
  double same_host = 0.55;        // links that stay on the host
  double en_stays = 0.90;         // English pages: cross-host links to English pages
  double other_stays = 0.72;      // other pages: cross-host links within their language
  double other_to_en = 0.20;      // ... and to English (the rest to other languages)
  double multilingual = 0.10;     // hosts (of 5+ pages) in two languages, with code patterns
  double boilerplate = 0.15;      // non-English pages with English boilerplate lines
  double opaque = 0.30;           // Latin-script pages with opaque paths
  std::size_t seeds = 30;
};

namespace detail {

/// generate()'s state: the graph being built, its options and its random numbers (drawn in the
/// same order as ever, so that a seed gives the same graph).
struct graph_builder {
  graph& g;
  const graph_options& o;
  rng r;
  const std::size_t L;
  double share_sum = 0;

  graph_builder(graph& gr, const graph_options& op) : g(gr), o(op), r(op.seed), L(gr.langs.size()) {
    for (const auto& l : g.langs) share_sum += l.share;
  }

  /// A language drawn by share, other than `exclude` (-1: any).
  std::uint8_t pick_lang(int exclude) {
    for (;;) {
      double u = r.uniform() * share_sum;
      std::size_t i = 0;
      while (i + 1 < L && u >= g.langs[i].share) u -= g.langs[i++].share;
      if (static_cast<int>(i) != exclude) return static_cast<std::uint8_t>(i);
    }
  }

  /// A new host: its language, name, second language (multilingual hosts) and sections; `size`:
  /// its pages, within what is left of the budget.
  host make_host(std::size_t& size) {
    static const std::vector<std::string> generic = {"com", "com", "com", "com", "com", "com", "com", "com",
                                                     "org", "org", "net", "net", "info", "eu", "biz"};
    host h;
    h.lang = pick_lang(-1);
    size = std::min<std::size_t>(o.pages - g.pages.size(), static_cast<std::size_t>(std::exp(r.uniform() * std::log(150.0))));
    const language_spec& ls = g.langs[h.lang];
    const corpus& c = g.corpora[h.lang];
    std::string suffix;
    if (r.chance(ls.cc_prob)) suffix = r.pick(ls.cctlds);
    else if (r.chance(0.06)) suffix = r.pick(g.langs[pick_lang(h.lang)].cctlds);  // abroad
    else suffix = r.pick(generic);
    std::string name;
    if (is_cjk_lang(ls.code) || c.words.empty()) {
      name = romanised_name(r, ls.code);
    } else {
      name = r.pick(c.words);
      if (r.chance(0.5)) name += (r.chance(0.3) ? "-" : "") + r.pick(c.words);
    }
    if (r.chance(0.1)) name += std::to_string(r.below(100));
    h.name = name + "." + suffix;
    if (size >= 5 && r.chance(o.multilingual)) {
      h.lang2 = h.lang == 0 ? pick_lang(0) : 0;
      h.pattern = static_cast<std::uint8_t>(r.below(3));
      h.prefix_primary = r.chance(0.5);
    }
    for (int s = 0; s < 4; ++s)
      h.sections.push_back(is_cjk_lang(ls.code) || c.words.empty() ? std::string(r.chance(0.5) ? "news" : "html")
                                                                   : r.pick(c.words));
    return h;
  }

  /// The path of page `k` of host `h`: "/" for the home page, else opaque, percent-encoded title
  /// words, or a slug of its title's words.
  std::string page_path(const host& h, const page& p, std::size_t k) {
    if (k == 0) return "/";
    const corpus& pc = g.corpora[p.lang];
    const std::string_view lc = g.langs[p.lang].code;
    const std::string_view title = pc.lines[p.text.first];
    const bool cjk = is_cjk_lang(lc);
    const double opaque = cjk ? 0.7 : o.opaque;
    std::string path;
    if (r.chance(opaque)) {
      static const char* forms[] = {"/index.php?id=", "/p/", "/node/", "/article/", "/?p=", "/archives/"};
      const char* f = forms[r.below(6)];
      path = std::string(f) + std::to_string(1000 + r.below(900000));
      if (std::string_view(f) == "/article/") path += ".html";
    } else if (cjk || (lc == "ru" && r.chance(0.4))) {
      // percent-encoded title words
      std::string t(title.substr(0, std::min<std::size_t>(title.size(), cjk ? 24 : 40)));
      while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80) t.pop_back();
      if (!t.empty() && static_cast<unsigned char>(t.back()) >= 0xC0) t.pop_back();
      path = "/" + h.sections[r.below(4)] + "/" + percent_encode(t);
    } else {
      const auto words = ascii_words(title, lc);
      std::string slug;
      const std::size_t n = std::min<std::size_t>(words.size(), 3 + r.below(4));
      for (std::size_t i = 0; i < n; ++i) slug += (i ? "-" : "") + words[i];
      if (slug.empty()) slug = std::to_string(r.below(100000));
      path = "/" + h.sections[r.below(4)] + "/" + slug + (r.chance(0.3) ? ".html" : "/");
    }
    return path;
  }

  /// Page `k` of host `h` (index `hi`): its language, text, English boilerplate and URL.
  page make_page(const host& h, std::uint32_t hi, std::size_t k, bool www) {
    page p;
    p.host = hi;
    p.lang = (h.lang2 >= 0 && k > 0 && r.chance(0.4)) ? static_cast<std::uint8_t>(h.lang2) : h.lang;
    const corpus& pc = g.corpora[p.lang];
    // text: consecutive lines, log-uniform 200..5000 bytes
    const std::size_t want = static_cast<std::size_t>(200.0 * std::exp(r.uniform() * std::log(25.0)));
    p.text.first = static_cast<std::uint32_t>(r.below(pc.lines.size()));
    std::size_t got = 0;
    while (got < want && p.text.first + p.text.count < pc.lines.size()) got += pc.lines[p.text.first + p.text.count++].size() + 1;
    if (p.lang != 0 && r.chance(o.boilerplate)) {
      const corpus& e = g.corpora[0];
      p.boiler.first = static_cast<std::uint32_t>(r.below(e.lines.size()));
      std::size_t b = 0;
      while (b < got / 3 + 40 && p.boiler.first + p.boiler.count < e.lines.size()) b += e.lines[p.boiler.first + p.boiler.count++].size() + 1;
    }
    // URL
    const std::string_view lc = g.langs[p.lang].code;
    std::string hostname = (www ? "www." : "") + h.name;
    std::string prefix, query;
    if (h.lang2 >= 0 && (p.lang != h.lang || h.prefix_primary)) {
      if (h.pattern == 0) prefix = "/" + std::string(lc);
      else if (h.pattern == 1) hostname = std::string(lc) + "." + h.name;
      else query = "lang=" + std::string(lc);
    }
    std::string path = page_path(h, p, k);
    if (!query.empty()) path += (path.find('?') == std::string::npos ? "?" : "&") + query;
    p.url = (r.chance(0.5) ? "https://" : "http://") + hostname + prefix + path;
    return p;
  }

  /// Hosts and their pages, until the page budget is used.
  void add_hosts() {
    g.hosts_of_lang.assign(L, {});
    while (g.pages.size() < o.pages) {
      std::size_t size = 0;
      host h = make_host(size);
      const auto hi = static_cast<std::uint32_t>(g.hosts.size());
      const bool www = r.chance(0.6);
      for (std::size_t k = 0; k < size; ++k) {
        page p = make_page(h, hi, k, www);
        h.pages.push_back(static_cast<std::uint32_t>(g.pages.size()));
        g.pages.push_back(std::move(p));
      }
      g.hosts_of_lang[h.lang].push_back(hi);
      if (h.lang2 >= 0) g.hosts_of_lang[static_cast<std::size_t>(h.lang2)].push_back(hi);
      g.hosts.push_back(std::move(h));
    }
  }

  /// A page of host `h` in `lang` if one is found (its home page often), else its home page.
  std::uint32_t page_in(const host& h, std::uint8_t lang) {
    if (r.chance(0.4) && g.pages[h.pages[0]].lang == lang) return h.pages[0];
    for (int t = 0; t < 8; ++t) {
      const std::uint32_t q = h.pages[r.below(h.pages.size())];
      if (g.pages[q].lang == lang) return q;
    }
    return h.pages[0];
  }

  /// Every page's out-links: on its host, or to a popular host of a language chosen by the
  /// options' locality shares.
  void add_links() {
    for (std::uint32_t pi = 0; pi < g.pages.size(); ++pi) {
      page& p = g.pages[pi];
      const host& h = g.hosts[p.host];
      p.links_begin = static_cast<std::uint32_t>(g.links.size());
      const std::size_t degree = 3 + std::min<std::size_t>(57, static_cast<std::size_t>(-std::log(1.0 - r.uniform()) * 10.0));
      for (std::size_t k = 0; k < degree; ++k) {
        std::uint32_t q;
        if (h.pages.size() > 1 && r.chance(o.same_host)) {
          q = r.chance(0.2) ? h.pages[0] : page_in(h, r.chance(0.85) ? p.lang : g.pages[h.pages[r.below(h.pages.size())]].lang);
        } else {
          std::uint8_t tl;
          const double u = r.uniform();
          if (p.lang == 0) tl = u < o.en_stays ? 0 : pick_lang(0);
          else if (u < o.other_stays) tl = p.lang;
          else if (u < o.other_stays + o.other_to_en) tl = 0;
          else tl = pick_lang(p.lang);
          const auto& hs = g.hosts_of_lang[tl];
          if (hs.empty()) continue;
          // popularity: earlier hosts of a language are linked far more often
          const std::size_t hi = static_cast<std::size_t>(static_cast<double>(hs.size()) * std::pow(r.uniform(), 2.5));
          q = page_in(g.hosts[hs[std::min(hi, hs.size() - 1)]], tl);
        }
        if (q != pi) g.links.push_back(q);
      }
      p.links_end = static_cast<std::uint32_t>(g.links.size());
    }
  }

  /// Seeds: home pages of popular hosts, languages by share.
  void add_seeds() {
    for (std::size_t s = 0; s < o.seeds; ++s) {
      const auto& hs = g.hosts_of_lang[pick_lang(-1)];
      if (hs.empty()) continue;
      const std::size_t hi = static_cast<std::size_t>(static_cast<double>(hs.size()) * std::pow(r.uniform(), 3.0));
      const std::uint32_t q = g.hosts[hs[std::min(hi, hs.size() - 1)]].pages[0];
      if (std::find(g.seeds.begin(), g.seeds.end(), q) == g.seeds.end()) g.seeds.push_back(q);
    }
  }
};

}  // namespace detail

/// Builds the graph; corpora[i] must hold the text of langs[i] (corpora[0] English).
inline void generate(graph& g, const graph_options& o) {
  detail::graph_builder b(g, o);
  b.add_hosts();
  b.add_links();
  b.add_seeds();
}

}  // namespace crawlsim
