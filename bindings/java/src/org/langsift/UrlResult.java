package org.langsift;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The language a URL probably leads to, from the URL alone. Immutable. */
public final class UrlResult {
  /** Up to three language codes, most probable first; empty for "und". */
  public final List<String> codes;
  /** Their probability-like scores, 0..1, parallel to {@link #codes}. */
  public final float[] scores;
  /** The top code, or "und" when nothing in the URL tells. */
  public final String language;
  /** "ok", "truncated", "empty_input", "invalid_argument". */
  public final String status;

  UrlResult(String[] codes, float[] scores, String language, String status) {
    this.codes = Collections.unmodifiableList(Arrays.asList(codes));
    this.scores = scores;
    this.language = language;
    this.status = status;
  }

  @Override
  public String toString() {
    return language + " " + codes + " " + status;
  }
}
