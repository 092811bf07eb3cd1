// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.indexer;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Stand-in of the unit of indexing: fields with one or more values. */
public class NutchDocument {
  private final Map<String, NutchField> fields = new LinkedHashMap<>();

  public NutchDocument() {}

  /** Adds a value to the field (a second add makes the field multi-valued). */
  public void add(String name, Object value) {
    NutchField f = fields.get(name);
    if (f == null) fields.put(name, new NutchField(value));
    else f.add(value);
  }

  /** The first value of the field, or null. */
  public Object getFieldValue(String name) {
    NutchField f = fields.get(name);
    return f == null || f.getValues().isEmpty() ? null : f.getValues().get(0);
  }

  public NutchField getField(String name) {
    return fields.get(name);
  }

  public NutchField removeField(String name) {
    return fields.remove(name);
  }

  public Collection<String> getFieldNames() {
    return fields.keySet();
  }
}
