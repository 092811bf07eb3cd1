package org.langsift.nutch;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.Inlinks;
import org.apache.nutch.indexer.NutchDocument;
import org.apache.nutch.metadata.Metadata;
import org.apache.nutch.parse.HTMLMetaTags;
import org.apache.nutch.parse.Parse;
import org.apache.nutch.parse.ParseData;
import org.apache.nutch.parse.ParseResult;
import org.apache.nutch.protocol.Content;

/**
 * The adapter's own logic, on the compile-only stand-ins of Nutch's types
 * (compile-only-stubs/README.md) with the real langsift (JNI, a model file) beneath: which parse
 * metadata keys the parse filter writes, which HTTP headers it passes on, which index fields the
 * indexing filter adds and when it drops a document. This is NOT a test of Nutch: the stand-ins only
 * copy Nutch's signatures. Exits non-zero on any failure.
 * Usage: java -Dlangsift.library=/path/liblangsift_jni.so -cp ... org.langsift.nutch.LangSiftNutchAdapterTest MODEL
 */
public final class LangSiftNutchAdapterTest {
  private static int failures = 0;
  private static int checks = 0;

  private static void check(boolean ok, String what) {
    checks++;
    if (!ok) {
      System.err.println("FAILED: " + what);
      failures++;
    }
  }

  /** A Parse as a parser plugin would hand it to the parse filters. */
  private static final class TestParse implements Parse {
    private final ParseData data = new ParseData();

    @Override
    public String getText() {
      return "";
    }

    @Override
    public ParseData getData() {
      return data;
    }

    @Override
    public boolean isCanonical() {
      return true;
    }
  }

  private static Content content(String url, String html, Charset cs, String header, String mime, String contentLanguage) {
    Metadata headers = new Metadata();
    if (header != null) headers.set("Content-Type", header);
    if (contentLanguage != null) headers.set("Content-Language", contentLanguage);
    return new Content(url, url, html.getBytes(cs), mime, headers, new Configuration());
  }

  private static Metadata parseMeta(LangSiftParseFilter f, Content c) {
    Parse p = new TestParse();
    ParseResult r = ParseResult.createParseResult(c.getUrl(), p);
    ParseResult out = f.filter(c, r, new HTMLMetaTags(), null);
    check(out == r, "the parse filter returns the ParseResult it was given");
    return p.getData().getParseMeta();
  }

  private static NutchDocument index(Parse p) throws Exception {
    LangSiftIndexingFilter ix = new LangSiftIndexingFilter();
    ix.setConf(new Configuration());
    return ix.filter(new NutchDocument(), p, new Text("http://example.org/"), new CrawlDatum(), new Inlinks());
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) throw new IllegalArgumentException("usage: LangSiftNutchAdapterTest MODEL");
    final String german = "<html><body><p>Die Kinder spielten im Garten, w\u00e4hrend ihre Eltern das Abendessen "
        + "kochten. Am Abend gingen alle zusammen spazieren, und die Gro\u00dfmutter erz\u00e4hlte Geschichten.</p></body></html>";
    final String french = "<html><body><p>Les enfants jouaient dans le jardin pendant que leurs parents pr\u00e9paraient "
        + "le d\u00eener. Le soir, tout le monde est all\u00e9 se promener au bord de la rivi\u00e8re.</p></body></html>";
    final String russian = "<html><body><p>\u0414\u0435\u0442\u0438 \u0438\u0433\u0440\u0430\u043b\u0438 \u0432 "
        + "\u0441\u0430\u0434\u0443, \u043f\u043e\u043a\u0430 \u0440\u043e\u0434\u0438\u0442\u0435\u043b\u0438 "
        + "\u0433\u043e\u0442\u043e\u0432\u0438\u043b\u0438 \u0443\u0436\u0438\u043d.</p></body></html>";
    final Charset cp1251 = Charset.forName("windows-1251");

    Configuration conf = new Configuration();
    conf.set(LangSiftParseFilter.MODEL_FILE, args[0]); // the first filter of the JVM loads the model
    LangSiftParseFilter pf = new LangSiftParseFilter();
    pf.setConf(conf);
    check(pf.getConf() == conf, "getConf");

    // 1. The keys: "language" (Metadata.LANGUAGE), never the index field's name "lang".
    Metadata m = parseMeta(pf, content("http://example.de/a", german, StandardCharsets.ISO_8859_1,
        "text/html; charset=ISO-8859-1", "text/html", null));
    check(Metadata.LANGUAGE.equals("language"), "Metadata.LANGUAGE is \"language\"");
    check("de".equals(m.get("language")), "parse meta language=de: " + m.get("language"));
    check(m.get("lang") == null, "no parse meta 'lang' (that is the index field's name)");
    check(m.get(LangSiftParseFilter.LANGUAGES) != null && m.get(LangSiftParseFilter.LANGUAGES).startsWith("de:"),
        "langsift.languages: " + m.get(LangSiftParseFilter.LANGUAGES));
    check("windows-1252".equals(m.get(LangSiftParseFilter.ENCODING)), "encoding from the header: " + m.get(LangSiftParseFilter.ENCODING));
    check("true".equals(m.get(LangSiftParseFilter.KEEP)), "kept without filters");
    check("true".equals(m.get(LangSiftParseFilter.RELIABLE)) || "false".equals(m.get(LangSiftParseFilter.RELIABLE)), "reliable is a boolean");
    check(m.get(LangSiftParseFilter.SHORT) != null, "short written");

    // 2. The HTTP Content-Type header (with its charset) is passed on; without it, the content type.
    Metadata ru = parseMeta(pf, content("http://example.org/r", russian, cp1251, "text/html; charset=windows-1251", "text/html", null));
    check("ru".equals(ru.get("language")) && "windows-1251".equals(ru.get(LangSiftParseFilter.ENCODING)),
        "Russian, charset from the header: " + ru.get("language") + " " + ru.get(LangSiftParseFilter.ENCODING));
    Metadata ru2 = parseMeta(pf, content("http://example.org/r2", russian, cp1251, null, "text/html; charset=windows-1251", null));
    check("ru".equals(ru2.get("language")) && "windows-1251".equals(ru2.get(LangSiftParseFilter.ENCODING)),
        "Russian, charset from Content.getContentType(): " + ru2.get(LangSiftParseFilter.ENCODING));

    // 3. A parse result without a parse for the content's URL is returned untouched.
    {
      Parse other = new TestParse();
      ParseResult r = ParseResult.createParseResult("http://example.org/other", other);
      Content c = content("http://example.org/this", german, StandardCharsets.UTF_8, null, "text/html", null);
      check(pf.filter(c, r, new HTMLMetaTags(), null) == r, "returned as given");
      check(other.getData().getParseMeta().size() == 0, "no metadata written to another URL's parse");
    }

    // 4. Indexing: "language" becomes the field "lang" (one value), with langsift_languages.
    {
      Parse p = new TestParse();
      Content c = content("http://example.de/b", german, StandardCharsets.UTF_8, "text/html; charset=utf-8", "text/html", null);
      pf.filter(c, ParseResult.createParseResult(c.getUrl(), p), new HTMLMetaTags(), null);
      NutchDocument doc = index(p);
      check(doc != null, "German page indexed");
      check("de".equals(doc.getFieldValue("lang")) && doc.getField("lang").getValues().size() == 1,
          "index field lang=de, one value: " + (doc == null ? null : doc.getFieldValue("lang")));
      check(String.valueOf(doc.getFieldValue("langsift_languages")).startsWith("de:"), "index field langsift_languages");
      check(doc.getField("language") == null, "no index field 'language'");
    }
    // ... the language another plugin wrote, else Content-Language, else "und" (no langsift run).
    {
      Parse p = new TestParse();
      p.getData().getParseMeta().set(Metadata.LANGUAGE, "pt");
      p.getData().getContentMeta().set("Content-Language", "nl");
      NutchDocument doc = index(p);
      check("pt".equals(doc.getFieldValue("lang")) && doc.getField("langsift_languages") == null, "language from the parse meta");
      Parse q = new TestParse();
      q.getData().getContentMeta().set("Content-Language", "nl");
      check("nl".equals(index(q).getFieldValue("lang")), "Content-Language when no language was identified");
      check("und".equals(index(new TestParse()).getFieldValue("lang")), "und when nothing is known");
    }

    // 5. The NCL-Crawl filters: keep only German; a French page is dropped at indexing.
    {
      Configuration only = new Configuration();
      only.set("filter.lang.enable", "true");
      only.set("filter.lang.label.enable", "true");
      only.set("filter.lang.label", "de");
      LangSiftParseFilter f = new LangSiftParseFilter();
      f.setConf(only);
      Parse fr = new TestParse();
      Content cf = content("http://example.fr/c", french, StandardCharsets.UTF_8, "text/html; charset=utf-8", "text/html", null);
      f.filter(cf, ParseResult.createParseResult(cf.getUrl(), fr), new HTMLMetaTags(), null);
      check("fr".equals(fr.getData().getParseMeta().get("language")), "French identified");
      check("false".equals(fr.getData().getParseMeta().get(LangSiftParseFilter.KEEP)), "French not kept");
      check(index(fr) == null, "French document dropped at indexing");
      Parse de = new TestParse();
      Content cd = content("http://example.de/d", german, StandardCharsets.UTF_8, "text/html; charset=utf-8", "text/html", null);
      f.filter(cd, ParseResult.createParseResult(cd.getUrl(), de), new HTMLMetaTags(), null);
      check("true".equals(de.getData().getParseMeta().get(LangSiftParseFilter.KEEP)), "German kept");
      check(index(de) != null, "German document indexed");
    }

    // 6. A malformed filter configuration fails at setConf, with the property's name.
    {
      Configuration bad = new Configuration();
      bad.set("filter.lang.enable", "true");
      bad.set("filter.lang.minPercentage.limit.enable", "true");
      bad.set("filter.lang.minPercentage.limit", "200");
      try {
        new LangSiftParseFilter().setConf(bad);
        check(false, "minPercentage 200 accepted");
      } catch (IllegalArgumentException e) {
        check(e.getMessage().contains("filter.lang.minPercentage.limit"), "message: " + e.getMessage());
      }
    }

    if (failures > 0) {
      System.err.println(failures + " of " + checks + " checks failed");
      System.exit(1);
    }
    System.out.println("LangSiftNutchAdapterTest: " + checks + " checks passed (the adapter on stand-ins, not Nutch)");
  }
}
