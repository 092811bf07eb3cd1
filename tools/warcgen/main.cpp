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

/// What the command line gives langsift-warcgen.
struct warcgen_args {
  std::string out_path, version = "WARC/1.1", content_type = "text/html", prefix = "http://example.com/";
  bool gz = false, zst = false, requests = false, cs_name = false, wrap = false, chunk = false, content_gzip = false;
  unsigned long long repeat = 1;
};

using option_row = langsift::cli::option<warcgen_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;
using langsift::cli::flag_option;

/// The options of langsift-warcgen: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  using A = warcgen_args;
  using V = option_value;
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-warcgen [options] FILE... (-o OUT | > OUT)\n"
       "\n"
       "Writes a WARC file with a warcinfo record and, for every FILE, a response record whose\n"
       "HTTP body is the file's bytes (target URI: --url-prefix + the file's name).\n"
       "\n"
       "options:\n"},
      {value_kind::text, "-o", nullptr, "FILE", "write to FILE (default: stdout), whole or not at all",
       [](A& a, const V& v) { a.out_path = v.text; return true; }, 0, 0, nullptr, "a file"},
      flag_option<&A::gz>("--gzip", "every record its own gzip member (.warc.gz)"),
      flag_option<&A::zst>("--zstd", "every record its own zstd frame (.warc.zst, WARC-zstd without a\ndictionary)"),
      {value_kind::choice, "--warc-version", nullptr, "V", "1.0 or 1.1 (default 1.1)",
       [](A& a, const V& v) { a.version = "WARC/" + std::string(v.text); return true; }, 0, 0, "1.0|1.1"},
      {value_kind::size, "--repeat", nullptr, "N", "write the files N times over (benchmark inputs; default 1)",
       [](A& a, const V& v) { a.repeat = v.size; return true; }, 1, 1000000},
      flag_option<&A::requests>("--requests", "a request record before every response, as crawlers write them"),
      {value_kind::text, "--content-type", nullptr, "V", "the HTTP Content-Type (default text/html)",
       [](A& a, const V& v) { a.content_type = v.text; return true; }},
      flag_option<&A::cs_name>("--charset-from-name", "add '; charset=X' where the file name is NAME.X.EXT (ru.koi8-r.txt)"),
      flag_option<&A::wrap>("--wrap-html",
                         "wrap each file in a small HTML page (not for UTF-16/32 files, which\nare written as they are)"),
      flag_option<&A::chunk>("--chunked", "chunked Transfer-Encoding for the HTTP bodies"),
      flag_option<&A::content_gzip>("--content-gzip", "gzip Content-Encoding for the HTTP bodies"),
      {value_kind::text, "--url-prefix", nullptr, "P", "default http://example.com/",
       [](A& a, const V& v) { a.prefix = v.text; return true; }},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 24); }

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

/// Writes WARC records to an output, numbered from 0, each compressed as --gzip or --zstd say.
class record_writer {
 public:
  record_writer(const warcgen_args& a, langsift::cli::atomic_output& out) : a_(a), out_(out) {}
  /// The next record's WARC-Record-ID.
  std::string next_id() { return langsift::warcgen::record_id(n_++); }
  void put(const langsift::warcgen::record_spec& r) {
    const std::string bytes = langsift::warcgen::record(r);
    out_.write(a_.gz ? langsift::warcgen::gzip(bytes) : a_.zst ? langsift::warcgen::zstd(bytes) : bytes);
  }

 private:
  const warcgen_args& a_;
  langsift::cli::atomic_output& out_;
  unsigned long long n_ = 0;
};

/// The records of one file in repetition `rep`: a request (with --requests), then its response.
void write_file_records(const warcgen_args& a, record_writer& w, const std::string& file, const std::string& bytes,
                        unsigned long long rep) {
  const std::string name = base_name(file);
  std::string uri = a.prefix + name;
  if (a.repeat > 1) uri += "?" + std::to_string(rep);
  std::string ct = a.content_type;
  const std::string cs = charset_of(name);
  if (a.cs_name && !cs.empty()) ct += "; charset=" + cs;
  std::string body = bytes;
  if (a.wrap && cs.find("utf-16") == std::string::npos && cs.find("utf-32") == std::string::npos)
    body = "<!DOCTYPE html>\n<html><head><title>" + name + "</title></head>\n<body><p>" + body + "</p></body></html>\n";
  langsift::warcgen::fields headers = {{"Content-Type", ct}, {"Server", "langsift-warcgen"}};
  if (a.content_gzip) {
    body = langsift::warcgen::gzip(body);
    headers.emplace_back("Content-Encoding", "gzip");
  }
  if (a.requests) {
    langsift::warcgen::record_spec q;
    q.version = a.version;
    q.type = "request";
    q.target_uri = uri;
    q.id = w.next_id();
    q.block = "GET /" + name + " HTTP/1.1\r\nHost: example.com\r\nUser-Agent: langsift-warcgen\r\n\r\n";
    w.put(q);
  }
  langsift::warcgen::record_spec r;
  r.version = a.version;
  r.type = "response";
  r.target_uri = uri;
  r.id = w.next_id();
  r.block = langsift::warcgen::http_response(200, headers, body, a.chunk);
  w.put(r);
}

}  // namespace

int run_main(int argc, char** argv) {
  using namespace langsift::cli;
  warcgen_args a;
  std::vector<std::string> files;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, files); rc >= 0) return rc;
  if (a.gz && a.zst) return fail(kProgram, "--gzip or --zstd, not both") + 1;
  if (files.empty()) {
    return fail(kProgram, "no input files; see --help") + 1;
  }
  std::vector<std::string> bodies(files.size());
  std::string error;
  for (std::size_t k = 0; k < files.size(); ++k)
    if (!read_file(files[k], bodies[k], error)) return fail(kProgram, error);

  atomic_output output(a.out_path.empty() ? "-" : a.out_path);  // written whole or not at all
  if (!output.open(error)) return fail(kProgram, error);
  record_writer w(a, output);
  langsift::warcgen::record_spec info;
  info.version = a.version;
  info.type = "warcinfo";
  info.id = w.next_id();
  info.block = langsift::warcgen::warcinfo_block();
  w.put(info);
  for (unsigned long long rep = 0; rep < a.repeat && !output.failed(); ++rep)  // stop at a write error
    for (std::size_t k = 0; k < files.size(); ++k) write_file_records(a, w, files[k], bodies[k], rep);
  if (!output.commit(error)) return fail(kProgram, error);
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run(kProgram, nullptr, [&] { return run_main(argc, argv); });
}
