// n-gram features: the exact feature set of a word, normalisation, separators.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "langsift/ngram.hpp"

using namespace langsift;

namespace {

std::multiset<std::uint64_t> features(std::string_view text, ngram_config cfg = {}) {
  std::multiset<std::uint64_t> out;
  for_each_feature(text, cfg, [&](std::uint64_t h, unsigned) { out.insert(h); });
  return out;
}

std::uint64_t h(std::u32string_view s, unsigned kind) { return feature_hash(s.data(), s.size(), kind); }
std::uint64_t g(std::u32string_view s) { return h(s, static_cast<unsigned>(s.size())); }

}  // namespace

TEST_CASE("a word gives its padded n-grams of orders 1..5 and itself") {
  // " ab " -> orders 1: a b; 2: " a" ab "b "; 3: " ab" "ab "; 4: " ab "; word "ab"
  std::multiset<std::uint64_t> expected = {g(U"a"),   g(U"b"),   g(U" a"),  g(U"ab"), g(U"b "),
                                           g(U" ab"), g(U"ab "), g(U" ab "), h(U"ab", feature_word)};
  CHECK(features("ab") == expected);

  // Orders are told apart by the hash: "ab" as a 2-gram differs from the word "ab".
  CHECK(g(U"ab") != h(U"ab", feature_word));
}

TEST_CASE("n-grams never span two words and the lone boundary is no feature") {
  auto two = features("ab cd");
  auto sum = features("ab");
  auto cd = features("cd");
  sum.insert(cd.begin(), cd.end());
  CHECK(two == sum);
  CHECK(two.count(g(U"b c")) == 0);
  CHECK(two.count(g(U" ")) == 0);
}

TEST_CASE("long words: n-grams of orders up to 5 at every position, no word feature beyond 24") {
  const std::string w24(24, 'x'), w25(25, 'x');
  auto f24 = features(w24), f25 = features(w25);
  CHECK(f24.count(h(std::u32string(24, U'x'), feature_word)) == 1);
  CHECK(std::none_of(f25.begin(), f25.end(), [&](std::uint64_t x) { return x == h(std::u32string(25, U'x'), feature_word); }));
  CHECK(f25.count(g(U"xxxxx")) == 25 - 4);
}

TEST_CASE("normalisation: case folding, composition, separators") {
  CHECK(features("Haus") == features("haus"));
  CHECK(features("ΣΟΦΙΑ") == features("σοφια"));
  // e + combining acute composes to U+00E9
  CHECK(features("caf\xC3\xA9") == features("cafe\xCC\x81"));
  // digits, punctuation and symbols separate words and vote for nothing
  CHECK(features("ab1cd") == features("ab cd"));
  CHECK(features("ab, cd!") == features("ab cd"));
  CHECK(features("12345 !!! ...").empty());
  // combining marks are word characters (Devanagari: the virama stays inside the word)
  CHECK(features("\xE0\xA4\x95\xE0\xA5\x8D\xE0\xA4\xB7").count(h(U"\u0915\u094D\u0937", feature_word)) == 1);
}

TEST_CASE("invalid UTF-8 separates words and never crashes") {
  CHECK(features("ab\xFF" "cd") == features("ab cd"));
  CHECK(features("ab\xC3") == features("ab"));  // truncated sequence at the end
  CHECK(features(std::string_view("a\0b", 3)) == features("a b"));
  CHECK(features("").empty());
}

TEST_CASE("the configuration selects orders and words") {
  ngram_config only3{3, 3, false};
  auto f = features("abc", only3);
  CHECK(f == std::multiset<std::uint64_t>{g(U" ab"), g(U"abc"), g(U"bc ")});
  const std::size_t letters = for_each_feature("abc de", [](std::uint64_t, unsigned) {});
  CHECK(letters == 5);
}

TEST_CASE("both hashings: extraction agrees with feature_hash, and the fixed-order paths with the general one") {
  const std::string text = "Ab cde Straße ĳs naïve 日本語 abcdefghijklmnopqrstuvwxyz0123 \xF0\x9D\x90\x80x e\xCC\x81t\xC3\xA9";
  for (const feature_hashing hashing : {feature_hashing::polynomial, feature_hashing::window}) {
    CAPTURE(static_cast<int>(hashing));
    ngram_config all{1, 5, true, hashing};
    // A word's features, spelled out, in either hashing.
    auto hh = [&](std::u32string_view s, unsigned kind) { return feature_hash(s.data(), s.size(), kind, hashing); };
    const std::multiset<std::uint64_t> ab = {hh(U"a", 1), hh(U"b", 1), hh(U" a", 2), hh(U"ab", 2), hh(U"b ", 2),
                                             hh(U" ab", 3), hh(U"ab ", 3), hh(U" ab ", 4), hh(U"ab", feature_word)};
    CHECK(features("ab", all) == ab);
    CHECK(features("AB", all) == ab);
    // A letter beyond U+FFFF (MATHEMATICAL BOLD CAPITAL A): extraction and feature_hash agree.
    const std::multiset<std::uint64_t> bold = {hh(U"\U0001D400", 1), hh(U" \U0001D400", 2), hh(U"\U0001D400 ", 2),
                                               hh(U" \U0001D400 ", 3), hh(U"\U0001D400", feature_word)};
    CHECK(features("\xF0\x9D\x90\x80", all) == bold);
    CHECK(hh(U" \U0001D400 ", 3) != hh(U" \uD400 ", 3));  // its high bits reach the next slot
    // The instances with orders 4 and 3..4 and the hashing fixed at compile time (those detection
    // uses) give what the general loop gives.
    auto fixed_equals_general = [&]<unsigned Lo>() {
      using list = std::vector<std::pair<std::uint64_t, unsigned>>;
      list general, fixed;
      auto into = [](list& v) { return [&v](std::uint64_t x, unsigned k) { v.push_back({x, k}); }; };
      const ngram_config cfg{Lo, 4, true, hashing};
      for_each_feature(text, cfg, into(general));
      if (hashing == feature_hashing::window) for_each_feature<Lo, 4, 1>(text, cfg, into(fixed));
      else for_each_feature<Lo, 4, 0>(text, cfg, into(fixed));
      CHECK(general.size() > 30);
      CHECK(fixed == general);
    };
    fixed_equals_general.template operator()<4>();
    fixed_equals_general.template operator()<3>();
  }
  // The two hashings share no feature of a text, and neither merges two of its features.
  const auto p = features("Straße naïve", {1, 5, true, feature_hashing::polynomial});
  const auto w = features("Straße naïve", {1, 5, true, feature_hashing::window});
  for (auto x : w) CHECK(p.count(x) == 0);
  CHECK(std::set<std::uint64_t>(w.begin(), w.end()).size() == std::set<std::uint64_t>(p.begin(), p.end()).size());
}
