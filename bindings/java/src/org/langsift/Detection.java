package org.langsift;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The answer for one page or text. Immutable. */
public final class Detection {
  /** Up to three languages, most bytes first; empty for "und". */
  public final List<Language> languages;
  /** The top language's code, or "und" (no letters, not natural language, or binary). */
  public final String language;
  public final long textBytes;
  /** 0..1: how clearly the top language beats the runner-up. */
  public final float confidence;
  public final boolean reliable;
  /** Fewer than 400 text bytes (ClueWeb09's threshold): the guess is still given. */
  public final boolean isShort;
  public final boolean isHtml;
  /** "utf-8", "windows-1252", "shift_jis"... ("" for {@link LangSift#detectText}). */
  public final String encoding;
  /** What decided the encoding: "bom", "http", "meta", "detected", "default" (or ""). */
  public final String encodingSource;
  /** Status of the detection: "ok", "empty_input", "binary_input", "truncated"... */
  public final String status;

  Detection(Language[] languages, String language, long textBytes, float confidence, boolean reliable,
      boolean isShort, boolean isHtml, String encoding, String encodingSource, String status) {
    this.languages = Collections.unmodifiableList(Arrays.asList(languages));
    this.language = language;
    this.textBytes = textBytes;
    this.confidence = confidence;
    this.reliable = reliable;
    this.isShort = isShort;
    this.isHtml = isHtml;
    this.encoding = encoding;
    this.encodingSource = encodingSource;
    this.status = status;
  }

  @Override
  public String toString() {
    return language + " " + languages + " " + encoding + "/" + encodingSource + (reliable ? " reliable" : "")
        + (isShort ? " short" : "") + " " + status;
  }
}
