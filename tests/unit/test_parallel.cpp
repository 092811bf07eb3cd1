// langsift/parallel.hpp: parallel_for and ordered_pool (run under TSan in CI: "thread" tests).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/parallel.hpp"

using langsift::ordered_pool;
using langsift::parallel_for;

TEST_CASE("parallel_for: every index once, on the threads asked for (thread)") {
  for (unsigned threads : {0u, 1u, 2u, 4u}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{17}, std::size_t{1000}}) {
      CAPTURE(threads, n);
      std::vector<std::atomic<int>> hits(n);
      std::mutex m;
      std::vector<std::thread::id> ids;
      parallel_for(n, threads, 7, 1, [&](std::size_t i) {
        hits[i].fetch_add(1);
        std::lock_guard lock(m);
        if (std::find(ids.begin(), ids.end(), std::this_thread::get_id()) == ids.end())
          ids.push_back(std::this_thread::get_id());
      });
      for (std::size_t i = 0; i < n; ++i) CHECK(hits[i].load() == 1);
      if (threads >= 1) CHECK(ids.size() <= threads);
    }
  }
  // min_per_thread: 10 items, at least 16 a thread: the caller's thread alone.
  std::vector<std::thread::id> ids;
  parallel_for(10, 4, 1, 16, [&](std::size_t) { ids.push_back(std::this_thread::get_id()); });
  REQUIRE(ids.size() == 10);
  for (const auto& id : ids) CHECK(id == std::this_thread::get_id());
}

TEST_CASE("parallel_for: the first exception is rethrown after the threads stop (thread)") {
  // Items after 50 wait until item 50 is throwing, then take 20 us each: running all of them
  // would take 2 s, while the thread that threw needs microseconds to stop the rest. (Without
  // the wait, a thread preempted between taking item 50 and running it let the other run every
  // item on a loaded machine: the test failed about once in a few hundred -j2 ctest runs.)
  std::atomic<std::size_t> ran{0};
  std::atomic<bool> throwing{false};
  CHECK_THROWS_WITH(parallel_for(100000, 2, 1, 1,
                                 [&](std::size_t i) {
                                   ran.fetch_add(1);
                                   if (i == 50) {
                                     throwing = true;
                                     throw std::runtime_error("item 50");
                                   }
                                   if (i > 50) {
                                     while (!throwing) std::this_thread::yield();
                                     std::this_thread::sleep_for(std::chrono::microseconds(20));
                                   }
                                 }),
                    "item 50");
  CHECK(ran.load() < 1000);  // the rest was not run
}

TEST_CASE("ordered_pool: results come out in input order, with a bounded number in flight (thread)") {
  for (unsigned threads : {1u, 2u, 4u}) {
    CAPTURE(threads);
    std::vector<int> out;
    std::atomic<int> submitted{0};
    std::size_t max_in_flight_seen = 0;
    constexpr std::size_t kMaxInFlight = 5;
    {
      ordered_pool<int, std::string> pool(
          threads, kMaxInFlight,
          [](int& x) {
            // Uneven work, so that later items often finish first.
            std::this_thread::sleep_for(std::chrono::microseconds((x * 7919) % 300));
            return std::to_string(x);
          },
          [&](std::string& s) {
            out.push_back(std::stoi(s));
            max_in_flight_seen = std::max<std::size_t>(max_in_flight_seen, submitted.load() - out.size() + 1);
          });
      for (int i = 0; i < 300; ++i) {
        pool.submit(i);
        submitted.fetch_add(1);
      }
      pool.finish();
    }
    REQUIRE(out.size() == 300);
    for (int i = 0; i < 300; ++i) CHECK(out[static_cast<std::size_t>(i)] == i);
    CHECK(max_in_flight_seen <= kMaxInFlight + 1);
  }
}

TEST_CASE("ordered_pool: an exception from the work or the sink stops the pool and is rethrown (thread)") {
  for (unsigned threads : {1u, 3u}) {
    CAPTURE(threads);
    std::vector<int> out;
    ordered_pool<int, int> pool(
        threads, 4,
        [](int& x) {
          if (x == 20) throw std::runtime_error("work 20");
          return x;
        },
        [&](int& x) { out.push_back(x); });
    bool thrown = false;
    try {
      for (int i = 0; i < 1000; ++i) pool.submit(i);
      pool.finish();
    } catch (const std::runtime_error& e) {
      thrown = true;
      CHECK(std::string(e.what()) == "work 20");
    }
    CHECK(thrown);
    REQUIRE(out.size() <= 20);  // nothing after the failed item reaches the sink
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == static_cast<int>(i));
    CHECK_THROWS_AS(pool.submit(1), std::runtime_error);  // stopped
  }
  ordered_pool<int, int> pool(
      2, 4, [](int& x) { return x; },
      [](int& x) {
        if (x == 3) throw std::invalid_argument("sink 3");
      });
  CHECK_THROWS_AS(
      [&] {
        for (int i = 0; i < 100; ++i) pool.submit(i);
        pool.finish();
      }(),
      std::invalid_argument);
}

TEST_CASE("ordered_pool: detection on threads sharing one model equals one thread's (thread)") {
  const std::vector<std::string> texts = {
      "Der Hund läuft schnell über die Straße und bellt.", "The dog runs quickly across the street.",
      "Le chien court vite dans la rue.", "El perro corre rápido por la calle.",
      "Il cane corre veloce per la strada.", "Pies biegnie szybko przez ulicę."};
  std::vector<std::string> expected;
  for (const auto& t : texts) expected.emplace_back(langsift::detect(langsift::default_model(), t).language());
  CHECK(expected == std::vector<std::string>{"de", "en", "fr", "es", "it", "pl"});
  std::vector<std::string> got;
  ordered_pool<std::size_t, std::string> pool(
      2, 8, [&](std::size_t& i) { return std::string(langsift::detect(langsift::default_model(), texts[i % texts.size()]).language()); },
      [&](std::string& code) { got.push_back(code); });
  for (std::size_t i = 0; i < 600; ++i) pool.submit(i);
  pool.finish();
  REQUIRE(got.size() == 600);
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == expected[i % texts.size()]);
}
