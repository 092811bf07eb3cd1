// Encoding names: the WHATWG label table, uchardet/IANA/ICU aliases, and what decodes each.
#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>

#include "internal.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/encoding.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

#include "sbcs_tables.inc"

using F = family;
using C = codec;

// Every encoding we know by name. Order is free; lookups go through the label table.
constexpr encoding_info k_encodings[] = {
    // WHATWG: The Encoding
    {"utf-8", C::utf8, nullptr, F::unicode8, true},
    // WHATWG legacy single-byte
    {"ibm866", C::sbcs_icu, "ibm-866_P100-1995", F::single_byte, true},
    {"iso-8859-2", C::sbcs_icu, "ISO-8859-2", F::single_byte, true},
    {"iso-8859-3", C::sbcs_icu, "ISO-8859-3", F::single_byte, true},
    {"iso-8859-4", C::sbcs_icu, "ISO-8859-4", F::single_byte, true},
    {"iso-8859-5", C::sbcs_icu, "ISO-8859-5", F::single_byte, true},
    {"iso-8859-6", C::sbcs_icu, "ISO-8859-6", F::single_byte, true},
    {"iso-8859-7", C::sbcs_icu, "ISO-8859-7", F::single_byte, true},
    {"iso-8859-8", C::sbcs_icu, "ISO-8859-8", F::single_byte, true},
    {"iso-8859-8-i", C::sbcs_icu, "ISO-8859-8", F::single_byte, true},
    {"iso-8859-10", C::sbcs_icu, "ISO-8859-10", F::single_byte, true},
    {"iso-8859-13", C::sbcs_icu, "ISO-8859-13", F::single_byte, true},
    {"iso-8859-14", C::sbcs_icu, "ISO-8859-14", F::single_byte, true},
    {"iso-8859-15", C::sbcs_icu, "ISO-8859-15", F::single_byte, true},
    {"iso-8859-16", C::sbcs_table, "iso-8859-16", F::single_byte, true},
    {"koi8-r", C::sbcs_icu, "KOI8-R", F::single_byte, true},
    {"koi8-u", C::sbcs_icu, "KOI8-U", F::single_byte, true},
    {"macintosh", C::sbcs_icu, "macintosh", F::single_byte, true},
    {"windows-874", C::sbcs_icu, "windows-874-2000", F::single_byte, true},
    {"windows-1250", C::sbcs_icu, "windows-1250", F::single_byte, true},
    {"windows-1251", C::sbcs_icu, "windows-1251", F::single_byte, true},
    {"windows-1252", C::sbcs_icu, "windows-1252", F::single_byte, true},
    {"windows-1253", C::sbcs_icu, "windows-1253", F::single_byte, true},
    {"windows-1254", C::sbcs_icu, "windows-1254", F::single_byte, true},
    {"windows-1255", C::sbcs_icu, "windows-1255", F::single_byte, true},
    {"windows-1256", C::sbcs_icu, "windows-1256", F::single_byte, true},
    {"windows-1257", C::sbcs_icu, "windows-1257", F::single_byte, true},
    {"windows-1258", C::sbcs_icu, "windows-1258", F::single_byte, true},
    {"x-mac-cyrillic", C::sbcs_icu, "x-mac-cyrillic", F::single_byte, true},
    // WHATWG legacy multi-byte (WHATWG decodes gbk with the gb18030 decoder, euc-kr is
    // windows-949/UHC, shift_jis is windows-31j, big5 is Big5-HKSCS)
    {"gbk", C::icu, "GB18030", F::cjk, true},
    {"gb18030", C::icu, "GB18030", F::cjk, true},
    {"big5", C::icu, "Big5-HKSCS", F::cjk, true},
    {"euc-jp", C::icu, "EUC-JP", F::cjk, true},
    {"iso-2022-jp", C::icu, "ISO-2022-JP", F::iso2022, true},
    {"shift_jis", C::icu, "Shift_JIS", F::cjk, true},
    {"euc-kr", C::icu, "windows-949", F::cjk, true},
    // WHATWG maps these labels to "replacement"; we keep them decodable (see the header).
    {"iso-2022-kr", C::icu, "ISO-2022-KR", F::iso2022, true},
    {"iso-2022-cn", C::icu, "ISO-2022-CN", F::iso2022, true},
    {"iso-2022-cn-ext", C::icu, "ISO-2022-CN-EXT", F::iso2022, true},
    {"hz-gb-2312", C::icu, "HZ", F::iso2022, true},
    {"replacement", C::replacement, nullptr, F::other, true},
    {"utf-16be", C::utf16be, nullptr, F::unicode16, true},
    {"utf-16le", C::utf16le, nullptr, F::unicode16, true},
    {"x-user-defined", C::user_defined, nullptr, F::single_byte, true},
    // "ascii": the WHATWG ASCII labels (windows-1252), reported when the bytes are 7-bit.
    {"ascii", C::ascii, nullptr, F::single_byte, true},
    // Outside WHATWG.
    {"utf-32le", C::icu, "UTF-32LE", F::unicode32, false},
    {"utf-32be", C::icu, "UTF-32BE", F::unicode32, false},
    {"ibm437", C::sbcs_icu, "ibm-437_P100-1995", F::single_byte, false},
    {"ibm737", C::sbcs_icu, "ibm-737_P100-1997", F::single_byte, false},
    {"ibm775", C::sbcs_icu, "ibm-775_P100-1996", F::single_byte, false},
    {"ibm850", C::sbcs_icu, "ibm-850_P100-1995", F::single_byte, false},
    {"ibm852", C::sbcs_icu, "ibm-852_P100-1995", F::single_byte, false},
    {"ibm855", C::sbcs_icu, "ibm-855_P100-1995", F::single_byte, false},
    {"ibm857", C::sbcs_icu, "ibm-857_P100-1995", F::single_byte, false},
    {"ibm860", C::sbcs_icu, "ibm-860_P100-1995", F::single_byte, false},
    {"ibm861", C::sbcs_icu, "ibm-861_P100-1995", F::single_byte, false},
    {"ibm862", C::sbcs_icu, "ibm-862_P100-1995", F::single_byte, false},
    {"ibm863", C::sbcs_icu, "ibm-863_P100-1995", F::single_byte, false},
    {"ibm864", C::sbcs_icu, "ibm-864_X110-1999", F::single_byte, false},
    {"ibm865", C::sbcs_icu, "ibm-865_P100-1995", F::single_byte, false},
    {"ibm869", C::sbcs_icu, "ibm-869_P100-1995", F::single_byte, false},
    {"x-mac-ce", C::sbcs_icu, "x-mac-ce", F::single_byte, false},
    {"x-mac-greek", C::sbcs_icu, "x-mac-greek", F::single_byte, false},
    {"x-mac-turkish", C::sbcs_icu, "x-mac-turkish", F::single_byte, false},
    {"viscii", C::sbcs_table, "viscii", F::single_byte, false},
    {"georgian-academy", C::sbcs_table, "georgian-academy", F::single_byte, false},
    {"georgian-ps", C::sbcs_table, "georgian-ps", F::single_byte, false},
    {"euc-tw", C::icu, "EUC-TW", F::cjk, false},
    {"johab", C::none, nullptr, F::cjk, false},
};

struct label_entry {
  std::string_view label;
  std::string_view name;
};

// WHATWG Encoding Standard labels (all of them), then uchardet/IANA/ICU aliases.
constexpr label_entry k_labels[] = {
    // utf-8
    {"unicode-1-1-utf-8", "utf-8"}, {"unicode11utf8", "utf-8"}, {"unicode20utf8", "utf-8"},
    {"utf-8", "utf-8"}, {"utf8", "utf-8"}, {"x-unicode20utf8", "utf-8"},
    // ibm866
    {"866", "ibm866"}, {"cp866", "ibm866"}, {"csibm866", "ibm866"}, {"ibm866", "ibm866"},
    // iso-8859-2
    {"csisolatin2", "iso-8859-2"}, {"iso-8859-2", "iso-8859-2"}, {"iso-ir-101", "iso-8859-2"},
    {"iso8859-2", "iso-8859-2"}, {"iso88592", "iso-8859-2"}, {"iso_8859-2", "iso-8859-2"},
    {"iso_8859-2:1987", "iso-8859-2"}, {"l2", "iso-8859-2"}, {"latin2", "iso-8859-2"},
    // iso-8859-3
    {"csisolatin3", "iso-8859-3"}, {"iso-8859-3", "iso-8859-3"}, {"iso-ir-109", "iso-8859-3"},
    {"iso8859-3", "iso-8859-3"}, {"iso88593", "iso-8859-3"}, {"iso_8859-3", "iso-8859-3"},
    {"iso_8859-3:1988", "iso-8859-3"}, {"l3", "iso-8859-3"}, {"latin3", "iso-8859-3"},
    // iso-8859-4
    {"csisolatin4", "iso-8859-4"}, {"iso-8859-4", "iso-8859-4"}, {"iso-ir-110", "iso-8859-4"},
    {"iso8859-4", "iso-8859-4"}, {"iso88594", "iso-8859-4"}, {"iso_8859-4", "iso-8859-4"},
    {"iso_8859-4:1988", "iso-8859-4"}, {"l4", "iso-8859-4"}, {"latin4", "iso-8859-4"},
    // iso-8859-5
    {"csisolatincyrillic", "iso-8859-5"}, {"cyrillic", "iso-8859-5"}, {"iso-8859-5", "iso-8859-5"},
    {"iso-ir-144", "iso-8859-5"}, {"iso8859-5", "iso-8859-5"}, {"iso88595", "iso-8859-5"},
    {"iso_8859-5", "iso-8859-5"}, {"iso_8859-5:1988", "iso-8859-5"},
    // iso-8859-6
    {"arabic", "iso-8859-6"}, {"asmo-708", "iso-8859-6"}, {"csiso88596e", "iso-8859-6"},
    {"csiso88596i", "iso-8859-6"}, {"csisolatinarabic", "iso-8859-6"}, {"ecma-114", "iso-8859-6"},
    {"iso-8859-6", "iso-8859-6"}, {"iso-8859-6-e", "iso-8859-6"}, {"iso-8859-6-i", "iso-8859-6"},
    {"iso-ir-127", "iso-8859-6"}, {"iso8859-6", "iso-8859-6"}, {"iso88596", "iso-8859-6"},
    {"iso_8859-6", "iso-8859-6"}, {"iso_8859-6:1987", "iso-8859-6"},
    // iso-8859-7
    {"csisolatingreek", "iso-8859-7"}, {"ecma-118", "iso-8859-7"}, {"elot_928", "iso-8859-7"},
    {"greek", "iso-8859-7"}, {"greek8", "iso-8859-7"}, {"iso-8859-7", "iso-8859-7"},
    {"iso-ir-126", "iso-8859-7"}, {"iso8859-7", "iso-8859-7"}, {"iso88597", "iso-8859-7"},
    {"iso_8859-7", "iso-8859-7"}, {"iso_8859-7:1987", "iso-8859-7"}, {"sun_eu_greek", "iso-8859-7"},
    // iso-8859-8
    {"csiso88598e", "iso-8859-8"}, {"csisolatinhebrew", "iso-8859-8"}, {"hebrew", "iso-8859-8"},
    {"iso-8859-8", "iso-8859-8"}, {"iso-8859-8-e", "iso-8859-8"}, {"iso-ir-138", "iso-8859-8"},
    {"iso8859-8", "iso-8859-8"}, {"iso88598", "iso-8859-8"}, {"iso_8859-8", "iso-8859-8"},
    {"iso_8859-8:1988", "iso-8859-8"}, {"visual", "iso-8859-8"},
    // iso-8859-8-i
    {"csiso88598i", "iso-8859-8-i"}, {"iso-8859-8-i", "iso-8859-8-i"}, {"logical", "iso-8859-8-i"},
    // iso-8859-10
    {"csisolatin6", "iso-8859-10"}, {"iso-8859-10", "iso-8859-10"}, {"iso-ir-157", "iso-8859-10"},
    {"iso8859-10", "iso-8859-10"}, {"iso885910", "iso-8859-10"}, {"l6", "iso-8859-10"},
    {"latin6", "iso-8859-10"},
    // iso-8859-13, -14, -15, -16
    {"iso-8859-13", "iso-8859-13"}, {"iso8859-13", "iso-8859-13"}, {"iso885913", "iso-8859-13"},
    {"iso-8859-14", "iso-8859-14"}, {"iso8859-14", "iso-8859-14"}, {"iso885914", "iso-8859-14"},
    {"csisolatin9", "iso-8859-15"}, {"iso-8859-15", "iso-8859-15"}, {"iso8859-15", "iso-8859-15"},
    {"iso885915", "iso-8859-15"}, {"iso_8859-15", "iso-8859-15"}, {"l9", "iso-8859-15"},
    {"iso-8859-16", "iso-8859-16"},
    // koi8
    {"cskoi8r", "koi8-r"}, {"koi", "koi8-r"}, {"koi8", "koi8-r"}, {"koi8-r", "koi8-r"},
    {"koi8_r", "koi8-r"}, {"koi8-ru", "koi8-u"}, {"koi8-u", "koi8-u"},
    // macintosh
    {"csmacintosh", "macintosh"}, {"mac", "macintosh"}, {"macintosh", "macintosh"},
    {"x-mac-roman", "macintosh"},
    // windows-874
    {"dos-874", "windows-874"}, {"iso-8859-11", "windows-874"}, {"iso8859-11", "windows-874"},
    {"iso885911", "windows-874"}, {"tis-620", "windows-874"}, {"windows-874", "windows-874"},
    // windows-125x
    {"cp1250", "windows-1250"}, {"windows-1250", "windows-1250"}, {"x-cp1250", "windows-1250"},
    {"cp1251", "windows-1251"}, {"windows-1251", "windows-1251"}, {"x-cp1251", "windows-1251"},
    {"cp1252", "windows-1252"}, {"cp819", "windows-1252"}, {"csisolatin1", "windows-1252"},
    {"ibm819", "windows-1252"}, {"iso-8859-1", "windows-1252"}, {"iso-ir-100", "windows-1252"},
    {"iso8859-1", "windows-1252"}, {"iso88591", "windows-1252"}, {"iso_8859-1", "windows-1252"},
    {"iso_8859-1:1987", "windows-1252"}, {"l1", "windows-1252"}, {"latin1", "windows-1252"},
    {"windows-1252", "windows-1252"}, {"x-cp1252", "windows-1252"},
    {"cp1253", "windows-1253"}, {"windows-1253", "windows-1253"}, {"x-cp1253", "windows-1253"},
    {"cp1254", "windows-1254"}, {"csisolatin5", "windows-1254"}, {"iso-8859-9", "windows-1254"},
    {"iso-ir-148", "windows-1254"}, {"iso8859-9", "windows-1254"}, {"iso88599", "windows-1254"},
    {"iso_8859-9", "windows-1254"}, {"iso_8859-9:1989", "windows-1254"}, {"l5", "windows-1254"},
    {"latin5", "windows-1254"}, {"windows-1254", "windows-1254"}, {"x-cp1254", "windows-1254"},
    {"cp1255", "windows-1255"}, {"windows-1255", "windows-1255"}, {"x-cp1255", "windows-1255"},
    {"cp1256", "windows-1256"}, {"windows-1256", "windows-1256"}, {"x-cp1256", "windows-1256"},
    {"cp1257", "windows-1257"}, {"windows-1257", "windows-1257"}, {"x-cp1257", "windows-1257"},
    {"cp1258", "windows-1258"}, {"windows-1258", "windows-1258"}, {"x-cp1258", "windows-1258"},
    {"x-mac-cyrillic", "x-mac-cyrillic"}, {"x-mac-ukrainian", "x-mac-cyrillic"},
    // gbk, gb18030, big5
    {"chinese", "gbk"}, {"csgb2312", "gbk"}, {"csiso58gb231280", "gbk"}, {"gb2312", "gbk"},
    {"gb_2312", "gbk"}, {"gb_2312-80", "gbk"}, {"gbk", "gbk"}, {"iso-ir-58", "gbk"}, {"x-gbk", "gbk"},
    {"gb18030", "gb18030"},
    {"big5", "big5"}, {"big5-hkscs", "big5"}, {"cn-big5", "big5"}, {"csbig5", "big5"},
    {"x-x-big5", "big5"},
    // Japanese
    {"cseucpkdfmtjapanese", "euc-jp"}, {"euc-jp", "euc-jp"}, {"x-euc-jp", "euc-jp"},
    {"csiso2022jp", "iso-2022-jp"}, {"iso-2022-jp", "iso-2022-jp"},
    {"csshiftjis", "shift_jis"}, {"ms932", "shift_jis"}, {"ms_kanji", "shift_jis"},
    {"shift-jis", "shift_jis"}, {"shift_jis", "shift_jis"}, {"sjis", "shift_jis"},
    {"windows-31j", "shift_jis"}, {"x-sjis", "shift_jis"},
    // Korean
    {"cseuckr", "euc-kr"}, {"csksc56011987", "euc-kr"}, {"euc-kr", "euc-kr"}, {"iso-ir-149", "euc-kr"},
    {"korean", "euc-kr"}, {"ks_c_5601-1987", "euc-kr"}, {"ks_c_5601-1989", "euc-kr"},
    {"ksc5601", "euc-kr"}, {"ksc_5601", "euc-kr"}, {"windows-949", "euc-kr"},
    // WHATWG "replacement" labels, kept as their own encodings
    {"csiso2022kr", "iso-2022-kr"}, {"iso-2022-kr", "iso-2022-kr"}, {"iso-2022-cn", "iso-2022-cn"},
    {"iso-2022-cn-ext", "iso-2022-cn-ext"}, {"hz-gb-2312", "hz-gb-2312"}, {"replacement", "replacement"},
    // UTF-16
    {"unicodefffe", "utf-16be"}, {"utf-16be", "utf-16be"},
    {"csunicode", "utf-16le"}, {"iso-10646-ucs-2", "utf-16le"}, {"ucs-2", "utf-16le"},
    {"unicode", "utf-16le"}, {"unicodefeff", "utf-16le"}, {"utf-16", "utf-16le"},
    {"utf-16le", "utf-16le"},
    {"x-user-defined", "x-user-defined"},
    // ASCII labels (WHATWG: windows-1252; see the header)
    {"ansi_x3.4-1968", "ascii"}, {"ascii", "ascii"}, {"us-ascii", "ascii"},
    {"csascii", "ascii"}, {"iso646-us", "ascii"}, {"iso-ir-6", "ascii"}, {"us", "ascii"},
    {"cp367", "ascii"}, {"ibm367", "ascii"}, {"646", "ascii"},
    // Aliases outside WHATWG: uchardet answers, IANA and ICU names.
    {"uhc", "euc-kr"}, {"cp949", "euc-kr"}, {"ms949", "euc-kr"}, {"x-windows-949", "euc-kr"},
    {"cp936", "gbk"}, {"ms936", "gbk"}, {"windows-936", "gbk"}, {"euc-cn", "gbk"}, {"x-euc-cn", "gbk"},
    {"cp932", "shift_jis"}, {"x-ms-cp932", "shift_jis"}, {"windows-932", "shift_jis"},
    {"cp950", "big5"}, {"windows-950", "big5"}, {"x-windows-950", "big5"}, {"big5hkscs", "big5"},
    {"cp874", "windows-874"}, {"x-windows-874", "windows-874"}, {"tis620", "windows-874"},
    {"iso-8859-16", "iso-8859-16"}, {"iso8859-16", "iso-8859-16"}, {"iso885916", "iso-8859-16"},
    {"iso_8859-16", "iso-8859-16"}, {"latin10", "iso-8859-16"}, {"l10", "iso-8859-16"},
    {"iso-8859-14", "iso-8859-14"}, {"latin8", "iso-8859-14"}, {"l8", "iso-8859-14"},
    {"latin-9", "iso-8859-15"}, {"latin9", "iso-8859-15"}, {"latin0", "iso-8859-15"},
    {"latin7", "iso-8859-13"}, {"l7", "iso-8859-13"},
    {"koi8r", "koi8-r"}, {"koi8u", "koi8-u"}, {"cp878", "koi8-r"},
    {"utf-32", "utf-32le"}, {"utf-32le", "utf-32le"}, {"utf-32be", "utf-32be"}, {"utf32", "utf-32le"},
    {"ucs-4", "utf-32be"}, {"ucs-4le", "utf-32le"}, {"ucs-4be", "utf-32be"},
    {"ibm437", "ibm437"}, {"cp437", "ibm437"}, {"437", "ibm437"}, {"cspc8codepage437", "ibm437"},
    {"ibm737", "ibm737"}, {"cp737", "ibm737"}, {"737", "ibm737"}, {"x-ibm737", "ibm737"},
    {"ibm775", "ibm775"}, {"cp775", "ibm775"},
    {"ibm850", "ibm850"}, {"cp850", "ibm850"}, {"850", "ibm850"},
    {"ibm852", "ibm852"}, {"cp852", "ibm852"}, {"852", "ibm852"}, {"cspcp852", "ibm852"},
    {"ibm855", "ibm855"}, {"cp855", "ibm855"}, {"855", "ibm855"}, {"csibm855", "ibm855"},
    {"ibm857", "ibm857"}, {"cp857", "ibm857"},
    {"ibm860", "ibm860"}, {"cp860", "ibm860"},
    {"ibm861", "ibm861"}, {"cp861", "ibm861"},
    {"ibm862", "ibm862"}, {"cp862", "ibm862"}, {"862", "ibm862"}, {"cspc862latinhebrew", "ibm862"},
    {"ibm863", "ibm863"}, {"cp863", "ibm863"},
    {"ibm864", "ibm864"}, {"cp864", "ibm864"},
    {"ibm865", "ibm865"}, {"cp865", "ibm865"}, {"865", "ibm865"}, {"csibm865", "ibm865"},
    {"ibm869", "ibm869"}, {"cp869", "ibm869"},
    {"x-mac-ce", "x-mac-ce"}, {"mac-centraleurope", "x-mac-ce"}, {"maccentraleurope", "x-mac-ce"},
    {"x-mac-centraleurroman", "x-mac-ce"}, {"macce", "x-mac-ce"}, {"x-maccentraleurope", "x-mac-ce"},
    {"mac-cyrillic", "x-mac-cyrillic"}, {"maccyrillic", "x-mac-cyrillic"},
    {"x-maccyrillic", "x-mac-cyrillic"},
    {"x-mac-greek", "x-mac-greek"}, {"mac-greek", "x-mac-greek"}, {"macgreek", "x-mac-greek"},
    {"x-mac-turkish", "x-mac-turkish"}, {"mac-turkish", "x-mac-turkish"},
    {"viscii", "viscii"}, {"csviscii", "viscii"},
    {"georgian-academy", "georgian-academy"}, {"georgian-ps", "georgian-ps"},
    {"euc-tw", "euc-tw"}, {"x-euc-tw", "euc-tw"}, {"cns11643", "euc-tw"},
    {"johab", "johab"}, {"cp1361", "johab"},
    {"hz", "hz-gb-2312"}, {"iso-2022-jp-2", "iso-2022-jp"},
};

constexpr std::size_t k_max_label = 32;

// Lowercased, trimmed copy in buf; false when too long or empty.
bool normalize(std::string_view label, char (&buf)[k_max_label], std::string_view& out) {
  label = detail::trim_ascii_whitespace(label);
  if (label.empty() || label.size() > k_max_label) return false;
  for (std::size_t i = 0; i < label.size(); ++i) buf[i] = detail::ascii_lower(label[i]);
  out = std::string_view(buf, label.size());
  return true;
}

struct sorted_labels {
  std::array<label_entry, std::size(k_labels)> v;
  sorted_labels() {
    std::copy(std::begin(k_labels), std::end(k_labels), v.begin());
    std::sort(v.begin(), v.end(), [](const label_entry& a, const label_entry& b) { return a.label < b.label; });
  }
};

const label_entry* find_label(std::string_view key) {
  static const sorted_labels s;  // thread-safe init, immutable afterwards
  auto it = std::lower_bound(s.v.begin(), s.v.end(), key,
                             [](const label_entry& a, std::string_view k) { return a.label < k; });
  if (it != s.v.end() && it->label == key) return &*it;
  return nullptr;
}

const encoding_info* find_canonical(std::string_view name) {
  for (const auto& e : k_encodings)
    if (e.name == name) return &e;
  return nullptr;
}

constexpr std::size_t k_encoding_count = std::size(k_encodings);

const char16_t* builtin_table(std::string_view id) {
  if (id == "iso-8859-16") return k_iso_8859_16;
  if (id == "viscii") return k_viscii;
  if (id == "georgian-academy") return k_georgian_academy;
  if (id == "georgian-ps") return k_georgian_ps;
  return nullptr;
}

// Decodes each byte alone with ICU; a byte ICU reports as illegal/unassigned becomes 0xFFFF.
bool build_icu_table(const char* icu_name, sbcs_table& t) {
  UErrorCode err = U_ZERO_ERROR;
  UConverter* cnv = ucnv_open(icu_name, &err);
  if (U_FAILURE(err) || !cnv) return false;
  for (int b = 0; b < 256; ++b) {
    if (b < 0x80) {  // IBM PC code pages swap a few C0 controls for host interchange; text files don't
      t.map[b] = static_cast<char16_t>(b);
      continue;
    }
    ucnv_reset(cnv);
    err = U_ZERO_ERROR;
    ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
    char in = static_cast<char>(b);
    const char* src = &in;
    UChar outbuf[4];
    UChar* dst = outbuf;
    ucnv_toUnicode(cnv, &dst, outbuf + 4, &src, &in + 1, nullptr, true, &err);
    if (U_FAILURE(err) || dst - outbuf != 1 || outbuf[0] == 0xFFFD || outbuf[0] == 0x1A)
      t.map[b] = 0xFFFF;
    else
      t.map[b] = static_cast<char16_t>(outbuf[0]);
  }
  ucnv_close(cnv);
  return true;
}

}  // namespace

const encoding_info* find_encoding(std::string_view label) noexcept {
  char buf[k_max_label];
  std::string_view key;
  if (!normalize(label, buf, key)) return nullptr;
  const label_entry* l = find_label(key);
  return l ? find_canonical(l->name) : nullptr;
}

const sbcs_table* get_sbcs_table(const encoding_info& e) noexcept {
  static std::once_flag once[k_encoding_count];
  static sbcs_table tables[k_encoding_count];
  static bool ok[k_encoding_count];
  std::size_t idx = static_cast<std::size_t>(&e - k_encodings);
  if (idx >= k_encoding_count) return nullptr;
  if (e.kind != codec::sbcs_icu && e.kind != codec::sbcs_table && e.kind != codec::ascii &&
      e.kind != codec::user_defined)
    return nullptr;
  std::call_once(once[idx], [&] {
    sbcs_table& t = tables[idx];
    switch (e.kind) {
      case codec::sbcs_icu: ok[idx] = build_icu_table(e.icu_name, t); break;
      case codec::ascii: ok[idx] = build_icu_table("windows-1252", t); break;
      case codec::sbcs_table: {
        const char16_t* src = builtin_table(e.icu_name);
        if (src) std::memcpy(t.map, src, sizeof t.map);
        ok[idx] = src != nullptr;
        break;
      }
      case codec::user_defined:
        for (int b = 0; b < 256; ++b) t.map[b] = static_cast<char16_t>(b < 0x80 ? b : 0xF780 + b - 0x80);
        ok[idx] = true;
        break;
      default: break;
    }
    if (ok[idx]) {
      t.ascii_identity = true;
      for (int b = 0; b < 0x80; ++b)
        if (t.map[b] != b) t.ascii_identity = false;
    }
  });
  return ok[idx] ? &tables[idx] : nullptr;
}

}  // namespace detail

std::string_view canonical_encoding_name(std::string_view label) noexcept {
  const detail::encoding_info* e = detail::find_encoding(label);
  return e ? e->name : std::string_view{};
}

bool is_whatwg_encoding(std::string_view label) noexcept {
  const detail::encoding_info* e = detail::find_encoding(label);
  return e && e->whatwg;
}

bool can_convert(std::string_view label) noexcept {
  using detail::codec;
  const detail::encoding_info* e = detail::find_encoding(label);
  if (!e || e->kind == codec::none) return false;
  if (e->kind == codec::icu) {
    UErrorCode err = U_ZERO_ERROR;
    UConverter* c = ucnv_open(e->icu_name, &err);
    if (c) ucnv_close(c);
    return U_SUCCESS(err) && c;
  }
  if (e->kind == codec::sbcs_icu) return detail::get_sbcs_table(*e) != nullptr;
  return true;
}

}  // namespace v1
}  // namespace langsift
