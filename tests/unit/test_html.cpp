// HTML text extraction: known answers, links, bad input, pathological input, main content.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "eval/bag_of_words.hpp"
#include "langsift/html.hpp"
#include "langsift/detail/html_entity_table.hpp"  // the named references, for the table test

using langsift::extract_html;
using langsift::html_options;
using langsift::html_result;
using langsift::status;

namespace {

std::string text(std::string_view html) { return extract_html(html).text; }

std::string main_text(std::string_view html) {
  html_options o;
  o.main_content = true;
  return extract_html(html, o).text;
}

bool valid_utf8(std::string_view s) { return langsift::is_valid_utf8(s); }

/// Text invariants: valid UTF-8, no empty lines, no leading/trailing space on a line, no
/// double spaces, no trailing newline.
void check_text_shape(const std::string& t) {
  REQUIRE(valid_utf8(t));
  if (t.empty()) return;
  CHECK(t.front() != '\n');
  CHECK(t.back() != '\n');
  CHECK(t.find("\n\n") == std::string::npos);
  CHECK(t.find("  ") == std::string::npos);
  CHECK(t.find(" \n") == std::string::npos);
  CHECK(t.find("\n ") == std::string::npos);
  CHECK(t.front() != ' ');
  CHECK(t.back() != ' ');
}

std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

// ---- what is dropped ---------------------------------------------------------------------------

TEST_CASE("dropped elements", "[html]") {
  CHECK(text("a<script>var x = 1 < 2;</script>b") == "ab");
  CHECK(text("a<style>p { color: red }</style>b") == "ab");
  CHECK(text("a<noscript>Please enable JavaScript</noscript>b") == "ab");
  CHECK(text("a<template><p>hidden</p></template>b") == "ab");
  CHECK(text("a<template><template>x</template>y</template>b") == "ab");
  CHECK(text("a <textarea>Write <b>here</b></textarea> b") == "a b");
  CHECK(text("a <iframe>fallback <p>text</p></iframe> b") == "a b");
  CHECK(text("a<noembed>x</noembed><noframes>y</noframes>b") == "ab");
  CHECK(text("a <noscript><p>x</p></noscript> b") == "a b");  // hidden content breaks no line
  CHECK(text("a<template><div>x</div></template>b") == "ab");
  CHECK(text("a<svg viewBox='0 0 1 1'><title>Icon</title><text>label</text></svg>b") == "ab");
  CHECK(text("a<math><mi>x</mi><mo>=</mo><mn>2</mn></math>b") == "ab");
  CHECK(text("a<svg/>b") == "ab");  // self-closing svg hides nothing
  CHECK(text("<head><title>T</title><meta name=x content=y><link rel=x></head>body") == "body");
  CHECK(text("<object data=x><param name=a value=b></object>z") == "z");
}

TEST_CASE("svg and math end at an HTML breakout tag", "[html]") {
  CHECK(text("<svg><path d=''/><p>visible</p>") == "visible");
  CHECK(text("<math><mi>x</mi><div>after</div></math>") == "after");
}

TEST_CASE("comments, doctype, CDATA, processing instructions", "[html]") {
  CHECK(text("<!DOCTYPE html><html>a</html>") == "a");
  CHECK(text("a<!-- comment -->b") == "ab");
  CHECK(text("a<!-- -- > still comment -->b") == "ab");
  CHECK(text("a<!-- x --!>b") == "ab");
  CHECK(text("a<!-->b") == "ab");
  CHECK(text("a<!--->b") == "ab");
  CHECK(text("a<!---->b") == "ab");
  CHECK(text("a<!-- unterminated comment <p>swallows the rest") == "a");
  CHECK(text("a<!bogus comment>b") == "ab");
  CHECK(text("a<?xml version='1.0'?>b") == "ab");
  CHECK(text("a<![CDATA[x]]>b") == "ab");
  CHECK(text("a</ bogus>b") == "ab");
  CHECK(text("a</>b") == "ab");
  CHECK(text("a<!DOCTYPE never closed") == "a");
}

// ---- character references ----------------------------------------------------------------------

TEST_CASE("named character references", "[html][entities]") {
  CHECK(text("&amp;&lt;&gt;&quot;&apos;") == "&<>\"'");
  CHECK(text("caf&eacute; &AElig;&zwnj;x") == "caf\xc3\xa9 \xc3\x86\xe2\x80\x8cx");
  CHECK(text("&amp &copy 2024") == "& \xc2\xa9 2024");  // legacy names without ';'
  CHECK(text("&notit;") == "\xc2\xacit;");                // longest prefix: &not
  CHECK(text("&notin;") == "\xe2\x88\x89");
  CHECK(text("&NotEqualTilde;") == "\xe2\x89\x82\xcc\xb8");  // two code points
  CHECK(text("&fjlig;") == "fj");
  CHECK(text("&unknown; &; & x &a") == "&unknown; &; & x &a");
  CHECK(text("AT&T") == "AT&T");
  CHECK(text("&ampx") == "&x");   // in text the legacy name is decoded...
  CHECK(text("&amp") == "&");     // ...also at the end of input
  CHECK(text("&") == "&");
  CHECK(text("x&") == "x&");
  CHECK(text("&CounterClockwiseContourIntegral;") == "\xe2\x88\xb3");  // the longest name
  CHECK(text("&nbsp;a&nbsp;&nbsp;b&nbsp;") == "a b");  // NBSP is whitespace in the output
}

TEST_CASE("numeric character references", "[html][entities]") {
  CHECK(text("&#65;&#x42;&#X43;&#68") == "ABCD");
  CHECK(text("&#x1F600;") == "\xf0\x9f\x98\x80");
  CHECK(text("&#0;") == "\xef\xbf\xbd");
  CHECK(text("&#xD800;") == "\xef\xbf\xbd");
  CHECK(text("&#x110000;") == "\xef\xbf\xbd");
  CHECK(text("&#99999999999999999999999;") == "\xef\xbf\xbd");
  CHECK(text("&#128;") == "\xe2\x82\xac");   // windows-1252: euro sign
  CHECK(text("&#x9F;") == "\xc5\xb8");       // Y with diaeresis
  CHECK(text("&#x92;") == "\xe2\x80\x99");   // right single quote
  CHECK(text("a&#x81;b") == "ab");           // unmapped C1 control: dropped from text
  CHECK(text("&#;&#x;&#xg") == "&#;&#x;&#xg");
  CHECK(text("&#") == "&#");
  CHECK(text("&#x") == "&#x");
  CHECK(text("a&#12;b") == "a b");  // form feed: whitespace
  CHECK(text("a&#32;&#9;b") == "a b");
  CHECK(text("a&#10;b") == "a b");
  CHECK(text("<pre>a&#10;b</pre>") == "a\nb");
}

TEST_CASE("decode_html_entities, text and attribute rules", "[html][entities]") {
  using langsift::decode_html_entities;
  CHECK(decode_html_entities("a=1&copy=2") == "a=1\xc2\xa9=2");
  CHECK(decode_html_entities("a=1&copy=2", true) == "a=1&copy=2");
  CHECK(decode_html_entities("?x&ampy", true) == "?x&ampy");
  CHECK(decode_html_entities("?x&amp;y", true) == "?x&y");
  CHECK(decode_html_entities("&copy;2", true) == "\xc2\xa9" "2");
  CHECK(decode_html_entities("&copy 2", true) == "\xc2\xa9 2");
  CHECK(decode_html_entities("&#x81;") == "\xc2\x81");  // pure decoding keeps it
  CHECK(decode_html_entities("bad \xff byte") == "bad \xef\xbf\xbd byte");
  CHECK(decode_html_entities("  spaces\tkept ") == "  spaces\tkept ");
  CHECK(decode_html_entities(std::string_view("a\0b", 3)) == "a\xef\xbf\xbd" "b");  // NUL, as HTML
  CHECK(decode_html_entities(std::string_view("a\0b", 3), true) == "a\xef\xbf\xbd" "b");
}

TEST_CASE("every named reference in the generated table decodes", "[html][entities]") {
  using namespace langsift::detail;
  REQUIRE(kHtmlEntityCount == 2231);
  std::size_t legacy = 0;
  for (std::size_t i = 0; i < kHtmlEntityCount; ++i) {
    const html_entity& e = kHtmlEntities[i];
    std::string name(kHtmlEntityNames + e.name_offset, e.name_length);
    if (i > 0) {
      const html_entity& p = kHtmlEntities[i - 1];
      CHECK(std::string_view(kHtmlEntityNames + p.name_offset, p.name_length) < name);  // sorted
    }
    if (name.back() != ';') ++legacy;
    std::string want;
    append_utf8(want, e.first);
    if (e.second) append_utf8(want, kHtmlEntitySecond[e.second]);
    INFO(name);
    CHECK(langsift::decode_html_entities("&" + name) == want);
  }
  CHECK(legacy == 106);
}

// ---- blocks, inline elements, whitespace ------------------------------------------------------

TEST_CASE("block elements break lines, inline elements do not split words", "[html]") {
  CHECK(text("<p>one</p><p>two</p>") == "one\ntwo");
  CHECK(text("<div>a<div>b</div>c</div>") == "a\nb\nc");
  CHECK(text("<b>bo</b>ld <i>it</i><em>al</em><span>ic</span>") == "bold italic");
  CHECK(text("<a href=x>lin</a>k") == "link");
  CHECK(text("a<br>b<br/>c</br>d") == "a\nb\nc\nd");
  CHECK(text("<ul><li>one<li>two</ul>") == "one\ntwo");
  CHECK(text("<table><tr><td>a<td>b<tr><th>c</table>") == "a\nb\nc");
  CHECK(text("<h1>Title</h1>text<h2>Sub</h2>more") == "Title\ntext\nSub\nmore");
  CHECK(text("a<hr>b") == "a\nb");
  CHECK(text("<section>a</section><article>b</article><header>c</header><footer>d</footer>"
             "<nav>e</nav><aside>f</aside><blockquote>g</blockquote>") == "a\nb\nc\nd\ne\nf\ng");
  CHECK(text("<dl><dt>term<dd>definition</dl>") == "term\ndefinition");
  CHECK(text("<select><option>A<option>B</select>") == "A\nB");
  CHECK(text("x<button>OK</button>y") == "x\nOK\ny");
  CHECK(text("a<img src=x alt='picture'>b") == "ab");  // alt text is not page text
  CHECK(text("<custom-element>un</custom-element>known") == "unknown");
}

TEST_CASE("whitespace is collapsed and lines are clean", "[html]") {
  CHECK(text("  a \n\t b  ") == "a b");
  CHECK(text("<p>  a  </p>  <p>  </p><p></p>\n<p> b </p>") == "a\nb");
  CHECK(text("a <b> b </b> c") == "a b c");
  CHECK(text("a\xe3\x80\x80" "b\xe2\x80\x83" "c") == "a b c");  // ideographic space, em space
  CHECK(text("soft\xc2\xad" "hyphen") == "softhyphen");
  CHECK(text("\xef\xbb\xbf" "bom") == "bom");
  CHECK(text("a\x01\x02\x7f" "b") == "ab");
  CHECK(text("<br><br>a<br><br><br>b<br>") == "a\nb");
  CHECK(text("\n\n") == "");
}

TEST_CASE("pre keeps line breaks", "[html]") {
  CHECK(text("<pre>line 1\n  line 2\r\n\nline  3</pre>after") == "line 1\nline 2\nline 3\nafter");
  CHECK(text("<pre>\nfirst</pre>") == "first");
  CHECK(text("<PRE>a\rb</PRE>") == "a\nb");
}

// ---- the tokenizer on tricky markup ----------------------------------------------------------

TEST_CASE("attributes with '>' inside quotes", "[html]") {
  html_options o;
  o.base_url = "http://example.com/dir/page.html";
  auto r = extract_html("<a title=\"x > y\" href='/a>b' data-x=\"<p>\">text</a><img alt='1>2'>after", o);
  CHECK(r.text == "textafter");
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].url == "http://example.com/a%3Eb");
  CHECK(r.links[0].text == "text");
  CHECK(text("<div class=a>b>c</div>") == "b>c");
  CHECK(text("<p =x 'y'=z a=b/>t") == "t");
}

TEST_CASE("script end-tag tricks", "[html]") {
  CHECK(text("<script>document.write(\"</scr\" + \"ipt>\");</script>after") == "after");
  CHECK(text("<script>x = '</scripty>'; y = 1;</script>after") == "after");
  CHECK(text("<script>a</script >b") == "b");
  CHECK(text("<script>a</SCRIPT>b") == "b");
  CHECK(text("<script>a</script foo='>'>b") == "b");
  // Inside "<!--", a "<script" enters the double-escaped state, where "</script>" does not
  // end the script element.
  CHECK(text("<script><!-- document.write('<script>x</script>'); --></script>after") == "after");
  CHECK(text("<script><!-- a --></script>b") == "b");
  CHECK(text("<script><!-- no double escape </script>b") == "b");
  CHECK(text("<script>never closed <p>text") == "");
  CHECK(text("<style>a</style b>c") == "c");
  CHECK(text("<title>a</titlex></title>b") == "b");
}

TEST_CASE("uppercase and mixed-case tags", "[html]") {
  CHECK(text("<P>a</P><SCRIPT>x</SCRIPT><Br>b<DIV>c</dIv>") == "a\nb\nc");
  auto r = extract_html("<HTML LANG=FR><TITLE>T</TITLE><A HREF='http://x.example/'>y</A>");
  CHECK(r.html_lang == "FR");
  CHECK(r.title == "T");
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].url == "http://x.example/");
}

TEST_CASE("unclosed things at the end of input", "[html]") {
  CHECK(text("a<b") == "a");
  CHECK(text("a<div class='x") == "a");
  CHECK(text("a<div class=x") == "a");
  CHECK(text("a<div ") == "a");
  CHECK(text("a <") == "a <");
  CHECK(text("a </") == "a </");
  CHECK(text("1 < 2 and 3 <= 4") == "1 < 2 and 3 <= 4");
  CHECK(text("<p>a<div>b") == "a\nb");
  CHECK(text("<title>never closed") == "");
  CHECK(extract_html("<title>never closed").title == "never closed");
  CHECK(text("<a href=x>unclosed link") == "unclosed link");
}

// ---- title, language, content-language -----------------------------------------------------------

TEST_CASE("title, html lang, content-language", "[html]") {
  auto r = extract_html(
      "<html xml:lang='en' lang=' de-DE '><head>"
      "<meta http-equiv=\"Content-Language\" content=\" de, en \">"
      "<meta http-equiv=content-language content=fr>"
      "<title>  Hello\n  &amp;   <b>world</b> </title><title>second</title></head>"
      "<body><svg><title>icon</title></svg>text</body></html>");
  CHECK(r.title == "Hello & <b>world</b>");
  CHECK(r.html_lang == "de-DE");
  CHECK(r.content_language == "de, en");
  CHECK(r.text == "text");
  CHECK(r.st == status::ok);

  CHECK(extract_html("<html xml:lang=pt-BR>x").html_lang == "pt-BR");
  CHECK(extract_html("<html><body lang=de>x").html_lang == "");
  CHECK(extract_html("<html lang=''><html lang=nl>x").html_lang == "nl");  // first non-empty
  CHECK(extract_html("<svg><title>icon</title></svg><title>real</title>").title == "real");
  CHECK(extract_html("<template><title>no</title></template><title>yes</title>").title == "yes");
}

// ---- links ---------------------------------------------------------------------------------------

TEST_CASE("links resolved against the page URL", "[html][links]") {
  html_options o;
  o.base_url = "http://example.com/a/b/page.html?x=1";
  auto r = extract_html(
      "<a href='c.html'>rel</a>"
      "<a href='../up.html'>up</a>"
      "<a href='/root'>root</a>"
      "<a href='//other.example/p'>protocol-relative</a>"
      "<a href='?q=2'>query</a>"
      "<a href='#top'>fragment only</a>"
      "<a href=''>empty</a>"
      "<a href='page.html#sec'>with fragment</a>"
      "<a href='https://secure.example/x?a=1&amp;b=2'>absolute</a>"
      "<a href='javascript:void(0)'>js</a>"
      "<a href='mailto:me@example.com'>mail</a>"
      "<a href='data:text/html,hi'>data</a>"
      "<a href='tel:+441234'>phone</a>"
      "<a href='ftp://files.example/'>ftp</a>"
      "<a name='anchor'>no href</a>"
      "<a href=' spaced.html '>  anchor \n text  </a>",
      o);
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& l : r.links) got.emplace_back(l.url, l.text);
  std::vector<std::pair<std::string, std::string>> want = {
      {"http://example.com/a/b/c.html", "rel"},
      {"http://example.com/a/up.html", "up"},
      {"http://example.com/root", "root"},
      {"http://other.example/p", "protocol-relative"},
      {"http://example.com/a/b/page.html?q=2", "query"},
      {"http://example.com/a/b/page.html", "with fragment"},
      {"https://secure.example/x?a=1&b=2", "absolute"},
      {"http://example.com/a/b/spaced.html", "anchor text"},
  };
  CHECK(got == want);
  CHECK(r.base_url == "http://example.com/a/b/page.html?x=1");
}

TEST_CASE("links: <base href>, area, image alt, nesting", "[html][links]") {
  html_options o;
  o.base_url = "http://example.com/dir/page.html";
  // <base> applies to every link, also those before it; it is resolved against the page URL.
  auto r = extract_html(
      "<a href=x>before</a><base href='/other/'><base href='http://ignored.example/'>"
      "<a href=y>after</a>"
      "<map><area href='area.html' alt='An area'></map>"
      "<a href=img.html><img src=i.png alt='Logo &amp; home'></a>"
      "<a href=both.html><img alt=ignored>Text</a>"
      "<a href=one>first<a href=two>second</a>"
      "<a href=block.html><div>Card title</div><p>Card text</p></a>",
      o);
  CHECK(r.base_url == "http://example.com/other/");
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& l : r.links) got.emplace_back(l.url, l.text);
  std::vector<std::pair<std::string, std::string>> want = {
      {"http://example.com/other/x", "before"},
      {"http://example.com/other/y", "after"},
      {"http://example.com/other/area.html", "An area"},
      {"http://example.com/other/img.html", "Logo & home"},
      {"http://example.com/other/both.html", "Text"},
      {"http://example.com/other/one", "first"},
      {"http://example.com/other/two", "second"},
      {"http://example.com/other/block.html", "Card title Card text"},
  };
  CHECK(got == want);
}

TEST_CASE("links without a usable base", "[html][links]") {
  auto r = extract_html("<a href=rel>r</a><a href='https://abs.example/'>a</a>");
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].url == "https://abs.example/");
  // A relative <base> with no page URL cannot be resolved: the page URL (none) stays the base.
  auto s = extract_html("<base href='/x/'><a href=rel>r</a>");
  CHECK(s.base_url.empty());
  CHECK(s.links.empty());
  // An absolute <base> works without a page URL.
  auto t = extract_html("<base href='http://b.example/x/'><a href=rel>r</a>");
  REQUIRE(t.links.size() == 1);
  CHECK(t.links[0].url == "http://b.example/x/rel");
  // collect_links = false
  html_options o;
  o.collect_links = false;
  CHECK(extract_html("<a href='http://x.example/'>x</a>", o).links.empty());
  // max_links
  o.collect_links = true;
  o.max_links = 2;
  CHECK(extract_html("<a href='http://x.example/1'>1</a><a href='http://x.example/2'>2</a>"
                     "<a href='http://x.example/3'>3</a>", o).links.size() == 2);
}

TEST_CASE("anchor text is capped at a character boundary", "[html][links]") {
  std::string html = "<a href='http://x.example/'>";
  for (int i = 0; i < 1000; ++i) html += "\xc3\xa9";  // 2000 bytes of é
  html += "</a>";
  auto r = extract_html(html);
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].text.size() <= 512);
  CHECK(r.links[0].text.size() >= 510);
  CHECK(valid_utf8(r.links[0].text));
}

// ---- bad input -----------------------------------------------------------------------------------

TEST_CASE("invalid UTF-8 in, valid UTF-8 out", "[html][utf8]") {
  auto r = extract_html("a\xff" "b \xc3 c \xe2\x82 d \xed\xa0\x80 e \xf4\x90\x80\x80 f \xc0\xaf g\xe2\x82");
  CHECK(valid_utf8(r.text));
  CHECK(r.text ==
        "a\xef\xbf\xbd" "b \xef\xbf\xbd c \xef\xbf\xbd d \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd e "
        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd f \xef\xbf\xbd\xef\xbf\xbd g\xef\xbf\xbd");
  CHECK(r.invalid_sequences == 13);
  auto t = extract_html("<title>x\xff</title><html lang='d\xfe'><a href='http://h.example/\xff'>\xfe</a>");
  CHECK(valid_utf8(t.title));
  CHECK(valid_utf8(t.html_lang));
  REQUIRE(t.links.size() == 1);
  CHECK(t.links[0].url == "http://h.example/%EF%BF%BD");  // as a browser: decoded, then encoded
  CHECK(valid_utf8(t.links[0].text));
}

TEST_CASE("empty input, no text, NUL bytes", "[html]") {
  auto e = extract_html("");
  CHECK(e.st == status::empty_input);
  CHECK(e.text.empty());
  auto tags = extract_html("<html><head><title>Only a title</title></head><body><div></div></body></html>");
  CHECK(tags.st == status::empty_input);
  CHECK(tags.title == "Only a title");
  std::string nul("a\0b<p\0>c\0</p>", 13);
  auto n = extract_html(nul);
  CHECK(n.text == "abc");  // "<p\0>" is a tag named "p\0": unknown, so transparent
  CHECK(n.st == status::ok);
  CHECK(text(std::string_view("x\0\0\0y", 5)) == "xy");
  CHECK(text(std::string_view("<p\0>a</p\0>b<h\x31\0>c", 18)) == "abc");  // not <p>, not <h1>
  auto l = extract_html(std::string_view("<a href\0='http://x.example/'>y</a>", 35));
  CHECK(l.links.empty());  // "href\0" is not href
  // Where the HTML tokenizer turns NUL into U+FFFD (RCDATA, RAWTEXT, PLAINTEXT, attribute
  // values), so does langsift; in other text the tree builder drops it, and so does langsift.
  auto t = extract_html(std::string_view("<title>a\0b</title><xmp>c\0d</xmp><plaintext>e\0f", 46));
  CHECK(t.title == "a\xef\xbf\xbd" "b");
  CHECK(t.text == "c\xef\xbf\xbd" "d\ne\xef\xbf\xbd" "f");
  CHECK(t.invalid_sequences == 0);  // NUL is not invalid UTF-8
  auto h = extract_html(std::string_view("<html lang='d\0e'><a href='http://x.example/a\0b'>y</a>", 53));
  CHECK(h.html_lang == "d\xef\xbf\xbd" "e");
  REQUIRE(h.links.size() == 1);
  CHECK(h.links[0].url == "http://x.example/a%EF%BF%BDb");
}

TEST_CASE("input over the cap is truncated at a character boundary", "[html]") {
  html_options o;
  o.max_input_bytes = 6;
  auto r = extract_html("abcd\xc3\xa9\xc3\xa9xyz", o);  // the cap falls inside the second é
  CHECK(r.st == status::truncated);
  CHECK(r.text == "abcd\xc3\xa9");
  CHECK(r.invalid_sequences == 0);
  o.max_input_bytes = 5;  // inside the first é
  CHECK(extract_html("abcd\xc3\xa9", o).text == "abcd");
}

TEST_CASE("reusing a result gives the same as a fresh one", "[html]") {
  const std::string pages[] = {
      "<html lang=en><title>One</title><base href='http://b.example/'><a href=x>link</a><p>Text</p>",
      "<p>Second page without links, title or lang</p>",
      "",
      "<title>Three</title><a href='/a'>a</a><a href='/b'>b</a><a href='/c'>c</a>"};
  html_result reused;
  for (int round = 0; round < 2; ++round)
    for (const auto& p : pages)
      for (bool main : {false, true}) {
        html_options o;
        o.base_url = "http://page.example/dir/";
        o.main_content = main;
        extract_html(p, o, reused);
        html_result fresh = extract_html(p, o);
        CHECK(reused.text == fresh.text);
        CHECK(reused.title == fresh.title);
        CHECK(reused.html_lang == fresh.html_lang);
        CHECK(reused.base_url == fresh.base_url);
        CHECK(reused.st == fresh.st);
        REQUIRE(reused.links.size() == fresh.links.size());
        for (std::size_t i = 0; i < fresh.links.size(); ++i) {
          CHECK(reused.links[i].url == fresh.links[i].url);
          CHECK(reused.links[i].text == fresh.links[i].text);
        }
        CHECK(reused.blocks.size() == fresh.blocks.size());
      }
}

TEST_CASE("blocks describe the lines of the text", "[html]") {
  auto r = extract_html("<nav><a href=/a>Home</a> <a href=/b>About us</a></nav>"
                        "<article><h1>Head line</h1><p>Some text, with <a href=/c>a link</a>.</p>"
                        "<p>Line one<br>line two</p></article>");
  REQUIRE(r.blocks.size() == 4);
  CHECK(r.text == "Home About us\nHead line\nSome text, with a link.\nLine one\nline two");
  for (const auto& b : r.blocks) CHECK(b.kept);
  CHECK(r.blocks[0].words == 3);
  CHECK(r.blocks[0].linked_words == 3);
  CHECK((r.blocks[0].flags & langsift::html_block_boilerplate));
  CHECK(r.blocks[1].heading == 1);
  CHECK((r.blocks[1].flags & langsift::html_block_article));
  CHECK(r.blocks[2].words == 5);
  CHECK(r.blocks[2].linked_words == 2);
  CHECK(r.blocks[2].stops == 1);
  CHECK(r.blocks[3].lines == 2);
  std::string_view t = r.text;
  CHECK(t.substr(r.blocks[2].begin, r.blocks[2].end - r.blocks[2].begin) == "Some text, with a link.");
  // Japanese: two characters count as one word.
  auto j = extract_html("<p>日本語のテキストです。</p>");
  REQUIRE(j.blocks.size() == 1);
  CHECK(j.blocks[0].words == 5);  // 10 letters (。 is punctuation)
  CHECK(j.blocks[0].stops == 1);
}

TEST_CASE("looks_like_html", "[html]") {
  CHECK(langsift::looks_like_html("<!DOCTYPE html><html>"));
  CHECK(langsift::looks_like_html("\xef\xbb\xbf  <html lang=en>"));
  CHECK(langsift::looks_like_html("<?xml version='1.0'?>\n<html xmlns='http://www.w3.org/1999/xhtml'>"));
  CHECK(langsift::looks_like_html("Some text<br>more text"));
  CHECK(langsift::looks_like_html("<P>Paragraph"));
  CHECK(langsift::looks_like_html("<!-- generated -->"));
  CHECK(langsift::looks_like_html("hello <a href=\"x\">link</a>"));
  CHECK_FALSE(langsift::looks_like_html(""));
  CHECK_FALSE(langsift::looks_like_html("plain text, no markup at all"));
  CHECK_FALSE(langsift::looks_like_html("if (a<b && c>d) return;"));
  CHECK_FALSE(langsift::looks_like_html("Dear <Name>, thanks"));
  CHECK_FALSE(langsift::looks_like_html(std::string(2000, 'x') + "<html>"));  // only the start
}

// ---- pathological input: linear time, bounded memory -----------------------------------------------
// No timing assertions: these complete only if the work per byte is bounded (a quadratic
// tokenizer would take hours on 10 MB). Each also checks the output is well-formed.

TEST_CASE("10 MB pathological inputs complete", "[html][slow]") {
  constexpr std::size_t N = 10u << 20;
  auto repeat = [](std::string_view unit, std::string prefix = {}, std::string suffix = {}) {
    std::string s = std::move(prefix);
    s.reserve(N + unit.size() + suffix.size());
    while (s.size() < N) s.append(unit);
    s += suffix;
    return s;
  };
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"< storm", repeat("<")},
      {"<a storm", repeat("<a")},
      {"</ storm", repeat("</")},
      {"<! storm", repeat("<!")},
      {"<!-- storm", repeat("<!--")},
      {"unterminated comment", repeat("a-", "<!--")},
      {"comment of -- and >", repeat("-->-", "<!--x")},
      {"unterminated script", repeat("<!--<script>", "<script>")},
      {"script of </scrip", repeat("</scrip", "<script>")},
      {"unterminated style", repeat("</styl", "<style>")},
      {"unclosed tags", repeat("<div>")},
      {"stray end tags", repeat("</div>")},
      {"deep nesting then text", repeat("<div><span><a href=x>")},
      {"li after deep divs", repeat("<li></li>", "<ul>" + std::string(8000, ' ') + [] {
         std::string d;
         for (int i = 0; i < 1000; ++i) d += "<div>";
         return d;
       }())},
      {"giant attribute", repeat("x", "<div class=\"", "\">after</div>")},
      {"giant unquoted attribute", repeat("y", "<div a=", ">after")},
      {"unterminated attribute quote", repeat("z", "<a href='")},
      {"many attributes", repeat(" a=b")},
      {"& storm", repeat("&")},
      {"&amp storm", repeat("&amp")},
      {"&# storm", repeat("&#")},
      {"long entity-like name", repeat("a", "&")},
      {"huge numeric reference", repeat("9", "&#")},
      {"many links", repeat("<a href=x>y</a>")},
      {"nested open links", repeat("<a href=x>")},
      {"only tags", repeat("<p><br><hr><img src=x>")},
      {"svg storm", repeat("<svg>")},
      {"table cells", repeat("<td>", "<table>")},
      {"invalid utf-8", repeat("\xff\xc3")},
      {"pre newlines", repeat("\n", "<pre>")},
      {"whitespace", repeat(" \t\r\n")},
      {"title storm", repeat("<title>")},
  };
  for (const auto& [name, html] : inputs) {
    INFO(name);
    for (bool main : {false, true}) {
      html_options o;
      o.base_url = "http://example.com/dir/page.html";
      o.main_content = main;
      auto r = extract_html(html, o);
      CHECK((r.st == status::ok || r.st == status::empty_input));
      CHECK(valid_utf8(r.text));
      CHECK(r.text.size() <= 3 * html.size());
      CHECK(r.links.size() <= o.max_links);
      for (const auto& l : r.links) CHECK(l.url.size() <= 4096);
    }
  }
}

TEST_CASE("output shape on mixed input", "[html]") {
  const char* inputs[] = {
      "<div> a <p> b <br> c </p> <span> d </span></div>\n\n<pre>\n x \n\n y </pre>",
      "<ul><li> one <li> two <b> three </b></ul>&nbsp;&nbsp;<p>&#32;</p>",
      "<table><tr><td> a </td><td> </td><td>b</td></tr></table>",
  };
  for (const char* h : inputs) {
    INFO(h);
    check_text_shape(text(h));
    check_text_shape(main_text(h));
  }
}

// ---- main content --------------------------------------------------------------------------------

TEST_CASE("main content on the gold pages", "[html][main]") {
  namespace fs = std::filesystem;
  const fs::path data = fs::path(LANGSIFT_TEST_DATA_DIR) / "html";
  // Minimum F1 of --main per page: a regression floor a little below the measured value
  // (docs/html.md has the numbers), so that a change in the rules that loses content fails.
  // main-content/ are the pages the rules were developed on; main-content-heldout/ were
  // written afterwards to check them (see docs/html.md).
  const std::vector<std::tuple<std::string, std::string, double>> floors = {
      {"main-content", "news-article", 0.95},  {"main-content", "blog-comments", 0.95},
      {"main-content", "forum-thread", 0.88},  {"main-content", "product-page", 0.90},
      {"main-content", "wiki-article", 0.88},  {"main-content", "language-picker-cookie", 0.95},
      {"main-content", "german-news", 0.93},   {"main-content", "japanese-blog", 0.95},
      {"main-content", "portal-home", 0.80},   {"main-content-heldout", "docs-page", 0.93},
      {"main-content-heldout", "recipe-blog", 0.88}, {"main-content-heldout", "russian-qa", 0.84},
  };
  langsift::eval::overlap_score all_main, all_full;
  for (const auto& [dirname, name, floor] : floors) {
    INFO(name);
    const fs::path dir = data / dirname;
    const std::string html = read((dir / (name + ".html")).string());
    const std::string gold = read((dir / (name + ".main.txt")).string());
    REQUIRE(!html.empty());
    REQUIRE(!gold.empty());
    html_options o;
    o.base_url = "http://example.com/page.html";
    auto full = extract_html(html, o);
    o.main_content = true;
    auto main = extract_html(html, o);
    check_text_shape(main.text);
    auto sm = langsift::eval::score_overlap(main.text, gold);
    auto sf = langsift::eval::score_overlap(full.text, gold);
    all_main += sm;
    all_full += sf;
    CHECK(sm.f1() >= floor);
    CHECK(sm.f1() > sf.f1());
    CHECK(sf.recall() == Approx(1.0));  // full text keeps everything the gold has
    CHECK(main.links.size() == full.links.size());  // links come from the whole page
  }
  CHECK(all_main.f1() >= 0.94);
}

TEST_CASE("main content drops navigation, language pickers and consent banners", "[html][main]") {
  const std::string para =
      "<p>The committee met on Tuesday to discuss the new proposal for the river crossing, which "
      "has been debated for more than ten years without a decision.</p>";
  std::string page =
      "<div class=topbar><a href=/en>English</a> | <a href=/de>Deutsch</a> | <a href=/fr>Français</a></div>"
      "<ul><li><a href=/>Home</a><li><a href=/news>News</a><li><a href=/about>About us</a></ul>"
      "<h1>Bridge decision delayed again</h1>" + para + para +
      "<div id=cookie-notice><p>We use cookies to give you the best experience on our website. If you "
      "continue without changing your settings, we will assume that you are happy to receive all "
      "cookies on this website.</p><button>Accept</button></div>"
      "<footer><p>Copyright 2024 Example Town Council. All rights reserved.</p></footer>";
  std::string m = main_text(page);
  CHECK(m.find("Bridge decision delayed again") != std::string::npos);
  CHECK(m.find("The committee met") != std::string::npos);
  CHECK(m.find("Deutsch") == std::string::npos);
  CHECK(m.find("Home") == std::string::npos);
  CHECK(m.find("cookies") == std::string::npos);
  CHECK(m.find("Copyright") == std::string::npos);
  // Full text keeps all of it.
  CHECK(text(page).find("Deutsch") != std::string::npos);
  // A short page with no long block still yields its non-boilerplate text.
  CHECK(main_text("<nav><a href=/>Home</a></nav><p>Short note.</p>") == "Short note.");
}
