// Token-level (bag of words) precision / recall / F1 of an extracted text against a gold text,
// shared by `langsift-eval main-content` and the main-content tests.
//
// Tokens: maximal runs of letters/digits (langsift's is_word_cp); each letter of a script
// written without spaces (Han, Kana, Thai...) is a token of its own. ASCII is lower-cased;
// punctuation and symbols separate tokens and are not counted.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "langsift/html.hpp"
#include "langsift/impl/html/tables.hpp"  // detail::is_dense_letter, is_word_cp

namespace langsift::eval {

using bag = std::unordered_map<std::string, std::size_t>;

inline bag bag_of_words(std::string_view text, std::size_t* total = nullptr) {
  bag b;
  std::size_t n = 0;
  std::string tok;
  auto flush = [&] {
    if (!tok.empty()) {
      ++b[tok];
      ++n;
      tok.clear();
    }
  };
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* e = p + text.size();
  while (p < e) {
    const detail::utf8_decoded st = detail::decode_utf8_step(p, e);
    const char32_t cp = st.cp;
    const unsigned len = st.len;
    if (detail::is_dense_letter(cp)) {
      flush();
      tok.assign(reinterpret_cast<const char*>(p), len);
      flush();
    } else if (detail::is_word_cp(cp)) {
      if (cp < 0x80) tok.push_back(detail::ascii_lower(static_cast<char>(cp)));
      else tok.append(reinterpret_cast<const char*>(p), len);
    } else {
      flush();
    }
    p += len;
  }
  flush();
  if (total) *total = n;
  return b;
}

struct overlap_score {
  std::size_t predicted = 0, gold = 0, common = 0;
  double precision() const { return predicted ? double(common) / predicted : (gold ? 0.0 : 1.0); }
  double recall() const { return gold ? double(common) / gold : 1.0; }
  double f1() const {
    double p = precision(), r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
  }
  overlap_score& operator+=(const overlap_score& o) {
    predicted += o.predicted;
    gold += o.gold;
    common += o.common;
    return *this;
  }
};

/// Multiset overlap: sum over tokens of min(count in predicted, count in gold).
inline overlap_score score_overlap(std::string_view predicted, std::string_view gold) {
  overlap_score s;
  bag p = bag_of_words(predicted, &s.predicted);
  bag g = bag_of_words(gold, &s.gold);
  for (const auto& [tok, n] : p) {
    auto it = g.find(tok);
    if (it != g.end()) s.common += n < it->second ? n : it->second;
  }
  return s;
}

}  // namespace langsift::eval
