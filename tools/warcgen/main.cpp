// langsift-warcgen — writes a WARC file (uncompressed, or one gzip member or zstd frame per record) holding the
// given files as HTTP responses: test and benchmark inputs for `langsift warc`.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli.hpp"
#include "warcgen/warc_writer.hpp"

namespace {

constexpr const char* kProgram = "langsift-warcgen";

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift-warcgen [options] FILE... (-o OUT | > OUT)\n"
      "\n"
      "Writes a WARC file with a warcinfo record and, for every FILE, a response record whose\n"
      "HTTP body is the file's bytes (target URI: --url-prefix + the file's name).\n"
      "\n"
      "options:\n"
      "  -o FILE               write to FILE (default: stdout), whole or not at all\n"
      "  --gzip                every record its own gzip member (.warc.gz)\n"
      "  --zstd                every record its own zstd frame (.warc.zst, WARC-zstd without a\n"
      "                        dictionary)\n"
      "  --warc-version V      1.0 or 1.1 (default 1.1)\n"
      "  --repeat N            write the files N times over (benchmark inputs; default 1)\n"
      "  --requests            a request record before every response, as crawlers write them\n"
      "  --content-type V      the HTTP Content-Type (default text/html)\n"
      "  --charset-from-name   add '; charset=X' where the file name is NAME.X.EXT (ru.koi8-r.txt)\n"
      "  --wrap-html           wrap each file in a small HTML page (not for UTF-16/32 files, which\n"
      "                        are written as they are)\n"
      "  --chunked             chunked Transfer-Encoding for the HTTP bodies\n"
      "  --content-gzip        gzip Content-Encoding for the HTTP bodies\n"
      "  --url-prefix P        default http://example.com/\n");
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// NAME.X.EXT -> X (empty when the name has fewer than three parts).
std::string charset_of(const std::string& name) {
  const std::size_t a = name.find('.'), b = name.rfind('.');
  if (a == std::string::npos || b == a) return {};
  std::string cs = name.substr(a + 1, b - a - 1);
  const std::size_t dot = cs.find('.');  // ru-2.windows-1251.meta.html
  return dot == std::string::npos ? cs : cs.substr(0, dot);
}

}  // namespace

int run_main(int argc, char** argv) {
  using namespace langsift::cli;
  std::vector<std::string> files;
  std::string out_path, version = "WARC/1.1", content_type = "text/html", prefix = "http://example.com/", value;
  bool gz = false, zst = false, requests = false, cs_name = false, wrap = false, chunk = false, content_gzip = false;
  unsigned long long repeat = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift-warcgen");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--gzip") {
      gz = true;
    } else if (a == "--zstd") {
      zst = true;
    } else if (a == "--requests") {
      requests = true;
    } else if (a == "--charset-from-name") {
      cs_name = true;
    } else if (a == "--wrap-html") {
      wrap = true;
    } else if (a == "--chunked") {
      chunk = true;
    } else if (a == "--content-gzip") {
      content_gzip = true;
    } else if (take_option(argc, argv, i, "-o", out_path, missing)) {
      if (missing) return fail(kProgram, "-o needs a file") + 1;
    } else if (take_option(argc, argv, i, "--warc-version", value, missing)) {
      if (value != "1.0" && value != "1.1") return fail(kProgram, "--warc-version is 1.0 or 1.1") + 1;
      version = "WARC/" + value;
    } else if (take_option(argc, argv, i, "--repeat", value, missing)) {
      const auto x = missing ? std::nullopt : parse_size(value);
      if (!x || *x < 1 || *x > 1000000) return fail(kProgram, "--repeat needs 1..1000000") + 1;
      repeat = *x;
    } else if (take_option(argc, argv, i, "--content-type", content_type, missing)) {
      if (missing) return fail(kProgram, "--content-type needs a value") + 1;
    } else if (take_option(argc, argv, i, "--url-prefix", prefix, missing)) {
      if (missing) return fail(kProgram, "--url-prefix needs a value") + 1;
    } else if (a.size() > 1 && a[0] == '-') {
      return unknown_option(kProgram, a, usage);
    } else {
      files.emplace_back(a);
    }
  }
  if (gz && zst) return fail(kProgram, "--gzip or --zstd, not both") + 1;
  if (files.empty()) {
    return fail(kProgram, "no input files; see --help") + 1;
  }
  std::vector<std::string> bodies(files.size());
  std::string error;
  for (std::size_t k = 0; k < files.size(); ++k)
    if (!read_file(files[k], bodies[k], error)) return fail(kProgram, error);

  atomic_output output(out_path.empty() ? "-" : out_path);  // written whole or not at all
  if (!output.open(error)) return fail(kProgram, error);
  unsigned long long n = 0;
  auto put = [&](const langsift::warcgen::record_spec& r) {
    const std::string bytes = langsift::warcgen::record(r);
    output.write(gz ? langsift::warcgen::gzip(bytes) : zst ? langsift::warcgen::zstd(bytes) : bytes);
  };
  {
    langsift::warcgen::record_spec info;
    info.version = version;
    info.type = "warcinfo";
    info.id = langsift::warcgen::record_id(n++);
    info.block = langsift::warcgen::warcinfo_block();
    put(info);
  }
  for (unsigned long long rep = 0; rep < repeat && !output.failed(); ++rep) {  // stop at a write error
    for (std::size_t k = 0; k < files.size(); ++k) {
      const std::string name = base_name(files[k]);
      std::string uri = prefix + name;
      if (repeat > 1) uri += "?" + std::to_string(rep);
      std::string ct = content_type;
      const std::string cs = charset_of(name);
      if (cs_name && !cs.empty()) ct += "; charset=" + cs;
      std::string body = bodies[k];
      if (wrap && cs.find("utf-16") == std::string::npos && cs.find("utf-32") == std::string::npos)
        body = "<!DOCTYPE html>\n<html><head><title>" + name + "</title></head>\n<body><p>" + body + "</p></body></html>\n";
      langsift::warcgen::fields headers = {{"Content-Type", ct}, {"Server", "langsift-warcgen"}};
      if (content_gzip) {
        body = langsift::warcgen::gzip(body);
        headers.emplace_back("Content-Encoding", "gzip");
      }
      if (requests) {
        langsift::warcgen::record_spec q;
        q.version = version;
        q.type = "request";
        q.target_uri = uri;
        q.id = langsift::warcgen::record_id(n++);
        q.block = "GET /" + name + " HTTP/1.1\r\nHost: example.com\r\nUser-Agent: langsift-warcgen\r\n\r\n";
        put(q);
      }
      langsift::warcgen::record_spec r;
      r.version = version;
      r.type = "response";
      r.target_uri = uri;
      r.id = langsift::warcgen::record_id(n++);
      r.block = langsift::warcgen::http_response(200, headers, body, chunk);
      put(r);
    }
  }
  if (!output.commit(error)) return fail(kProgram, error);
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run(kProgram, nullptr, [&] { return run_main(argc, argv); });
}
