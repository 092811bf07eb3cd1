// The language-aware crawl frontier: URL keys, referrer votes (short pages do not vote), quotas and
// the skip rule, priorities combining votes with URL-classifier scores, saved state (round trips,
// truncated and corrupt files), concurrent updates.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

#include "langsift/default_model.hpp"
#include "langsift/detail/xxhash.hpp"  // XXH3-64, to forge state files
#include "langsift/frontier.hpp"
#include "langsift/url_models.hpp"

using namespace langsift;

namespace {

// A detection as detect() would give it: languages with percents, short or not.
detection page(std::initializer_list<std::pair<std::string_view, int>> langs, bool is_short = false) {
  detection d;
  for (const auto& [code, percent] : langs) {
    d.languages[d.count].code = code;
    d.languages[d.count].percent = percent;
    ++d.count;
  }
  d.text_bytes = is_short ? 100 : 2000;
  d.is_short = is_short;
  return d;
}

url_result url_scores(std::initializer_list<std::pair<std::string_view, float>> langs) {
  url_result r;
  for (const auto& [code, score] : langs) {
    r.languages[r.count].code = code;
    r.languages[r.count].score = score;
    ++r.count;
  }
  r.decision = url_decision::model;
  return r;
}

}  // namespace

TEST_CASE("frontier: URL normalisation and keys") {
  std::string n;
  REQUIRE(normalize_url("HTTP://Www.Example.COM:80/a/b?x=1#frag", n));
  CHECK(n == "http://www.example.com/a/b?x=1");
  REQUIRE(normalize_url("https://example.com", n));
  CHECK(n == "https://example.com/");
  REQUIRE(normalize_url("https://example.com:443/./a/../b", n));
  CHECK(n == "https://example.com/b");
  REQUIRE(normalize_url("http://example.com:8080/", n));
  CHECK(n == "http://example.com:8080/");
  REQUIRE(normalize_url("http://example.com/Straße", n));
  CHECK(n == "http://example.com/Stra%C3%9Fe");
  CHECK_FALSE(normalize_url("/relative/path", n));
  CHECK_FALSE(normalize_url("", n));

  // The WHATWG URL Standard's serialization (see test_conformance_url.cpp for its own tests).
  REQUIRE(normalize_url("http://M\xc3\xbcnchen.DE:80/%2e/a/../b c?q#f", n));
  CHECK(n == "http://xn--mnchen-3ya.de/b%20c?q");
  REQUIRE(normalize_url("http://0x7f.1/", n));
  CHECK(n == "http://127.0.0.1/");
  n = "untouched";
  CHECK_FALSE(normalize_url("http://a b/", n));
  CHECK_FALSE(normalize_url("http://1.2.3.999/", n));
  CHECK(n == "untouched");
  // Both spellings of a host, and of an address, give one key.
  CHECK(url_key("http://xn--mnchen-3ya.de/") == url_key("http://m\xc3\xbcnchen.de/"));
  CHECK(url_key("http://M\xc3\x9cNCHEN.de") == url_key("http://xn--mnchen-3ya.de/"));
  CHECK(url_key("http://127.0.0.1/") == url_key("http://2130706433/"));
  CHECK(url_key("http://[::1]/") == url_key("http://[0:0::0:1]:80/"));
  CHECK(url_key("http://a/%2e%2E/b") == url_key("http://a/b"));

  CHECK(url_key("http://WWW.example.com/#top") == url_key("http://www.example.com/"));
  CHECK(url_key("http://example.com/a") != url_key("http://example.com/b"));
  CHECK(url_key("http://example.com/a") != url_key("https://example.com/a"));
  CHECK(url_key("not a url") != 0);
  CHECK(url_key("") != 0);
}

TEST_CASE("frontier: referrer votes, short pages do not vote, a target collects every guess") {
  frontier f;
  const std::vector<std::string_view> links = {"http://a.example/x", "http://b.example/y"};
  CHECK(f.add_votes(page({{"de", 80}, {"en", 20}}), links) == 4);
  CHECK(f.add_votes(page({{"de", 100}}, /*short*/ true), links) == 0);   // short: no vote
  CHECK(f.add_votes(page({}), links) == 0);                              // und: no vote
  CHECK(f.add_votes(page({{"fr", 90}, {"de", 10}}), links) == 2);        // de under 20 %: no vote
  CHECK(f.add_votes(page({{"de", 100}}), std::vector<std::string_view>{"http://A.example/x#f"}) == 1);

  const auto va = f.votes("http://a.example/x");
  REQUIRE(va.size() == 3);
  CHECK(va[0] == std::pair<std::string, std::uint32_t>{"de", 2});
  CHECK(va[1] == std::pair<std::string, std::uint32_t>{"en", 1});
  CHECK(va[2] == std::pair<std::string, std::uint32_t>{"fr", 1});
  CHECK(f.votes("http://b.example/y").size() == 3);
  CHECK(f.votes("http://c.example/").empty());
  CHECK(f.size() == 2);

  // a fifth language: replaces a single-vote guess, or is not counted when all have more
  frontier g;
  for (std::string_view l : {"a1", "b1", "c1", "d1"}) {
    REQUIRE(g.vote("http://x/", l));
    REQUIRE(g.vote("http://x/", l));
  }
  CHECK_FALSE(g.vote("http://x/", "e1"));
  CHECK(g.votes("http://x/").size() == 4);
  REQUIRE(g.vote("http://y/", "a1"));
  REQUIRE(g.vote("http://y/", "a1"));
  for (std::string_view l : {"b1", "c1", "d1"}) REQUIRE(g.vote("http://y/", l));
  CHECK(g.vote("http://y/", "e1"));
  const auto vy = g.votes("http://y/");
  REQUIRE(vy.size() == 4);
  CHECK(vy[0].first == "a1");
  // bad codes
  CHECK_FALSE(g.vote("http://x/", ""));
  CHECK_FALSE(g.vote("http://x/", "much-too-long-code"));
}

// Known answers below use vote_prior 0 (p(l) = (votes(l) + k·s(l)) / (votes + k)); the prior has
// its own test.
frontier_options no_prior() {
  frontier_options o;
  o.vote_prior = 0;
  return o;
}

TEST_CASE("frontier: quotas, record_fetch and the skip rule (ClueWeb09)") {
  frontier f(no_prior());
  REQUIRE(f.set_quota("de", 2));
  REQUIRE(f.set_quota("fr", 100));
  CHECK(f.quota("de").target == 2);
  CHECK(f.quota("xx").target == 0);

  // fetched pages count for their top language, once per URL
  CHECK(f.record_fetch("http://de.example/1", page({{"de", 100}})));
  CHECK_FALSE(f.record_fetch("http://de.example/1#again", page({{"de", 100}})));
  CHECK(f.quota("de").count == 1);
  CHECK_FALSE(f.saturated("de"));
  CHECK(f.decide("http://de.example/1").reason == frontier_reason::fetched);
  CHECK_FALSE(f.decide("http://de.example/1").fetch());
  CHECK(f.fetched("http://de.example/1"));
  // a fetched URL collects no votes
  CHECK_FALSE(f.vote("http://de.example/1", "fr"));

  f.vote("http://t/only-de", "de");
  f.vote("http://t/de-fr", "de");
  f.vote("http://t/de-fr", "fr");
  f.vote("http://t/only-it", "it");
  CHECK(f.decide("http://t/only-de").fetch());
  CHECK(f.decide("http://t/only-de").priority == Approx(1.0));
  CHECK(f.decide("http://t/only-de").reason == frontier_reason::wanted);
  CHECK(f.decide("http://t/de-fr").priority == Approx(1.0));
  // unlisted language in a focused crawl: fetched, priority 0 (not skipped by default)
  CHECK(f.decide("http://t/only-it").fetch());
  CHECK(f.decide("http://t/only-it").reason == frontier_reason::unwanted);
  CHECK(f.decide("http://t/only-it").priority == 0.0f);
  // nothing known: unknown priority
  CHECK(f.decide("http://t/new").reason == frontier_reason::unknown);
  CHECK(f.decide("http://t/new").priority == Approx(f.options().unknown_priority));
  CHECK(f.decide("").reason == frontier_reason::invalid);

  // de reaches its quota: a URL guessed only de is skipped, one also guessed fr is not
  CHECK(f.record_fetch("http://de.example/2", page({{"de", 60}, {"en", 40}})));
  CHECK(f.saturated("de"));
  CHECK_FALSE(f.all_saturated());
  const frontier_decision x = f.decide("http://t/only-de");
  CHECK(x.action == frontier_action::skip);
  CHECK(x.reason == frontier_reason::saturated);
  const frontier_decision y = f.decide("http://t/de-fr");
  CHECK(y.fetch());
  CHECK(y.priority == Approx(0.5));  // p(fr) = 1/2
  // a URL classifier guess of a saturated language counts for the skip rule too
  const url_result u_de = url_scores({{"de", 0.9f}});
  CHECK(f.decide("http://t/new", &u_de).reason == frontier_reason::saturated);
  // ... but only when it scores min_url_guess or more
  const url_result u_weak = url_scores({{"de", 0.9f}, {"fr", 0.05f}});
  CHECK(f.decide("http://t/new", &u_weak).reason == frontier_reason::saturated);
  const url_result u_fr = url_scores({{"de", 0.5f}, {"fr", 0.4f}});
  CHECK(f.decide("http://t/new", &u_fr).fetch());
  CHECK(f.decide("http://t/new", &u_fr).priority == Approx(0.4 + 0.1 * 0.1));  // + missing mass x unknown

  // skip_unwanted: also skip when no guess is wanted
  frontier_options o = no_prior();
  o.skip_unwanted = true;
  frontier g(o);
  g.set_quota("de", 10);
  g.vote("http://t/it", "it");
  CHECK(g.decide("http://t/it").reason == frontier_reason::saturated);
  // no quota at all: a general crawl, every language wanted
  frontier h(no_prior());
  h.vote("http://t/it", "it");
  CHECK(h.decide("http://t/it").priority == Approx(1.0));
  // removing a quota
  REQUIRE(f.set_quota("de", 0));
  CHECK_FALSE(f.saturated("de"));
}

TEST_CASE("frontier: priority combines referrer votes with URL-classifier scores") {
  frontier f(no_prior());  // url_weight 2: the classifier counts as two votes
  f.set_quota("de", 100);
  f.set_quota("fr", 100);
  const url_result u = url_scores({{"de", 0.8f}, {"nl", 0.2f}});
  // no votes: the URL scores alone
  frontier_decision d = f.decide("http://x/a", &u);
  CHECK(d.priority == Approx(0.8));
  CHECK(d.language() == "de");
  // one fr vote: p(de) = 2*0.8/3, p(fr) = 1/3, p(nl) = 2*0.2/3
  f.vote("http://x/a", "fr");
  d = f.decide("http://x/a", &u);
  CHECK(d.votes == 1);
  CHECK(d.priority == Approx((1.6 + 1.0) / 3));
  REQUIRE(d.count == 3);
  CHECK(d.language() == "de");
  CHECK(d.guesses[0].probability == Approx(1.6 / 3));
  CHECK(d.guesses[1].code.view() == "fr");
  CHECK(d.guesses[2].code.view() == "nl");
  // many votes outweigh the classifier
  for (int i = 0; i < 7; ++i) f.vote("http://x/a", "fr");
  d = f.decide("http://x/a", &u);
  CHECK(d.language() == "fr");
  CHECK(d.guesses[0].probability == Approx(8.0 / 10));
  // url_weight 0: votes alone
  frontier_options o = no_prior();
  o.url_weight = 0;
  frontier g(o);
  g.set_quota("de", 1);
  g.vote("http://x/a", "fr");
  CHECK(g.decide("http://x/a", &u).priority == 0.0f);
  // the real classifier through the convenience overload
  frontier h;
  h.set_quota("de", 10);
  const frontier_decision r = h.decide("http://www.spiegel.de/politik/deutschland/", default_url_classifier());
  CHECK(r.fetch());
  CHECK(r.language() == "de");
  CHECK(r.priority > 0.5f);
}

TEST_CASE("frontier: vote_prior ranks agreeing votes above a single one") {
  frontier f;  // vote_prior 1, unknown_priority 0.1
  f.set_quota("de", 100);
  f.vote("http://x/one", "de");
  for (int i = 0; i < 3; ++i) f.vote("http://x/three", "de");
  f.vote("http://x/split", "de");
  f.vote("http://x/split", "fr");
  const float one = f.decide("http://x/one").priority;
  const float three = f.decide("http://x/three").priority;
  CHECK(one == Approx(0.5 + 0.5 * 0.1));
  CHECK(three == Approx(0.75 + 0.25 * 0.1));
  CHECK(f.decide("http://x/split").priority == Approx(1.0 / 3 + 0.1 / 3));
  CHECK(three > one);
  CHECK(f.decide("http://x/none").priority == Approx(0.1));
  // with URL scores: p(de) = (1 + 2*0.9) / 4, unknown mass (1 + 2*0.1) / 4
  const url_result u = url_scores({{"de", 0.9f}});
  CHECK(f.decide("http://x/one", &u).priority == Approx(2.8 / 4 + 1.2 / 4 * 0.1));
}

TEST_CASE("frontier: real detection votes through add_votes") {
  const std::string de =
      "Die Bundesregierung hat am Mittwoch einen Gesetzentwurf beschlossen, der die Förderung von "
      "erneuerbaren Energien in den kommenden Jahren deutlich ausweiten soll. Nach Angaben des "
      "Wirtschaftsministeriums sollen vor allem Windkraftanlagen an Land und auf See sowie große "
      "Solarparks schneller genehmigt werden. Kritiker bemängeln, dass die Netze nicht im gleichen "
      "Tempo ausgebaut würden und die Kosten für die Verbraucher weiter steigen könnten.";
  const detection d = detect(default_model(), de);
  REQUIRE(d.language() == "de");
  REQUIRE_FALSE(d.is_short);
  frontier f;
  const std::vector<std::string> links = {"http://example.com/a", "http://example.com/b"};
  CHECK(f.add_votes(d, links) == 2);
  CHECK(f.votes("http://example.com/a").at(0).first == "de");
  const detection s = detect(default_model(), "Die Bundesregierung hat am Mittwoch beschlossen.");
  REQUIRE(s.is_short);
  CHECK(f.add_votes(s, links) == 0);
}

TEST_CASE("frontier: saved state round-trips, canonically") {
  frontier f;
  f.set_quota("de", 5);
  f.set_quota("ja", 7);
  f.count_page("de", 3);
  f.count_page("en");
  for (int i = 0; i < 2000; ++i) {
    const std::string u = "http://h" + std::to_string(i % 50) + ".example/p" + std::to_string(i);
    f.vote(u, i % 3 ? "de" : "en");
    if (i % 7 == 0) f.vote(u, "fr");
    if (i % 11 == 0) f.mark_fetched(u);
  }
  const std::string bytes = f.save();
  frontier g;
  g.vote("http://other/", "it");  // replaced by load
  REQUIRE(frontier::load_copy(bytes, g) == status::ok);
  CHECK(g.save() == bytes);
  CHECK(g.size() == f.size());
  CHECK(g.quota("de").target == 5);
  CHECK(g.quota("de").count == 3);
  CHECK(g.quota("en").count == 1);
  CHECK(g.quota("ja").target == 7);
  CHECK(g.votes("http://other/").empty());
  CHECK(g.votes("http://h1.example/p1") == f.votes("http://h1.example/p1"));
  CHECK(g.fetched("http://h0.example/p0"));
  CHECK(g.decide("http://h3.example/p3").priority == f.decide("http://h3.example/p3").priority);

  // a file
  const std::string path = std::string(LANGSIFT_BINARY_DIR) + "/test-frontier-state.bin";
  REQUIRE(f.save_file(path) == status::ok);
  frontier h;
  REQUIRE(frontier::load_file(path, h) == status::ok);
  CHECK(h.save() == bytes);
  std::remove(path.c_str());
  std::string missing;
  CHECK(frontier::load_file(path, h, &missing) == status::io_error);
  CHECK(missing.find(path) != std::string::npos);

  // an empty frontier round-trips too
  frontier e;
  frontier e2;
  REQUIRE(frontier::load_copy(e.save(), e2) == status::ok);
  CHECK(e2.size() == 0);
}

TEST_CASE("frontier: save_file writes a FIFO in place, not a regular file renamed over it") {
  // Renaming over a path that is not a regular file replaces it: as root, saving to /dev/null
  // would replace the device. A FIFO stands in for it here.
  frontier f;
  f.vote("http://h.example/a", "de");
  const std::string bytes = f.save();
  const std::string fifo = std::string(LANGSIFT_BINARY_DIR) + "/test-frontier-fifo";
  std::remove(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  const status st = f.save_file(fifo);
  reader.join();
  CHECK(st == status::ok);
  CHECK(got == bytes);
  struct stat sb {};
  REQUIRE(::lstat(fifo.c_str(), &sb) == 0);
  CHECK(S_ISFIFO(sb.st_mode));
  std::remove(fifo.c_str());
}

TEST_CASE("frontier: tied guesses are ordered by code, the same live and reloaded (fuzz_capi_frontier)") {
  // One vote each from an "x" page and a "de" page: p = 1/3 each. The answer must not depend on
  // the order the votes came in, nor on a save and load (which keeps guesses in code order).
  for (const bool x_first : {true, false}) {
    frontier f;
    const std::string_view first = x_first ? "x" : "de", second = x_first ? "de" : "x";
    f.vote("http://a.example/", first);
    f.vote("http://a.example/", second);
    const frontier_decision live = f.decide("http://a.example/");
    REQUIRE(live.count == 2);
    CHECK(live.language() == "de");
    CHECK(live.guesses[1].code.view() == "x");
    frontier g;
    REQUIRE(frontier::load_copy(f.save(), g) == status::ok);
    const frontier_decision loaded = g.decide("http://a.example/");
    CHECK(loaded.language() == "de");
    CHECK(loaded.priority == live.priority);
  }
}

TEST_CASE("frontier: options out of range are brought into range, priorities stay in 0..1 (fuzz_capi_frontier)") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(frontier::in_range(frontier_options{}));
  for (const float w : {inf, -inf, nan, std::numeric_limits<float>::max(), -1.0f}) {
    frontier_options o;
    o.url_weight = w;
    o.vote_prior = w;
    o.min_url_guess = w;
    o.unknown_priority = w;
    CHECK_FALSE(frontier::in_range(o));
    frontier f(o);
    CHECK(frontier::in_range(f.options()));
    CHECK(f.options().url_weight >= 0);
    CHECK(f.options().url_weight <= 1e6f);
    CHECK(f.options().unknown_priority >= 0);
    CHECK(f.options().unknown_priority <= 1);
    f.vote("http://a.example/", "de");
    const url_result u = url_scores({{"de", 0.9f}});
    for (const frontier_decision& d : {f.decide("http://a.example/"), f.decide("http://a.example/", &u),
                                       f.decide("http://b.example/")}) {
      CHECK(d.priority >= 0);
      CHECK(d.priority <= 1);
    }
  }
}

TEST_CASE("frontier: truncated, corrupt and foreign state files are rejected, the state kept") {
  frontier f;
  f.set_quota("de", 5);
  for (int i = 0; i < 100; ++i) f.vote("http://x/" + std::to_string(i), "de");
  const std::string bytes = f.save();

  frontier g;
  g.vote("http://mine/", "fr");
  const std::string before = g.save();
  // every truncation
  for (std::size_t n = 0; n < bytes.size(); n += (n < 64 ? 1 : 37)) {
    std::string message;
    CHECK(frontier::load_copy(std::string_view(bytes).substr(0, n), g, &message) == status::corrupt_state);
    CHECK_FALSE(message.empty());
  }
  CHECK(g.save() == before);
  // a flipped bit anywhere
  for (std::size_t i = 0; i < bytes.size(); i += 13) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x10);
    CHECK(frontier::load_copy(b, g) != status::ok);
  }
  CHECK(g.save() == before);
  // an appended byte
  CHECK(frontier::load_copy(bytes + "x", g) == status::corrupt_state);
  // another version
  std::string v = bytes;
  v[8] = 2;
  std::string rv;
  CHECK(frontier::load_copy(v, g, &rv) == status::model_version);
  CHECK(rv.find("version 2") != std::string::npos);
  // not a state file
  std::string rm;
  CHECK(frontier::load_copy("PK\3\4 this is a zip file, not a frontier state, at all.", g, &rm) == status::corrupt_state);
  CHECK(rm.find("magic") != std::string::npos);
  // a bad structure under a valid checksum: duplicate keys, bad language index
  std::string d = bytes;
  const std::size_t slots_at = d.size() - 8 - 100 * 16;
  std::memcpy(&d[slots_at + 16], &d[slots_at], 8);  // second key = first key
  const std::uint64_t sum = XXH3_64bits(d.data(), d.size() - 8);
  std::memcpy(&d[d.size() - 8], &sum, 8);
  std::string rd;
  CHECK(frontier::load_copy(d, g, &rd) == status::corrupt_state);
  CHECK(rd.find("increasing") != std::string::npos);
  CHECK(g.save() == before);
}

TEST_CASE("frontier: concurrent updates from several threads give the state one thread gives") {
  auto url = [](int i) { return "http://h" + std::to_string(i % 97) + ".example/page/" + std::to_string(i); };
  const std::string_view langs[] = {"de", "fr", "en", "ja"};
  constexpr int kUrls = 20000;
  auto work = [&](frontier& f, int t, int threads) {
    for (int i = t; i < kUrls; i += threads) {
      f.vote(url(i), langs[i % 4]);
      f.vote(url(i / 2), langs[(i / 3) % 4]);
      f.vote(url(i * 7 % kUrls), langs[(i + 1) % 4]);
      if (i % 5 == 0) f.record_fetch(url(i + kUrls), page({{langs[i % 3], 100}}));
      (void)f.decide(url(i + 1));
    }
  };
  frontier one;
  one.set_quota("de", 1000);
  work(one, 0, 1);
  frontier many;
  many.set_quota("de", 1000);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) ts.emplace_back([&, t] { work(many, t, 4); });
  for (auto& th : ts) th.join();
  CHECK(many.size() == one.size());
  CHECK(many.quota("de").count == one.quota("de").count);
  CHECK(many.save() == one.save());
}

TEST_CASE("frontier: max_urls bounds memory") {
  frontier_options o;
  o.max_urls = 640;
  frontier f(o);
  for (int i = 0; i < 5000; ++i) f.vote("http://x/" + std::to_string(i), "de");
  CHECK(f.size() <= 640 + frontier::kShards);
  CHECK(f.dropped_votes() == 5000 - f.size());
  CHECK(f.memory_bytes() < 64 * 1024);
  // a URL not kept is still decided (unknown)
  CHECK(f.decide("http://x/4999").fetch());
}
