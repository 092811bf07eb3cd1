// The built-in models by name: "default" and "wide" (langsift::builtin_model), their errors, the
// wide model's known answers and checksum (models/README.md), and its lazy, thread-safe load.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"

using namespace langsift;

namespace {

const model& wide() {
  const model* m = nullptr;
  REQUIRE(builtin_model("wide", m) == status::ok);
  REQUIRE(m != nullptr);
  return *m;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("builtin_model_names: default, then wide") {
  const auto names = builtin_model_names();
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "default");
  CHECK(names[1] == "wide");
}

TEST_CASE("builtin_model(\"default\") is default_model()") {
  const model* m = nullptr;
  std::string message;
  CHECK(builtin_model("default", m, &message) == status::ok);
  CHECK(m == &default_model());
  CHECK(builtin_model_bytes("default").data() == default_model_bytes().data());
}

TEST_CASE("builtin_model: an unknown name is invalid_argument, names the models, leaves out alone") {
  const model* m = &default_model();
  std::string message;
  for (const char* name : {"", "Wide", "wide ", "models/wide.lsm", "builtin:wide", "default\n"}) {
    INFO(name);
    message.clear();
    CHECK(builtin_model(name, m, &message) == status::invalid_argument);
    CHECK(m == &default_model());
    CHECK(message.find("no built-in model named") != std::string::npos);
    CHECK(message.find("default, wide") != std::string::npos);
    CHECK(builtin_model_bytes(name).empty());
  }
  CHECK(builtin_model("nosuch", m) == status::invalid_argument);  // no message asked for
}

TEST_CASE("resolve_model: a built-in model's name wins over a file so named, anything else is a file") {
  // The one rule of the tools' --model, Python's model= and the Dask and Scrapy settings.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(LANGSIFT_BINARY_DIR) / ("test-resolve-model-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir);
  {
    std::ofstream f("wide", std::ios::binary);  // a real model file called "wide": the default model's bytes
    f << default_model_bytes();
  }
  model storage;
  const model* m = nullptr;
  std::string message;
  CHECK(resolve_model("wide", m, storage, &message) == status::ok);
  CHECK(m == &wide());  // the built-in one, not the file
  CHECK(storage.empty());
  CHECK(resolve_model("./wide", m, storage, &message) == status::ok);
  CHECK(m == &storage);  // the file
  CHECK(storage.language_count() == default_model().language_count());
  CHECK(resolve_model((dir / "wide").string(), m, storage) == status::ok);
  CHECK(m == &storage);
  for (const char* name : {"", "default"}) {
    CHECK(resolve_model(name, m, storage) == status::ok);
    CHECK(m == &default_model());
  }
  m = nullptr;
  message.clear();
  CHECK(resolve_model("missing.lsm", m, storage, &message) == status::io_error);
  CHECK(m == nullptr);
  CHECK(message.find("missing.lsm") != std::string::npos);
  CHECK(resolve_model("./wide", m, storage, &message, 100) == status::too_large);  // the cap reaches load_file
  CHECK(is_builtin_model_name("wide"));
  CHECK(is_builtin_model_name("default"));
  for (const char* name : {"", "Wide", "./wide", "wide.lsm"}) CHECK_FALSE(is_builtin_model_name(name));
  fs::current_path(cwd);
  fs::remove_all(dir);
}

TEST_CASE("the wide model: 200+ languages, a superset of the default model's") {
  const model& w = wide();
  CHECK(w.language_count() >= 200);
  const model& d = default_model();
  for (std::size_t i = 0; i < d.language_count(); ++i) {
    INFO(d.language_code(i));
    CHECK(w.find_language(d.language_code(i)) >= 0);
  }
  const model* again = nullptr;
  REQUIRE(builtin_model("wide", again) == status::ok);
  CHECK(again == &w);  // one model, parsed once
}

TEST_CASE("the wide model's bytes verify fully and match models/README.md") {
  const std::string_view bytes = builtin_model_bytes("wide");
  REQUIRE(bytes.size() > 1000000);
  // builtin_model() checks neither the checksum nor the structure (the bytes are the library's
  // own); both pass here.
  model verified;
  REQUIRE(model::load_view(bytes, verified, nullptr, /*verify_structure=*/true) == status::ok);
  CHECK(verified.checksum() == wide().checksum());
  CHECK(verified.language_count() == wide().language_count());
  // The README's table row for wide.lsm gives its size and its xxh3 (the file's checksum field).
  const std::string readme = read_text(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/README.md");
  std::smatch row;
  REQUIRE(std::regex_search(readme, row,
                            std::regex("\\| `wide\\.lsm` \\| (\\d+) \\| ([0-9,]+) bytes \\| `([0-9a-f]{16})` \\|")));
  CHECK(std::stoul(row[1].str()) == verified.language_count());
  std::string size = row[2].str();
  size.erase(std::remove(size.begin(), size.end(), ','), size.end());
  CHECK(std::stoull(size) == bytes.size());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(verified.checksum()));
  CHECK(row[3].str() == hex);
}

TEST_CASE("known answers of the wide model: languages the default model lacks") {
  std::ifstream in(std::string(LANGSIFT_TEST_DATA_DIR) + "/detect/wide-known.tsv", std::ios::binary);
  REQUIRE(in);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    const std::string code = line.substr(0, tab), text = line.substr(tab + 1);
    INFO(code << ": " << text);
    CHECK(default_model().find_language(code) < 0);
    CHECK(detect(default_model(), text).language() != code);
    const detection d = detect(wide(), text);
    CHECK(d.is_ok());
    CHECK(d.language() == code);
    ++n;
  }
  CHECK(n >= 10);
  // And the default model's languages stay where they are on clear text.
  CHECK(detect(wide(), "Die Kinder spielten den ganzen Nachmittag im Garten hinter dem Haus.").language() == "de");
  CHECK(detect(wide(), "Les enfants ont joué tout l'après-midi dans le jardin derrière la maison.").language() == "fr");
}

TEST_CASE("the wide model's language priors: exactly its languages whose base code the default model lacks") {
  const model& w = wide();
  const model& d = default_model();
  CHECK_FALSE(d.has_language_priors());  // the default model has none: its detection is unchanged
  REQUIRE(w.has_language_priors());
  std::size_t with_prior = 0;
  for (std::size_t i = 0; i < w.language_count(); ++i) {
    const std::string_view code = w.language_code(i);
    bool base_in_default = false;
    for (std::size_t j = 0; j < d.language_count(); ++j)
      base_in_default |= d.language_code(j).substr(0, d.language_code(j).find('-')) == code.substr(0, code.find('-'));
    INFO(code);
    CHECK(w.language_prior(i) == (base_in_default ? 0.0f : -1.75f));
    with_prior += !base_in_default;
  }
  CHECK(with_prior == 128);  // sr-Latn is Serbian: no prior
  // The same file loaded from its bytes gets them (recognised by its checksum); a copy keeps them.
  model loaded;
  REQUIRE(model::load_view(builtin_model_bytes("wide"), loaded) == status::ok);
  CHECK(loaded.language_prior(static_cast<std::size_t>(loaded.find_language("ia"))) == -1.75f);
  const model copy = loaded;
  CHECK(copy.language_prior(static_cast<std::size_t>(copy.find_language("ia"))) == -1.75f);
}

TEST_CASE("language priors: short text of a major language is no longer a rare one's, a sentence of the rare one stays") {
  const model& w = wide();
  detect_options off;
  off.web_prior = false;
  // Two German words: the wide model without its priors answers Low German.
  const detection without = detect(w, "Kannst du", off);
  REQUIRE(without.is_ok());
  CHECK(without.language() == "nds");
  const detection with = detect(w, "Kannst du");
  CHECK(with.language() == "de");
  // The prior is e^-1.75 on the odds, once: nds's probability against de's falls by that factor.
  auto prob = [](const detection& x, std::string_view code) {
    for (std::size_t i = 0; i < x.probability_count; ++i)
      if (x.probabilities[i].code == code) return static_cast<double>(x.probabilities[i].p);
    return 0.0;
  };
  detect_options top;
  top.top_k = 5;
  detect_options top_off = top;
  top_off.web_prior = false;
  const detection a = detect(w, "Kannst du", top_off), b = detect(w, "Kannst du", top);
  REQUIRE(prob(a, "nds") > 0);
  REQUIRE(prob(a, "de") > 0);
  REQUIRE(prob(b, "nds") > 0);
  CHECK(std::log(prob(b, "nds") / prob(b, "de")) == Approx(std::log(prob(a, "nds") / prob(a, "de")) - 1.75).margin(1e-3));
  // The caller's knowledge wins: `only`, or a hint naming the rare language, lifts its prior.
  detect_options only;
  const std::vector<std::string_view> both = {"de", "nds"};
  only.only = both;
  CHECK(detect(w, "Kannst du", only).language() == "nds");
  detect_options hinted;
  hinted.hints.html_lang = "nds";
  CHECK(detect(w, "Kannst du", hinted).language() == "nds");
  // A sentence of Interlingua is still Interlingua (the prior's weight falls as text grows).
  const char* ia = "Interlingua es un lingua auxiliar international basate super le vocabulos commun al major linguas europee.";
  CHECK(detect(w, ia).language() == "ia");
  CHECK(detect(w, ia).reliable);
}

TEST_CASE("model::set_language_prior: range checked, nothing changed on error") {
  model m;
  REQUIRE(model::load_view(default_model_bytes(), m) == status::ok);
  REQUIRE_FALSE(m.has_language_priors());
  const std::size_t n = m.language_count();
  CHECK(m.set_language_prior(n, -1.0f) == status::invalid_argument);
  CHECK(m.set_language_prior(0, 0.5f) == status::invalid_argument);
  CHECK(m.set_language_prior(0, -51.0f) == status::invalid_argument);
  CHECK(m.set_language_prior(0, std::nanf("")) == status::invalid_argument);
  CHECK_FALSE(m.has_language_priors());
  const std::size_t en = static_cast<std::size_t>(m.find_language("en"));
  CHECK(m.set_language_prior(en, -50.0f) == status::ok);
  CHECK(m.has_language_priors());
  CHECK(m.language_prior(en) == -50.0f);
  CHECK(m.language_prior(static_cast<std::size_t>(m.find_language("de"))) == 0.0f);
  // A prior of 50 nats: an English sentence is no longer English, unless the caller says so.
  const char* text = "The children played in the garden behind the house all afternoon.";
  CHECK(detect(default_model(), text).language() == "en");
  CHECK(detect(m, text).language() != "en");
  detect_options off;
  off.web_prior = false;
  CHECK(detect(m, text, off).language() == "en");
  // The priors are for short text: a page (short_text_bytes and more) is read without them.
  std::string page;
  while (page.size() < 400) page += std::string(text) + " ";
  const detection long_text = detect(m, page);
  CHECK_FALSE(long_text.is_short);
  CHECK(long_text.language() == "en");
  CHECK(long_text.margin == detect(default_model(), page).margin);  // en's lead: no prior taken off
  detect_options low;
  low.short_text_bytes = 100000;  // under it, the page is short text again: en's lead shrinks
  const detection with_prior = detect(m, page, low);
  CHECK(with_prior.is_short);
  CHECK(with_prior.margin < detect(default_model(), page, low).margin - 1000.0f);
}

TEST_CASE("the wide model is set up once when many threads ask for it at the same time") {
  std::vector<const model*> got(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&got, t] {
      const model* m = nullptr;
      if (builtin_model("wide", m) == status::ok) got[t] = m;
    });
  for (auto& th : threads) th.join();
  for (const model* m : got) CHECK(m == got[0]);
  CHECK(got[0] != nullptr);
}
