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

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift text [options] FILE|-\n"
      "\n"
      "Extracts the text of an HTML page and prints it as UTF-8, one line per block (paragraph,\n"
      "heading, list item, table cell...), whitespace collapsed. Tags, comments, script, style,\n"
      "noscript, template, textarea, iframe, svg and math content are dropped; character\n"
      "references are decoded. The input bytes are first decoded to UTF-8: BOM, then the charset\n"
      "of --content-type, then <meta charset> / XML declaration, then statistical detection\n"
      "(see `langsift encoding`); invalid sequences become U+FFFD.\n"
      "\n"
      "options:\n"
      "  --main          keep only the main content: drop navigation, menus, link lists, footers,\n"
      "                  cookie banners, language pickers (boilerplate removal)\n"
      "  --base URL      the page's URL, against which relative links are resolved (a <base href>\n"
      "                  in the page takes precedence, resolved against URL)\n"
      "  --links         print the out-links instead of the text: one line per <a href>/<area href>,\n"
      "                  URL<TAB>anchor text; absolute http(s) URLs without fragment, in page\n"
      "                  order (javascript:, mailto:, data:, fragment-only and unresolvable links\n"
      "                  are left out; relative links need --base or a <base href>)\n"
      "  --title         print the <title> as the first line, before the text (or links)\n"
      "  --meta          print KEY<TAB>VALUE lines first: title, html-lang, content-language, base,\n"
      "                  status, encoding, encoding-source, replaced-bytes (bytes the decoder\n"
      "                  replaced by U+FFFD), invalid-utf8 (sequences the extractor replaced),\n"
      "                  links, blocks\n"
      "  --blocks        print every text block with its features and the main-content decision\n"
      "                  instead of the text: K|D<TAB>words<TAB>linked<TAB>stops<TAB>flags<TAB>text\n"
      "  --max-bytes N   process at most N bytes of input (K/M/G suffixes; default 16M); the rest\n"
      "                  is not read, a line on stderr says so, and --meta's status is truncated\n"
      "                  (a file compressed with gzip or zstd, told by its first bytes, is\n"
      "                  decompressed as it is read: N counts its content)\n"
      "  --content-type V  the HTTP Content-Type header (or a bare charset) of the page\n"
      "  --encoding E    the input's encoding, skipping detection (e.g. utf-8, windows-1251)\n"
      "  -h, --help      this help\n"
      "\n"
      "Exit status: 0 on success (also when no text was found), 3 when compressed input was corrupt\n"
      "or cut short (reported; the text is that of the part before it), 1 when FILE cannot be read\n"
      "or the output cannot be written, 2 on a usage error.\n");
}

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
  bool main_content = false, links = false, title = false, meta = false, blocks = false;
  std::string base, path, value, content_type, forced_encoding;
  unsigned long long max_bytes = 16ull << 20;
  bool have_path = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift text");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--main") {
      main_content = true;
    } else if (a == "--links") {
      links = true;
    } else if (a == "--title") {
      title = true;
    } else if (a == "--meta") {
      meta = true;
    } else if (a == "--blocks") {
      blocks = true;
    } else if (take_option(argc, argv, i, "--base", base, missing)) {
      if (missing) return fail(kProgram, "--base needs a URL") + 1;
    } else if (take_option(argc, argv, i, "--max-bytes", value, missing)) {
      auto v = missing ? std::nullopt : parse_size(value);
      if (!v || *v == 0) return fail(kProgram, "--max-bytes needs a positive size (e.g. 4M)") + 1;
      max_bytes = *v;
    } else if (take_option(argc, argv, i, "--content-type", content_type, missing)) {
      if (missing) return fail(kProgram, "--content-type needs a value") + 1;
    } else if (take_option(argc, argv, i, "--encoding", forced_encoding, missing)) {
      if (missing) return fail(kProgram, "--encoding needs a name") + 1;
      if (!langsift::can_convert(forced_encoding))
        return fail(kProgram, "unknown or unsupported encoding '" + forced_encoding + "'") + 1;
    } else if (a.size() > 1 && a[0] == '-') {
      return unknown_option(kProgram, a, usage);
    } else if (have_path) {
      return fail(kProgram, "only one FILE, please (or - for stdin)") + 1;
    } else {
      path = std::string(a);
      have_path = true;
    }
  }
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
