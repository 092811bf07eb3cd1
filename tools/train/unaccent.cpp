#include "unaccent.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>

namespace langsift::train_tool {

bool unaccented(std::string_view line, std::string& out) {
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(err);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(err);
  if (U_FAILURE(err)) return false;
  const icu::UnicodeString src = icu::UnicodeString::fromUTF8(icu::StringPiece(line.data(), static_cast<int32_t>(line.size())));
  const icu::UnicodeString d = nfd->normalize(src, err);
  if (U_FAILURE(err)) return false;
  icu::UnicodeString kept;
  bool removed = false, latin_base = false;
  for (int32_t i = 0; i < d.length();) {
    const UChar32 c = d.char32At(i);
    i += U16_LENGTH(c);
    const bool mark = u_charType(c) == U_NON_SPACING_MARK;
    if (!mark) latin_base = uscript_getScript(c, &err) == USCRIPT_LATIN;
    if (mark && latin_base && uscript_getScript(c, &err) == USCRIPT_INHERITED) {
      removed = true;
      continue;
    }
    kept.append(c);
  }
  if (!removed || U_FAILURE(err)) return false;
  const icu::UnicodeString c = nfc->normalize(kept, err);
  if (U_FAILURE(err)) return false;
  out.clear();
  c.toUTF8String(out);
  return true;
}

}  // namespace langsift::train_tool
