// langsift — detect_page (langsift/page.hpp): one page body through the pipeline. Part of
// langsift::encoding.
#include "langsift/page.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {

namespace detail {
namespace {

/// A C0 control character other than whitespace (TAB LF VT FF CR) and ESC.
constexpr bool is_control(char ch) noexcept {
  const auto c = static_cast<unsigned char>(ch);
  return c < 0x20 && (c < 0x09 || c > 0x0d) && c != 0x1b;
}

/// True when more than 1 in 20 of the first 8 KB of decoded text are such controls: images,
/// archives, executables decoded as some encoding. Text in any encoding langsift decodes has
/// (almost) none.
bool looks_binary(std::string_view utf8) noexcept {
  const std::string_view head = utf8.substr(0, 8192);
  std::size_t controls = 0;
  for (const char ch : head) controls += is_control(ch);
  return !head.empty() && controls * 20 > head.size();
}

/// The same over the whole decoded text, in characters: an invalid byte becomes a 3-byte U+FFFD,
/// which would dilute a count of bytes.
bool control_heavy(std::string_view utf8) noexcept {
  std::size_t controls = 0, chars = 0;
  for (const char ch : utf8) {
    controls += is_control(ch);
    chars += (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
  }
  return chars > 0 && controls * 20 > chars;
}

/// A page that declares its encoding (BOM, HTTP charset, <meta> charset, or a forced encoding) and
/// starts control-heavy is binary only when its whole text is control-heavy too: a real binary file
/// served with a text charset is so throughout; a page behind padding (a proxy's or a crawler's
/// NUL bytes in front of it) is not.
bool declared(const encoding_result& e) noexcept {
  return e.source == encoding_source::bom || e.source == encoding_source::http || e.source == encoding_source::meta;
}

/// Decodes `in` from `name` into `out`, falling back to `fallback` (else windows-1252) for a label
/// no converter knows, as decode_to_utf8 does (the result keeps status unknown_encoding then).
conversion_result page_decode(std::string_view in, std::string_view name, std::string_view fallback,
                              std::string& out) {
  out.reserve(in.size() + in.size() / 8 + 16);
  conversion_result c = convert_to_utf8(in, name, out);
  if (c.st == status::unknown_encoding) {
    std::string_view fb = canonical_encoding_name(fallback);
    if (fb.empty() || !can_convert(fb)) fb = "windows-1252";
    out.clear();
    const conversion_result f = convert_to_utf8(in, fb, out);
    c.input_bytes = f.input_bytes;
    c.output_bytes = f.output_bytes;
    c.replaced_bytes = f.replaced_bytes;
  }
  if (c.st == status::out_of_memory) throw std::bad_alloc();
  return c;
}

bool all_ascii(std::string_view s) noexcept {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

/// Input bytes decoded to decide whether a body is binary before decoding all of it: enough for
/// the 8 KB of text looks_binary reads in any encoding (UTF-32 gives a byte of text per 4).
constexpr std::size_t kBinaryProbeBytes = 4 * 8192;

/// The first half of the pipeline: the body decoded to UTF-8.
struct decoded_page {
  std::string text;       // the decoded page, when decoding changes its bytes
  std::string_view utf8;  // the page as UTF-8: `text`, or the body itself
};

/// Decodes `body` (r.encoding, r.conversion, r.dropped_controls) and decides whether it is HTML
/// (r.is_html). False when it is not text (r.detection.st = binary_input): there is nothing to read.
bool decode_page(std::string_view body, const page_options& o, page_result& r, decoded_page& p) {
  std::string& text = p.text;
  std::string_view& utf8 = p.utf8;
  std::string_view payload = body;
  if (o.encoding.empty() || !can_convert(o.encoding)) {  // an unknown forced label: detect
    encoding_options eo = o.encoding_opts;
    eo.content_type = o.content_type;
    r.encoding = detect_encoding(body, eo);
    payload = body.substr(std::min(r.encoding.bom_bytes, body.size()));
    if (!o.encoding.empty()) {
      r.encoding.declared = std::string(o.encoding);
      r.encoding.declared_overridden = true;
    }
  } else {
    r.encoding.name = std::string(canonical_encoding_name(o.encoding));
    r.encoding.source = encoding_source::http;
    r.encoding.declared = std::string(o.encoding);
  }
  const std::string_view fallback = o.encoding_opts.fallback;
  if (body.empty()) {
    r.conversion.st = status::empty_input;
  } else if ((r.encoding.name == "utf-8" && (r.encoding.whole_valid_utf8 || is_valid_utf8(payload))) ||
             (r.encoding.name == "ascii" && all_ascii(payload))) {
    // Decoding would copy the bytes unchanged: use them in place (no second copy of the page).
    utf8 = payload;
    r.conversion.input_bytes = r.conversion.output_bytes = payload.size();
  } else {
    // Not text (an image, an archive, random bytes)? Decide on a prefix before decoding it all.
    if (payload.size() > kBinaryProbeBytes) {
      std::string head;
      const conversion_result c = page_decode(payload.substr(0, kBinaryProbeBytes), r.encoding.name, fallback, head);
      if (looks_binary(head) && !declared(r.encoding)) {
        r.conversion = c;  // of the prefix decoded
        r.detection.st = status::binary_input;
        return false;
      }
    }
    r.conversion = page_decode(payload, r.encoding.name, fallback, text);
    utf8 = text;
  }
  if (looks_binary(utf8)) {
    if (!declared(r.encoding) || control_heavy(utf8)) {
      r.detection.text_bytes = 0;
      r.detection.st = status::binary_input;
      return false;
    }
    // Text behind control characters: they are dropped (and counted), so that they count as no
    // text (the detector would take them for separators inside script runs).
    std::string kept;
    kept.reserve(utf8.size());
    for (const char ch : utf8)
      if (!is_control(ch)) kept += ch;
    r.dropped_controls = utf8.size() - kept.size();
    text = std::move(kept);
    utf8 = text;
  }
  bool html = o.kind == page_kind::html;
  if (o.kind == page_kind::sniff) {
    const bool plain = o.content_type.find("text/plain") != std::string_view::npos;
    html = !plain && looks_like_html(utf8);
  }
  r.is_html = html;
  return true;
}

/// The second half for HTML: the page's text (main content only with o.main_content).
html_result page_html(std::string_view utf8, const page_options& o) {
  html_options ho;
  ho.main_content = o.main_content;
  ho.collect_links = false;
  ho.max_input_bytes = o.max_html_bytes;
  return extract_html(utf8, ho);
}

page_result detect_page_unguarded(const model& m, std::string_view body, const page_options& o) {
  page_result r;
  decoded_page p;
  if (!decode_page(body, o, r, p)) return r;
  detect_options opt = o.detect;
  if (!o.content_language.empty()) opt.hints.content_language = o.content_language;
  if (!o.url.empty() && opt.hints.tld.empty()) {
    if (auto u = parse_uri(o.url)) opt.hints.tld = u->host;
  }
  if (!r.is_html) {
    r.detection = langsift::detect(m, p.utf8, opt);
    if (o.keep_text) r.text = p.utf8.data() == p.text.data() ? std::move(p.text) : std::string(p.utf8);
    return r;
  }
  html_result h = page_html(p.utf8, o);
  std::string().swap(p.text);  // the decoded page is not needed any more: only its text
  r.html_lang = h.html_lang;
  opt.hints.html_lang = r.html_lang;
  if (opt.hints.content_language.empty()) opt.hints.content_language = h.content_language;
  r.detection = langsift::detect(m, h.text, opt);
  // A cut input must say so (a language of the kept prefix is not the page's, silently).
  if (h.st == status::truncated && r.detection.st == status::ok) r.detection.st = status::truncated;
  if (o.keep_text) r.text = std::move(h.text);
  return r;
}

page_text extract_page_text_unguarded(std::string_view body, const page_options& o) {
  page_result r;
  decoded_page p;
  page_text t;
  const bool text = decode_page(body, o, r, p);
  t.encoding = std::move(r.encoding);
  t.conversion = r.conversion;
  t.is_html = r.is_html;
  if (!text) {
    t.st = r.detection.st;
    return t;
  }
  if (body.empty()) t.st = status::empty_input;
  if (!r.is_html) {
    t.text = p.utf8.data() == p.text.data() ? std::move(p.text) : std::string(p.utf8);
    return t;
  }
  html_result h = page_html(p.utf8, o);
  t.html_lang = std::move(h.html_lang);
  t.text = std::move(h.text);
  if (h.st == status::truncated) t.st = status::truncated;
  return t;
}

}  // namespace
}  // namespace detail

page_result detect_page(const model& m, std::string_view body, const page_options& o) noexcept {
  try {
    return detail::detect_page_unguarded(m, body, o);
  } catch (const std::bad_alloc&) {
    page_result r;  // no allocation: empty strings
    r.detection.st = status::out_of_memory;
    return r;
  } catch (...) {  // detect_encoding and the converters report errors by status; nothing else throws
    page_result r;
    r.detection.st = status::internal_error;
    return r;
  }
}

page_text extract_page_text(std::string_view body, const page_options& o) noexcept {
  try {
    return detail::extract_page_text_unguarded(body, o);
  } catch (const std::bad_alloc&) {
    page_text t;
    t.st = status::out_of_memory;
    return t;
  } catch (...) {
    page_text t;
    t.st = status::internal_error;
    return t;
  }
}

}  // namespace v1
}  // namespace langsift
