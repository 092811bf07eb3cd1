// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.crawl;

/** Stand-in: the links to a URL (no member the adapter uses). */
public class Inlinks {
  public Inlinks() {}
}
