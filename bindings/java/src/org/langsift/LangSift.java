package org.langsift;

import java.nio.charset.StandardCharsets;

/**
 * langsift from Java: the language(s) of a fetched page (any encoding, HTML or text) and of a URL
 * before fetching. A thin JNI layer over langsift's C ABI ({@code langsift.h}).
 *
 * <pre>{@code
 * try (LangSift ls = new LangSift()) {                 // the built-in model
 *   Detection d = ls.detect(body, "text/html; charset=iso-8859-1", "http://example.de/");
 *   d.language;            // "de"
 *   ls.classifyUrl("http://www.lemonde.fr/politique/").language;   // "fr"
 * }
 * }</pre>
 *
 * <p>Thread safety: one instance may be shared by any number of threads (the model is immutable);
 * only {@link #close} must not race with calls in flight.
 *
 * <p>The native library {@code liblangsift_jni.so} is loaded once, when this class is initialised:
 * from the path in the system property {@code langsift.library} if set, else by
 * {@code System.loadLibrary("langsift_jni")} ({@code java.library.path}). The JVM lets one native
 * library belong to one class loader only: in Hadoop or Nutch, put the jar on a class path that is
 * loaded once per JVM (not in every task's child class loader).
 */
public final class LangSift implements AutoCloseable {
  static {
    String path = System.getProperty("langsift.library");
    if (path != null && !path.isEmpty()) System.load(path);
    else System.loadLibrary("langsift_jni");
  }

  private volatile long handle;

  /** Loads the native library (the static initializer above): for the other classes with native methods. */
  static void loadNative() {}

  /** A detector over the model compiled into the library. */
  public LangSift() {
    this(null);
  }

  /**
   * A detector over a model file (trained with {@code langsift-train}); null for the built-in model.
   *
   * @throws IllegalArgumentException when the file cannot be read or is not a valid model
   */
  public LangSift(String modelPath) {
    handle = nativeOpen(modelPath == null ? null : utf8z(modelPath));
  }

  /** The library version, e.g. "0.1.0". */
  public static String version() {
    return nativeVersion();
  }

  /**
   * The whole pipeline on an HTTP body: encoding detection (BOM, the Content-Type charset, meta,
   * statistics), HTML text extraction, language identification with the hints the headers and the
   * URL's country-code TLD give.
   *
   * @param body the body bytes as fetched (not null; may be empty)
   * @param contentType the HTTP Content-Type, or null
   * @param url the page's URL, or null
   */
  public Detection detect(byte[] body, String contentType, String url) {
    return detect(body, contentType, url, null);
  }

  /** As {@link #detect(byte[], String, String)}, with the HTTP Content-Language (or null). */
  public Detection detect(byte[] body, String contentType, String url, String contentLanguage) {
    if (body == null) throw new NullPointerException("body");
    return nativeDetect(live(), body, utf8z(contentType), utf8z(url), utf8z(contentLanguage));
  }

  /** Language identification of text only (no encoding detection, no HTML). */
  public Detection detectText(String text) {
    if (text == null) throw new NullPointerException("text");
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return nativeDetectText(live(), b);
  }

  /** The language a URL probably leads to, from the URL alone. */
  public UrlResult classifyUrl(String url) {
    return classifyUrl(url, null);
  }

  /**
   * @param countryHint ISO 3166 code of the host's country (e.g. from geo-IP), or null
   */
  public UrlResult classifyUrl(String url, String countryHint) {
    if (url == null) throw new NullPointerException("url");
    return nativeClassifyUrl(live(), url.getBytes(StandardCharsets.UTF_8), utf8z(countryHint));
  }

  /** Frees the native detector. Further calls throw IllegalStateException. Idempotent. */
  @Override
  public synchronized void close() {
    long h = handle;
    handle = 0;
    if (h != 0) nativeClose(h);
  }

  private long live() {
    long h = handle;
    if (h == 0) throw new IllegalStateException("LangSift is closed");
    return h;
  }

  // Strings cross JNI as NUL-terminated standard UTF-8 bytes (not JNI's modified UTF-8, which
  // encodes NUL and supplementary characters differently). A NUL inside ends the string.
  static byte[] utf8z(String s) {
    if (s == null) return null;
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    byte[] z = new byte[b.length + 1];
    System.arraycopy(b, 0, z, 0, b.length);
    return z;
  }

  private static native String nativeVersion();

  private static native long nativeOpen(byte[] modelPath);

  private static native void nativeClose(long handle);

  private static native Detection nativeDetect(long handle, byte[] body, byte[] contentType, byte[] url,
      byte[] contentLanguage);

  private static native Detection nativeDetectText(long handle, byte[] utf8);

  private static native UrlResult nativeClassifyUrl(long handle, byte[] url, byte[] countryHint);
}
