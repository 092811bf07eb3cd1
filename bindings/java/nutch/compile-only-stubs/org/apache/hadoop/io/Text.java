// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.hadoop.io;

/** Stand-in: holds a String (the real class holds UTF-8 bytes and is a Writable). */
public class Text {
  private final String value;

  public Text() {
    this("");
  }

  public Text(String string) {
    this.value = string;
  }

  @Override
  public String toString() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Text && ((Text) o).value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }
}
