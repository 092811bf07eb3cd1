// Reading the benchmark's documents, and /proc memory figures.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "bench/bench.hpp"
#include "common/cli.hpp"

namespace fs = std::filesystem;

namespace langsift::bench {

namespace {

struct doc_span {
  std::size_t offset, size;
};

void add_doc(std::string& arena, std::vector<doc_span>& spans, std::string_view doc) {
  spans.push_back({arena.size(), doc.size()});
  arena.append(doc);
  arena.push_back('\0');
}

}  // namespace

bool load_corpus(const std::vector<std::string>& inputs, std::size_t max_docs, corpus& out, std::string& error) {
  out = corpus{};
  std::vector<doc_span> spans;
  std::string data;
  for (const std::string& input : inputs) {
    std::error_code ec;
    const bool is_dir = input != "-" && fs::is_directory(input, ec);
    if (is_dir) {
      std::vector<fs::path> files;
      fs::recursive_directory_iterator it(input, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) {
        error = input + ": " + ec.message();
        return false;
      }
      for (; it != end; it.increment(ec)) {
        if (ec) {
          error = input + ": " + ec.message();
          return false;
        }
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
          if (it->is_directory(ec)) it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file(ec)) files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        if (!cli::read_file(f.string(), data, error)) return false;
        if (data.empty()) {
          ++out.empty_lines;
          continue;
        }
        add_doc(out.arena, spans, data);
      }
    } else {
      if (!cli::read_file(input, data, error)) return false;
      std::size_t start = 0;
      while (start < data.size()) {
        std::size_t nl = data.find('\n', start);
        if (nl == std::string::npos) nl = data.size();
        std::string_view line(data.data() + start, nl - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty())
          ++out.empty_lines;
        else
          add_doc(out.arena, spans, line);
        start = nl + 1;
      }
    }
    out.sources.push_back(input);
  }
  // Evenly spread sample: document floor(i * n / max_docs) for i < max_docs.
  if (max_docs > 0 && spans.size() > max_docs) {
    std::vector<doc_span> kept;
    kept.reserve(max_docs);
    for (std::size_t i = 0; i < max_docs; ++i) kept.push_back(spans[i * spans.size() / max_docs]);
    spans.swap(kept);
  }
  out.docs.reserve(spans.size());
  for (const doc_span& s : spans) {
    out.docs.emplace_back(out.arena.data() + s.offset, s.size);
    out.bytes += s.size;
  }
  return true;
}

std::string primary_subtag(std::string_view code) {
  const std::size_t dash = code.find_first_of("-_");
  if (dash != std::string_view::npos) code = code.substr(0, dash);
  if (code.empty()) return "und";
  return std::string(code);
}

memory_status read_memory_status() {
  memory_status m;
  std::ifstream f("/proc/self/status");
  std::string line;
  auto field = [&](const char* name, long long& v) {
    const std::size_t n = std::strlen(name);
    if (line.compare(0, n, name) == 0) v = std::atoll(line.c_str() + n);
  };
  while (std::getline(f, line)) {
    field("VmHWM:", m.vm_hwm_kb);
    field("VmRSS:", m.vm_rss_kb);
    field("RssAnon:", m.rss_anon_kb);
    field("RssFile:", m.rss_file_kb);
  }
  return m;
}

bool reset_peak_rss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

}  // namespace langsift::bench
