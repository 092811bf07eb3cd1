// Review of a single-byte answer among the code pages of its script: short texts leave uchardet
// guessing between close code pages (windows-1250 / iso-8859-2, windows-1257 / windows-1252,
// koi8-r / koi8-u, ...). Each candidate decodes the sample; its score is the best, over the
// languages written in legacy code pages, of how likely that language writes the letters the
// decoding gives and the pairs its 8-bit letters form with their neighbours (counted on training
// text by gen_letter_tables.py), plus a prior for the code pages the language's pages on the web
// used, minus what makes poor words (controls, undefined bytes, symbols inside words, case flips,
// two scripts in a word). docs/encoding.md, "Review of close code pages", gives the weights.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "detect_parts.hpp"
#include "internal.hpp"
#include "langsift/detail/immortal.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

struct letter_logp {
  char16_t cp;
  float logp;  // log of the letter's share of the language's letters
};

struct language_letters {
  const char* code;
  const char* pages;  // comma-separated, most used first
  std::uint16_t offset, count;  // slice of k_letter_logp
  std::uint16_t pair_offset, pair_count;  // slice of k_pair_keys and k_pair_pmi
};

#include "letter_tables.inc"

constexpr std::size_t k_languages = std::size(k_language_letters);

// Groups of code pages one text could be read in; the first group a page is in is its group.
constexpr std::string_view k_latin_pages[] = {
    "windows-1252", "iso-8859-15", "windows-1250", "iso-8859-2", "windows-1257", "iso-8859-13",
    "iso-8859-4", "windows-1254", "iso-8859-3", "iso-8859-14", "iso-8859-16", "iso-8859-10",
    "windows-1258", "viscii", "macintosh", "x-mac-ce", "x-mac-turkish", "ibm850", "ibm852",
    "ibm437", "ibm865", "ibm775", "ibm857", "ibm860", "ibm861", "ibm863"};
constexpr std::string_view k_cyrillic_pages[] = {"windows-1251", "koi8-r",         "koi8-u", "iso-8859-5",
                                                 "ibm866",       "x-mac-cyrillic", "ibm855"};
constexpr std::string_view k_greek_pages[] = {"windows-1253", "iso-8859-7", "ibm737", "ibm869", "x-mac-greek"};

constexpr std::string_view k_hebrew_pages[] = {"windows-1255", "iso-8859-8", "iso-8859-8-i", "ibm862"};

constexpr std::string_view k_arabic_pages[] = {"windows-1256", "iso-8859-6", "ibm864"};

constexpr std::span<const std::string_view> k_page_groups[] = {k_latin_pages, k_cyrillic_pages, k_greek_pages,
                                                               k_hebrew_pages, k_arabic_pages};

// Letter log-probabilities of one language, by code point: U+0000..U+06FF and U+1E00..U+1EFF
// (Latin, Greek, Cyrillic, Hebrew, Arabic, combining marks, Vietnamese), in eighths of a nat
// (-128 = not seen: the floor).
constexpr std::size_t k_dense = 0x800;
constexpr float k_floor_logp = -14.0f;
// s and t with comma below are the cedilla letters of the legacy code pages (Romanian)
inline char16_t fold_letter(char16_t u) {
  if (u == 0x0219) return 0x015F;
  if (u == 0x021B) return 0x0163;
  return u;
}

inline std::size_t dense_index(char16_t u) {
  u = fold_letter(u);
  if (u < 0x700) return u;
  if (u >= 0x1E00 && u < 0x1F00) return 0x700 + (u - 0x1E00);
  return k_dense;
}

struct letter_model {
  std::int8_t logp[k_languages][k_dense];
  float lookup(std::size_t lang, char16_t u) const {
    std::size_t i = dense_index(u);
    if (i >= k_dense || logp[lang][i] == -128) return k_floor_logp;
    return logp[lang][i] / 8.0f;
  }
};

const letter_model& get_letter_model() {
  static const letter_model* m = [] {
    auto* lm = new letter_model;
    std::memset(lm->logp, -128, sizeof lm->logp);
    for (std::size_t l = 0; l < k_languages; ++l) {
      const language_letters& ll = k_language_letters[l];
      for (std::size_t k = ll.offset; k < std::size_t(ll.offset) + ll.count; ++k) {
        std::size_t i = dense_index(k_letter_logp[k].cp);
        if (i < k_dense) lm->logp[l][i] = static_cast<std::int8_t>(std::max(-127.0f, std::round(k_letter_logp[k].logp * 8)));
      }
    }
    return lm;
  }();
  return *m;
}

// How much more often the language writes x next to y than chance would (pointwise mutual
// information, nats); a pair it never writes (or once) scores k_unseen_pair.
constexpr float k_unseen_pair = -3.0f;

float pair_pmi(std::size_t l, char16_t x, char16_t y) {
  const language_letters& ll = k_language_letters[l];
  const std::uint32_t* first = k_pair_keys + ll.pair_offset;
  const std::uint32_t* last = first + ll.pair_count;
  const std::uint32_t key = static_cast<std::uint32_t>(x) << 16 | y;
  const std::uint32_t* it = std::lower_bound(first, last, key);
  if (it == last || *it != key) return k_unseen_pair;
  return k_pair_pmi[it - k_pair_keys] / 8.0f;
}

// What a code page makes of each byte, computed once per page.
struct page_chars {
  const encoding_info* info = nullptr;
  char16_t lower[256];
  char_kind kind[256];
  UScriptCode script[256];
  bool symbol[256];  // a math, currency, modifier or other symbol, or a number other than a digit
  bool text_punct[256];  // typographic punctuation of running text: U+2010..U+2026, « », ¡ ¿, NBSP
};

constexpr float k_unlisted_prior = -6.0f;

// The prior of page `name` for language l: 0 for its most used page, -1 for the next, ...; -6
// for a page its web pages did not use.
float page_prior(std::size_t l, std::string_view name) {
  std::string_view pages = k_language_letters[l].pages;
  float prior = 0;
  while (!pages.empty()) {
    std::size_t comma = pages.find(',');
    if (pages.substr(0, comma) == name) return prior;
    prior -= 1.0f;
    if (comma == std::string_view::npos) break;
    pages.remove_prefix(comma + 1);
  }
  return k_unlisted_prior;
}

struct page_group_data {
  std::vector<page_chars> pages;
  std::vector<std::vector<float>> prior;  // [page][language]
  // [page]: a page some language's web used, reading 7-bit bytes as ASCII: one the review may
  // choose (the others are only kept when uchardet answers them)
  std::vector<char> choosable;
};

const page_group_data& group_data(std::size_t g) {
  static std::once_flag once[std::size(k_page_groups)];
  // Never destroyed (detail::immortal): threads may still detect encodings while the process exits.
  static detail::immortal<std::array<page_group_data, std::size(k_page_groups)>> all;
  auto& data = all.get();
  std::call_once(once[g], [g, &data] {
    for (std::string_view name : k_page_groups[g]) {
      const encoding_info* e = find_encoding(name);
      const sbcs_table* t = e ? get_sbcs_table(*e) : nullptr;
      if (!t) continue;
      page_chars pc;
      pc.info = e;
      for (int b = 0; b < 256; ++b) {
        char16_t u = t->map[b];
        pc.kind[b] = kind_of(u);
        pc.lower[b] = is_letterish(pc.kind[b]) ? static_cast<char16_t>(u_tolower(u)) : u;
        pc.script[b] = is_letterish(pc.kind[b]) && pc.kind[b] != ck_mark ? script_of(u) : USCRIPT_COMMON;
        const std::int8_t type = static_cast<std::int8_t>(u_charType(u));
        pc.symbol[b] = type == U_MATH_SYMBOL || type == U_CURRENCY_SYMBOL || type == U_MODIFIER_SYMBOL ||
                       type == U_OTHER_SYMBOL || type == U_OTHER_NUMBER;
        pc.text_punct[b] = (u >= 0x2010 && u <= 0x2026) || u == 0xAB || u == 0xBB || u == 0xA1 || u == 0xBF || u == 0xA0;
      }
      std::vector<float> prior(k_languages);
      bool used = false;
      for (std::size_t l = 0; l < k_languages; ++l) {
        prior[l] = page_prior(l, e->name);
        used |= prior[l] > k_unlisted_prior;
      }
      data[g].choosable.push_back(used && t->ascii_identity);
      data[g].pages.push_back(pc);
      data[g].prior.push_back(std::move(prior));
    }
  });
  return data[g];
}

// The group of a page and its index there; false if it is in none.
bool find_in_groups(std::string_view name, std::size_t& g, std::size_t& i) {
  for (g = 0; g < std::size(k_page_groups); ++g) {
    const page_group_data& d = group_data(g);
    for (i = 0; i < d.pages.size(); ++i)
      if (d.pages[i].info->name == name) return true;
  }
  return false;
}

// ASCII letters count half: they choose the language, and on short texts full of names they
// would outweigh the 8-bit letters that tell the code pages apart
constexpr float k_ascii_weight = 0.75f;

constexpr float k_letter_bonus = 10.0f;  // a letter of share e^-10 (0.005 %) scores 0
constexpr float k_bad_weight = 5.0f;    // per implausibility (a symbol inside a word, "wOrd")
constexpr float k_undefined_weight = 10.0f;  // per control or undefined byte
constexpr float k_punct_bonus = 3.0f;
constexpr float k_pair_weight = 1.0f;       // per pair an 8-bit letter forms (two per letter)
constexpr std::size_t k_pair_positions = 64;  // 8-bit bytes whose pairs are scored
constexpr float k_pair_reach = 40.0f;
constexpr float k_max_letter_logp = 0.0f;  // a bound: no letter's log share exceeds 0 (priors are <= 0 too)  // readings this far behind on letters are not paired  // per typographic punctuation mark (as a letter of share e^-7)

// The sample's bytes as the review reads them: a histogram and where the 8-bit bytes are.
struct review_sample {
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  std::size_t hist[256] = {};
  std::vector<std::uint32_t> high;  // positions of bytes >= 0x80 (the first 2,048)
  std::vector<std::uint8_t> present;  // the distinct bytes >= 0x80
  std::vector<std::size_t> by_ascii;  // languages, best ASCII letter score first
};

// A page's reading of the sample, letter by letter: its two best languages.
struct page_reading {
  float bad = 0;                       // implausibilities (controls, symbols inside words, ...)
  float top[2] = {-1e30f, -1e30f};     // ASCII letters + 8-bit letters + prior, of...
  std::size_t top_lang[2] = {0, 0};    // ...these two languages
  float letters_score() const { return top[0] - bad; }
};

page_reading read_letters(const review_sample& s, const page_chars& pc, const std::vector<float>& prior,
                          const std::vector<float>& ascii_score, const letter_model& lm) {
  page_reading r;
  // implausibilities around the 8-bit bytes
  float& bad = r.bad;
  auto kind_at = [&](std::size_t i) -> char_kind { return i < s.n ? pc.kind[s.p[i]] : ck_space; };
  for (std::uint32_t i : s.high) {
    const unsigned char b = s.p[i];
    const char_kind k = pc.kind[b];
    const char_kind prev = i ? kind_at(i - 1) : ck_space;
    if (k == ck_undefined || k == ck_control) {
      bad += k_undefined_weight;
    } else if (is_letterish(k)) {
      if (k == ck_upper && prev == ck_lower) bad += k_bad_weight;
      if (k != ck_mark && i && is_letterish(prev) && prev != ck_mark) {
        UScriptCode ps = s.p[i - 1] < 0x80 ? USCRIPT_LATIN : pc.script[s.p[i - 1]];
        UScriptCode sc = pc.script[b];
        if (ps != USCRIPT_COMMON && sc != USCRIPT_COMMON && ps != sc) bad += k_bad_weight;
      }
    } else if (pc.text_punct[b] && !(is_letterish(prev) && is_letterish(kind_at(i + 1)) && !word_internal(pc.lower[b]))) {
      bad -= k_punct_bonus;  // quotes, dashes, an ellipsis, a no-break space: common in text
    } else if (k == ck_symbol && (is_letterish(prev) || is_letterish(kind_at(i + 1)))) {
      // a symbol or a fraction against a letter ("½ufs", "k›benhavn"); punctuation only inside a
      // word (quotes and brackets stand against letters)
      if (pc.symbol[b] || (is_letterish(prev) && is_letterish(kind_at(i + 1)) && !word_internal(pc.lower[b])))
        bad += k_bad_weight;
    }
  }
  // letters one by one: the two best languages
  std::uint8_t letters[128];  // the 8-bit bytes of the sample that this page reads as letters
  std::size_t n_letters = 0;
  for (std::uint8_t b : s.present)
    if (is_letterish(pc.kind[b])) letters[n_letters++] = b;
  float* top = r.top;
  std::size_t* top_lang = r.top_lang;
  std::size_t letter_bytes = 0;
  for (std::size_t j = 0; j < n_letters; ++j) letter_bytes += s.hist[letters[j]];
  // languages by their ASCII letters, best first: once a language cannot reach the second best
  // even if every 8-bit letter were its commonest, neither can the rest
  const float most = static_cast<float>(letter_bytes) * (k_letter_bonus + k_max_letter_logp);
  for (std::size_t l : s.by_ascii) {
    if (ascii_score[l] + most < top[1]) break;
    float v = ascii_score[l] + prior[l];
    for (std::size_t j = 0; j < n_letters; ++j)
      v += s.hist[letters[j]] * (lm.lookup(l, pc.lower[letters[j]]) + k_letter_bonus);
    if (v > top[0]) {
      top[1] = top[0], top_lang[1] = top_lang[0];
      top[0] = v, top_lang[0] = l;
    } else if (v > top[1]) {
      top[1] = v, top_lang[1] = l;
    }
  }
  return r;
}

// The reading's score with the pairs its 8-bit letters form with their neighbours, for its two
// best languages; `listed`: the page is one that the best of them used on the web.
float score_pairs(const review_sample& s, const page_chars& pc, const std::vector<float>& prior,
                  const page_reading& r, bool& listed) {
  auto stream_char = [&](std::size_t i) -> char16_t {  // 0: a combining mark (no pair)
    if (i >= s.n) return u' ';
    const unsigned char c = s.p[i];
    if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? static_cast<char16_t>(c | 0x20) : u' ';
    const char_kind k = pc.kind[c];
    if (k == ck_mark) return 0;
    return is_letterish(k) ? fold_letter(pc.lower[c]) : u' ';
  };
  float best = -1e30f;
  for (int t = 0; t < 2; ++t) {
    const std::size_t l = r.top_lang[t];
    float v = r.top[t];
    std::size_t scored = 0;
    for (std::uint32_t i : s.high) {
      if (++scored > k_pair_positions) break;
      const char16_t c = stream_char(i);
      if (c == 0 || c == u' ') continue;
      const char16_t prev = i ? stream_char(i - 1) : u' ';
      const char16_t next = stream_char(i + 1);
      if (prev) v += k_pair_weight * pair_pmi(l, prev, c);
      if (next) v += k_pair_weight * pair_pmi(l, c, next);
    }
    if (v > best) {
      best = v;
      listed = prior[l] > k_unlisted_prior;
    }
  }
  return best - r.bad;
}

bool decode_same(const review_sample& s, const page_chars& a, const page_chars& b) {
  const sbcs_table* ta = get_sbcs_table(*a.info);
  const sbcs_table* tb = get_sbcs_table(*b.info);
  for (std::uint8_t x : s.present)
    if (ta->map[x] != tb->map[x]) return false;
  return true;
}

// The page of `name`'s group that reads the sample best, or `name` when none does clearly better.
// An alternative that decodes the sample identically only needs to be preferred (the prior of
// the language's web pages); one that decodes it differently must score `k_review_margin` more.
constexpr float k_review_margin = 1.0f;

constexpr float k_same_margin = 1.5f;

constexpr float k_listed_margin = 3.0f;

}  // namespace

/// The bytes of a sample the review reads at most (detect_encoding's default sample).
constexpr std::size_t kReviewBytes = 64 * 1024;

std::string_view review_single_byte(std::string_view sample, std::string_view name, bool all_groups) {
  std::size_t g, cur;
  if (!find_in_groups(name, g, cur)) return name;
  // the candidates: the pages of name's group, or of every group
  std::vector<const page_chars*> pages;
  std::vector<const std::vector<float>*> priors;
  for (std::size_t k = 0; k < std::size(k_page_groups); ++k) {
    if (!all_groups && k != g) continue;
    const page_group_data& d = group_data(k);
    for (std::size_t i = 0; i < d.pages.size(); ++i) {
      if (k == g && i == cur) {
        cur = pages.size();
      } else if (!d.choosable[i]) {
        continue;
      }
      pages.push_back(&d.pages[i]);
      priors.push_back(&d.prior[i]);
    }
  }
  review_sample s;
  s.p = reinterpret_cast<const unsigned char*>(sample.data());
  // The whole sample up to 64 KB, every 8-bit byte of it: the byte that tells two pages apart
  // may come late (a 19 KB Greek page's first Ά, iso-8859-7 0xB6, windows-1253's ¶, after its
  // 3,996th 8-bit byte), and uchardet now reads only a prefix (detect.cpp, uchardet_prefix).
  s.n = std::min<std::size_t>(sample.size(), kReviewBytes);
  // Letters inside markup (<html>, <p class=...>) say nothing of the text's language: the
  // histogram skips tags.
  for (std::size_t i = 0; i < s.n; ++i) {
    if (s.p[i] == '<' && i + 1 < s.n && (s.p[i + 1] == '/' || s.p[i + 1] == '!' || (s.p[i + 1] | 0x20) >= 'a')) {
      const void* end = std::memchr(s.p + i, '>', s.n - i);
      if (end) {
        i = static_cast<std::size_t>(static_cast<const unsigned char*>(end) - s.p);
        continue;
      }
    }
    ++s.hist[s.p[i]];
    if (s.p[i] >= 0x80) s.high.push_back(static_cast<std::uint32_t>(i));
  }
  if (s.high.empty()) return name;
  for (int b = 0x80; b < 0x100; ++b)
    if (s.hist[b]) s.present.push_back(static_cast<std::uint8_t>(b));
  const letter_model& lm = get_letter_model();
  std::vector<float> ascii_score(k_languages, 0.0f);
  for (std::size_t l = 0; l < k_languages; ++l)
    for (int b = 'A'; b <= 'z'; ++b)
      if (s.hist[b] && ((b >= 'A' && b <= 'Z') || b >= 'a'))
        ascii_score[l] += s.hist[b] * (lm.lookup(l, static_cast<char16_t>(b | 0x20)) + k_letter_bonus);
  for (float& a : ascii_score) a *= k_ascii_weight;
  s.by_ascii.resize(k_languages);
  for (std::size_t l = 0; l < k_languages; ++l) s.by_ascii[l] = l;
  std::stable_sort(s.by_ascii.begin(), s.by_ascii.end(),
                   [&](std::size_t a, std::size_t b) { return ascii_score[a] > ascii_score[b]; });
  std::vector<page_reading> readings(pages.size());
  float best_letters = -1e30f;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    readings[i] = read_letters(s, *pages[i], *priors[i], ascii_score, lm);
    best_letters = std::max(best_letters, readings[i].letters_score());
  }
  // Pairs only for the readings within reach of the best one on letters alone (a long text in
  // one script leaves one); the others are out.
  std::size_t in_reach = 0;
  for (const page_reading& r : readings) in_reach += r.letters_score() >= best_letters - k_pair_reach;
  std::vector<float> score(pages.size(), -1e30f);
  std::vector<char> listed(pages.size(), 0);
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const page_reading& r = readings[i];
    if (r.letters_score() < best_letters - k_pair_reach) continue;
    bool l = false;
    if (in_reach > 1) {
      score[i] = score_pairs(s, *pages[i], *priors[i], r, l);
    } else {
      score[i] = r.letters_score();
      l = (*priors[i])[r.top_lang[0]] > k_unlisted_prior;
    }
    listed[i] = l;
  }
  const bool cur_listed = listed[cur];
  // uchardet's answer is a page its best language's web pages used: overriding it takes more
  const float margin = cur_listed ? k_listed_margin : k_review_margin;
  std::size_t best = cur;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    // Only to a page that the best language of its reading used on the web (the candidates are
    // pages some language used, reading 7-bit bytes as ASCII: not VISCII, which only uchardet
    // may answer).
    if (i == cur || score[i] <= score[best] || !listed[i]) continue;
    const bool same = decode_same(s, *pages[i], *pages[cur]);
    if (score[i] > score[cur] + (same ? k_same_margin : margin)) best = i;
  }
  return pages[best]->info->name;
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
