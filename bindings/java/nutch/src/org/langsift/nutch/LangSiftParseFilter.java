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
 * (langsift does its own encoding detection and text extraction) and records them in the parse
 * metadata: {@code lang} (top language, as Nutch's language-identifier plugin does),
 * {@code langsift.languages} ("de:80:1234 en:20:310"), {@code langsift.encoding},
 * {@code langsift.reliable}, {@code langsift.short} and {@code langsift.keep} (the NCL-Crawl
 * filters of {@link LanguageFilter}, read from the Nutch configuration). Thin by design: everything
 * beneath it is tested in langsift's own build; this class is not compiled there (see README.md).
 */
public class LangSiftParseFilter implements HtmlParseFilter {
  private static LangSift detector; // one per JVM: the native library and model are shared
  private Configuration conf;
  private LanguageFilter filter = LanguageFilter.none();

  private static synchronized LangSift detector(Configuration conf) {
    if (detector == null) {
      String model = conf.get("langsift.model.file"); // optional: a model trained with langsift-train
      detector = new LangSift(model == null || model.isEmpty() ? null : model);
    }
    return detector;
  }

  @Override
  public ParseResult filter(Content content, ParseResult parseResult, HTMLMetaTags metaTags, DocumentFragment doc) {
    Parse parse = parseResult.get(content.getUrl());
    if (parse == null) return parseResult;
    Metadata headers = content.getMetadata();
    String contentType = headers.get("Content-Type"); // the HTTP header, with its charset
    if (contentType == null) contentType = content.getContentType();
    Detection d = detector(conf).detect(content.getContent(), contentType, content.getUrl(),
        headers.get("Content-Language"));
    Metadata meta = parse.getData().getParseMeta();
    meta.set("lang", d.language);
    StringBuilder langs = new StringBuilder();
    for (Language l : d.languages) langs.append(langs.length() > 0 ? " " : "").append(l);
    meta.set("langsift.languages", langs.toString());
    meta.set("langsift.encoding", d.encoding);
    meta.set("langsift.reliable", Boolean.toString(d.reliable));
    meta.set("langsift.short", Boolean.toString(d.isShort));
    meta.set("langsift.keep", Boolean.toString(filter.keep(d)));
    return parseResult;
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
