// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.indexer;

public class IndexingException extends Exception {
  private static final long serialVersionUID = 1L;

  public IndexingException() {}

  public IndexingException(String message) {
    super(message);
  }

  public IndexingException(String message, Throwable cause) {
    super(message, cause);
  }

  public IndexingException(Throwable cause) {
    super(cause);
  }
}
