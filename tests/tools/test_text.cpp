// `langsift text` end to end: the text, title, links, main content and metadata of a page.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
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
    std::string cmd = "\"" + tool.string() + "\" text " + args + " \"" + page.string() + "\" 2>&1";
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
