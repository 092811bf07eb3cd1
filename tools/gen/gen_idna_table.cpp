// langsift-gen-idna — writes include/langsift/detail/idna_tables.inc, the UTS #46 (IDNA
// Compatibility Processing) data of langsift/idna.hpp, from ICU. The header that includes the
// output needs no ICU.
//
//   langsift-gen-idna [-o FILE]          write the table (stdout without -o)
//   langsift-gen-idna --check FILE       compare FILE with what this ICU gives, then compare
//                                        langsift::idna_to_ascii / idna_to_unicode (built on FILE's
//                                        twin, the header in the source tree) with ICU's own UTS #46
//                                        implementation (uidna) on every code point
//
// Per code point (U+0000..U+10FFFF):
//   * status: valid, mapped (including "ignored", mapped to nothing) or disallowed, and the
//     mapping. ICU keeps them in its "uts46" normaliser data: normalising the code point alone
//     gives its mapping (in NFC), U+FFFD for a disallowed one, nothing for an ignored one, the
//     code point itself for a valid one. Deviation characters (ß, ς, ZWJ, ZWNJ) are valid:
//     langsift implements non-transitional processing only. ASCII is valid or mapped (A-Z) here,
//     as with UseSTD3ASCIIRules=false; idna.hpp applies the STD3 rules to ASCII when asked.
//   * the expansion: the canonical decomposition (NFD) of the mapping (of the code point itself
//     when valid), so that idna.hpp gets NFC(map(s)) by concatenating expansions, reordering
//     combining marks and composing (langsift/unicode.hpp: combining classes, composition pairs).
//     Hangul syllables are left out (composition handles them algorithmically).
//   * Bidi_Class (ICU's UCharDirection numbering), Joining_Type (ICU's UJoiningType numbering) and
//     whether General_Category is a mark (Mn, Mc, Me): the inputs of the validity criteria
//     (CheckBidi: RFC 5893; CheckJoiners: RFC 5892 appendix A; V6: no leading combining mark).
//
// The CMake target regen-idna-table runs this with -o on the committed file; check-idna-table runs
// --check on it.
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#define LANGSIFT_IDNA_GENERATOR  // builds on the committed table even when it is stale
#include "langsift/idna.hpp"  // the consumer of the table (for --check), and the property enums

#include "common/output.hpp"

namespace {

constexpr UChar32 kMaxCp = 0x10FFFF;

using u32s = std::vector<char32_t>;

// The numbering idna.hpp relies on.
static_assert(U_LEFT_TO_RIGHT == 0 && U_RIGHT_TO_LEFT == 1 && U_EUROPEAN_NUMBER == 2 &&
              U_EUROPEAN_NUMBER_SEPARATOR == 3 && U_EUROPEAN_NUMBER_TERMINATOR == 4 &&
              U_ARABIC_NUMBER == 5 && U_COMMON_NUMBER_SEPARATOR == 6 && U_OTHER_NEUTRAL == 10 &&
              U_RIGHT_TO_LEFT_ARABIC == 13 && U_DIR_NON_SPACING_MARK == 17 && U_BOUNDARY_NEUTRAL == 18);
static_assert(static_cast<int>(langsift::detail::idna_bidi::L) == U_LEFT_TO_RIGHT &&
              static_cast<int>(langsift::detail::idna_bidi::R) == U_RIGHT_TO_LEFT &&
              static_cast<int>(langsift::detail::idna_bidi::EN) == U_EUROPEAN_NUMBER &&
              static_cast<int>(langsift::detail::idna_bidi::ES) == U_EUROPEAN_NUMBER_SEPARATOR &&
              static_cast<int>(langsift::detail::idna_bidi::ET) == U_EUROPEAN_NUMBER_TERMINATOR &&
              static_cast<int>(langsift::detail::idna_bidi::AN) == U_ARABIC_NUMBER &&
              static_cast<int>(langsift::detail::idna_bidi::CS) == U_COMMON_NUMBER_SEPARATOR &&
              static_cast<int>(langsift::detail::idna_bidi::ON) == U_OTHER_NEUTRAL &&
              static_cast<int>(langsift::detail::idna_bidi::AL) == U_RIGHT_TO_LEFT_ARABIC &&
              static_cast<int>(langsift::detail::idna_bidi::NSM) == U_DIR_NON_SPACING_MARK &&
              static_cast<int>(langsift::detail::idna_bidi::BN) == U_BOUNDARY_NEUTRAL);
static_assert(U_JT_NON_JOINING == static_cast<int>(langsift::detail::idna_joining::U) &&
              U_JT_JOIN_CAUSING == static_cast<int>(langsift::detail::idna_joining::C) &&
              U_JT_DUAL_JOINING == static_cast<int>(langsift::detail::idna_joining::D) &&
              U_JT_LEFT_JOINING == static_cast<int>(langsift::detail::idna_joining::L) &&
              U_JT_RIGHT_JOINING == static_cast<int>(langsift::detail::idna_joining::R) &&
              U_JT_TRANSPARENT == static_cast<int>(langsift::detail::idna_joining::T));

std::u16string utf16(const u32s& s) {
  std::u16string r;
  for (char32_t c : s) {
    if (c < 0x10000) {
      r += static_cast<char16_t>(c);
    } else {
      r += static_cast<char16_t>(U16_LEAD(c));
      r += static_cast<char16_t>(U16_TRAIL(c));
    }
  }
  return r;
}

u32s utf32(const UChar* s, int32_t n) {
  u32s r;
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    r.push_back(static_cast<char32_t>(c));
  }
  return r;
}

u32s normalize(const UNormalizer2* n, const u32s& s) {
  std::u16string src = utf16(s);
  std::vector<UChar> dst(src.size() * 20 + 32);
  UErrorCode e = U_ZERO_ERROR;
  int32_t len = unorm2_normalize(n, reinterpret_cast<const UChar*>(src.data()), static_cast<int32_t>(src.size()),
                                 dst.data(), static_cast<int32_t>(dst.size()), &e);
  if (U_FAILURE(e)) {
    std::cerr << "langsift-gen-idna: normalisation failed: " << u_errorName(e) << "\n";
    std::exit(1);
  }
  return utf32(dst.data(), len);
}

struct cp_data {
  int status = 0;  // idna_status
  bool has_expansion = false;
  int bidi = 0, joining = 0;
  bool mark = false;
  u32s expansion;
};

struct tables {
  std::vector<cp_data> cps;
  std::string text;  // the .inc
};

/// What build() counted of the code points, for the table's heading.
struct idna_counts {
  std::size_t mapped = 0, ignored = 0, disallowed = 0, decomposed = 0;
};

/// Every code point's UTS #46 status, expansion (mapping or canonical decomposition, NFD),
/// Bidi_Class, Joining_Type and markness, from ICU's "uts46" and NFD normalisers.
idna_counts read_code_points(const UNormalizer2* uts46, const UNormalizer2* nfd, tables& t) {
  idna_counts k;
  std::size_t &mapped = k.mapped, &ignored = k.ignored, &disallowed = k.disallowed, &decomposed = k.decomposed;
  using langsift::detail::idna_status;
  t.cps.resize(static_cast<std::size_t>(kMaxCp) + 1);
  for (UChar32 c = 0; c <= kMaxCp; ++c) {
    cp_data& d = t.cps[static_cast<std::size_t>(c)];
    d.bidi = u_charDirection(c);
    d.joining = u_getIntPropertyValue(c, UCHAR_JOINING_TYPE);
    const int8_t gc = u_charType(c);
    d.mark = gc == U_NON_SPACING_MARK || gc == U_ENCLOSING_MARK || gc == U_COMBINING_SPACING_MARK;
    if ((c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFD) {  // surrogates cannot be normalised alone
      d.status = static_cast<int>(idna_status::disallowed);
      ++disallowed;
      continue;
    }
    const u32s self{static_cast<char32_t>(c)};
    const u32s m = normalize(uts46, self);
    if (m.size() == 1 && m[0] == 0xFFFD) {
      d.status = static_cast<int>(idna_status::disallowed);
      ++disallowed;
      continue;
    }
    if (c >= 0xAC00 && c <= 0xD7A3) {  // Hangul syllables: valid, composed algorithmically
      d.status = static_cast<int>(idna_status::valid);
      continue;
    }
    if (m == self) {
      d.status = static_cast<int>(idna_status::valid);
      const u32s x = normalize(nfd, self);
      if (x != self) {
        d.has_expansion = true;
        d.expansion = x;
        ++decomposed;
      }
    } else {
      d.status = static_cast<int>(idna_status::mapped);
      d.has_expansion = true;
      d.expansion = m.empty() ? m : normalize(nfd, m);
      ++(m.empty() ? ignored : mapped);
    }
  }

  return k;
}

/// idna_tables.inc: the ranges of equal properties, the expansions and their pool.
std::string idna_inc(const tables& t, const idna_counts& k) {
  const std::size_t mapped = k.mapped, ignored = k.ignored, disallowed = k.disallowed, decomposed = k.decomposed;
  // Ranges of equal properties.
  std::vector<std::uint32_t> starts;
  std::vector<std::uint16_t> props;
  auto prop_of = [](const cp_data& d) {
    return static_cast<std::uint16_t>(d.status | (d.has_expansion ? 4 : 0) | (d.bidi << 3) | (d.joining << 8) |
                                      (d.mark ? 1 << 11 : 0));
  };
  for (UChar32 c = 0; c <= kMaxCp; ++c) {
    const std::uint16_t p = prop_of(t.cps[static_cast<std::size_t>(c)]);
    if (props.empty() || props.back() != p) {
      starts.push_back(static_cast<std::uint32_t>(c));
      props.push_back(p);
    }
  }
  // Expansions.
  std::vector<std::uint32_t> keys, refs;
  std::vector<char32_t> pool;
  for (UChar32 c = 0; c <= kMaxCp; ++c) {
    const cp_data& d = t.cps[static_cast<std::size_t>(c)];
    if (!d.has_expansion) continue;
    if (d.expansion.size() > 31) {
      std::cerr << "langsift-gen-idna: U+" << std::hex << c << " expands to more than 31 code points\n";
      std::exit(1);
    }
    keys.push_back(static_cast<std::uint32_t>(c));
    refs.push_back(static_cast<std::uint32_t>(pool.size() << 5 | d.expansion.size()));
    pool.insert(pool.end(), d.expansion.begin(), d.expansion.end());
  }

  std::ostringstream o;
  char ver[U_MAX_VERSION_STRING_LENGTH];
  UVersionInfo uv;
  u_getUnicodeVersion(uv);
  u_versionToString(uv, ver);
  std::string unicode_version = ver;
  if (const std::size_t dot = unicode_version.find('.', unicode_version.find('.') + 1); dot != std::string::npos)
    unicode_version.resize(dot);  // "15.0.0" -> "15.0", as unicode_tables.inc writes it
  o << "// GENERATED by langsift-gen-idna (tools/gen/gen_idna_table.cpp) — do not edit.\n"
    << "// From ICU " << U_ICU_VERSION << " (Unicode " << unicode_version << "): the UTS #46 mapping of ICU's \"uts46\"\n"
    << "// normaliser data, canonical decompositions, Bidi_Class, Joining_Type, General_Category=Mark.\n"
    << "// Regenerate with `cmake --build <dir> --target regen-idna-table`; check with --target check-idna-table.\n"
    << "// " << starts.size() << " ranges; " << keys.size() << " expansions (" << mapped << " mapped, " << ignored
    << " ignored, " << decomposed << " valid with a canonical decomposition), " << pool.size()
    << " code points of expansion; " << disallowed << " code points disallowed.\n"
    << "// Included by langsift/idna.hpp only.\n\n"
    << "#define LANGSIFT_IDNA_UNICODE_VERSION \"" << unicode_version << "\"\n"
    << "#define LANGSIFT_IDNA_ICU_VERSION \"" << U_ICU_VERSION << "\"\n\n"
    << "namespace langsift {\ninline namespace v1 {\nnamespace detail {\n\n";
  o << "/// First code point of each range of equal properties.\n"
    << "inline constexpr std::uint32_t idna_range_starts[" << starts.size() << "] = {\n";
  for (std::size_t i = 0; i < starts.size(); ++i) o << "0x" << std::hex << starts[i] << std::dec << (i % 12 == 11 ? ",\n" : ",");
  o << "};\n\n/// Properties of each range: status (bits 0-1), has an expansion (bit 2), Bidi_Class (bits 3-7),\n"
    << "/// Joining_Type (bits 8-10), General_Category=Mark (bit 11).\n"
    << "inline constexpr std::uint16_t idna_range_props[" << props.size() << "] = {\n";
  for (std::size_t i = 0; i < props.size(); ++i) o << props[i] << (i % 16 == 15 ? ",\n" : ",");
  o << "};\n\n/// Code points with an expansion, ascending.\n"
    << "inline constexpr std::uint32_t idna_expansion_cps[" << keys.size() << "] = {\n";
  for (std::size_t i = 0; i < keys.size(); ++i) o << "0x" << std::hex << keys[i] << std::dec << (i % 12 == 11 ? ",\n" : ",");
  o << "};\n\n/// Their expansions: offset into idna_expansion_pool << 5 | length.\n"
    << "inline constexpr std::uint32_t idna_expansion_refs[" << refs.size() << "] = {\n";
  for (std::size_t i = 0; i < refs.size(); ++i) o << refs[i] << (i % 12 == 11 ? ",\n" : ",");
  o << "};\n\ninline constexpr char32_t idna_expansion_pool[" << pool.size() << "] = {\n";
  for (std::size_t i = 0; i < pool.size(); ++i) o << "0x" << std::hex << static_cast<std::uint32_t>(pool[i]) << std::dec << (i % 12 == 11 ? ",\n" : ",");
  o << "};\n\n}  // namespace detail\n}  // namespace v1\n}  // namespace langsift\n";
  return o.str();
}

tables build() {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2* uts46 = unorm2_getInstance(nullptr, "uts46", UNORM2_COMPOSE, &e);
  const UNormalizer2* nfd = unorm2_getNFDInstance(&e);
  if (U_FAILURE(e)) {
    std::cerr << "langsift-gen-idna: no ICU normaliser: " << u_errorName(e) << "\n";
    std::exit(1);
  }
  tables t;
  const idna_counts k = read_code_points(uts46, nfd, t);
  t.text = idna_inc(t, k);
  return t;
}

std::string to_utf8(const u32s& s) {
  std::string r;
  for (char32_t c : s) langsift::detail::append_utf8(r, c);
  return r;
}

/// ICU's UTS #46 with the options langsift's idna_options `o` stands for.
bool icu_idna(const std::string& in, bool to_ascii, std::string& out, bool std3, bool hyphens) {
  uint32_t opts = UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE | UIDNA_CHECK_BIDI |
                  UIDNA_CHECK_CONTEXTJ;
  if (std3) opts |= UIDNA_USE_STD3_RULES;
  UErrorCode e = U_ZERO_ERROR;
  UIDNA* idna = uidna_openUTS46(opts, &e);
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  char buf[1024];
  int32_t n = to_ascii ? uidna_nameToASCII_UTF8(idna, in.data(), static_cast<int32_t>(in.size()), buf, sizeof buf, &info, &e)
                       : uidna_nameToUnicodeUTF8(idna, in.data(), static_cast<int32_t>(in.size()), buf, sizeof buf, &info, &e);
  uidna_close(idna);
  out.assign(buf, U_SUCCESS(e) ? static_cast<std::size_t>(n) : 0);
  uint32_t errors = info.errors;
  // Not checked by langsift with these options (or not errors of UTS #46 at all): hyphen rules
  // unless asked, DNS lengths, empty labels.
  if (!hyphens) errors &= ~(UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4);
  errors &= ~(UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG);
  return U_SUCCESS(e) && errors == 0;
}

int check(const std::string& path) {
  int failures = 0;
  tables t = build();
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in || ss.str() != t.text) {
    std::cerr << "langsift-gen-idna --check: " << path << " differs from what ICU " << U_ICU_VERSION
              << " gives (regenerate it with the regen-idna-table target)\n";
    ++failures;
  }
  if (std::string(LANGSIFT_IDNA_UNICODE_VERSION) != LANGSIFT_UNICODE_VERSION) {
    std::cerr << "langsift-gen-idna --check: the IDNA table is Unicode " << LANGSIFT_IDNA_UNICODE_VERSION
              << " but unicode_tables.inc (combining classes, compositions) is Unicode " << LANGSIFT_UNICODE_VERSION << "\n";
    ++failures;
  }
  // langsift against ICU on every code point as a label of its own, and behind "a" and before
  // "a" (marks, joiners), with and without STD3 rules. Known differences, from ICU implementing
  // an older UTS #46 than langsift: ICU refuses U+2260, U+226E, U+226F under STD3 rules
  // ("disallowed_STD3_valid" before Unicode 15.1; valid since); those are skipped.
  std::size_t compared = 0, differ = 0;
  for (UChar32 c = 0; c <= kMaxCp; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    const std::string s = to_utf8({static_cast<char32_t>(c)});
    for (const std::string& label : {s, "a" + s, s + "a", "a." + s}) {
      for (int std3 = 0; std3 < 2; ++std3) {
        if (std3 && (c == 0x2260 || c == 0x226E || c == 0x226F)) continue;
        langsift::idna_options o;
        o.use_std3_ascii_rules = std3 != 0;
        o.check_hyphens = false;
        o.verify_dns_length = false;
        for (int to_ascii = 0; to_ascii < 2; ++to_ascii) {
          std::string mine, icu;
          const bool mine_ok = (to_ascii ? langsift::idna_to_ascii(label, mine, o) : langsift::idna_to_unicode(label, mine, o)) == 0;
          const bool icu_ok = icu_idna(label, to_ascii != 0, icu, std3 != 0, false);
          ++compared;
          if (mine_ok != icu_ok || (mine_ok && mine != icu)) {
            if (++differ <= 40)
              std::cerr << "  U+" << std::hex << c << std::dec << " in \"" << label << "\" (" << (to_ascii ? "toASCII" : "toUnicode")
                        << (std3 ? ", STD3" : "") << "): langsift " << (mine_ok ? "ok \"" + mine + "\"" : std::string("error"))
                        << ", ICU " << (icu_ok ? "ok \"" + icu + "\"" : std::string("error")) << "\n";
          }
        }
      }
    }
  }
  std::cerr << "langsift-gen-idna --check: " << compared << " conversions compared with ICU " << U_ICU_VERSION << ", "
            << differ << " differ\n";
  if (differ) ++failures;
  return failures ? 1 : 0;
}

}  // namespace

int run_main(int argc, char** argv) {
  std::string out_path, check_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "-o" || a == "--output") && i + 1 < argc) out_path = argv[++i];
    else if (a == "--check" && i + 1 < argc) check_path = argv[++i];
    else if (a == "-h" || a == "--help") {
      std::printf("usage: langsift-gen-idna [-o FILE] | --check FILE\n\n"
                  "Writes langsift's UTS #46 (IDNA) tables (idna_tables.inc) from ICU's data, or checks FILE\n"
                  "and langsift's IDNA implementation against ICU.\n\n"
                  "options:\n"
                  "  -o, --output FILE   write the tables to FILE, whole or not at all (default: stdout)\n"
                  "  --check FILE        compare FILE and langsift's UTS #46 with ICU\n");
      return 0;
    } else {
      std::cerr << "langsift-gen-idna: unknown argument '" << a << "' (try --help)\n";
      return 2;
    }
  }
  if (!check_path.empty()) return check(check_path);
  const tables t = build();
  if (out_path.empty()) {
    langsift::cli::write_stdout(t.text);  // a write error: cli::run
  } else {
    std::string error;
    if (!langsift::cli::write_file_atomic(out_path, t.text, error)) {
      std::fprintf(stderr, "langsift-gen-idna: %s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run("langsift-gen-idna", nullptr, [&] { return run_main(argc, argv); });
}
