// A slow, batch restatement of split_script_runs's rules (langsift/script.hpp), used as an oracle
// by tests/unit/test_script.cpp and fuzz/fuzz_script.cpp: decode everything, classify every code point,
// group the voters, then place the boundaries. Written separately from the one-pass version.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "langsift/script.hpp"

namespace langsift_test {

inline std::vector<langsift::script_run> reference_script_runs(std::string_view text) {
  using langsift::char_class;
  using langsift::script;
  enum class k { other, space, voter, attached };
  enum group { g_han = 1000, g_kana, g_hangul };
  struct cp {
    std::size_t b, e;
    k kind;
    int vote;  // script index, or a group
    bool letter;
  };
  std::vector<cp> cps;
  for (const char* p = text.data(); p < text.data() + text.size();) {
    const std::size_t b = static_cast<std::size_t>(p - text.data());
    const auto i = langsift::code_point_props(langsift::decode_utf8(p, text.data() + text.size()));
    const bool letter = i.cls == char_class::letter || i.cls == char_class::mark;
    cp c{b, static_cast<std::size_t>(p - text.data()), k::other, -1, letter};
    if (i.cls == char_class::space) c.kind = k::space;
    if (letter && i.sc == script::inherited && !cps.empty() &&
        (cps.back().kind == k::voter || cps.back().kind == k::attached))
      c.kind = k::attached;
    if (letter && langsift::is_real_script(i.sc)) {
      c.kind = k::voter;
      const script s = i.sc;
      c.vote = s == script::han || s == script::bopomofo             ? g_han
               : s == script::hiragana || s == script::katakana      ? g_kana
               : s == script::hangul                                 ? g_hangul
                                                                     : static_cast<int>(s);
    }
    cps.push_back(c);
  }
  // Groups of voters: [first, last] code point indices (last includes attached marks).
  struct grp {
    std::size_t first, last;
    int vote;
    std::size_t han = 0, phonetic = 0;
  };
  std::vector<grp> groups;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (cps[i].kind == k::attached) {
      groups.back().last = i;
      continue;
    }
    if (cps[i].kind != k::voter) continue;
    const int v = cps[i].vote;
    bool joins = false;
    if (!groups.empty()) {
      int& g = groups.back().vote;
      if (v == g || (v == g_han && (g == g_kana || g == g_hangul))) joins = true;
      else if (g == g_han && (v == g_kana || v == g_hangul)) joins = true, g = v;
    }
    if (!joins) groups.push_back({i, i, v});
    grp& cur = groups.back();
    cur.last = i;
    if (v == g_han) ++cur.han;
    if (v == g_kana || v == g_hangul) ++cur.phonetic;
  }
  // Byte ranges.
  std::vector<langsift::script_run> runs;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const grp& g = groups[gi];
    // Gap before: from the previous group's last code point (or the start) to g.first.
    const std::size_t gap_from = gi == 0 ? 0 : groups[gi - 1].last + 1;
    std::size_t begin = gi == 0 ? 0 : cps[g.first].b;
    for (std::size_t j = gap_from; j < g.first; ++j)
      if (cps[j].kind == k::space) begin = cps[j].e;
    const std::size_t gap_to = gi + 1 < groups.size() ? groups[gi + 1].first : cps.size();
    std::size_t end = gi + 1 < groups.size() ? cps[gap_to].b : text.size();
    for (std::size_t j = g.last + 1; j < gap_to; ++j)
      if (cps[j].kind == k::space) {
        end = cps[j].b;
        break;
      }
    script sc;
    const bool ok = g.phonetic > 0 && g.phonetic * 16 >= g.phonetic + g.han;
    if (g.vote == g_han) sc = script::han;
    else if (g.vote == g_kana) sc = ok ? script::japanese : script::han;
    else if (g.vote == g_hangul) sc = ok ? script::korean : script::han;
    else sc = static_cast<script>(g.vote);
    if (!runs.empty() && runs.back().sc == sc) runs.back().end = end;
    else runs.push_back({begin, end, sc, 0});
  }
  std::size_t ri = 0;
  for (const cp& c : cps) {
    while (ri < runs.size() && runs[ri].end <= c.b) ++ri;
    if (ri < runs.size() && runs[ri].begin <= c.b && c.letter) ++runs[ri].letters;
  }
  return runs;
}

}  // namespace langsift_test
