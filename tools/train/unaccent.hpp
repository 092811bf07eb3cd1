// Unaccented copies of training lines: web text often leaves out the diacritics its language's
// orthography has (Yoruba tone marks, Vietnamese, Romanian, Slovak typed on an English keyboard),
// and a model that has only seen the accented spelling scores such text as a foreign language.
#pragma once

#include <string>
#include <string_view>

namespace langsift::train_tool {

/// `line` with the combining marks (script Inherited, after NFD) on Latin letters removed, then
/// NFC: "Ọmọ ẹgbẹ́" -> "Omo egbe", "Việt" -> "Viet". Other scripts keep their marks (Macedonian
/// ѓ and ќ are letters of their own, not accented г and к; Indic vowel signs are letters). Returns false (out unchanged) when the
/// line has no such mark, so nothing would change.
bool unaccented(std::string_view line, std::string& out);

}  // namespace langsift::train_tool
