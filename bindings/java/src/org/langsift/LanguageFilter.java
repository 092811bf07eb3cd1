package org.langsift;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * NCL-Crawl's language filters (Table 1): keep a page when one of its detected languages passes every
 * enabled filter — its code is among the labels ("zh" also keeps "zh-Hant"), it has at least minBytes
 * and at most maxBytes of text, and at least minPercent of the text; with minProbability, only the top
 * language passes, and only when its calibrated probability ({@link Detection#confidence}) is at least
 * that. With no filter enabled every page is kept; "und" pages are kept only then.
 *
 * <p>This is langsift's own filter ({@code language_filter}, through the C ABI's {@code langsift_filter}),
 * the one the command line, C and Python use: labels in either ISO form and any case ("deu", "DE",
 * "zh-hant"), put in the form the models write ("de", "zh-Hant"), and checked: a code that names no
 * language langsift knows is an error, not a filter that drops every page.
 *
 * <p>{@link #fromConfig} reads the NCL-Crawl configuration names ({@code filter.lang.enable},
 * {@code filter.lang.label}, {@code filter.lang.minSize.bytes}, {@code filter.lang.maxSize.bytes},
 * {@code filter.lang.minPercentage.limit}, each with its {@code .enable} switch) from any key-value
 * source, e.g. Hadoop's {@code Configuration::get}; the library reads them. Immutable; any number of
 * threads may share one.
 */
public final class LanguageFilter {
  static {
    LangSift.loadNative();
  }

  private static final Cleaner CLEANER = Cleaner.create();

  public final boolean enabled;
  public final List<String> labels; // null when the label filter is off; in langsift's form
  public final long minBytes; // < 0 when off
  public final long maxBytes; // < 0 when off
  public final int minPercent; // < 0 when off
  public final float minProbability; // < 0 when off; 0..1

  private final long handle; // the native filter, freed by CLEANER once this is unreachable

  /** @throws IllegalArgumentException for labels that name no language (or none), a minPercent over 100 */
  public LanguageFilter(List<String> labels, long minBytes, long maxBytes, int minPercent) {
    this(labels, minBytes, maxBytes, minPercent, -1);
  }

  /** @throws IllegalArgumentException as above, and for a minProbability over 1 (or NaN) */
  public LanguageFilter(List<String> labels, long minBytes, long maxBytes, int minPercent, float minProbability) {
    this(nativeNew(labels == null ? null : LangSift.utf8z(String.join(",", labels)), minBytes, maxBytes, minPercent,
        minProbability));
  }

  private LanguageFilter(long handle) {
    this.handle = handle;
    CLEANER.register(this, new Free(handle));
    String[] l = nativeLabels(handle);
    long[] n = nativeNumbers(handle);
    this.labels = l == null ? null : Collections.unmodifiableList(Arrays.asList(l));
    this.minBytes = n[0];
    this.maxBytes = n[1];
    this.minPercent = (int) n[2];
    this.minProbability = Float.intBitsToFloat((int) n[3]);
    this.enabled = labels != null || minBytes >= 0 || maxBytes >= 0 || minPercent >= 0 || minProbability >= 0;
  }

  /** No filter: every page is kept. */
  public static LanguageFilter none() {
    return new LanguageFilter(null, -1, -1, -1);
  }

  /**
   * Reads the NCL-Crawl names from {@code get} (returns null for a missing key). Everything is off
   * unless {@code filter.lang.enable} is true; then each filter is on when its {@code .enable} is true.
   * What {@code get} throws reaches the caller.
   *
   * @throws IllegalArgumentException naming the key, for a malformed or missing number, an empty label
   *     list or a label that names no language
   */
  public static LanguageFilter fromConfig(Function<String, String> get) {
    if (get == null) throw new NullPointerException("get");
    return new LanguageFilter(nativeFromConfig(get));
  }

  /** True when the page is kept. */
  public boolean keep(Detection d) {
    int n = d.languages.size();
    byte[][] codes = new byte[n][];
    int[] percents = new int[n];
    long[] bytes = new long[n];
    for (int i = 0; i < n; i++) {
      Language l = d.languages.get(i);
      codes[i] = l.code.getBytes(StandardCharsets.UTF_8);
      percents[i] = l.percent;
      bytes[i] = l.bytes;
    }
    try {
      return nativeKeep(handle, codes, percents, bytes, d.confidence);
    } finally {
      Reference.reachabilityFence(this); // not freed while the native call uses it
    }
  }

  /** True when one language passes every enabled filter but minProbability (a page's: keep()). */
  public boolean passes(Language l) {
    try {
      return nativePasses(handle, l.code.getBytes(StandardCharsets.UTF_8), l.percent, l.bytes);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // Called by the native reader of fromConfig for each key it reads: the value as NUL-terminated
  // UTF-8, or null.
  private static byte[] configValue(Function<String, String> get, String key) {
    return LangSift.utf8z(get.apply(key));
  }

  private static final class Free implements Runnable {
    private final long handle;

    Free(long handle) {
      this.handle = handle;
    }

    @Override
    public void run() {
      nativeFree(handle);
    }
  }

  private static native long nativeNew(byte[] labels, long minBytes, long maxBytes, int minPercent, float minProbability);

  private static native long nativeFromConfig(Function<String, String> get);

  private static native void nativeFree(long handle);

  private static native String[] nativeLabels(long handle);

  // minBytes, maxBytes, minPercent and the bits of minProbability (Float.floatToIntBits)
  private static native long[] nativeNumbers(long handle);

  private static native boolean nativeKeep(long handle, byte[][] codes, int[] percents, long[] bytes, float confidence);

  private static native boolean nativePasses(long handle, byte[] code, int percent, long bytes);
}
