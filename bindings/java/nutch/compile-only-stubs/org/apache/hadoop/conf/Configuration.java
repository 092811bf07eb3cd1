// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.hadoop.conf;

import java.util.HashMap;
import java.util.Map;

/** Stand-in: a plain map (no resources, no variable expansion, no deprecations). */
public class Configuration {
  private final Map<String, String> values = new HashMap<>();

  public Configuration() {}

  public String get(String name) {
    return values.get(name);
  }

  public String get(String name, String defaultValue) {
    String v = values.get(name);
    return v == null ? defaultValue : v;
  }

  public void set(String name, String value) {
    values.put(name, value);
  }
}
