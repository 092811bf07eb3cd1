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
    check(LanguageFilter.codeMatches("zh-Hant", "zh") && !LanguageFilter.codeMatches("zha", "zh"), "zh matches zh-Hant");

    if (failures > 0) {
      System.err.println(failures + " check(s) failed");
      System.exit(1);
    }
    System.out.println("LangSiftTest: all checks passed");
  }
}
