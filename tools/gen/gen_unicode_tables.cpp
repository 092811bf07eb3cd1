// langsift-gen-unicode — writes two files from ICU's Unicode data: include/langsift/detail/
// unicode_scripts.inc (the `script` enum, ISO 15924 codes and names; included by the public
// langsift/unicode.hpp) and include/langsift/detail/unicode_tables.inc (a three-stage table mapping
// every code point to (script, char_class, canonical combining class, simple case folding), plus
// the canonical composition pairs; included by langsift/impl/unicode-inl.hpp only). The headers
// that include them need no ICU.
//
//   langsift-gen-unicode [--previous FILE] [--scripts-output FILE] [-o FILE]
//
// --previous: an earlier scripts output; its script order is kept (new scripts are appended), so
// the numeric values of `script` stay stable across ICU upgrades. The CMake target
// `regen-unicode-tables` runs this with --previous and --scripts-output both set to the committed
// unicode_scripts.inc and -o to the committed unicode_tables.inc. Without either output, both go
// to standard output.
#include <unicode/uchar.h>
#include <unicode/uclean.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/uversion.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/output.hpp"

namespace {

constexpr char32_t kMaxCp = 0x10FFFF;
constexpr std::size_t kCps = 0x110000;

// Must match langsift::char_class in unicode.hpp.
enum cls : std::uint8_t { other, letter, mark, digit, punct, space, symbol, control };

cls char_class_of(UChar32 c) {
  if (c == 0x200C || c == 0x200D) return mark;  // ZWNJ/ZWJ: word characters (Indic scripts)
  if (u_hasBinaryProperty(c, UCHAR_WHITE_SPACE)) return space;
  switch (u_charType(c)) {
    case U_UPPERCASE_LETTER: case U_LOWERCASE_LETTER: case U_TITLECASE_LETTER:
    case U_MODIFIER_LETTER: case U_OTHER_LETTER:
      return letter;
    case U_NON_SPACING_MARK: case U_ENCLOSING_MARK: case U_COMBINING_SPACING_MARK:
      return mark;
    case U_DECIMAL_DIGIT_NUMBER: case U_LETTER_NUMBER: case U_OTHER_NUMBER:
      return digit;
    case U_DASH_PUNCTUATION: case U_START_PUNCTUATION: case U_END_PUNCTUATION:
    case U_CONNECTOR_PUNCTUATION: case U_OTHER_PUNCTUATION: case U_INITIAL_PUNCTUATION:
    case U_FINAL_PUNCTUATION:
      return punct;
    case U_MATH_SYMBOL: case U_CURRENCY_SYMBOL: case U_MODIFIER_SYMBOL: case U_OTHER_SYMBOL:
      return symbol;
    case U_SPACE_SEPARATOR: case U_LINE_SEPARATOR: case U_PARAGRAPH_SEPARATOR:
      return space;  // all of them are White_Space anyway
    default:
      return control;  // Cc, Cf, Cs, Co, Cn
  }
}

struct script_entry {
  std::string name;   // enum member: ICU's long name, lower case ("old_italic")
  std::string code;   // ISO 15924 ("Ital")
  std::string title;  // ICU's long name ("Old_Italic")
  int icu;            // UScriptCode
};

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

/// Script codes listed, in order, between the markers of an earlier output.
std::vector<std::string> previous_order(const std::string& path) {
  std::vector<std::string> codes;
  std::ifstream in(path);
  std::string line;
  bool on = false;
  while (std::getline(in, line)) {
    if (line.find("BEGIN SCRIPT ORDER") != std::string::npos) { on = true; continue; }
    if (line.find("END SCRIPT ORDER") != std::string::npos) break;
    if (!on) continue;
    // lines look like "//   12 Hani han"
    std::istringstream ls(line);
    std::string slashes, idx, code;
    if (ls >> slashes >> idx >> code) codes.push_back(code);
  }
  return codes;
}

template <class T>
void emit_array(std::ostream& o, const char* type, const char* name, const std::vector<T>& v,
                int per_line) {
  o << "inline constexpr " << type << " " << name << "[" << v.size() << "] = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i % per_line == 0) o << "\n";
    o << static_cast<long long>(v[i]) << ",";
  }
  o << "\n};\n";
}

struct layout {
  int a = 0, b = 0;  // cp >> a indexes stage 1; cp >> b (within) stage 2; cp & (2^b - 1) stage 3
  std::vector<std::uint32_t> s1, s2, s3;
  std::size_t bytes = 0;
};

std::size_t width(std::size_t max_value) { return max_value < 256 ? 1 : max_value < 65536 ? 2 : 4; }

layout build(const std::vector<std::uint32_t>& v, int a, int b) {
  layout L;
  L.a = a;
  L.b = b;
  const std::size_t bsz = std::size_t{1} << b, per = std::size_t{1} << (a - b);
  // stage 3: unique blocks of bsz values
  std::map<std::vector<std::uint32_t>, std::uint32_t> blocks3;
  std::vector<std::uint32_t> block_of;  // for each block of bsz code points
  for (std::size_t start = 0; start < kCps; start += bsz) {
    std::vector<std::uint32_t> blk(v.begin() + start, v.begin() + start + bsz);
    auto [it, fresh] = blocks3.emplace(blk, static_cast<std::uint32_t>(blocks3.size()));
    if (fresh) L.s3.insert(L.s3.end(), blk.begin(), blk.end());
    block_of.push_back(it->second);
  }
  std::map<std::vector<std::uint32_t>, std::uint32_t> blocks2;
  for (std::size_t start = 0; start < block_of.size(); start += per) {
    std::vector<std::uint32_t> blk(block_of.begin() + start,
                                   block_of.begin() + std::min(block_of.size(), start + per));
    blk.resize(per, block_of.back());
    auto [it, fresh] = blocks2.emplace(blk, static_cast<std::uint32_t>(blocks2.size()));
    if (fresh) L.s2.insert(L.s2.end(), blk.begin(), blk.end());
    L.s1.push_back(it->second);
  }
  auto mx = [](const std::vector<std::uint32_t>& x) { return *std::max_element(x.begin(), x.end()); };
  L.bytes = L.s1.size() * width(mx(L.s1)) + L.s2.size() * width(mx(L.s2)) +
            L.s3.size() * width(mx(L.s3));
  return L;
}

const char* uint_type(std::size_t max_value) {
  return max_value < 256 ? "std::uint8_t" : max_value < 65536 ? "std::uint16_t" : "std::uint32_t";
}

/// What the tables are made of, as read from ICU.
struct unicode_data {
  std::vector<script_entry> scripts;        // in enum order
  std::vector<int> index_of;                // ICU script code -> index in `scripts` (-1: none)
  using value = std::tuple<int, int, int, std::int32_t>;  // script index, class, ccc, fold delta
  std::vector<value> values;                // distinct per-code-point values
  std::vector<std::uint32_t> cp_value;      // code point -> index in `values`
  std::size_t folded = 0, nonzero_ccc = 0;  // code points case-folded, with a combining class
  struct pair_entry {
    std::uint64_t key;
    char32_t composite;
  };
  std::vector<pair_entry> pairs;            // canonical composition pairs, sorted by key
};

/// The scripts in enum order: a fixed head, then (with `prev_path`) the earlier order, then ICU's
/// code order of the scripts of assigned code points. False after the error (on stderr).
bool read_scripts(const std::string& prev_path, const std::vector<bool>& used, unicode_data& d) {
  auto entry = [](int s) {
    // ICU has no long names for the writing systems Jpan and Kore (getName returns the code).
    const char* title = s == USCRIPT_JAPANESE ? "Japanese"
                        : s == USCRIPT_KOREAN ? "Korean"
                                              : uscript_getName(static_cast<UScriptCode>(s));
    return script_entry{lower(title), uscript_getShortName(static_cast<UScriptCode>(s)), title, s};
  };
  std::vector<int> order = {USCRIPT_COMMON,   USCRIPT_INHERITED, USCRIPT_UNKNOWN, USCRIPT_LATIN,
                            USCRIPT_CYRILLIC, USCRIPT_GREEK,     USCRIPT_ARABIC,  USCRIPT_HEBREW,
                            USCRIPT_HAN,      USCRIPT_HIRAGANA,  USCRIPT_KATAKANA, USCRIPT_HANGUL,
                            USCRIPT_JAPANESE, USCRIPT_KOREAN};
  auto have = [&](int s) { return std::find(order.begin(), order.end(), s) != order.end(); };
  if (!prev_path.empty()) {
    for (const std::string& code : previous_order(prev_path)) {
      int s = u_getPropertyValueEnum(UCHAR_SCRIPT, code.c_str());
      if (s < 0) {
        std::cerr << "langsift-gen-unicode: script " << code << " of " << prev_path
                  << " is unknown to this ICU; refusing to renumber the enum\n";
        return false;
      }
      if (!have(s)) order.push_back(s);
    }
  }
  for (std::size_t s = 0; s < used.size(); ++s)
    if (used[s] && !have(static_cast<int>(s))) order.push_back(static_cast<int>(s));
  if (order.size() > 255) {
    std::cerr << "langsift-gen-unicode: more than 255 scripts\n";
    return false;
  }
  d.index_of.assign(used.size() + 256, -1);
  for (int s : order) {
    d.index_of[static_cast<std::size_t>(s)] = static_cast<int>(d.scripts.size());
    d.scripts.push_back(entry(s));
  }
  return true;
}

/// Every code point's (script, class, ccc, fold delta), numbered as distinct values. False after
/// the error (on stderr).
bool read_values(const std::vector<int>& icu_script, unicode_data& d) {
  std::map<unicode_data::value, std::uint32_t> value_ids;
  d.cp_value.assign(kCps, 0);
  for (UChar32 c = 0; c <= static_cast<UChar32>(kMaxCp); ++c) {
    int si = d.index_of[static_cast<std::size_t>(icu_script[static_cast<std::size_t>(c)])];
    if (si < 0) {
      std::cerr << "langsift-gen-unicode: U+" << std::hex << c << " has a script with no entry\n";
      return false;
    }
    UChar32 f = u_foldCase(c, U_FOLD_CASE_DEFAULT);
    int ccc = u_getCombiningClass(c);
    d.folded += f != c;
    d.nonzero_ccc += ccc != 0;
    unicode_data::value v{si, char_class_of(c), ccc, f - c};
    auto [it, fresh] = value_ids.emplace(v, static_cast<std::uint32_t>(d.values.size()));
    if (fresh) d.values.push_back(v);
    d.cp_value[static_cast<std::size_t>(c)] = it->second;
  }
  return true;
}

/// The canonical composition pairs (Hangul syllables are algorithmic in the header), sorted.
void read_pairs(const UNormalizer2* nfc, unicode_data& d) {
  auto& pairs = d.pairs;
  for (UChar32 c = 0; c <= static_cast<UChar32>(kMaxCp); ++c) {
    if (c >= 0xAC00 && c <= 0xD7A3) continue;
    UChar buf[8];
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = unorm2_getRawDecomposition(nfc, c, buf, 8, &e);
    if (U_FAILURE(e) || n <= 0) continue;
    UChar32 cps[4];
    int k = 0;
    for (int32_t i = 0; i < n && k < 4;) {
      UChar32 x;
      U16_NEXT(buf, i, n, x);
      cps[k++] = x;
    }
    if (k != 2) continue;
    if (unorm2_composePair(nfc, cps[0], cps[1]) != c) continue;  // excluded / not primary
    pairs.push_back({(static_cast<std::uint64_t>(cps[0]) << 21) | static_cast<std::uint64_t>(cps[1]),
                     static_cast<char32_t>(c)});
  }
  std::sort(pairs.begin(), pairs.end(), [](auto& x, auto& y) { return x.key < y.key; });
}

/// The three-stage split of the code point table with the fewest bytes.
layout smallest_layout(const std::vector<std::uint32_t>& cp_value) {
  layout best;
  for (int b = 4; b <= 8; ++b)
    for (int a = b + 2; a <= b + 9 && a <= 16; ++a) {
      layout L = build(cp_value, a, b);
      if (best.bytes == 0 || L.bytes < best.bytes) best = std::move(L);
    }
  return best;
}

/// The heading of both generated files.
const std::string kGenerated =
    "// GENERATED by langsift-gen-unicode (tools/gen/gen_unicode_tables.cpp) — do not edit.\n"
    "// From ICU " U_ICU_VERSION " (Unicode " U_UNICODE_VERSION "). Regenerate with:\n"
    "//   cmake -S . -B build -DLANGSIFT_BUILD_TOOLS=ON && cmake --build build --target regen-unicode-tables\n";

/// unicode_scripts.inc: the script enum, its codes and names.
std::string scripts_inc(const unicode_data& d) {
  const std::string& generated = kGenerated;
  const auto& scripts = d.scripts;
  std::ostringstream os;  // unicode_scripts.inc
  os << generated
     << "// which keeps the order of `script` below and appends scripts new to a later ICU.\n"
        "// Included by langsift/unicode.hpp only.\n\n"
     << "#define LANGSIFT_UNICODE_VERSION \"" U_UNICODE_VERSION "\"\n"
     << "#define LANGSIFT_UNICODE_ICU_VERSION \"" U_ICU_VERSION "\"\n\n"
     << "namespace langsift {\ninline namespace v1 {\n\n"
     << "/// Unicode scripts (ICU's Script property) plus the writing systems Jpan (Han + kana) and Kore\n"
        "/// (Hangul + Han) that split_script_runs produces. Values are stable: new scripts are appended.\n"
     << "// BEGIN SCRIPT ORDER (index, ISO 15924 code, enum name; read back by the generator)\n";
  for (std::size_t i = 0; i < scripts.size(); ++i)
    os << "//   " << i << " " << scripts[i].code << " " << scripts[i].name << "\n";
  os << "// END SCRIPT ORDER\n";
  os << "enum class script : std::uint8_t {";
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    if (i % 6 == 0) os << "\n ";
    os << " " << scripts[i].name << ",";
  }
  os << "\n};\n\n/// Number of `script` values.\ninline constexpr std::size_t script_count = "
     << scripts.size() << ";\n\nnamespace detail {\n\n";
  os << "inline constexpr std::string_view script_codes[script_count] = {";
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    if (i % 12 == 0) os << "\n ";
    os << " \"" << scripts[i].code << "\",";
  }
  os << "\n};\n\ninline constexpr std::string_view script_names[script_count] = {";
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    if (i % 6 == 0) os << "\n ";
    os << " \"" << scripts[i].title << "\",";
  }
  os << "\n};\n\n}  // namespace detail\n}  // namespace v1\n}  // namespace langsift\n";
  return os.str();
}

/// unicode_tables.inc: the values, the three-stage code point table, the ASCII table and the
/// composition pairs.
std::string tables_inc(const unicode_data& d, const layout& best, std::size_t total, std::size_t values_bytes,
                       std::size_t pairs_bytes) {
  const std::string& generated = kGenerated;
  const auto& scripts = d.scripts;
  const auto& values = d.values;
  const auto& pairs = d.pairs;
  const auto& cp_value = d.cp_value;
  const std::size_t folded = d.folded, nonzero_ccc = d.nonzero_ccc;
  auto mx = [](const std::vector<std::uint32_t>& x) { return *std::max_element(x.begin(), x.end()); };
  std::ostringstream o;  // unicode_tables.inc
  o << generated
    << "// Tables: "
    << scripts.size() << " scripts, " << values.size() << " distinct (script, class, ccc, fold) values, "
    << folded << " case-folded and " << nonzero_ccc << " combining code points, " << pairs.size()
    << " composition pairs;\n// " << total << " bytes in all (stages " << best.s1.size() << "+"
    << best.s2.size() << "+" << best.s3.size() << " entries = " << best.bytes << " bytes, values "
    << values_bytes << ", pairs " << pairs_bytes << ").\n"
    << "// Included by langsift/impl/unicode-inl.hpp only (struct uni_value is in langsift/unicode.hpp).\n\n"
    << "namespace langsift {\ninline namespace v1 {\nnamespace detail {\n\n";
  o << "inline constexpr uni_value uni_values[" << values.size() << "] = {";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % 4 == 0) o << "\n ";
    auto [s, c, ccc, f] = values[i];
    o << " {" << s << "," << c << "," << ccc << ",0," << f << "},";
  }
  o << "\n};\n\n";
  o << "// code point cp -> uni_values[uni_stage3[(uni_stage2[(uni_stage1[cp >> " << best.a << "] << "
    << (best.a - best.b) << ") | ((cp >> " << best.b << ") & " << ((1 << (best.a - best.b)) - 1)
    << ")] << " << best.b << ") | (cp & " << ((1 << best.b) - 1) << ")]]\n";
  o << "inline constexpr unsigned uni_shift1 = " << best.a << ", uni_shift2 = " << best.b << ";\n";
  emit_array(o, uint_type(mx(best.s1)), "uni_stage1", best.s1, 32);
  emit_array(o, uint_type(mx(best.s2)), "uni_stage2", best.s2, 24);
  emit_array(o, uint_type(mx(best.s3)), "uni_stage3", best.s3, 24);
  std::vector<std::uint32_t> ascii(cp_value.begin(), cp_value.begin() + 128);
  emit_array(o, uint_type(mx(ascii)), "uni_ascii", ascii, 32);

  o << "\n// Canonical composition: (first << 21 | second) -> primary composite, sorted by key.\n";
  o << "inline constexpr std::uint64_t compose_keys[" << pairs.size() << "] = {";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i % 8 == 0) o << "\n ";
    o << " 0x" << std::hex << pairs[i].key << std::dec << ",";
  }
  o << "\n};\ninline constexpr char32_t compose_values[" << pairs.size() << "] = {";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i % 12 == 0) o << "\n ";
    o << " 0x" << std::hex << static_cast<std::uint32_t>(pairs[i].composite) << std::dec << ",";
  }
  o << "\n};\n\n}  // namespace detail\n}  // namespace v1\n}  // namespace langsift\n";
  return o.str();
}

}  // namespace

int run_main(int argc, char** argv) {
  std::string out_path, scripts_path, prev_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "-o" || a == "--output") && i + 1 < argc) out_path = argv[++i];
    else if (a == "--scripts-output" && i + 1 < argc) scripts_path = argv[++i];
    else if (a == "--previous" && i + 1 < argc) prev_path = argv[++i];
    else if (a == "-h" || a == "--help") {
      std::printf("usage: langsift-gen-unicode [--previous FILE] [--scripts-output FILE] [-o FILE]\n\n"
                  "Writes langsift's Unicode scripts (unicode_scripts.inc) and tables (unicode_tables.inc) from\n"
                  "ICU's data (with neither option: both to stdout).\n\n"
                  "options:\n"
                  "  --previous FILE         the scripts file of before, whose order of scripts is kept\n"
                  "  --scripts-output FILE   write the scripts to FILE, whole or not at all\n"
                  "  -o, --output FILE       write the tables to FILE, whole or not at all\n");
      return 0;
    } else {
      std::cerr << "langsift-gen-unicode: unknown argument '" << a << "' (try --help)\n";
      return 2;
    }
  }

  UErrorCode err = U_ZERO_ERROR;
  const UNormalizer2* nfc = unorm2_getNFCInstance(&err);
  if (U_FAILURE(err)) {
    std::cerr << "langsift-gen-unicode: no NFC instance: " << u_errorName(err) << "\n";
    return 1;
  }

  // The script of every code point, and the scripts of assigned ones.
  std::vector<bool> used(static_cast<std::size_t>(u_getIntPropertyMaxValue(UCHAR_SCRIPT)) + 1);
  std::vector<int> icu_script(kCps);
  for (UChar32 c = 0; c <= static_cast<UChar32>(kMaxCp); ++c) {
    UErrorCode e = U_ZERO_ERROR;
    int s = uscript_getScript(c, &e);
    icu_script[static_cast<std::size_t>(c)] = s;
    if (u_charType(c) != U_UNASSIGNED) used[static_cast<std::size_t>(s)] = true;
  }
  unicode_data d;
  if (!read_scripts(prev_path, used, d) || !read_values(icu_script, d)) return 1;
  const layout best = smallest_layout(d.cp_value);
  read_pairs(nfc, d);
  const std::size_t values_bytes = d.values.size() * 8, pairs_bytes = d.pairs.size() * 12;
  const std::size_t total = best.bytes + values_bytes + pairs_bytes;
  const std::string scripts_text = scripts_inc(d), tables_text = tables_inc(d, best, total, values_bytes, pairs_bytes);
  if (out_path.empty() && scripts_path.empty()) {
    const std::string all = scripts_text + tables_text;
    langsift::cli::write_stdout(all);
    if (langsift::cli::stdout_failed("langsift-gen-unicode", true)) return 1;  // before the summary: one line
  }
  for (const auto& [path, text] : {std::pair{scripts_path, scripts_text}, std::pair{out_path, tables_text}}) {
    if (path.empty()) continue;
    std::string error;
    if (!langsift::cli::write_file_atomic(path, text, error)) {
      std::fprintf(stderr, "langsift-gen-unicode: %s\n", error.c_str());
      return 1;
    }
  }
  std::cerr << "langsift-gen-unicode: ICU " U_ICU_VERSION " / Unicode " U_UNICODE_VERSION ": "
            << d.scripts.size() << " scripts, " << d.values.size() << " values, " << d.pairs.size()
            << " pairs; layout " << best.a << "/" << best.b << ", " << total << " bytes\n";
  u_cleanup();
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run("langsift-gen-unicode", nullptr, [&] { return run_main(argc, argv); });
}
