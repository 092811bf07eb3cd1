// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.protocol;

import org.apache.hadoop.conf.Configuration;
import org.apache.nutch.metadata.Metadata;

/**
 * Stand-in of a fetched document. The real constructor may replace contentType by the MIME type
 * it detects; this one keeps it as given.
 */
public final class Content {
  private final String url;
  private final String base;
  private final byte[] content;
  private final String contentType;
  private final Metadata metadata;

  public Content(String url, String base, byte[] content, String contentType, Metadata metadata,
      Configuration conf) {
    this.url = url;
    this.base = base;
    this.content = content;
    this.contentType = contentType;
    this.metadata = metadata;
  }

  public String getUrl() {
    return url;
  }

  public String getBaseUrl() {
    return base;
  }

  public byte[] getContent() {
    return content;
  }

  public String getContentType() {
    return contentType;
  }

  /** The protocol's response headers (and other fetch metadata). */
  public Metadata getMetadata() {
    return metadata;
  }
}
