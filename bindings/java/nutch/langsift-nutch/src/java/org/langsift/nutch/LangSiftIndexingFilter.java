package org.langsift.nutch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.Inlinks;
import org.apache.nutch.indexer.IndexingException;
import org.apache.nutch.indexer.IndexingFilter;
import org.apache.nutch.indexer.NutchDocument;
import org.apache.nutch.metadata.Metadata;
import org.apache.nutch.parse.Parse;
import org.apache.nutch.parse.ParseData;

/**
 * Nutch 1.x IndexingFilter, as Nutch's own LanguageIndexingFilter does it: reads the language from
 * the parse metadata key {@code language} ({@link Metadata#LANGUAGE}, written by
 * {@link LangSiftParseFilter}), else the HTTP Content-Language of the content metadata, else "und",
 * and adds it as the index field {@code lang}; adds {@code langsift_languages}
 * ("de:80:1234 en:20:310") when known; drops the document (returns null) when the NCL-Crawl filters
 * ({@code filter.lang.*}) rejected it ({@code langsift.keep} = false). Enable this or Nutch's
 * language-identifier indexing filter, not both: each adds a {@code lang} value.
 */
public class LangSiftIndexingFilter implements IndexingFilter {
  /** Index fields. */
  public static final String FIELD_LANG = "lang";
  public static final String FIELD_LANGUAGES = "langsift_languages";

  private Configuration conf;

  @Override
  public NutchDocument filter(NutchDocument doc, Parse parse, Text url, CrawlDatum datum, Inlinks inlinks)
      throws IndexingException {
    ParseData data = parse.getData();
    Metadata meta = data.getParseMeta();
    if ("false".equals(meta.get(LangSiftParseFilter.KEEP))) return null;
    String lang = meta.get(Metadata.LANGUAGE);
    if (lang == null || lang.isEmpty()) lang = data.getContentMeta().get(Metadata.CONTENT_LANGUAGE);
    if (lang == null || lang.isEmpty()) lang = "und";
    doc.add(FIELD_LANG, lang);
    String langs = meta.get(LangSiftParseFilter.LANGUAGES);
    if (langs != null && !langs.isEmpty()) doc.add(FIELD_LANGUAGES, langs);
    return doc;
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }
}
