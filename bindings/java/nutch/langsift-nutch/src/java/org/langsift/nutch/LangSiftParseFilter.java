package org.langsift.nutch;

import org.apache.hadoop.conf.Configuration;
import org.apache.nutch.metadata.Metadata;
import org.apache.nutch.parse.HTMLMetaTags;
import org.apache.nutch.parse.HtmlParseFilter;
import org.apache.nutch.parse.Parse;
import org.apache.nutch.parse.ParseResult;
import org.apache.nutch.protocol.Content;
import org.langsift.Detection;
import org.langsift.LangSift;
import org.langsift.Language;
import org.langsift.LanguageFilter;
import org.w3c.dom.DocumentFragment;

/**
 * Nutch 1.x HtmlParseFilter: identifies the page's languages with langsift from the raw body bytes
 * (langsift does its own encoding detection and text extraction, with the HTTP Content-Type,
 * Content-Language and the URL as hints) and records them in the parse metadata:
 *
 * <ul>
 *   <li>{@code language} ({@link Metadata#LANGUAGE}): the top language, or "und". The key Nutch's
 *       own language-identifier plugin writes and its indexing filter and other plugins read;
 *       {@link LangSiftIndexingFilter} turns it into the index field {@code lang}.
 *   <li>{@code langsift.languages}: "de:80:1234 en:20:310" (code:percent:bytes, up to three);
 *   <li>{@code langsift.encoding}, {@code langsift.reliable}, {@code langsift.short};
 *   <li>{@code langsift.keep}: the decision of the NCL-Crawl filters of {@link LanguageFilter}
 *       ({@code filter.lang.*} in the Nutch configuration).
 * </ul>
 *
 * Thin by design: langsift beneath it is tested in langsift's own build, and this class's own logic
 * against compile-only stand-ins of Nutch's types (see README.md).
 */
public class LangSiftParseFilter implements HtmlParseFilter {
  /** Parse metadata keys written besides {@link Metadata#LANGUAGE}. */
  public static final String LANGUAGES = "langsift.languages";
  public static final String ENCODING = "langsift.encoding";
  public static final String RELIABLE = "langsift.reliable";
  public static final String SHORT = "langsift.short";
  public static final String KEEP = "langsift.keep";
  /** Configuration: an optional model file (langsift-train); default: the built-in model. */
  public static final String MODEL_FILE = "langsift.model.file";

  private static LangSift detector; // one per JVM: the native library and model are shared
  private Configuration conf;
  private LanguageFilter filter = LanguageFilter.none();

  private static synchronized LangSift detector(Configuration conf) {
    if (detector == null) {
      String model = conf == null ? null : conf.get(MODEL_FILE);
      detector = new LangSift(model == null || model.isEmpty() ? null : model);
    }
    return detector;
  }

  @Override
  public ParseResult filter(Content content, ParseResult parseResult, HTMLMetaTags metaTags, DocumentFragment doc) {
    Parse parse = parseResult.get(content.getUrl());
    if (parse == null) return parseResult;
    Metadata headers = content.getMetadata();
    String contentType = headers.get(Metadata.CONTENT_TYPE); // the HTTP header, with its charset
    if (contentType == null) contentType = content.getContentType();
    Detection d = detector(conf).detect(content.getContent(), contentType, content.getUrl(),
        headers.get(Metadata.CONTENT_LANGUAGE));
    record(d, filter, parse.getData().getParseMeta());
    return parseResult;
  }

  /** Writes a detection into parse metadata (the keys above); replaces earlier values. */
  static void record(Detection d, LanguageFilter filter, Metadata meta) {
    meta.set(Metadata.LANGUAGE, d.language);
    StringBuilder langs = new StringBuilder();
    for (Language l : d.languages) langs.append(langs.length() > 0 ? " " : "").append(l);
    meta.set(LANGUAGES, langs.toString());
    meta.set(ENCODING, d.encoding);
    meta.set(RELIABLE, Boolean.toString(d.reliable));
    meta.set(SHORT, Boolean.toString(d.isShort));
    meta.set(KEEP, Boolean.toString(filter.keep(d)));
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.filter = LanguageFilter.fromConfig(conf::get);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }
}
