// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.parse;

import org.apache.nutch.metadata.Metadata;

/** Stand-in: the two metadata of a parse (no status, title or outlinks). */
public final class ParseData {
  private final Metadata contentMeta = new Metadata();
  private final Metadata parseMeta = new Metadata();

  public ParseData() {}

  /** The metadata of the fetched content (response headers). */
  public Metadata getContentMeta() {
    return contentMeta;
  }

  /** What parsers and parse filters found. */
  public Metadata getParseMeta() {
    return parseMeta;
  }
}
