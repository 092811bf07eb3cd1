package org.langsift.nutch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.Inlinks;
import org.apache.nutch.indexer.IndexingException;
import org.apache.nutch.indexer.IndexingFilter;
import org.apache.nutch.indexer.NutchDocument;
import org.apache.nutch.parse.Parse;

/**
 * Nutch 1.x IndexingFilter: adds the field {@code lang} (and {@code langsift_languages}) from what
 * {@link LangSiftParseFilter} recorded, and drops the document (returns null) when the NCL-Crawl
 * filters ({@code filter.lang.*}) rejected it.
 */
public class LangSiftIndexingFilter implements IndexingFilter {
  private Configuration conf;

  @Override
  public NutchDocument filter(NutchDocument doc, Parse parse, Text url, CrawlDatum datum, Inlinks inlinks)
      throws IndexingException {
    String lang = parse.getData().getParseMeta().get("lang");
    if ("false".equals(parse.getData().getParseMeta().get("langsift.keep"))) return null;
    doc.add("lang", lang == null ? "und" : lang);
    String langs = parse.getData().getParseMeta().get("langsift.languages");
    if (langs != null && !langs.isEmpty()) doc.add("langsift_languages", langs);
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
