// `langsift text` — the text of an HTML page (optionally only its main content), its links,
// title and language declarations.
#include <cstdio>
#include <string>
#include <string_view>

#include "common/cli.hpp"
#include "common/input.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "subcommands.hpp"

namespace {

constexpr const char* kProgram = "langsift text";

/// What the command line gives `langsift text`.
struct text_args {
  bool main_content = false, links = false, title = false, meta = false, blocks = false;
  std::string base, content_type, forced_encoding;
  unsigned long long max_bytes = 16ull << 20;
};

using option_row = langsift::cli::option<text_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift text`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift text [options] FILE|-\n"
       "\n"
       "Extracts the text of an HTML page and prints it as UTF-8, one line per block (paragraph,\n"
       "heading, list item, table cell...), whitespace collapsed. Tags, comments, script, style,\n"
       "noscript, template, textarea, iframe, svg and math content are dropped; character\n"
       "references are decoded. The input bytes are first decoded to UTF-8: BOM, then the charset\n"
       "of --content-type, then <meta charset> / XML declaration, then statistical detection\n"
       "(see `langsift encoding`); invalid sequences become U+FFFD.\n"
       "\n"
       "options:\n"},
      {value_kind::flag, "--main", nullptr, nullptr,
       "keep only the main content: drop navigation, menus, link lists, footers,\n"
       "cookie banners, language pickers (boilerplate removal)",
       [](text_args& a, const option_value&) { return a.main_content = true; }},
      {value_kind::text, "--base", nullptr, "URL",
       "the page's URL, against which relative links are resolved (a <base href>\n"
       "in the page takes precedence, resolved against URL)",
       [](text_args& a, const option_value& v) { a.base = v.text; return true; }, 0, 0, nullptr, "a URL"},
      {value_kind::flag, "--links", nullptr, nullptr,
       "print the out-links instead of the text: one line per <a href>/<area href>,\n"
       "URL<TAB>anchor text; absolute http(s) URLs without fragment, in page\n"
       "order (javascript:, mailto:, data:, fragment-only and unresolvable links\n"
       "are left out; relative links need --base or a <base href>)",
       [](text_args& a, const option_value&) { return a.links = true; }},
      {value_kind::flag, "--title", nullptr, nullptr, "print the <title> as the first line, before the text (or links)",
       [](text_args& a, const option_value&) { return a.title = true; }},
      {value_kind::flag, "--meta", nullptr, nullptr,
       "print KEY<TAB>VALUE lines first: title, html-lang, content-language, base,\n"
       "status, encoding, encoding-source, replaced-bytes (bytes the decoder\n"
       "replaced by U+FFFD), invalid-utf8 (sequences the extractor replaced),\n"
       "links, blocks",
       [](text_args& a, const option_value&) { return a.meta = true; }},
      {value_kind::flag, "--blocks", nullptr, nullptr,
       "print every text block with its features and the main-content decision\n"
       "instead of the text: K|D<TAB>words<TAB>linked<TAB>stops<TAB>flags<TAB>text",
       [](text_args& a, const option_value&) { return a.blocks = true; }},
      {value_kind::size, "--max-bytes", nullptr, "N",
       "process at most N bytes of input (K/M/G suffixes; default 16M); the rest\n"
       "is not read, a line on stderr says so, and --meta's status is truncated\n"
       "(a file compressed with gzip or zstd, told by its first bytes, is\n"
       "decompressed as it is read: N counts its content)",
       [](text_args& a, const option_value& v) { a.max_bytes = v.size; return true; }, 1, 0, nullptr,
       "a positive size (e.g. 4M)"},
      {value_kind::text, "--content-type", nullptr, "V", "the HTTP Content-Type header (or a bare charset) of the page",
       [](text_args& a, const option_value& v) { a.content_type = v.text; return true; }},
      {value_kind::text, "--encoding", nullptr, "E", "the input's encoding, skipping detection (e.g. utf-8, windows-1251)",
       [](text_args& a, const option_value& v) {
         a.forced_encoding = v.text;
         return langsift::can_convert(a.forced_encoding);
       },
       0, 0, nullptr, "a known encoding"},
      {value_kind::note, nullptr, nullptr, nullptr,
       "  -h, --help      this help\n"
       "\n"
       "Exit status: 0 on success (also when no text was found), 3 when compressed input was corrupt\n"
       "or cut short (reported; the text is that of the part before it), 1 when FILE cannot be read\n"
       "or the output cannot be written, 2 on a usage error.\n"},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 18); }

void put(std::string_view s) { langsift::cli::write_stdout(s); }

std::string flag_names(std::uint32_t f) {
  static constexpr std::pair<std::uint32_t, const char*> names[] = {
      {langsift::html_block_boilerplate, "boiler"}, {langsift::html_block_hint_boilerplate, "hint"},
      {langsift::html_block_hint_consent, "consent"}, {langsift::html_block_article, "article"},
      {langsift::html_block_anchor, "a"},           {langsift::html_block_heading, "h"},
      {langsift::html_block_list_item, "li"},       {langsift::html_block_pre, "pre"},
      {langsift::html_block_quote, "quote"},        {langsift::html_block_caption, "caption"},
      {langsift::html_block_form, "form"},          {langsift::html_block_control, "control"},
      {langsift::html_block_table, "cell"},         {langsift::html_block_title, "title"}};
  std::string s;
  for (const auto& [bit, name] : names)
    if (f & bit) {
      if (!s.empty()) s += ',';
      s += name;
    }
  return s.empty() ? "-" : s;
}

}  // namespace

int langsift::cli::cmd_text(int argc, char** argv) {
  text_args p;
  std::vector<std::string> args;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, p, args); rc >= 0) return rc;
  if (args.size() > 1) return fail(kProgram, "only one FILE, please (or - for stdin)") + 1;
  const bool have_path = !args.empty(), main_content = p.main_content, links = p.links, title = p.title, meta = p.meta,
             blocks = p.blocks;
  const std::string path = have_path ? args[0] : std::string(), &base = p.base, &content_type = p.content_type,
                    &forced_encoding = p.forced_encoding;
  const unsigned long long max_bytes = p.max_bytes;
  if (!have_path) return fail(kProgram, "FILE (or -) is required; see --help") + 1;

  std::string bytes, error, malformed;
  bool cut = false;  // more than --max-bytes: the rest is not read
  // Plain, gzip or zstd (common/input.hpp); corrupt compressed data ends the page where it went wrong.
  if (!read_input(path, bytes, error, static_cast<std::size_t>(max_bytes), &cut, &malformed)) return fail(kProgram, error);
  if (cut)
    std::fprintf(stderr, "%s: %s: cut at %llu bytes (--max-bytes): the text is that of that part\n", kProgram,
                 path == "-" ? "stdin" : path.c_str(), max_bytes);
  if (!malformed.empty()) fail(kProgram, malformed + ": the text is that of the part before it");
  langsift::decoded_text decoded;
  if (forced_encoding.empty()) {
    langsift::encoding_options eopt;
    eopt.content_type = content_type;
    decoded = langsift::decode_to_utf8(bytes, eopt);
  } else {
    decoded.encoding.name = std::string(langsift::canonical_encoding_name(forced_encoding));
    decoded.encoding.source = langsift::encoding_source::http;
    decoded.conversion = langsift::convert_to_utf8(bytes, decoded.encoding.name, decoded.text);
  }
  if (decoded.conversion.st != langsift::status::ok && decoded.conversion.st != langsift::status::empty_input)
    return fail(kProgram, path + ": cannot convert from " + decoded.encoding.name + ": " +
                              std::string(langsift::status_name(decoded.conversion.st)));
  bytes.clear();
  bytes.shrink_to_fit();
  const std::string_view utf8 = decoded.text;

  html_options opt;
  opt.base_url = base;
  opt.main_content = main_content && !blocks;  // --blocks shows the decisions on the full text
  opt.collect_links = links || meta;
  opt.max_input_bytes = static_cast<std::size_t>(max_bytes);
  html_result r;
  extract_html(utf8, opt, r);
  if (blocks) mark_main_content(r);
  if ((cut || !malformed.empty()) && r.st == status::ok) r.st = status::truncated;

  if (meta) {
    std::printf("title\t%s\nhtml-lang\t%s\ncontent-language\t%s\nbase\t%s\nstatus\t%s\n"
                "encoding\t%s\nencoding-source\t%s\nreplaced-bytes\t%zu\n"
                "invalid-utf8\t%zu\nlinks\t%zu\nblocks\t%zu\n",
                r.title.c_str(), r.html_lang.c_str(), r.content_language.c_str(), r.base_url.c_str(),
                std::string(status_name(r.st)).c_str(), decoded.encoding.name.c_str(),
                std::string(langsift::encoding_source_name(decoded.encoding.source)).c_str(),
                decoded.conversion.replaced_bytes, r.invalid_sequences, r.links.size(), r.blocks.size());
  }
  if (title) {
    put(r.title);
    put("\n");
  }
  if (blocks) {
    std::string_view text = r.text;
    for (const html_block& b : r.blocks) {
      std::string_view s = text.substr(b.begin, b.end - b.begin);
      std::string line(s.substr(0, 200));
      for (char& c : line)
        if (c == '\n') c = ' ';
      std::printf("%c\t%u\t%u\t%u\t%s\t%s\n", b.kept ? 'K' : 'D', b.words, b.linked_words, b.stops,
                  flag_names(b.flags).c_str(), line.c_str());
    }
  } else if (links) {
    for (const html_link& l : r.links) {
      put(l.url);
      put("\t");
      put(l.text);
      put("\n");
    }
  } else if (!r.text.empty()) {
    put(r.text);
    put("\n");
  }
  return stdout_failed(kProgram, true) ? 1 : malformed.empty() ? 0 : 3;
}
