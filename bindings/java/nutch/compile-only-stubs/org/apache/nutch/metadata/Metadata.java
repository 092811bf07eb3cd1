// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.metadata;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stand-in of the multi-valued metadata container (the real one also implements Writable,
 * CreativeCommons, Nutch and Feed).
 */
public class Metadata implements DublinCore, HttpHeaders {
  private final Map<String, String[]> values = new LinkedHashMap<>();

  public Metadata() {}

  /** The first value of the name, or null. */
  public String get(String name) {
    String[] v = values.get(name);
    return v == null ? null : v[0];
  }

  public String[] getValues(String name) {
    String[] v = values.get(name);
    return v == null ? new String[0] : v.clone();
  }

  /** Adds a value to the name's values. */
  public void add(String name, String value) {
    String[] v = values.get(name);
    if (v == null) {
      values.put(name, new String[] {value});
    } else {
      String[] w = Arrays.copyOf(v, v.length + 1);
      w[v.length] = value;
      values.put(name, w);
    }
  }

  /** Replaces the name's values by this one. */
  public void set(String name, String value) {
    values.put(name, new String[] {value});
  }

  public void remove(String name) {
    values.remove(name);
  }

  public String[] names() {
    return values.keySet().toArray(new String[0]);
  }

  public int size() {
    return values.size();
  }
}
