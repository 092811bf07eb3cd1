// `langsift-eval encoding DIR` — scores encoding detection on a directory laid out as
// <lang>/<charset>[.<variant>].<ext>, beside uchardet alone in the same run.
// `langsift-eval encoding --utf8-lines DIR` — every line of DIR/*.txt alone, as UTF-8, UTF-16LE
// and UTF-16BE without BOM: how often each is recognised.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/encoding.hpp"

namespace fs = std::filesystem;

namespace {

constexpr const char* k_prog = "langsift-eval encoding";

/// What the command line gives `langsift-eval encoding`.
struct encoding_args {
  langsift::encoding_options opt;
  bool verbose = false, md = false, lines = false, breakdown = false;
};

using option_row = langsift::cli::option<encoding_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;
using langsift::cli::flag_option;

/// The options of `langsift-eval encoding`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-eval encoding [options] DIR\n"
       "       langsift-eval encoding --utf8-lines [options] DIR\n"
       "\n"
       "Default mode: DIR holds <lang>/<file>; the true charset of a file is its name up to the\n"
       "first '.', and for utf-16/utf-32 a later 'le' or 'be' part gives the byte order\n"
       "(utf-8.txt -> utf-8, ibm862.visual.txt -> ibm862, utf-16.le -> utf-16le, uhc.smi -> uhc).\n"
       "Scores, over all files and over those whose true charset is a WHATWG encoding:\n"
       "  exact      canonical(answer) == canonical(truth) (WHATWG labels map to one name, e.g.\n"
       "             iso-8859-1 = windows-1252; \"ascii\" counts as windows-1252)\n"
       "  identical  the answer decodes the bytes to the same UTF-8 text as the truth (a leading\n"
       "             U+FEFF ignored)\n"
       "for langsift and for uchardet alone (its raw answer).\n"
       "\n"
       "--utf8-lines: every line (split on \\n only) of DIR/*.txt alone, as UTF-8 and as UTF-16LE and\n"
       "UTF-16BE without BOM: % recognised (strict: the exact encoding; identical: decodes to the\n"
       "same text, so 7-bit lines reported as ascii count), langsift beside uchardet alone.\n"
       "\n"
       "options:\n"},
      flag_option<&encoding_args::verbose>("--verbose", "a per-file table (per-language table with --utf8-lines)"),
      flag_option<&encoding_args::breakdown>(
          "--breakdown",
          "also \"decodes identically\" per true charset and per tag, legacy and\n"
          "Unicode (utf-*) truths apart, and the files langsift misses; the tags\n"
          "of a file are the dot-separated parts of its name after the first,\n"
          "except the extension, le/be and all-digit parts\n"
          "(windows-1250.html.n64.003.txt: html, n64), as\n"
          "langsift's dev-set generator (make-encoding-devset.py) names them"),
      flag_option<&encoding_args::md>("--markdown", "print tables as markdown"),
      {value_kind::size, "--max-bytes", nullptr, "N", "detection cap (default 64K)",
       [](encoding_args& a, const option_value& v) {
         a.opt.max_detect_bytes = static_cast<std::size_t>(v.size);
         return true;
       },
       0, 0, nullptr, "a size such as 65536 or 64K"},
      {value_kind::flag, "--utf8-lines", nullptr, nullptr, "",  // described above
       [](encoding_args& a, const option_value&) { return a.lines = true; }},
      {value_kind::note, nullptr, nullptr, nullptr, "  --help          this text\n"},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 18); }

std::string read_all(const fs::path& p, bool& ok) {
  std::string data, error;
  ok = langsift::cli::read_file(p.string(), data, error);
  return data;
}

// Key for "exact": WHATWG identity ("ascii" is a WHATWG label of windows-1252).
std::string key_of(std::string_view label) {
  std::string_view c = langsift::canonical_encoding_name(label);
  if (c == "ascii") return "windows-1252";
  return std::string(c);
}

// Decoded text, a leading BOM (U+FEFF) removed; nullopt-like flag when it cannot decode.
bool decode_as(std::string_view bytes, std::string_view enc, std::string& out) {
  out.clear();
  if (enc.empty()) return false;
  auto r = langsift::convert_to_utf8(bytes, enc, out);
  if (r.st != langsift::status::ok) return false;
  if (out.compare(0, 3, "\xEF\xBB\xBF") == 0) out.erase(0, 3);
  return true;
}

// The dot-separated parts of a file name, empty ones kept ("a..b" -> a, "", b).
std::vector<std::string> dot_parts(const std::string& file) {
  std::vector<std::string> parts;
  std::size_t b = 0;
  for (;;) {
    std::size_t dot = file.find('.', b);
    parts.push_back(file.substr(b, dot == std::string::npos ? std::string::npos : dot - b));
    if (dot == std::string::npos) break;
    b = dot + 1;
  }
  return parts;
}

std::string truth_from_filename(const std::string& file) {
  const std::vector<std::string> parts = dot_parts(file);
  std::string t = parts[0];
  for (char& c : t) c = langsift::detail::ascii_lower(c);
  if (t == "utf-16" || t == "utf-32")
    for (std::size_t i = 1; i < parts.size(); ++i)
      if (parts[i] == "le" || parts[i] == "be") {
        t += parts[i];
        break;
      }
  return t;
}

struct tally {
  int n = 0, exact = 0, identical = 0;
};

// The tags of a file name: its dot-separated parts after the first, except the extension (the
// last part), the byte order ("le"/"be") and all-digit parts.
std::vector<std::string> tags_of(const std::string& file) {
  const std::vector<std::string> parts = dot_parts(file);
  std::vector<std::string> tags;
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    const std::string& t = parts[i];
    if (t.empty() || t == "le" || t == "be") continue;
    if (std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    tags.push_back(t);
  }
  return tags;
}

// Sort key of a tag: "n64" < "n128" < "n2048" (by number), then by name.
std::pair<std::string, long> tag_order(const std::string& t) {
  std::size_t i = t.size();
  while (i > 0 && t[i - 1] >= '0' && t[i - 1] <= '9') --i;
  long num = i < t.size() && t.size() - i < 10 ? std::stol(t.substr(i)) : -1;
  return {t.substr(0, i), num};
}

std::string pct(int a, int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %% (%d/%d)", n ? 100.0 * a / n : 0.0, a, n);
  return buf;
}

void print_table(bool md, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  if (md) {
    std::string line = "|", sep = "|";
    for (const auto& h : header) line += " " + h + " |", sep += " --- |";
    std::printf("%s\n%s\n", line.c_str(), sep.c_str());
    for (const auto& r : rows) {
      std::string row("|");
      for (const auto& c : r) row += " " + c + " |";
      std::printf("%s\n", row.c_str());
    }
  } else {
    std::vector<std::size_t> w(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) w[i] = header[i].size();
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    auto print_row = [&](const std::vector<std::string>& r) {
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        line += r[i];
        if (i + 1 < r.size()) line += std::string(w[i] - r[i].size() + 2, ' ');
      }
      std::printf("%s\n", line.c_str());
    };
    print_row(header);
    for (const auto& r : rows) print_row(r);
  }
}

/// --breakdown's figures: "decodes identically" per tag ([0] legacy truths, [1] utf-* truths) and
/// per true charset, for langsift and uchardet, and the files langsift misses.
struct breakdown_tallies {
  std::map<std::string, std::pair<tally, tally>> by_tag[2], by_charset;
  std::vector<std::string> misses;
};

/// --breakdown's tables.
void print_breakdown(bool md, const breakdown_tallies& tallies) {
  const auto& by_tag = tallies.by_tag;
  const auto& by_charset = tallies.by_charset;
  const auto& misses = tallies.misses;
  for (int u = 0; u < 2; ++u) {
    if (by_tag[u].empty()) continue;
    std::vector<std::pair<std::string, std::pair<tally, tally>>> v(by_tag[u].begin(), by_tag[u].end());
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      bool aa = a.first[0] == '(', ba = b.first[0] == '(';
      if (aa != ba) return aa;
      return tag_order(a.first) < tag_order(b.first);
    });
    std::vector<std::vector<std::string>> t;
    for (const auto& [tag, p] : v)
      t.push_back({tag, pct(p.first.identical, p.first.n), pct(p.second.identical, p.second.n)});
    std::printf("\n");
    print_table(md, {u ? "utf-* truths, tag" : "legacy truths, tag", "langsift identical", "uchardet identical"}, t);
  }
  std::vector<std::vector<std::string>> t;
  for (const auto& [cs, p] : by_charset)
    t.push_back({cs, pct(p.first.exact, p.first.n), pct(p.first.identical, p.first.n), pct(p.second.identical, p.second.n)});
  std::printf("\n");
  print_table(md, {"true charset", "langsift exact", "langsift identical", "uchardet identical"}, t);
  if (!misses.empty()) {
    std::printf("\n%zu file(s) langsift does not decode identically:\n", misses.size());
    for (const auto& m : misses) std::printf("  %s\n", m.c_str());
  }
}

int run_dir(const fs::path& dir, const langsift::encoding_options& opt, bool verbose, bool md, bool breakdown) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& lang : fs::directory_iterator(dir, ec)) {
    if (!lang.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(lang.path(), ec))
      if (f.is_regular_file()) files.push_back(f.path());
  }
  if (ec) return langsift::cli::fail(k_prog, dir.string() + ": " + ec.message());
  if (files.empty()) return langsift::cli::fail(k_prog, dir.string() + ": no <lang>/<file> found");
  std::sort(files.begin(), files.end());
  tally ours_all, ours_w, ud_all, ud_w;
  int unknown_truth = 0, truth_unclean = 0;
  breakdown_tallies b;  // --breakdown
  auto& by_tag = b.by_tag;
  auto& by_charset = b.by_charset;
  auto& misses = b.misses;
  std::vector<std::vector<std::string>> rows;
  std::string truth_text, text;
  for (const auto& path : files) {
    bool ok;
    std::string bytes = read_all(path, ok);
    if (!ok) return langsift::cli::fail(k_prog, path.string() + ": cannot read");
    std::string truth = truth_from_filename(path.filename().string());
    std::string tkey = key_of(truth);
    if (tkey.empty()) ++unknown_truth;
    bool whatwg = langsift::is_whatwg_encoding(truth);
    bool truth_decodes = decode_as(bytes, tkey, truth_text);
    if (truth_decodes && truth_text.find("\xEF\xBF\xBD") != std::string::npos) ++truth_unclean;
    langsift::encoding_result r = langsift::detect_encoding(bytes, opt);
    std::string ud = langsift::uchardet_charset(std::string_view(bytes).substr(0, opt.max_detect_bytes ? opt.max_detect_bytes : bytes.size()));
    auto score = [&](std::string_view answer, tally& all, tally& w, bool& exact, bool& identical) {
      std::string akey = key_of(answer);
      exact = !tkey.empty() && akey == tkey;
      identical = exact || (truth_decodes && decode_as(bytes, akey, text) && text == truth_text);
      ++all.n, all.exact += exact, all.identical += identical;
      if (whatwg) ++w.n, w.exact += exact, w.identical += identical;
    };
    bool oe, oi, ue, ui;
    score(r.name, ours_all, ours_w, oe, oi);
    score(ud, ud_all, ud_w, ue, ui);
    if (breakdown) {
      const std::string rel = path.parent_path().filename().string() + "/" + path.filename().string();
      const int u = truth.rfind("utf-", 0) == 0 ? 1 : 0;
      auto add = [&](std::pair<tally, tally>& t) {
        ++t.first.n, t.first.exact += oe, t.first.identical += oi;
        ++t.second.n, t.second.exact += ue, t.second.identical += ui;
      };
      add(by_charset[truth]);
      add(by_tag[u][u ? "(all utf-*)" : "(all legacy)"]);
      for (const std::string& t : tags_of(path.filename().string())) add(by_tag[u][t]);
      if (!oi) misses.push_back(rel + " -> " + (r.name.empty() ? "(none)" : r.name) + " (uchardet " + (ud.empty() ? "(none)" : ud) + ")");
    }
    if (verbose) {
      std::string rel = path.parent_path().filename().string() + "/" + path.filename().string();
      char conf[16];
      std::snprintf(conf, sizeof conf, "%.2f", static_cast<double>(r.confidence));
      rows.push_back({rel, truth, r.name, std::string(langsift::encoding_source_name(r.source)), conf,
                      oe ? "yes" : (oi ? "decodes" : "NO"), ud.empty() ? "(none)" : ud,
                      ue ? "yes" : (ui ? "decodes" : "NO")});
    }
  }
  if (verbose) {
    print_table(md, {"file", "truth", "langsift", "source", "conf", "ok", "uchardet", "ok"}, rows);
    std::printf("\n");
  }
  std::vector<std::vector<std::string>> summary = {
      {"langsift", "all", pct(ours_all.exact, ours_all.n), pct(ours_all.identical, ours_all.n)},
      {"uchardet alone", "all", pct(ud_all.exact, ud_all.n), pct(ud_all.identical, ud_all.n)},
      {"langsift", "WHATWG", pct(ours_w.exact, ours_w.n), pct(ours_w.identical, ours_w.n)},
      {"uchardet alone", "WHATWG", pct(ud_w.exact, ud_w.n), pct(ud_w.identical, ud_w.n)},
  };
  print_table(md, {"detector", "files", "exact", "decodes identically"}, summary);
  if (unknown_truth) std::printf("\n%d file(s) with a true charset langsift has no name for\n", unknown_truth);
  if (truth_unclean)
    std::printf("\n%d file(s) whose bytes do not decode cleanly (U+FFFD) in their true charset\n", truth_unclean);
  if (breakdown) print_breakdown(md, b);
  return 0;
}

// UTF-8 → UTF-16 (valid input assumed; an invalid sequence becomes U+FFFD per maximal subpart).
std::string to_utf16(std::string_view s, bool be) {
  std::string out;
  auto put = [&](char16_t u) {
    char a = static_cast<char>(u >> 8), b = static_cast<char>(u & 0xFF);
    if (be) out += a, out += b;
    else out += b, out += a;
  };
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const e = p + s.size();
  while (p < e) {
    const langsift::detail::utf8_decoded d = langsift::detail::decode_utf8_step(p, e);
    const char32_t cp = d.cp;
    if (cp >= 0x10000) {
      put(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      put(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      put(static_cast<char16_t>(cp));
    }
    p += d.len;
  }
  return out;
}

struct line_tally {
  int n = 0, strict = 0, identical = 0;
  void add(bool s, bool i) { ++n, strict += s, identical += i; }
};

int run_lines(const fs::path& dir, const langsift::encoding_options& opt, bool verbose, bool md) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(dir, ec))
    if (f.is_regular_file() && f.path().extension() == ".txt") files.push_back(f.path());
  if (ec) return langsift::cli::fail(k_prog, dir.string() + ": " + ec.message());
  if (files.empty()) return langsift::cli::fail(k_prog, dir.string() + ": no *.txt files");
  std::sort(files.begin(), files.end());
  // [form][detector]: form 0 = utf-8, 1 = utf-16le, 2 = utf-16be; detector 0 = ours, 1 = uchardet
  line_tally total[3][2];
  line_tally nonascii[2];  // utf-8 lines that contain a byte >= 0x80
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, int> wrong_answers[3];
  std::vector<std::string> missed;  // first misses, for --verbose
  std::string text;
  const char* forms[3] = {"utf-8", "utf-16le", "utf-16be"};
  for (const auto& path : files) {
    bool ok;
    std::string data = read_all(path, ok);
    if (!ok) return langsift::cli::fail(k_prog, path.string() + ": cannot read");
    line_tally per[3][2];
    std::size_t b = 0;
    while (b < data.size()) {
      std::size_t e = data.find('\n', b);
      if (e == std::string::npos) e = data.size();
      std::string_view line(data.data() + b, e - b);
      b = e + 1;
      if (line.empty()) continue;
      for (int form = 0; form < 3; ++form) {
        std::string bytes = form == 0 ? std::string(line) : to_utf16(line, form == 2);
        langsift::encoding_result r = langsift::detect_encoding(bytes, opt);
        std::string ud = langsift::uchardet_charset(bytes);
        for (int d = 0; d < 2; ++d) {
          std::string_view ans = d == 0 ? std::string_view(r.name) : std::string_view(ud);
          bool strict = langsift::canonical_encoding_name(ans) == forms[form];
          bool ident = strict || (decode_as(bytes, ans, text) && text == line);
          per[form][d].add(strict, ident);
          total[form][d].add(strict, ident);
          if (form == 0 && std::any_of(line.begin(), line.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
            nonascii[d].add(strict, ident);
          if (d == 0 && !ident) {
            ++wrong_answers[form][r.name.empty() ? "(none)" : r.name];
            if (missed.size() < 40)
              missed.push_back(path.stem().string() + " " + forms[form] + " -> " + r.name + ": " + std::string(line.substr(0, 80)));
          }
        }
      }
    }
    if (verbose) {
      std::vector<std::string> row{path.stem().string()};
      for (int form = 0; form < 3; ++form) {
        row.push_back(pct(per[form][0].strict, per[form][0].n));
        row.push_back(pct(per[form][1].strict, per[form][1].n));
      }
      rows.push_back(row);
    }
  }
  if (verbose) {
    print_table(md, {"lang", "utf-8 langsift", "utf-8 uchardet", "utf-16le langsift", "utf-16le uchardet",
                     "utf-16be langsift", "utf-16be uchardet"}, rows);
    std::printf("\n");
  }
  std::vector<std::vector<std::string>> summary;
  for (int d = 0; d < 2; ++d)
    summary.push_back({"utf-8, lines with non-ASCII", d == 0 ? "langsift" : "uchardet alone",
                       pct(nonascii[d].strict, nonascii[d].n), pct(nonascii[d].identical, nonascii[d].n)});
  for (int form = 0; form < 3; ++form)
    for (int d = 0; d < 2; ++d)
      summary.push_back({std::string(forms[form]) + " (no BOM)", d == 0 ? "langsift" : "uchardet alone",
                         pct(total[form][d].strict, total[form][d].n),
                         pct(total[form][d].identical, total[form][d].n)});
  print_table(md, {"input", "detector", "recognised (strict)", "decodes identically"}, summary);
  if (verbose)
    for (int form = 0; form < 3; ++form) {
      std::string s;
      for (const auto& [name, count] : wrong_answers[form]) s += " " + name + "=" + std::to_string(count);
      if (!s.empty()) std::printf("\nlangsift wrong answers on %s lines:%s\n", forms[form], s.c_str());
    }
  if (verbose && !missed.empty()) {
    std::printf("\nfirst lines langsift misses:\n");
    for (const auto& m : missed) std::printf("  %s\n", m.c_str());
  }
  return 0;
}

}  // namespace

int langsift::cli::eval_encoding(int argc, char** argv) {
  encoding_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(k_prog, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (positional.size() > 1) {
    fail(k_prog, "one DIR only (see --help)");
    return 2;
  }
  if (positional.empty()) {
    fail(k_prog, "no DIR given (see --help)");
    return 2;
  }
  const std::string& dir = positional[0];
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(k_prog, dir + ": not a directory");
  return a.lines ? run_lines(dir, a.opt, a.verbose, a.md) : run_dir(dir, a.opt, a.verbose, a.md, a.breakdown);
}
