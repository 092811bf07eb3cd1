package org.langsift;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java bridge against the real native library and built-in model (run by ctest):
 * known answers, string round trips through JNI, error paths, threads sharing one instance, and the
 * NCL-Crawl filter configuration. Exits non-zero on any failure.
 * Usage: java -Dlangsift.library=/path/liblangsift_jni.so -cp ... org.langsift.LangSiftTest [MODEL]
 */
public final class LangSiftTest {
  private static int failures = 0;

  private static void check(boolean ok, String what) {
    if (!ok) {
      System.err.println("FAILED: " + what);
      failures++;
    }
  }

  private static void expectThrows(Class<? extends Throwable> type, Runnable r, String what) {
    try {
      r.run();
      check(false, what + ": no exception");
    } catch (Throwable t) {
      check(type.isInstance(t), what + ": threw " + t);
    }
  }

  private static Map<String, String> labelConfig(String labels) {
    Map<String, String> conf = new HashMap<>();
    conf.put("filter.lang.enable", "true");
    conf.put("filter.lang.label.enable", "true");
    conf.put("filter.lang.label", labels);
    return conf;
  }

  /**
   * The filter is the library's (langsift_filter through JNI), as in C++, C and Python (#34): Java
   * kept labels as written, so "deu" kept no German page and "ger" (a typo) dropped every page in
   * silence; its own codeMatches ignored case where C++ compared exactly. Now labels are read and
   * checked by the library: either ISO form and any case, put in the form the models write.
   */
  private static void filterRulesAreTheLibrarys() {
    try (LangSift ls = new LangSift()) {
      Detection de = ls.detectText("Die Kinder spielten im Garten, w\u00e4hrend ihre Eltern das Abendessen kochten.");
      Detection zh = ls.detectText("\u6211\u5011\u662f\u5b78\u751f\uff0c\u6211\u5011\u559c\u6b61\u8b80\u66f8\u3002");
      check(de.language.equals("de") && zh.language.equals("zh-Hant"), "known answers: " + de + " / " + zh);
      LanguageFilter deu = LanguageFilter.fromConfig(labelConfig("deu, NL")::get);
      check(deu.labels.equals(List.of("de", "nl")), "labels in langsift's form: " + deu.labels);
      check(deu.keep(de) && !deu.keep(zh), "deu keeps German");
      check(new LanguageFilter(List.of("deu"), -1, -1, -1).keep(de), "deu keeps German (constructor)");
      check(LanguageFilter.fromConfig(labelConfig("DE")::get).keep(de), "DE keeps German");
      LanguageFilter hant = LanguageFilter.fromConfig(labelConfig("ZH-hant")::get);
      check(hant.labels.equals(List.of("zh-Hant")) && hant.keep(zh) && !hant.keep(de), "ZH-hant keeps zh-Hant");
      check(new LanguageFilter(List.of("zh"), -1, -1, -1).keep(zh), "zh keeps zh-Hant");
      check(new LanguageFilter(List.of("zh"), -1, -1, -1).passes(zh.languages.get(0)), "zh passes zh-Hant");
      check(!new LanguageFilter(List.of("ja"), -1, -1, -1).keep(zh), "ja does not keep zh-Hant");
      check(LanguageFilter.fromConfig(labelConfig("de\tnl")::get).labels.equals(List.of("de", "nl")), "a tab separates");
    }
    try {
      LanguageFilter.fromConfig(labelConfig("de, ger")::get);
      check(false, "an unknown label accepted");
    } catch (IllegalArgumentException e) {
      check(e.getMessage().equals("filter.lang.label: not a language langsift knows: 'ger' (did you mean 'de'?)"),
          "message: " + e.getMessage());
    }
    expectThrows(IllegalArgumentException.class, () -> new LanguageFilter(List.of("xx"), -1, -1, -1), "label xx");
    expectThrows(IllegalArgumentException.class, () -> new LanguageFilter(List.of(), -1, -1, -1), "no label");
    expectThrows(IllegalArgumentException.class, () -> new LanguageFilter(null, -1, -1, 101), "minPercent 101");
    // What the configuration's get throws reaches the caller, and nothing is made.
    expectThrows(IllegalStateException.class, () -> LanguageFilter.fromConfig(key -> {
      if (key.equals("filter.lang.label")) throw new IllegalStateException("no configuration");
      return "true";
    }), "get throws");
    expectThrows(NullPointerException.class, () -> LanguageFilter.fromConfig(null), "null get");
    // A missing number, with the key named.
    Map<String, String> unset = labelConfig("de");
    unset.put("filter.lang.maxSize.bytes.enable", "true");
    try {
      LanguageFilter.fromConfig(unset::get);
      check(false, "an unset number accepted");
    } catch (IllegalArgumentException e) {
      check(e.getMessage().equals("filter.lang.maxSize.bytes is enabled but not set"), "message: " + e.getMessage());
    }
    // Many filters made and dropped: the native ones are freed (by a Cleaner), none is used after.
    for (int i = 0; i < 20000; i++) check(new LanguageFilter(List.of("de"), i, -1, -1).minBytes == i, "filter " + i);
    System.gc();
  }

  public static void main(String[] args) throws Exception {
    check(!LangSift.version().isEmpty(), "version");
    byte[] german = ("<html><body><p>Die Kinder spielten im Garten, w\u00e4hrend ihre Eltern das Abendessen kochten. "
        + "Am Abend gingen alle zusammen spazieren.</p></body></html>").getBytes(StandardCharsets.ISO_8859_1);
    {
      LangSift ls = new LangSift(); // closed explicitly below: close() is under test
      Detection d = ls.detect(german, "text/html; charset=ISO-8859-1", "http://example.de/nachrichten");
      check(d.language.equals("de"), "German page: " + d);
      check(d.languages.size() >= 1 && d.languages.get(0).percent >= 95, "German percent: " + d);
      check(d.encoding.equals("windows-1252") && d.encodingSource.equals("http"), "encoding: " + d);
      check(d.isHtml && d.isShort && d.status.equals("ok"), "flags: " + d);

      // Non-BMP characters and NUL survive the trip (standard UTF-8, not JNI's modified UTF-8).
      Detection t = ls.detectText("Les enfants jouaient dans le jardin \ud83d\ude00 pendant que leurs parents "
          + "pr\u00e9paraient le d\u00eener.\u0000 Ils riaient beaucoup.");
      check(t.language.equals("fr"), "French text with an emoji and NUL: " + t);
      check(t.encoding.isEmpty(), "detectText has no encoding");
      Detection ja = ls.detectText("\u4eca\u65e5\u306f\u3068\u3066\u3082\u3044\u3044\u5929\u6c17\u3067\u3059\u306d\u3002");
      check(ja.language.equals("ja"), "Japanese: " + ja);

      Detection empty = ls.detect(new byte[0], null, null);
      check(empty.language.equals("und") && empty.status.equals("empty_input"), "empty: " + empty);
      byte[] bin = new byte[4096];
      for (int i = 0; i < bin.length; i++) bin[i] = (byte) ((i * 7919 + 13) % 251);
      Detection b = ls.detect(bin, null, null);
      check(b.language.equals("und") && b.status.equals("binary_input"), "binary: " + b);

      UrlResult u = ls.classifyUrl("http://www.lemonde.fr/politique/article.html");
      check(u.language.equals("fr") && u.scores.length == u.codes.size() && u.scores[0] > 0, "URL fr: " + u);
      UrlResult idn = ls.classifyUrl("http://b\u00fccher.example.de/k\u00fcche", "DE");
      check(idn.language.equals("de"), "IDN URL with country hint: " + idn);
      check(ls.classifyUrl("").language.equals("und"), "empty URL");

      expectThrows(NullPointerException.class, () -> ls.detect(null, null, null), "null body");
      expectThrows(NullPointerException.class, () -> ls.classifyUrl(null), "null url");

      // Threads share one instance and agree.
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 64; i++)
        results.add(pool.submit(() -> ls.detect(german, null, null).toString()));
      String first = ls.detect(german, null, null).toString();
      for (Future<String> f : results) check(f.get().equals(first), "threads agree: " + f.get());
      pool.shutdown();

      ls.close();
      ls.close(); // idempotent
      expectThrows(IllegalStateException.class, () -> ls.detectText("x"), "use after close");
    }

    // A model file, and a broken one.
    if (args.length > 0) {
      try (LangSift f = new LangSift(args[0])) {
        check(f.detect(german, null, null).language.equals("de"), "model file");
      }
    }
    expectThrows(IllegalArgumentException.class, () -> new LangSift("/no/such/model.lsm"), "missing model file");

    // NCL-Crawl filters.
    Map<String, String> conf = new HashMap<>();
    check(!LanguageFilter.fromConfig(conf::get).enabled, "no filter by default");
    conf.put("filter.lang.enable", "true");
    conf.put("filter.lang.label.enable", "true");
    conf.put("filter.lang.label", "de, nl");
    conf.put("filter.lang.minPercentage.limit.enable", "true");
    conf.put("filter.lang.minPercentage.limit", "30");
    LanguageFilter lf = LanguageFilter.fromConfig(conf::get);
    try (LangSift ls = new LangSift()) {
      check(lf.keep(ls.detect(german, null, null)), "German page kept");
      check(!lf.keep(ls.detectText("Les enfants jouaient dans le jardin pendant que leurs parents cuisinaient.")),
          "French page dropped");
      check(!lf.keep(ls.detect(new byte[0], null, null)), "und dropped when a filter is on");
    }
    // minProbability: the top language at that calibrated probability.
    try (LangSift ls = new LangSift()) {
      Detection sure = ls.detectText("Ich habe heute leider keine Zeit, weil ich bis sp\u00e4t arbeiten muss.");
      Detection unsure = ls.detectText("Dit is een huis");
      LanguageFilter p9 = new LanguageFilter(null, -1, -1, -1, 0.9f);
      check(p9.enabled && p9.keep(sure) && !p9.keep(unsure), "minProbability 0.9: " + sure + " / " + unsure);
      check(new LanguageFilter(null, -1, -1, -1, 0.5f).keep(unsure), "minProbability 0.5 keeps " + unsure);
      check(!new LanguageFilter(List.of("af"), -1, -1, -1, 0.0f).keep(unsure), "only the top language passes");
      check(!p9.keep(ls.detect(new byte[0], null, null)), "und dropped by minProbability");
      check(!new LanguageFilter(null, -1, -1, -1).enabled && new LanguageFilter(null, -1, -1, -1).minProbability < 0,
          "the four-argument constructor: no minProbability");
    }
    expectThrows(IllegalArgumentException.class, () -> new LanguageFilter(null, -1, -1, -1, 1.5f), "minProbability 1.5");
    expectThrows(IllegalArgumentException.class, () -> new LanguageFilter(null, -1, -1, -1, Float.NaN), "minProbability NaN");
    conf.put("filter.lang.minSize.bytes.enable", "true");
    conf.put("filter.lang.minSize.bytes", "many");
    expectThrows(IllegalArgumentException.class, () -> LanguageFilter.fromConfig(conf::get), "bad number");
    filterRulesAreTheLibrarys();

    if (failures > 0) {
      System.err.println(failures + " check(s) failed");
      System.exit(1);
    }
    System.out.println("LangSiftTest: all checks passed");
  }
}
