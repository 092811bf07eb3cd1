// WHATWG "prescan a byte stream to determine its encoding" (HTML Standard 13.2.3.2), the XML
// declaration, and the charset parameter of a Content-Type value.
#include <string>

#include "internal.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/encoding.hpp"
#include "prescan.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

using detail::is_ascii_alpha;
using detail::is_ascii_whitespace;

bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view lit) {
  return pos <= s.size() && detail::iequals(s.substr(pos, lit.size()), lit);
}

struct attribute {
  std::string name;   // lowercased
  std::string value;  // as found
};

// "get an attribute": false when there is none (position then at '>' or at the end).
bool get_attribute(std::string_view s, std::size_t& pos, attribute& a) {
  a.name.clear();
  a.value.clear();
  const std::size_t n = s.size();
  auto at = [&](std::size_t p) { return static_cast<unsigned char>(s[p]); };
  while (pos < n && (is_ascii_whitespace(at(pos)) || at(pos) == '/')) ++pos;
  if (pos >= n || at(pos) == '>') return false;
  // name
  for (;;) {
    if (pos >= n) return true;
    unsigned char c = at(pos);
    if (c == '=' && !a.name.empty()) {
      ++pos;
      goto value;
    }
    if (is_ascii_whitespace(c)) break;
    if (c == '/' || c == '>') return true;
    a.name.push_back(detail::ascii_lower(static_cast<char>(c)));
    ++pos;
  }
  while (pos < n && is_ascii_whitespace(at(pos))) ++pos;
  if (pos >= n || at(pos) != '=') return true;
  ++pos;
value:
  while (pos < n && is_ascii_whitespace(at(pos))) ++pos;
  if (pos >= n) return true;
  if (at(pos) == '"' || at(pos) == '\'') {
    unsigned char q = at(pos);
    for (;;) {
      ++pos;
      if (pos >= n) return true;
      if (at(pos) == q) {
        ++pos;
        return true;
      }
      a.value.push_back(s[pos]);
    }
  }
  if (at(pos) == '>') return true;
  a.value.push_back(s[pos]);
  ++pos;
  while (pos < n && !is_ascii_whitespace(at(pos)) && at(pos) != '>') a.value.push_back(s[pos++]);
  return true;
}

// "algorithm for extracting a character encoding from a meta element": the label, or empty.
std::string_view charset_from_content(std::string_view v) {
  std::size_t pos = 0;
  for (;;) {
    std::size_t found = std::string_view::npos;
    for (std::size_t i = pos; i + 7 <= v.size(); ++i)
      if (starts_with_ci(v, i, "charset")) {
        found = i;
        break;
      }
    if (found == std::string_view::npos) return {};
    pos = found + 7;
    while (pos < v.size() && is_ascii_whitespace(static_cast<unsigned char>(v[pos]))) ++pos;
    if (pos >= v.size() || v[pos] != '=') continue;
    ++pos;
    while (pos < v.size() && is_ascii_whitespace(static_cast<unsigned char>(v[pos]))) ++pos;
    if (pos >= v.size()) return {};
    char c = v[pos];
    if (c == '"' || c == '\'') {
      std::size_t end = v.find(c, pos + 1);
      if (end == std::string_view::npos) return {};
      return v.substr(pos + 1, end - pos - 1);
    }
    std::size_t end = pos;
    while (end < v.size() && !is_ascii_whitespace(static_cast<unsigned char>(v[end])) && v[end] != ';') ++end;
    return v.substr(pos, end - pos);
  }
}

// <?xml version="1.0" encoding="..."?> at the very start: the label, or empty.
std::string_view xml_declaration_label(std::string_view s) {
  if (!starts_with_ci(s, 0, "<?xml") || s.size() < 6 || !is_ascii_whitespace(static_cast<unsigned char>(s[5]))) return {};
  std::size_t end = s.find("?>");
  if (end == std::string_view::npos) return {};
  std::string_view decl = s.substr(0, end);
  std::size_t pos = decl.find("encoding");
  if (pos == std::string_view::npos) return {};
  pos += 8;
  while (pos < decl.size() && is_ascii_whitespace(static_cast<unsigned char>(decl[pos]))) ++pos;
  if (pos >= decl.size() || decl[pos] != '=') return {};
  ++pos;
  while (pos < decl.size() && is_ascii_whitespace(static_cast<unsigned char>(decl[pos]))) ++pos;
  if (pos >= decl.size() || (decl[pos] != '"' && decl[pos] != '\'')) return {};
  char q = decl[pos];
  std::size_t close = decl.find(q, pos + 1);
  if (close == std::string_view::npos) return {};
  return decl.substr(pos + 1, close - pos - 1);
}

// The WHATWG post-processing of a prescan answer.
std::string_view meta_encoding(std::string_view canonical) {
  if (canonical == "utf-16le" || canonical == "utf-16be") return "utf-8";
  if (canonical == "x-user-defined") return "windows-1252";
  return canonical;
}

}  // namespace

prescan_result prescan(std::string_view bytes) {
  prescan_result r;
  std::string_view s = bytes.substr(0, bytes.size() < 1024 ? bytes.size() : 1024);
  const std::size_t n = s.size();
  auto at = [&](std::size_t p) { return static_cast<unsigned char>(s[p]); };
  auto note_unknown = [&](std::string_view label) {
    if (r.unknown_label.empty() && !label.empty()) r.unknown_label.assign(label.data(), label.size());
  };
  attribute a;
  std::size_t pos = 0;
  while (pos < n) {
    if (starts_with_ci(s, pos, "<!--")) {
      // to the first '>' preceded by "--" (the dashes of "<!--" count: "<!-->" ends it)
      std::size_t gt = s.find("-->", pos + 2);
      pos = gt == std::string_view::npos ? n : gt + 3;
      continue;
    }
    if (starts_with_ci(s, pos, "<meta") && pos + 5 < n && (is_ascii_whitespace(at(pos + 5)) || at(pos + 5) == '/')) {
      pos += 6;
      bool got_pragma = false;
      int need_pragma = -1;  // -1 null, 0 false, 1 true
      const encoding_info* charset = nullptr;
      bool charset_set = false;  // charset attribute seen (even if its label was unknown)
      std::string label;
      std::string names_seen;  // '\n'-separated, for "already in the attribute list"
      while (get_attribute(s, pos, a)) {
        std::string key = "\n" + a.name + "\n";
        if (names_seen.find(key) != std::string::npos) continue;
        names_seen += key;
        if (a.name == "http-equiv") {
          if (detail::iequals(a.value, "content-type")) got_pragma = true;
        } else if (a.name == "content") {
          if (!charset && !charset_set) {
            std::string_view l = charset_from_content(a.value);
            if (!l.empty()) {
              const encoding_info* e = find_encoding(l);
              if (e) {
                charset = e;
                label.assign(l.data(), l.size());
                need_pragma = 1;
              } else {
                note_unknown(l);
              }
            }
          }
        } else if (a.name == "charset") {
          charset_set = true;
          charset = find_encoding(a.value);
          if (charset)
            label = a.value;
          else
            note_unknown(a.value);
          need_pragma = 0;
        }
      }
      if (pos >= n) break;  // the tag runs past the examined bytes: incomplete, not used
      if (need_pragma != -1 && !(need_pragma == 1 && !got_pragma) && charset) {
        r.label = label;
        r.encoding = meta_encoding(charset->name);
        r.from_xml = false;
        return r;
      }
      ++pos;
      continue;
    }
    if (at(pos) == '<' && pos + 1 < n &&
        (is_ascii_alpha(at(pos + 1)) || (at(pos + 1) == '/' && pos + 2 < n && is_ascii_alpha(at(pos + 2))))) {
      while (pos < n && !is_ascii_whitespace(at(pos)) && at(pos) != '>') ++pos;
      while (get_attribute(s, pos, a)) {
      }
      ++pos;
      continue;
    }
    if (at(pos) == '<' && pos + 1 < n && (at(pos + 1) == '!' || at(pos + 1) == '/' || at(pos + 1) == '?')) {
      std::size_t gt = s.find('>', pos + 2);
      pos = gt == std::string_view::npos ? n : gt + 1;
      continue;
    }
    ++pos;
  }
  std::string_view xml = xml_declaration_label(s);
  if (!xml.empty()) {
    if (const encoding_info* e = find_encoding(xml)) {
      r.label.assign(xml.data(), xml.size());
      r.encoding = meta_encoding(e->name);
      r.from_xml = true;
    } else {
      note_unknown(xml);
    }
  }
  return r;
}

}  // namespace detail

std::optional<std::string> prescan_meta_charset(std::string_view first_bytes) {
  detail::prescan_result r = detail::prescan(first_bytes);
  if (r.encoding.empty()) return std::nullopt;
  return std::string(r.encoding);
}

std::string_view content_type_charset(std::string_view ct) noexcept {
  std::string_view t = detail::trim_ascii_whitespace(ct);
  if (t.empty()) return {};
  if (t.find_first_of("/;=") == std::string_view::npos) return t;  // a bare label
  // Parameters after the first ';': name=value or name="value".
  std::size_t pos = t.find(';');
  while (pos != std::string_view::npos && pos < t.size()) {
    ++pos;
    std::size_t next = pos;
    // find the end of this parameter, honouring quotes
    std::size_t eq = t.find('=', pos);
    std::size_t semi = t.find(';', pos);
    if (eq == std::string_view::npos || (semi != std::string_view::npos && semi < eq)) {
      pos = semi;
      continue;
    }
    std::string_view name = detail::trim_ascii_whitespace(t.substr(pos, eq - pos));
    std::size_t v = eq + 1;
    while (v < t.size() && detail::is_ascii_whitespace(static_cast<unsigned char>(t[v]))) ++v;
    std::string_view value;
    if (v < t.size() && t[v] == '"') {
      std::size_t close = t.find('"', v + 1);
      if (close == std::string_view::npos) close = t.size();
      value = t.substr(v + 1, close - v - 1);
      next = t.find(';', close);
    } else {
      next = t.find(';', v);
      value = detail::trim_ascii_whitespace(t.substr(v, (next == std::string_view::npos ? t.size() : next) - v));
    }
    if (detail::iequals(name, "charset")) return detail::trim_ascii_whitespace(value);
    pos = next;
  }
  return {};
}

}  // namespace v1
}  // namespace langsift
