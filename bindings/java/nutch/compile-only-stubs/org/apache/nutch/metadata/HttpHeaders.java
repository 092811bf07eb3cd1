// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.metadata;

/** Stand-in: only the header names the adapter uses. */
public interface HttpHeaders {
  String CONTENT_LANGUAGE = "Content-Language";

  String CONTENT_TYPE = "Content-Type";
}
