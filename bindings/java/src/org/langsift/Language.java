package org.langsift;

/** One detected language of a page: its code, share of the text and bytes. Immutable. */
public final class Language {
  /** ISO 639-1 where one exists, else ISO 639-3, maybe with a script subtag ("zh-Hant"). */
  public final String code;
  /** Share of the text bytes, 0..100. */
  public final int percent;
  /** Text bytes in this language. */
  public final long bytes;
  /** Fit to the language's training text: about 1 normally, below 0.5 unusual. */
  public final float score;

  public Language(String code, int percent, long bytes, float score) {
    this.code = code;
    this.percent = percent;
    this.bytes = bytes;
    this.score = score;
  }

  @Override
  public String toString() {
    return code + ":" + percent + ":" + bytes;
  }
}
