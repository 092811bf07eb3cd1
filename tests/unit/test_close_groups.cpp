// Close groups (langsift/close_groups.hpp): the file format, attaching groups to a model, and the
// built-in default model's own groups.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "langsift/close_groups.hpp"
#include "langsift/detail/xxhash.hpp"  // XXH3-64, to forge files
#include "langsift/default_model.hpp"
#include "langsift/model.hpp"
#include "langsift/ngram.hpp"

using namespace langsift;

namespace {

std::uint64_t word_hash(std::u32string_view w) { return feature_hash(w.data(), w.size(), feature_word); }

close_group_entry bs_hr_entry() {
  close_group_entry e;
  e.members = {"bs", "hr"};
  e.web_share = {0.0005f, 0.002f};
  e.params.prior_cap = 0.5f;
  e.features.push_back({word_hash(U"sedmica"), {1.5f, -1.5f}});
  e.features.push_back({word_hash(U"tjedan"), {-2.0f, 2.0f}});
  return e;
}

// The bytes of a file, aligned as close_groups::load_view needs them.
struct aligned_bytes {
  std::vector<std::uint64_t> words;
  std::size_t n = 0;
  explicit aligned_bytes(const std::string& s) : words((s.size() + 7) / 8), n(s.size()) { std::memcpy(words.data(), s.data(), n); }
  std::string_view view() const { return {reinterpret_cast<const char*>(words.data()), n}; }
};

}  // namespace

TEST_CASE("close_groups: a file written is read back, member order, shares, parameters and weights") {
  std::vector<close_group_entry> groups = {bs_hr_entry()};
  close_group_entry nb;
  nb.members = {"nb", "nn", "da"};
  nb.web_share = {0.003f, 0.0001f, 0.0046f};
  nb.params.model_weight = 0.5f;
  nb.params.min_bytes = 40;
  nb.features.push_back({word_hash(U"ikkje"), {-1.0f, 3.0f, -2.0f}});
  groups.push_back(nb);
  const std::string bytes = write_close_groups(groups, 0x1234, "test");
  close_groups g;
  REQUIRE(close_groups::load_copy(bytes, g) == status::ok);
  REQUIRE(g.group_count() == 2);
  CHECK(g.model_checksum() == 0x1234);
  CHECK(g.info() == "test");
  const close_group_info a = g.group(0), b = g.group(1);
  REQUIRE(a.members.size() == 2);
  CHECK(a.members[0] == "bs");
  CHECK(a.members[1] == "hr");
  CHECK(a.web_share[1] == 0.002f);
  CHECK(a.params.prior_cap == 0.5f);
  CHECK(a.features == 2);
  REQUIRE(b.members.size() == 3);
  CHECK(b.members[2] == "da");
  CHECK(b.params.model_weight == 0.5f);
  CHECK(b.params.min_bytes == 40);
  // Weights come back within a quantisation step, in member order; an unknown feature is absent.
  const std::int8_t* w = g.find(0, word_hash(U"tjedan"));
  REQUIRE(w != nullptr);
  CHECK(w[0] * g.weight_step(0) == Approx(-2.0f).margin(g.weight_step(0)));
  CHECK(w[1] * g.weight_step(0) == Approx(2.0f).margin(g.weight_step(0)));
  const std::int8_t* x = g.find(1, word_hash(U"ikkje"));
  REQUIRE(x != nullptr);
  CHECK(x[1] * g.weight_step(1) == Approx(3.0f).margin(g.weight_step(1)));
  CHECK(g.find(0, word_hash(U"ikkje")) == nullptr);
  CHECK(g.find(1, word_hash(U"tjedan")) == nullptr);

  aligned_bytes view(bytes);  // in place, without a copy
  close_groups v;
  CHECK(close_groups::load_view(view.view(), v) == status::ok);
  CHECK(v.checksum() == g.checksum());
}

TEST_CASE("close_groups: truncated, bit-flipped, misaligned or foreign bytes are refused with a reason") {
  const std::string bytes = write_close_groups({bs_hr_entry()}, 0, "");
  close_groups g;
  std::string why;
  CHECK(close_groups::load_copy(bytes.substr(0, bytes.size() - 8), g, &why) == status::corrupt_model);
  CHECK_FALSE(why.empty());
  for (std::size_t at : {std::size_t{20}, std::size_t{60}, bytes.size() - 3}) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    CHECK(close_groups::load_copy(flipped, g) == status::corrupt_model);
  }
  // A directory entry past the features (with size and checksum made consistent: found by
  // fuzz_close_groups, it read keys out of bounds).
  {
    close_groups ok;
    REQUIRE(close_groups::load_copy(bytes, ok) == status::ok);
    std::string bad = bytes;
    std::uint64_t dir_at = 0;  // record 0 (at 40: no info text) holds its directory's offset at 216
    std::memcpy(&dir_at, bytes.data() + 40 + 216, 8);
    const std::uint32_t huge = 1000;
    std::memcpy(bad.data() + dir_at + 4, &huge, 4);  // bucket 1 ends at key 1000 of 2
    const std::uint64_t sum = XXH3_64bits(bad.data() + 16, bad.size() - 16);
    std::memcpy(bad.data() + 8, &sum, 8);
    CHECK(close_groups::load_copy(bad, g) == status::corrupt_model);
  }
  std::string version = bytes;
  version[4] = 9;
  CHECK(close_groups::load_copy(version, g) == status::model_version);
  CHECK(close_groups::load_copy("not a close-groups file at all, just some text.", g) == status::corrupt_model);
  CHECK(close_groups::load_copy(default_model_bytes().substr(0, 4096), g) == status::corrupt_model);
  aligned_bytes a(" " + bytes);
  CHECK(close_groups::load_view(a.view().substr(1), g, &why) == status::invalid_argument);
  CHECK(why.find("aligned") != std::string::npos);
  CHECK(close_groups::load_file("/nonexistent/close.lscg", g, &why) == status::io_error);
  CHECK(g.empty());  // nothing loaded by any of these
  // Bad entries are refused when writing.
  close_group_entry one = bs_hr_entry();
  one.members = {"bs"};
  one.web_share = {0.1f};
  CHECK_THROWS_AS(write_close_groups({one}, 0, ""), std::invalid_argument);
  close_group_entry twice = bs_hr_entry();
  twice.features.push_back(twice.features[0]);
  CHECK_THROWS_AS(write_close_groups({twice}, 0, ""), std::invalid_argument);
}

TEST_CASE("close_groups: attaching checks every member against the model, and changes nothing on failure") {
  model m = default_model();
  std::string why;
  auto groups_of = [](std::vector<std::vector<std::string>> members) {
    std::vector<close_group_entry> es;
    for (auto& ms : members) {
      close_group_entry e;
      e.members = ms;
      e.web_share.assign(ms.size(), 0.01f);
      es.push_back(e);
    }
    auto g = std::make_shared<close_groups>();
    REQUIRE(close_groups::load_copy(write_close_groups(es, 0, ""), *g) == status::ok);
    return std::shared_ptr<const close_groups>(g);
  };
  REQUIRE(m.set_close_groups(groups_of({{"bs", "hr"}})) == status::ok);
  REQUIRE(m.close_groups() != nullptr);
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("hr"))) == 0);
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("de"))) == -1);
  REQUIRE(m.close_members(0).size() == 2);
  CHECK(m.language_code(m.close_members(0)[0]) == "bs");

  CHECK(m.set_close_groups(groups_of({{"bs", "xx"}}), &why) == status::invalid_argument);
  CHECK(why.find("xx") != std::string::npos);
  CHECK(m.set_close_groups(groups_of({{"bs", "hr"}, {"hr", "sl"}}), &why) == status::invalid_argument);
  CHECK(why.find("two groups") != std::string::npos);
  CHECK(m.set_close_groups(groups_of({{"sr", "hr"}}), &why) == status::invalid_argument);  // Cyrillic and Latin
  CHECK(why.find("script") != std::string::npos);
  // The failures left the first groups in place.
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("bs"))) == 0);
  CHECK(m.set_close_groups(nullptr) == status::ok);
  CHECK(m.close_groups() == nullptr);
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("bs"))) == -1);
}

TEST_CASE("close_groups: the default model carries models/close-default.lscg, made for it") {
  const std::string_view bytes = builtin_close_groups_bytes("default");
  REQUIRE_FALSE(bytes.empty());
  CHECK_FALSE(builtin_close_groups_bytes("wide").empty());
  CHECK(builtin_close_groups_bytes("other").empty());
  close_groups g;
  REQUIRE(close_groups::load_copy(bytes, g) == status::ok);
  CHECK(g.model_checksum() == default_model().checksum());
  const close_groups* attached = default_model().close_groups();
  REQUIRE(attached != nullptr);
  CHECK(attached->checksum() == g.checksum());
  // The groups of models/close-default.groups: bs/hr and id/ms among them.
  const model& m = default_model();
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("bs"))) ==
        m.close_group_of(static_cast<std::size_t>(m.find_language("hr"))));
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("id"))) >= 0);
  CHECK(m.close_group_of(static_cast<std::size_t>(m.find_language("en"))) == -1);
  // Its size and checksum are the ones models/README.md records.
  std::ifstream readme(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/README.md");
  REQUIRE(readme);
  const std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
  char sum[32];
  std::snprintf(sum, sizeof sum, "`%016llx`", static_cast<unsigned long long>(g.checksum()));
  CHECK(text.find(sum) != std::string::npos);
  const std::string digits = std::to_string(bytes.size());
  std::string size;  // 1,234,567
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) size += ',';
    size += digits[i];
  }
  CHECK(text.find("| `close-default.lscg` | " + std::to_string(g.group_count()) + " groups | " + size + " bytes | `" +
                  std::string(sum + 1, 16) + "`") != std::string::npos);
}

TEST_CASE("close_groups: the default model's file loaded from disk gets its close groups too") {
  model storage;
  const model* m = nullptr;
  REQUIRE(resolve_model(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/default.lsm", m, storage) == status::ok);
  REQUIRE(m == &storage);
  REQUIRE(storage.close_groups() != nullptr);
  CHECK(storage.close_groups()->checksum() == default_model().close_groups()->checksum());
}

TEST_CASE("close_groups: the fuzzer's seed (fuzz/corpus/close_groups/mini.lscg) is a file of the current format") {
  close_groups g;
  std::string why;
  REQUIRE(close_groups::load_file(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../fuzz/corpus/close_groups/mini.lscg", g, &why) ==
          status::ok);
  CHECK(g.group_count() == 2);
  model m = default_model();
  CHECK(m.set_close_groups(std::make_shared<const close_groups>(g)) == status::ok);
}
