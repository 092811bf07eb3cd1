// `langsift text` end to end: the text, title, links, main content and metadata of a page.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

TEST_CASE("langsift text end to end", "[html][tool]") {
  namespace fs = std::filesystem;
  const fs::path tool = fs::path(LANGSIFT_BINARY_DIR) / "langsift";
  REQUIRE(fs::exists(tool));
  const fs::path page = fs::temp_directory_path() / "langsift-test-html-page.html";
  {
    std::ofstream f(page, std::ios::binary);
    f << "<html lang=en><title>T</title><nav><a href='/home'>Home</a></nav>"
         "<p>Hello <a href='x.html'>world</a>, this is a short page about nothing much.</p>";
  }
  auto run = [&](const std::string& args) {
    std::string cmd = "\"";  // built piece by piece: gcc 12 -O3 warns (-Wrestrict, a false positive) on "\"" + string
    cmd += tool.string() + "\" text " + args + " \"" + page.string() + "\" 2>&1";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      std::size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      pclose(p);
    }
    return out;
  };
  CHECK(run("") == "Home\nHello world, this is a short page about nothing much.\n");
  CHECK(run("--title") == "T\nHome\nHello world, this is a short page about nothing much.\n");
  CHECK(run("--links --base http://site.example/a/") ==
        "http://site.example/home\tHome\nhttp://site.example/a/x.html\tworld\n");
  CHECK(run("--main") == "Hello world, this is a short page about nothing much.\n");
  CHECK(run("--meta").find("html-lang\ten\n") != std::string::npos);
  fs::remove(page);
}

TEST_CASE("langsift text: input cut at --max-bytes says so on stderr and in --meta's status", "[html][tool]") {
  // #29: the rest of the page was dropped in silence (and the whole file was read first).
  namespace fs = std::filesystem;
  const fs::path tool = fs::path(LANGSIFT_BINARY_DIR) / "langsift";
  const fs::path page = fs::path(LANGSIFT_BINARY_DIR) / ("test-text-cut-" + std::to_string(::getpid()) + ".html");
  {
    std::ofstream f(page, std::ios::binary);
    f << "<p>Erster Absatz, der vorne steht.</p>";
    for (int i = 0; i < 200; ++i) f << "<p>Weiterer Absatz Nummer " << i << ".</p>";
  }
  auto run = [&](const std::string& args, const std::string& err_file) {
    std::string cmd = "\"";
    cmd += tool.string() + "\" text " + args + " \"" + page.string() + "\" 2>\"" + err_file + "\"";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      std::size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      pclose(p);
    }
    return out;
  };
  auto slurp = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  };
  const std::string err = page.string() + ".err";
  const std::string cut = run("--max-bytes 100", err);
  CHECK(cut.rfind("Erster Absatz, der vorne steht.\n", 0) == 0);
  CHECK(cut.find("Nummer 199") == std::string::npos);
  std::string expected = "langsift text: ";
  expected += page.string();
  expected += ": cut at 100 bytes (--max-bytes): the text is that of that part\n";
  CHECK(slurp(err) == expected);
  CHECK(run("--meta --max-bytes 100", err).find("\nstatus\ttruncated\n") != std::string::npos);
  CHECK(slurp(err).find("cut at 100 bytes") != std::string::npos);
  // Not cut: nothing on stderr, status ok.
  const std::string whole = run("--meta", err);
  CHECK(whole.find("\nstatus\tok\n") != std::string::npos);
  CHECK(whole.find("Nummer 199") != std::string::npos);
  CHECK(slurp(err).empty());
  fs::remove(page);
  fs::remove(err);
}
