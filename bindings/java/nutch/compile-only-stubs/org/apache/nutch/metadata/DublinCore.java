// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.metadata;

/** Stand-in: only the names the adapter uses (the real interface has all Dublin Core names). */
public interface DublinCore {
  /** The key Nutch's language-identifier plugin writes and its indexing filter reads. */
  String LANGUAGE = "language";
}
