// langsift::page — one WARC record's report and the statistics over records
// (langsift/warc_report.hpp).
#include "langsift/warc_report.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "langsift/impl/json.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

std::string warc_lower_mime(std::string_view ct) {
  std::string_view m = ct.substr(0, ct.find(';'));
  m = warc_trim(m);
  std::string s(m);
  for (char& c : s) c = ascii_lower(c);
  return s;
}

/// Content types worth classifying: none given, text/*, anything HTML or XML, and values that
/// are not a MIME type at all (left to sniffing).
bool warc_textual(std::string_view content_type) {
  const std::string m = warc_lower_mime(content_type);
  if (m.empty() || m.find('/') == std::string::npos) return true;
  return m.compare(0, 5, "text/") == 0 || m.find("html") != std::string::npos || m.find("xml") != std::string::npos;
}

void json_number(std::string& out, std::string_view key, std::uint64_t v) {
  out += ',';
  json::key(out, key);
  out += std::to_string(v);
}

void json_text(std::string& out, std::string_view key, std::string_view v) {
  out += ',';
  json::key(out, key);
  json::utf8_string(out, v);
}

}  // namespace detail

namespace detail {

/// The payload of a record: its body (de-chunked and decompressed for an HTTP response) and what
/// the record says of it.
struct warc_payload {
  std::string_view body;
  std::string scratch;  // the decoded body, when it is not a view into the block
  body_status bst = body_status::ok;
  bool no_http = false;  // a response record whose block is not an HTTP response: the block is the body
};

/// The record's own fields of the line: offset, length, type, URI, id, date, digest (`top_level`
/// false: the corpus schema's metadata, without the fields that are the document's own).
void warc_record_fields(std::string& l, const warc_record& r, std::string_view type, const std::string* file,
                               bool top_level = true) {
  if (file && top_level) {
    json::key(l, "file");
    json::utf8_string(l, *file);
    l += ',';
  }
  l += "\"offset\":";
  l += std::to_string(r.offset);
  if (r.length) json_number(l, "length", r.length);
  json_text(l, "warc_type", type);
  if (top_level) {
    json_text(l, "target_uri", r.target_uri());
    json_text(l, "record_id", r.record_id());
  }
  if (const std::string_view d = r.field("WARC-Date"); !d.empty()) json_text(l, "warc_date", d);
  if (const std::string_view g = r.field("WARC-Payload-Digest"); !g.empty()) json_text(l, "payload_digest", g);
}

/// The body of a response, resource or conversion record; the HTTP status and headers go to the
/// line and to `x`.
void warc_record_payload(std::string& l, const warc_record& r, std::string_view type, const warc_report_options& o,
                                warc_report& x, warc_payload& p) {
  if (type == "response") {
    http_response h;
    if (parse_http_response(r.block, h)) {
      x.http_status = h.status;
      json_number(l, "http_status", static_cast<std::uint64_t>(h.status));
      x.content_type = h.field("Content-Type");
      x.content_language = h.field("Content-Language");
      p.body = decode_http_body(h, std::string_view(r.block).substr(h.body_offset), p.scratch, o.max_body_bytes, p.bst);
      if (!h.complete) l += ",\"http_headers_truncated\":true";
    } else {
      p.no_http = true;
      p.body = r.block;
      x.content_type = r.field("WARC-Identified-Payload-Type");
    }
  } else {
    x.content_type = r.field("Content-Type");
    p.body = r.block;
  }
}

/// What was cut or wrong on the way to the body: the reader's cap, a truncated block, the body's
/// decoding, the reader's problem, WARC-Truncated.
void warc_record_notes(std::string& l, const warc_record& r, const warc_payload& p) {
  if (r.skipped_bytes() > 0) {
    // The block was longer than the reader's max_block_bytes: only the kept bytes were examined.
    l += ",\"capped\":true";
    json_number(l, "block_bytes", r.block_bytes);
    json_number(l, "kept_bytes", r.block.size());
  }
  if (r.truncated()) {
    l += ",\"truncated\":true";
    json_number(l, "content_length", r.content_length);
    json_number(l, "block_bytes", r.block_bytes);
  }
  if (p.bst != body_status::ok) json_text(l, "body_status", body_status_name(p.bst));
  if (!r.problem.empty()) json_text(l, "warc_problem", r.problem);
  if (const std::string_view t = r.field("WARC-Truncated"); !t.empty()) json_text(l, "warc_truncated", t);
}

/// True when the page is one of those wanted (warc_report_options::languages, min_probability).
bool warc_wanted(const detection& d, const warc_report_options& o) noexcept {
  if (!o.languages.empty()) {
    bool named = false;
    for (const std::string& w : o.languages) named = named || (d.count && code_matches(d.languages[0].code, w));
    if (!named) return false;
  }
  return warc_language_score(d) >= o.min_probability;
}

bool warc_filtering(const warc_report_options& o) noexcept { return !o.languages.empty() || o.min_probability > 0; }

/// The corpus schema's line: the document's fields around `metadata`, the standard line's other
/// fields (in `l`, from '{' on, without its detection's "language").
std::string warc_corpus_line(const warc_record& r, const std::string* file,
                                    const warc_report& x, std::string_view metadata) {
  std::string l = "{\"id\":";
  const std::string_view id = r.record_id();
  if (!id.empty()) {
    json::utf8_string(l, id);
  } else {  // (damaged input) unique all the same: the input and the record's place in its data
    json::utf8_string(l, (file ? *file : std::string()) + "#" + std::to_string(r.data_offset));
  }
  json_text(l, "source", file ? std::string_view(*file) : std::string_view());
  json_text(l, "url", r.target_uri());
  l += ',';
  json::key(l, "language");
  json::string(l, x.top);
  char buf[48];
  std::snprintf(buf, sizeof buf, ",\"language_score\":%.4f,\"metadata\":", static_cast<double>(warc_language_score(x.page.detection)));
  l += buf;
  l += metadata;
  l += ',';
  json::key(l, "text");
  json::string(l, x.page.text);
  l += "}\n";
  return l;
}

/// Classifies the body (detect_page) and finishes the line and the report.
void warc_record_classify(const model& m, const warc_record& r, const warc_report_options& o,
                                 std::string_view body, warc_report& x, const std::string* file = nullptr) {
  std::string& l = x.line;
  const bool corpus = o.schema == warc_schema::corpus;
  page_options po;
  po.content_type = x.content_type;
  po.content_language = x.content_language;
  po.url = r.target_uri();
  po.main_content = o.main_content;
  po.max_html_bytes = std::max(po.max_html_bytes, o.max_body_bytes);  // the body's own cap rules
  po.detect = o.detect;
  po.keep_text = o.text || corpus;
  x.page = detect_page(m, body, po);
  const detection& d = x.page.detection;
  x.classified = true;
  x.top = code_in_style(d.language(), o.codes);
  x.encoding = x.page.encoding.name.empty() ? "unknown" : x.page.encoding.name;
  x.body_bytes = body.size();
  x.text_bytes = d.text_bytes;
  for (std::size_t i = 0; i < d.count; ++i)
    x.languages.emplace_back(code_in_style(d.languages[i].code, o.codes), d.languages[i].bytes);
  if (warc_filtering(o) && !warc_wanted(d, o)) {
    x.filtered = true;
    l.clear();
    std::string().swap(x.page.text);
    return;
  }
  l += ',';
  if (corpus) {  // the detection's fields without its "language", which is the document's
    std::string det;
    json::detection_fields(det, d, o.codes);
    const std::size_t at = det.find(",\"languages\":");
    l.append(det, at == std::string::npos ? 0 : at + 1, std::string::npos);
  } else {
    json::detection_fields(l, d, o.codes);
  }
  json_text(l, "encoding", x.page.encoding.name);
  json_text(l, "encoding_source", encoding_source_name(x.page.encoding.source));
  if (corpus) {
    l += '}';
    l = warc_corpus_line(r, file, x, l);
    return;
  }
  if (o.text) {
    l += ',';
    json::key(l, "text");
    json::string(l, x.page.text);
  }
  l += "}\n";
}

}  // namespace detail

/// Reports one record: response, resource and conversion records are classified (the HTTP
/// response of a `response` record is parsed, its body de-chunked and decompressed); other records
/// are skipped. `file`: the input's name, written as the line's first field when not null (the
/// tool does so when it reads several files), and the corpus schema's "source".
warc_report report_warc_record(const model& m, const warc_record& r, const warc_report_options& o,
                               const std::string* file) {
  warc_report x;
  const std::string_view type = r.type();
  const bool payload = type == "response" || type == "resource" || type == "conversion";
  // Only pages have lines in the corpus schema, and only pages wanted with a language filter.
  const bool pages_only = o.schema == warc_schema::corpus || detail::warc_filtering(o);
  if (!payload && (!o.all || pages_only)) {
    x.skipped = true;
    x.skip_reason = "warc_type";
    return x;
  }
  std::string& l = x.line;
  l += '{';
  detail::warc_record_fields(l, r, type, file, o.schema != warc_schema::corpus);
  detail::warc_payload p;
  std::string_view skipped;
  if (payload) detail::warc_record_payload(l, r, type, o, x, p);
  else skipped = "warc_type";
  if (!x.content_type.empty()) detail::json_text(l, "content_type", x.content_type);
  if (!x.content_language.empty()) detail::json_text(l, "content_language", x.content_language);
  if (p.no_http) l += ",\"http\":false";
  if (payload) detail::json_number(l, "body_bytes", p.body.size());
  detail::warc_record_notes(l, r, p);
  x.capped = r.skipped_bytes() > 0 || p.bst == body_status::capped;
  if (skipped.empty() && p.bst == body_status::encoding_unsupported) skipped = "content_encoding";
  if (skipped.empty() && !o.any_type && !detail::warc_textual(x.content_type)) skipped = "content_type";
  if (!skipped.empty()) {
    x.skipped = true;
    x.skip_reason = skipped;
    if (pages_only) {
      l.clear();
      return x;
    }
    l += ",\"language\":\"und\",\"skipped\":";
    detail::json::string(l, skipped);
    l += "}\n";
    return x;
  }
  detail::warc_record_classify(m, r, o, p.body, x, file);
  return x;
}

namespace {

/// A table's rows by pages and bytes, most first, ties by key (the map's order).
template <class Key>
std::vector<std::pair<Key, warc_counts>> sorted(const std::map<Key, warc_counts>& m) {
  std::vector<std::pair<Key, warc_counts>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return std::tie(b.second.pages, b.second.bytes) < std::tie(a.second.pages, a.second.bytes);
  });
  return v;
}

}  // namespace

void warc_statistics::add(const warc_report& x) {
  ++records;
  if (x.skipped) ++skipped;
  if (!x.classified) return;
  ++pages;
  if (x.capped) ++capped;
  if (x.filtered) ++filtered;
  body_bytes += x.body_bytes;
  text_bytes += x.text_bytes;
  ++language[x.top].pages;
  ++language_encoding[{x.top, x.encoding}].pages;
  if (x.languages.empty()) language[x.top];  // und: pages, no bytes
  for (const auto& [code, bytes] : x.languages) {
    language[code].bytes += bytes;
    language_encoding[{code, x.encoding}].bytes += bytes;
  }
  auto& e = encoding[x.encoding];
  ++e.pages;
  e.bytes += x.body_bytes;
}

bool warc_statistics::merge(const warc_statistics& o) {
  const auto fits = [](std::uint64_t a, std::uint64_t b) { return a <= UINT64_MAX - b; };
  const auto fit_all = [&](const auto& into, const auto& from) {
    for (const auto& [k, c] : from)
      if (const auto t = into.find(k); t != into.end() && (!fits(t->second.pages, c.pages) || !fits(t->second.bytes, c.bytes)))
        return false;
    return true;
  };
  if (!fits(records, o.records) || !fits(pages, o.pages) || !fits(skipped, o.skipped) || !fits(malformed, o.malformed) ||
      !fits(body_bytes, o.body_bytes) || !fits(text_bytes, o.text_bytes) || !fits(capped, o.capped) ||
      !fits(filtered, o.filtered) ||
      !fit_all(language, o.language) || !fit_all(encoding, o.encoding) || !fit_all(language_encoding, o.language_encoding))
    return false;
  records += o.records;
  pages += o.pages;
  skipped += o.skipped;
  malformed += o.malformed;
  body_bytes += o.body_bytes;
  text_bytes += o.text_bytes;
  capped += o.capped;
  filtered += o.filtered;
  auto add_all = [](auto& into, const auto& from) {
    for (const auto& [k, c] : from) {
      auto& t = into[k];
      t.pages += c.pages;
      t.bytes += c.bytes;
    }
  };
  add_all(language, o.language);
  add_all(encoding, o.encoding);
  add_all(language_encoding, o.language_encoding);
  return true;
}

std::string warc_statistics::tsv() const {
  std::string out =
      "# langsift warc statistics: kind<TAB>key[<TAB>key2]<TAB>pages<TAB>bytes (langsift-warc(1): --stats)\n";
  auto total = [&](const char* k, std::uint64_t v) { out += std::string("total\t") + k + '\t' + std::to_string(v) + '\n'; };
  total("records", records);
  total("pages", pages);
  total("skipped", skipped);
  total("malformed", malformed);
  total("capped", capped);
  total("filtered", filtered);
  total("body_bytes", body_bytes);
  total("text_bytes", text_bytes);
  for (const auto& [k, c] : sorted(language))
    out += "language\t" + k + '\t' + std::to_string(c.pages) + '\t' + std::to_string(c.bytes) + '\n';
  for (const auto& [k, c] : sorted(encoding))
    out += "encoding\t" + k + '\t' + std::to_string(c.pages) + '\t' + std::to_string(c.bytes) + '\n';
  for (const auto& [k, c] : sorted(language_encoding))
    out += "language_encoding\t" + k.first + '\t' + k.second + '\t' + std::to_string(c.pages) + '\t' +
           std::to_string(c.bytes) + '\n';
  return out;
}

bool warc_statistics::parse_tsv(std::string_view text, warc_statistics& out, std::string* error) {
  warc_statistics s;
  std::size_t line_no = 0;
  auto bad = [&](std::string_view why) {
    if (error) *error = "line " + std::to_string(line_no) + ": " + std::string(why);
    return false;
  };
  while (!text.empty()) {
    ++line_no;
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string_view> f;
    for (std::size_t b = 0;;) {
      const std::size_t t = line.find('\t', b);
      f.push_back(line.substr(b, t == std::string_view::npos ? std::string_view::npos : t - b));
      if (t == std::string_view::npos) break;
      b = t + 1;
    }
    auto num = [](std::string_view v, std::uint64_t& n) {
      const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      return ec == std::errc() && p == v.data() + v.size() && !v.empty();
    };
    std::uint64_t a = 0, b = 0;
    const auto add = [](std::uint64_t& into, std::uint64_t v) {
      if (into > UINT64_MAX - v) return false;
      into += v;
      return true;
    };
    constexpr std::string_view kOverflow = "the sum of the counts exceeds 2^64 - 1";
    if (f[0] == "total" && f.size() == 3) {
      if (!num(f[2], a)) return bad("not a number");
      std::uint64_t* t = f[1] == "records"      ? &s.records
                         : f[1] == "pages"      ? &s.pages
                         : f[1] == "skipped"    ? &s.skipped
                         : f[1] == "malformed"  ? &s.malformed
                         : f[1] == "capped"     ? &s.capped
                         : f[1] == "filtered"   ? &s.filtered
                         : f[1] == "body_bytes" ? &s.body_bytes
                         : f[1] == "text_bytes" ? &s.text_bytes
                                                : nullptr;
      if (!t) return bad("unknown total");
      if (!add(*t, a)) return bad(kOverflow);
    } else if ((f[0] == "language" || f[0] == "encoding") && f.size() == 4) {
      if (!num(f[2], a) || !num(f[3], b)) return bad("not a number");
      auto& c = (f[0] == "language" ? s.language : s.encoding)[std::string(f[1])];
      if (!add(c.pages, a) || !add(c.bytes, b)) return bad(kOverflow);
    } else if (f[0] == "language_encoding" && f.size() == 5) {
      if (!num(f[3], a) || !num(f[4], b)) return bad("not a number");
      auto& c = s.language_encoding[{std::string(f[1]), std::string(f[2])}];
      if (!add(c.pages, a) || !add(c.bytes, b)) return bad(kOverflow);
    } else {
      return bad("not a statistics line");
    }
  }
  out = std::move(s);
  return true;
}

}  // namespace v1
}  // namespace langsift
