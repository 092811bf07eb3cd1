// `langsift-peer-cld2` — CLD2 (Debian libcld2, with its full tables) as a line detector for
// `langsift-eval`: one sample per input line, one answer per output line, codes mapped to
// langsift's convention (ISO 639-1 where one exists, else ISO 639-3; `und` for no answer).
//
// Built only when CLD2 is found (tools/CMakeLists.txt). The executable links libcld2_full before
// libcld2 (as pycld2 ships them): libcld2_full holds only the full-size scoring tables, whose
// symbols then take precedence over the small tables inside libcld2. `ldd` lists both.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/output.hpp"

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

namespace {

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift-peer-cld2 [--best-effort] [--clean] [--tsv|--spans] [--html]\n"
      "\n"
      "Reads one sample per line on stdin (split on '\\n' only; a trailing '\\r' is dropped) and\n"
      "prints one line per input line: the language code of CLD2's summary language\n"
      "(ExtDetectLanguageSummaryCheckUTF8 with the full tables, plain text, no hints).\n"
      "\n"
      "Codes: CLD2's, with iw -> he, jw -> jv, no -> nb (CLD2's NORWEGIAN is Bokmal; Nynorsk is nn);\n"
      "zh-Hant and sr-ME (Montenegrin) are kept as they are (their language subtags are zh and\n"
      "sr); UNKNOWN_LANGUAGE (un), TG_UNKNOWN_LANGUAGE (xxx) and the script-only answers\n"
      "(xx-Latn, xx-Hani, ...) print `und`. Other codes are already ISO 639-1 or 639-2/3.\n"
      "\n"
      "options:\n"
      "  --best-effort  pass kCLDFlagBestEffort: an answer even for short or unreliable text,\n"
      "                 where the default call answers `und`\n"
      "  --tsv          print code<TAB>langs<TAB>text_bytes<TAB>reliable<TAB>short<TAB>score as\n"
      "                 `langsift detect --format tsv` does: langs = up to three code:percent:bytes\n"
      "                 from language3/percent3 (bytes = text_bytes * percent / 100), short = text\n"
      "                 bytes < 400, score = CLD2's normalized score of the first language\n"
      "  --spans        print {\"spans\": [[begin, end, \"code\"], ...]} per line, as `langsift detect\n"
      "                 --spans` does: CLD2's result chunks (resultchunkvector: byte offsets into\n"
      "                 the line), neighbours of one language joined, its UNKNOWN_LANGUAGE (text\n"
      "                 too short or unreliable) `und`; a line CLD2 rejects is one `und` span\n"
      "                 (with --clean, each rejected byte becomes a space, so offsets hold)\n"
      "  --html         input lines are HTML (CLD2 skips tags, expands entities)\n"
      "  --clean        replace what CLD2 rejects as not interchange-valid UTF-8 (invalid bytes,\n"
      "                 C0/C1 control characters, noncharacters) by spaces first; without it a\n"
      "                 single such character makes CLD2 answer `und` for the whole line\n"
      "  -h, --help     this help\n"
      "\n"
      "%s\n",
      CLD2::DetectLanguageVersion());
}

// CLD2's code for `lang` in langsift's convention.
std::string code_of(CLD2::Language lang) {
  if (lang == CLD2::UNKNOWN_LANGUAGE || lang == CLD2::TG_UNKNOWN_LANGUAGE) return "und";
  const char* c = CLD2::LanguageCode(lang);
  if (!c || !*c) return "und";
  std::string_view code = c;
  if (code == "un" || code == "xxx" || code.substr(0, 3) == "xx-") return "und";
  if (code == "iw") return "he";
  if (code == "jw") return "jv";
  if (code == "no") return "nb";
  return std::string(code);
}

struct options {
  bool best_effort = false, tsv = false, html = false, clean = false, spans = false;
};

// Replaces what CLD2 does not accept as interchange-valid UTF-8 (invalid sequences, C0 controls
// but TAB, DEL, C1 controls, surrogates, noncharacters) by a space each, or by as many spaces as it
// has bytes (`keep_offsets`: byte offsets into the result are offsets into `s`).
std::string interchange_valid(std::string_view s, bool keep_offsets = false) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    bool ok = len != 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (ok) {
      static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
      ok = cp >= kMin[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) &&  // shortest form, no surrogates
           !(cp < 0x20 && cp != '\t') && !(cp >= 0x7F && cp <= 0x9F) &&            // controls
           !(cp >= 0xFDD0 && cp <= 0xFDEF) && (cp & 0xFFFE) != 0xFFFE;              // noncharacters
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      const std::size_t skip = len && i + len <= s.size() ? len : 1;
      out.append(keep_offsets ? skip : 1, ' ');
      i += skip;
    }
  }
  return out;
}

// The chunks as {"spans": [[begin, end, "code"], ...]}: neighbours of one language joined, and any
// bytes the chunks leave out (none seen; CLD2 returns none for text it rejects) `und`, so that the
// spans cover the line as langsift's do.
void print_chunks(const CLD2::ResultChunkVector& chunks, std::size_t size, std::string& out) {
  struct item {
    std::size_t begin, end;
    std::string code;
  };
  std::vector<item> spans;
  auto add = [&](std::size_t b, std::size_t e, const std::string& code) {
    if (e <= b) return;
    if (!spans.empty() && spans.back().code == code) spans.back().end = e;
    else spans.push_back({b, e, code});
  };
  std::size_t at = 0;
  for (const CLD2::ResultChunk& c : chunks) {
    const std::size_t b = static_cast<std::size_t>(std::max(0, c.offset));
    const std::size_t e = std::min(size, b + static_cast<std::size_t>(std::max(0, c.bytes)));
    if (b < at || e <= b) continue;  // out of order or empty: not seen
    add(at, b, "und");
    add(b, e, code_of(static_cast<CLD2::Language>(c.lang1)));
    at = e;
  }
  add(at, size, "und");
  out += "{\"spans\":[";
  for (std::size_t i = 0; i < spans.size(); ++i)
    out += (i ? ",[" : "[") + std::to_string(spans[i].begin) + "," + std::to_string(spans[i].end) + ",\"" +
           spans[i].code + "\"]";
  out += "]}\n";
}

void detect_line(std::string_view view, const options& o, std::string& out) {
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  // A NUL-terminated copy: CLD2's scanners may peek past the end.
  const std::string line = o.clean ? interchange_valid(view, o.spans) : std::string(view);
  CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  CLD2::Language language3[3];
  int percent3[3] = {0, 0, 0};
  double normalized_score3[3] = {0, 0, 0};
  int text_bytes = 0, valid_prefix_bytes = 0;
  bool reliable = false;
  CLD2::ResultChunkVector chunks;
  CLD2::Language summary = CLD2::ExtDetectLanguageSummaryCheckUTF8(
      line.data(), static_cast<int>(line.size()), !o.html, &hints, o.best_effort ? CLD2::kCLDFlagBestEffort : 0,
      language3, percent3, normalized_score3, o.spans ? &chunks : nullptr, &text_bytes, &reliable, &valid_prefix_bytes);
  if (o.spans) {
    print_chunks(chunks, line.size(), out);
    return;
  }
  out += code_of(summary);
  if (!o.tsv) {
    out += '\n';
    return;
  }
  out += '\t';
  bool first = true;
  for (int i = 0; i < 3; ++i) {
    std::string code = code_of(language3[i]);
    if (code == "und" || percent3[i] <= 0) continue;
    if (!first) out += ',';
    first = false;
    out += code + ":" + std::to_string(percent3[i]) + ":" +
           std::to_string(static_cast<long long>(text_bytes) * percent3[i] / 100);
  }
  char tail[96];
  std::snprintf(tail, sizeof tail, "\t%d\t%d\t%d\t%.3f\n", text_bytes, reliable ? 1 : 0, text_bytes < 400 ? 1 : 0,
                normalized_score3[0]);
  out += tail;
}

}  // namespace

int run_main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--version") {  // this peer does not link langsift: it names what it runs
      std::printf("langsift-peer-cld2 (CLD2, Debian libcld2, full tables)\n");
      return 0;
    }
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--best-effort") {
      o.best_effort = true;
    } else if (a == "--tsv") {
      o.tsv = true;
    } else if (a == "--spans") {
      o.spans = true;
    } else if (a == "--html") {
      o.html = true;
    } else if (a == "--clean") {
      o.clean = true;
    } else {
      std::fprintf(stderr, "langsift-peer-cld2: unknown argument '%s'; see --help\n", argv[i]);
      return 2;
    }
  }

  if (o.tsv && o.spans) {
    std::fprintf(stderr, "langsift-peer-cld2: --tsv and --spans exclude each other\n");
    return 2;
  }
  // Stream stdin: answer every complete line; the last line may lack its '\n'.
  std::string pending, out;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) {
    pending.append(buf, n);
    std::size_t start = 0, nl;
    while ((nl = pending.find('\n', start)) != std::string::npos) {
      detect_line(std::string_view(pending).substr(start, nl - start), o, out);
      start = nl + 1;
    }
    pending.erase(0, start);
    if (!out.empty()) {
      if (!langsift::cli::write_stdout(out)) break;
      out.clear();
      std::fflush(stdout);
    }
  }
  if (std::ferror(stdin)) {
    std::fprintf(stderr, "langsift-peer-cld2: read error on stdin: %s\n", std::strerror(errno));
    return 1;
  }
  if (!pending.empty()) {
    detect_line(pending, o, out);
    langsift::cli::write_stdout(out);
  }
  return 0;  // a write error on stdout: reported by cli::run
}

int main(int argc, char** argv) {
  return langsift::cli::run("langsift-peer-cld2", nullptr, [&] { return run_main(argc, argv); });
}
