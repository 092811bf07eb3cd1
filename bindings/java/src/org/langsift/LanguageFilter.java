package org.langsift;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * NCL-Crawl's language filters (Table 1): keep a page when one of its detected languages passes every
 * enabled filter — its code is among the labels, it has at least minBytes and at most maxBytes of
 * text, and at least minPercent of the text; with minProbability, only the top language passes, and
 * only when its calibrated probability ({@link Detection#confidence}) is at least that. With no filter
 * enabled every page is kept; "und" pages are kept only then. The same rules as langsift's C++
 * {@code language_filter}.
 *
 * <p>{@link #fromConfig} reads the NCL-Crawl configuration names ({@code filter.lang.enable},
 * {@code filter.lang.label}, {@code filter.lang.minSize.bytes}, {@code filter.lang.maxSize.bytes},
 * {@code filter.lang.minPercentage.limit}, each with its {@code .enable} switch) from any key-value
 * source, e.g. Hadoop's {@code Configuration::get}.
 */
public final class LanguageFilter {
  public final boolean enabled;
  public final List<String> labels; // null when the label filter is off
  public final long minBytes; // < 0 when off
  public final long maxBytes; // < 0 when off
  public final int minPercent; // < 0 when off
  public final float minProbability; // < 0 when off; 0..1

  public LanguageFilter(List<String> labels, long minBytes, long maxBytes, int minPercent) {
    this(labels, minBytes, maxBytes, minPercent, -1);
  }

  /** @throws IllegalArgumentException for a minProbability over 1 (or NaN) */
  public LanguageFilter(List<String> labels, long minBytes, long maxBytes, int minPercent, float minProbability) {
    if (Float.isNaN(minProbability) || minProbability > 1)
      throw new IllegalArgumentException("minProbability must be 0..1 (or negative: off), not " + minProbability);
    this.labels = labels;
    this.minBytes = minBytes;
    this.maxBytes = maxBytes;
    this.minPercent = minPercent;
    this.minProbability = minProbability;
    this.enabled = labels != null || minBytes >= 0 || maxBytes >= 0 || minPercent >= 0 || minProbability >= 0;
  }

  /** No filter: every page is kept. */
  public static LanguageFilter none() {
    return new LanguageFilter(null, -1, -1, -1);
  }

  /**
   * Reads the NCL-Crawl names from {@code get} (returns null for a missing key). Everything is off
   * unless {@code filter.lang.enable} is true; then each filter is on when its {@code .enable} is true.
   *
   * @throws IllegalArgumentException for a malformed number or an empty label list
   */
  public static LanguageFilter fromConfig(Function<String, String> get) {
    if (!flag(get, "filter.lang.enable")) return none();
    List<String> labels = null;
    if (flag(get, "filter.lang.label.enable")) {
      labels = new ArrayList<>();
      String v = get.apply("filter.lang.label");
      if (v != null)
        for (String s : v.split("[,\\s]+"))
          if (!s.isEmpty()) labels.add(s.trim());
      if (labels.isEmpty()) throw new IllegalArgumentException("filter.lang.label is enabled but empty");
    }
    long min = flag(get, "filter.lang.minSize.bytes.enable") ? number(get, "filter.lang.minSize.bytes") : -1;
    long max = flag(get, "filter.lang.maxSize.bytes.enable") ? number(get, "filter.lang.maxSize.bytes") : -1;
    int pct = flag(get, "filter.lang.minPercentage.limit.enable")
        ? (int) number(get, "filter.lang.minPercentage.limit") : -1;
    if (pct > 100) throw new IllegalArgumentException("filter.lang.minPercentage.limit must be 0..100");
    return new LanguageFilter(labels, min, max, pct);
  }

  /** True when the page is kept. */
  public boolean keep(Detection d) {
    if (!enabled) return true;
    // minProbability: only the top language, and only when it is that probable.
    int n = minProbability >= 0 ? (!d.languages.isEmpty() && d.confidence >= minProbability ? 1 : 0) : d.languages.size();
    for (int i = 0; i < n; i++)
      if (passes(d.languages.get(i))) return true;
    return false;
  }

  /** True when one language passes every enabled filter but minProbability (a page's: keep()). */
  public boolean passes(Language l) {
    if (labels != null) {
      boolean found = false;
      for (String want : labels) found |= codeMatches(l.code, want);
      if (!found) return false;
    }
    if (minBytes >= 0 && l.bytes < minBytes) return false;
    if (maxBytes >= 0 && l.bytes > maxBytes) return false;
    if (minPercent >= 0 && l.percent < minPercent) return false;
    return true;
  }

  /** "zh" matches "zh-Hant"; case does not matter. */
  static boolean codeMatches(String code, String want) {
    String c = code.toLowerCase(Locale.ROOT), w = want.toLowerCase(Locale.ROOT);
    return c.equals(w) || (c.startsWith(w) && c.charAt(w.length()) == '-');
  }

  private static boolean flag(Function<String, String> get, String key) {
    String v = get.apply(key);
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  private static long number(Function<String, String> get, String key) {
    String v = get.apply(key);
    if (v == null) throw new IllegalArgumentException(key + " is enabled but not set");
    try {
      long n = Long.parseLong(v.trim());
      if (n < 0) throw new IllegalArgumentException(key + " must not be negative");
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": not a number: " + v);
    }
  }
}
