// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.indexer;

import java.util.ArrayList;
import java.util.List;

/** Stand-in: the values of one index field (no weight, not a Writable). */
public class NutchField {
  private final List<Object> values = new ArrayList<>();

  public NutchField() {}

  public NutchField(Object value) {
    values.add(value);
  }

  public void add(Object value) {
    values.add(value);
  }

  public List<Object> getValues() {
    return values;
  }
}
