// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.parse;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.io.Text;

/** Stand-in: the parses of one fetched URL (and its sub-URLs), by URL. */
public class ParseResult {
  private final Map<String, Parse> parses = new HashMap<>();
  private final String originalUrl;

  public ParseResult(String originalUrl) {
    this.originalUrl = originalUrl;
  }

  /** One parse under its URL (the real one re-wraps it, keeping its ParseData). */
  public static ParseResult createParseResult(String url, Parse parse) {
    ParseResult r = new ParseResult(url);
    r.parses.put(url, parse);
    return r;
  }

  public Parse get(String key) {
    return parses.get(key);
  }

  public Parse get(Text key) {
    return parses.get(key.toString());
  }

  public boolean isEmpty() {
    return parses.isEmpty();
  }

  public int size() {
    return parses.size();
  }
}
