/* The C ABI (include/langsift.h), compiled as C11 against the shared library: known answers,
 * error paths with NULL pointers and bad models, and threads sharing one detector.
 * Usage: langsift-test-capi MODEL_FILE (a model file to load, e.g. models/default.lsm). */
#include <langsift.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"


static const char kGermanLatin1[] =
    "<html><head><title>Nachrichten</title><script>var a = 1;</script></head><body><p>"
    "Die Kinder spielten im Garten, w\xe4hrend ihre Eltern das Abendessen kochten. Am Abend gingen "
    "alle zusammen spazieren und sprachen \xfc" "ber die vergangene Woche.</p></body></html>";

static const char kFrench[] = "Les enfants jouaient dans le jardin pendant que leurs parents pr\xc3\xa9paraient le d\xc3\xaener.";

static char* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = malloc((size_t)n);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static void test_basics(void) {
  CHECK(strlen(langsift_version()) > 0);
  CHECK(strcmp(langsift_status_name(LANGSIFT_OK), "ok") == 0);
  CHECK(strcmp(langsift_status_name(LANGSIFT_BINARY_INPUT), "binary_input") == 0);
  CHECK(strcmp(langsift_status_name(LANGSIFT_CORRUPT_STATE), "corrupt_state") == 0);
  CHECK(strcmp(langsift_status_name(LANGSIFT_UNSUPPORTED_PLATFORM), "unsupported_platform") == 0);
  CHECK(strcmp(langsift_status_name(LANGSIFT_TOO_LARGE), "too_large") == 0);
  CHECK(strcmp(langsift_status_name((langsift_status)16), "unknown_status") == 0);
  CHECK(strcmp(langsift_status_name((langsift_status)99), "unknown_status") == 0);
}

static void test_detect(langsift_detector* d) {
  langsift_result r;
  langsift_page_options o;
  memset(&o, 0, sizeof o);
  o.content_type = "text/html; charset=ISO-8859-1";
  CHECK(langsift_detect(d, kGermanLatin1, sizeof kGermanLatin1 - 1, &o, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "de") == 0);
  CHECK(r.count >= 1 && strcmp(r.languages[0].code, "de") == 0 && r.languages[0].percent >= 95);
  CHECK(strcmp(r.encoding, "windows-1252") == 0);
  CHECK(strcmp(r.encoding_source, "http") == 0);
  CHECK(r.is_html == 1);
  CHECK(r.status == LANGSIFT_OK);
  CHECK(r.is_short == 1); /* under 400 bytes of text */

  /* No options: the encoding is detected. */
  CHECK(langsift_detect(d, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "de") == 0);
  CHECK(strcmp(r.encoding_source, "detected") == 0);

  CHECK(langsift_detect_text(d, kFrench, (size_t)-1, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fr") == 0);
  CHECK(r.encoding[0] == '\0');

  /* Restricting the languages. */
  memset(&o, 0, sizeof o);
  o.only = "es, it";
  CHECK(langsift_detect(d, kFrench, strlen(kFrench), &o, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "es") == 0 || strcmp(r.language, "it") == 0);

  /* Empty and binary input: an answer ("und") with a status saying why. */
  CHECK(langsift_detect(d, "", 0, NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "und") == 0 && r.status == LANGSIFT_EMPTY_INPUT);
  CHECK(langsift_detect(d, NULL, 0, NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "und") == 0);
  {
    char bin[4096];
    for (size_t i = 0; i < sizeof bin; ++i) bin[i] = (char)((i * 7919u + 13u) % 251u);
    CHECK(langsift_detect(d, bin, sizeof bin, NULL, &r) == LANGSIFT_OK);
    CHECK(strcmp(r.language, "und") == 0 && r.status == LANGSIFT_BINARY_INPUT);
  }
  /* Invalid UTF-8 text is replaced, not fatal, and said: its bytes counted, status INVALID_UTF8. */
  CHECK(langsift_detect_text(d, "\xff\xfe\xc0\xaf Les enfants jouaient dans le jardin", (size_t)-1, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fr") == 0);
  CHECK(r.status == LANGSIFT_INVALID_UTF8 && r.replaced_bytes == 4);
  CHECK(langsift_detect_text(d, kFrench, (size_t)-1, &r) == LANGSIFT_OK);
  CHECK(r.status == LANGSIFT_OK && r.replaced_bytes == 0);
  /* (size_t)-1 is a NUL-terminated body for langsift_detect too (it crashed before). */
  CHECK(langsift_detect(d, kFrench, (size_t)-1, NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fr") == 0 && r.text_bytes > 20);
}

/* The k most probable languages with their calibrated probabilities (#30). */
static void test_probabilities(langsift_detector* d) {
  langsift_result r;
  langsift_probability p[LANGSIFT_MAX_TOP_K + 1];
  size_t n = 99, i;
  double sum = 0;
  CHECK(langsift_detect_text_probabilities(d, "Ich habe heute leider keine Zeit, weil ich arbeiten muss.", (size_t)-1, &r, p, 5,
                                           &n) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "de") == 0);
  CHECK(n >= 1 && n <= 5); /* fewer when the others are negligible (p < 1e-9) */
  CHECK(strcmp(p[0].code, "de") == 0 && p[0].p > 0.9f && p[0].p == r.confidence);
  for (i = 0; i < n; ++i) {
    CHECK(p[i].p > 0.0f && p[i].p <= 1.0f);
    if (i) CHECK(p[i].p <= p[i - 1].p);
    sum += p[i].p;
  }
  CHECK(sum <= 1.0);
  /* Dutch or Afrikaans: spread. */
  CHECK(langsift_detect_text_probabilities(d, "Dit is een huis", (size_t)-1, &r, p, 2, &n) == LANGSIFT_OK);
  CHECK(n == 2 && strcmp(p[0].code, "nl") == 0 && p[0].p < 0.9f && strcmp(p[1].code, "af") == 0 && p[1].p > 0.1f);
  /* The page pipeline, with options. */
  CHECK(langsift_detect_probabilities(d, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &r, p, 1, &n) == LANGSIFT_OK);
  CHECK(n == 1 && strcmp(p[0].code, "de") == 0 && p[0].p == r.confidence);
  /* k = 0: none (probs and count may be NULL); und: none. */
  CHECK(langsift_detect_text_probabilities(d, "Dit is een huis", (size_t)-1, &r, NULL, 0, NULL) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "nl") == 0);
  CHECK(langsift_detect_text_probabilities(d, "12345", (size_t)-1, &r, p, 3, &n) == LANGSIFT_OK);
  CHECK(n == 0 && strcmp(r.language, "und") == 0);
  /* Errors: k over LANGSIFT_MAX_TOP_K, NULL probs or count with k > 0. */
  n = 99;
  CHECK(langsift_detect_text_probabilities(d, "Haus", 4, &r, p, LANGSIFT_MAX_TOP_K + 1, &n) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(n == 0 && strcmp(r.language, "und") == 0 && r.status == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_text_probabilities(d, "Haus", 4, &r, NULL, 2, &n) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_text_probabilities(d, "Haus", 4, &r, p, 2, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_probabilities(d, "Haus", 4, NULL, &r, p, LANGSIFT_MAX_TOP_K + 1, &n) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_probabilities(d, "Haus", 4, NULL, NULL, p, 2, &n) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_text_probabilities(d, "Haus", 4, &r, p, LANGSIFT_MAX_TOP_K, &n) == LANGSIFT_OK);
  CHECK(n == LANGSIFT_MAX_TOP_K);
}

static void test_errors(langsift_detector* d) {
  langsift_result r;
  langsift_page_options o;
  memset(&o, 0, sizeof o);
  CHECK(langsift_detect(NULL, "abc", 3, NULL, &r) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(strcmp(r.language, "und") == 0 && r.status == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect(d, NULL, 3, NULL, &r) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect(d, "abc", 3, NULL, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_detect_text(d, NULL, 5, &r) == LANGSIFT_INVALID_ARGUMENT);
  o.kind = 7;
  CHECK(langsift_detect(d, "abc", 3, &o, &r) == LANGSIFT_INVALID_ARGUMENT);
  o.kind = LANGSIFT_KIND_TEXT;
  /* A forced encoding no converter knows is an error, as on the command line (it was ignored). */
  o.encoding = "no-such-charset";
  CHECK(langsift_detect(d, kFrench, strlen(kFrench), &o, &r) == LANGSIFT_UNKNOWN_ENCODING);
  CHECK(strcmp(r.language, "und") == 0 && r.status == LANGSIFT_UNKNOWN_ENCODING);
  o.encoding = "ISO-8859-1";
  CHECK(langsift_detect(d, kFrench, strlen(kFrench), &o, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fr") == 0 && strcmp(r.encoding, "windows-1252") == 0);
  o.encoding = NULL;
  /* max_text_bytes: 0 is the default; 1..255 are refused, as on the command line. */
  o.max_text_bytes = 1;
  CHECK(langsift_detect(d, kFrench, strlen(kFrench), &o, &r) == LANGSIFT_INVALID_ARGUMENT);
  o.max_text_bytes = 256;
  CHECK(langsift_detect(d, kFrench, strlen(kFrench), &o, &r) == LANGSIFT_OK);
  o.max_text_bytes = 0;

  langsift_detector* bad = (langsift_detector*)1;
  char msg[128];
  msg[0] = 'x';
  CHECK(langsift_detector_new("/no/such/model.lsm", &bad, msg, sizeof msg) == LANGSIFT_IO_ERROR);
  CHECK(bad == NULL);
  CHECK(strstr(msg, "/no/such/model.lsm") != NULL);
  CHECK(langsift_detector_new(NULL, NULL, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  msg[0] = 'x';
  CHECK(langsift_detector_new_from_bytes("not a model at all", 18, &bad, msg, sizeof msg) == LANGSIFT_CORRUPT_MODEL);
  CHECK(bad == NULL);
  CHECK(strcmp(msg, "model bytes: corrupt_model") == 0);
  CHECK(langsift_detector_new_from_bytes(NULL, 0, &bad, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(strcmp(msg, "model_bytes is NULL") == 0);
  CHECK(langsift_detector_new_from_bytes("x", 1, NULL, NULL, 0) == LANGSIFT_INVALID_ARGUMENT);
  /* A length of (size_t)-1 cannot be copied: an error status and a message (it reached
   * std::terminate from the noexcept model::load_copy: the process aborted). */
  bad = (langsift_detector*)1;
  msg[0] = 'x';
  CHECK(langsift_detector_new_from_bytes("x", (size_t)-1, &bad, msg, sizeof msg) == LANGSIFT_OUT_OF_MEMORY);
  CHECK(bad == NULL);
  CHECK(strcmp(msg, "model bytes: out_of_memory") == 0);
  langsift_detector_free(NULL);

  CHECK(langsift_detector_language_count(NULL) == 0);
  CHECK(strcmp(langsift_detector_language(d, 100000), "") == 0);
}

/* The built-in models by name: "wide" knows Faroese, the default model does not. */
static void test_builtin(langsift_detector* d) {
  static const char kFaroese[] = "Eingin skal liva \xc3\xad tr\xc3\xa6ld\xc3\xb3mi ella tr\xc3\xa6lkan; tr\xc3\xa6ld\xc3\xb3mur og "
                                 "tr\xc3\xa6lahandil av \xc3\xb8llum slag skulu ver\xc3\xb0" "a banna\xc3\xb0.";
  char msg[160];
  langsift_result r;
  langsift_detector* w = NULL;
  langsift_detector* bad = (langsift_detector*)1;
  CHECK(langsift_builtin_model_count() == 2);
  CHECK(strcmp(langsift_builtin_model_name(0), "default") == 0);
  CHECK(strcmp(langsift_builtin_model_name(1), "wide") == 0);
  CHECK(langsift_builtin_model_name(2) == NULL);

  CHECK(langsift_detector_new_builtin("wide", &w, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(w != NULL);
  if (!w) return;
  CHECK(langsift_detector_language_count(w) >= 200);
  CHECK(langsift_detector_language_count(w) > langsift_detector_language_count(d));
  CHECK(langsift_detect(w, kFaroese, strlen(kFaroese), NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fo") == 0);
  CHECK(langsift_detect(d, kFaroese, strlen(kFaroese), NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fo") != 0);
  CHECK(langsift_detect(w, kFrench, strlen(kFrench), NULL, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "fr") == 0);
  langsift_detector_free(w);

  /* "default" is the model of langsift_detector_new(NULL, ...). */
  CHECK(langsift_detector_new_builtin("default", &w, NULL, 0) == LANGSIFT_OK);
  CHECK(w && langsift_detector_language_count(w) == langsift_detector_language_count(d));
  langsift_detector_free(w);

  msg[0] = 'x';
  CHECK(langsift_detector_new_builtin("models/wide.lsm", &bad, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(bad == NULL);
  CHECK(strstr(msg, "no built-in model named \"models/wide.lsm\"") != NULL);
  CHECK(strstr(msg, "default, wide") != NULL);
  bad = (langsift_detector*)1;
  CHECK(langsift_detector_new_builtin(NULL, &bad, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(bad == NULL);
  CHECK(langsift_detector_new_builtin("wide", NULL, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
}

/* A code of `only` that the model lacks: LANGSIFT_INVALID_ARGUMENT, "und" (it was ignored). The
 * codes are read as everywhere (langsift/options.hpp): either ISO form, any case, separated by
 * commas and/or white space. Until #34 "deu" and "de fr" were LANGSIFT_INVALID_ARGUMENT here while
 * the command line and Python took them. */
static void test_only_unknown(langsift_detector* d) {
  static const char* const kSameAsDeFr[] = {"de,fr", "deu,fra", "deu fra", "DEU,\tFr", " de , fr ,"};
  langsift_page_options o;
  memset(&o, 0, sizeof o);
  langsift_result r;
  for (size_t i = 0; i < sizeof kSameAsDeFr / sizeof kSameAsDeFr[0]; ++i) {
    o.only = kSameAsDeFr[i];
    CHECK(langsift_detect(d, "Guten Morgen, wie geht es dir heute?", (size_t)-1, &o, &r) == LANGSIFT_OK);
    CHECK(strcmp(r.language, "de") == 0);
  }
  o.only = "zh-hant";  /* a script subtag in any case */
  CHECK(langsift_detect(d, "\xe6\x88\x91\xe5\x80\x91\xe6\x98\xaf\xe5\xad\xb8\xe7\x94\x9f", (size_t)-1, &o, &r) == LANGSIFT_OK);
  CHECK(strcmp(r.language, "zh-Hant") == 0);
  o.only = "de,xx";
  CHECK(langsift_detect(d, "Guten Morgen, wie geht es dir heute?", (size_t)-1, &o, &r) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(r.status == LANGSIFT_INVALID_ARGUMENT && strcmp(r.language, "und") == 0 && r.count == 0);
}

static void test_url(void) {
  langsift_url_result u;
  CHECK(langsift_url_classify("http://www.lemonde.fr/politique/article.html", (size_t)-1, NULL, &u) == LANGSIFT_OK);
  CHECK(strcmp(u.language, "fr") == 0);
  CHECK(u.count >= 1 && u.languages[0].score > 0.0f && u.languages[0].score <= 1.0f);
  CHECK(langsift_url_classify("https://www.spiegel.de/politik/deutschland/", (size_t)-1, "DE", &u) == LANGSIFT_OK);
  CHECK(strcmp(u.language, "de") == 0);
  CHECK(langsift_url_classify("", 0, NULL, &u) == LANGSIFT_OK);
  CHECK(strcmp(u.language, "und") == 0 && u.count == 0);
  CHECK(langsift_url_classify(NULL, 4, NULL, &u) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_url_classify("http://x.com/", (size_t)-1, NULL, NULL) == LANGSIFT_INVALID_ARGUMENT);
}

/* The 0.1 functions kept for binary compatibility answer as their replacements. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static void test_deprecated_shims(langsift_detector* d, const char* model_path) {
  langsift_url_result a, b;
  CHECK(langsift_classify_url(d, "http://www.lemonde.fr/politique/", (size_t)-1, NULL, &a) == LANGSIFT_OK);
  CHECK(langsift_url_classify("http://www.lemonde.fr/politique/", (size_t)-1, NULL, &b) == LANGSIFT_OK);
  CHECK(memcmp(&a, &b, sizeof a) == 0);
  CHECK(langsift_classify_url(NULL, "http://x.com/", (size_t)-1, NULL, &a) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(a.status == LANGSIFT_INVALID_ARGUMENT && strcmp(a.language, "und") == 0);
  langsift_detector* bad = (langsift_detector*)1;
  CHECK(langsift_detector_new_from_memory("not a model at all", 18, &bad) == LANGSIFT_CORRUPT_MODEL && bad == NULL);
  CHECK(langsift_detector_new_from_memory(NULL, 0, &bad) == LANGSIFT_INVALID_ARGUMENT);
  if (model_path) {
    size_t len = 0;
    char* bytes = read_file(model_path, &len);
    langsift_detector* m = NULL;
    CHECK(bytes && langsift_detector_new_from_memory(bytes, len, &m) == LANGSIFT_OK && m != NULL);
    if (m) CHECK(langsift_detector_language_count(m) == langsift_detector_language_count(d));
    langsift_detector_free(m);
    free(bytes);
  }
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* Threads share one detector and must agree with the single-threaded answer. */
struct job {
  const langsift_detector* d;
  langsift_result first;
  int mismatches;
};

static void* worker(void* arg) {
  struct job* j = arg;
  for (int i = 0; i < 200; ++i) {
    langsift_result r;
    if (langsift_detect(j->d, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &r) != LANGSIFT_OK ||
        memcmp(&r, &j->first, sizeof r) != 0)
      ++j->mismatches;
  }
  return NULL;
}

static void test_threads(langsift_detector* d) {
  struct job jobs[4];
  pthread_t t[4];
  langsift_result first;
  memset(&first, 0, sizeof first);
  langsift_detect(d, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &first);
  for (int i = 0; i < 4; ++i) {
    jobs[i].d = d;
    jobs[i].first = first;
    jobs[i].mismatches = 0;
    CHECK(pthread_create(&t[i], NULL, worker, &jobs[i]) == 0);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(t[i], NULL);
    CHECK(jobs[i].mismatches == 0);
  }
}

int main(int argc, char** argv) {
  test_basics();
  langsift_detector* d = NULL;
  char msg[256] = "";
  if (langsift_detector_new(NULL, &d, msg, sizeof msg) != LANGSIFT_OK) {
    fprintf(stderr, "built-in model: %s\n", msg);
    return 1;
  }
  CHECK(langsift_detector_language_count(d) >= 100);
  CHECK(strlen(langsift_detector_language(d, 0)) >= 2);
  test_detect(d);
  test_probabilities(d);
  test_errors(d);
  test_url();
  test_only_unknown(d);
  test_builtin(d);
  test_deprecated_shims(d, argc > 1 ? argv[1] : NULL);
  test_threads(d);

  /* The same model from a file and from memory gives the same answers. */
  if (argc > 1) {
    langsift_detector* f = NULL;
    CHECK(langsift_detector_new(argv[1], &f, msg, sizeof msg) == LANGSIFT_OK);
    size_t len = 0;
    char* bytes = read_file(argv[1], &len);
    CHECK(bytes != NULL);
    langsift_detector* m = NULL;
    CHECK(bytes && langsift_detector_new_from_bytes(bytes, len, &m, msg, sizeof msg) == LANGSIFT_OK);
    free(bytes); /* copied */
    if (f && m) {
      langsift_result a, b, c;
      langsift_detect(d, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &a);
      langsift_detect(f, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &b);
      langsift_detect(m, kGermanLatin1, sizeof kGermanLatin1 - 1, NULL, &c);
      CHECK(memcmp(&a, &b, sizeof a) == 0);
      CHECK(memcmp(&a, &c, sizeof a) == 0);
      /* Truncated model bytes are rejected. */
      bytes = read_file(argv[1], &len);
      langsift_detector* t = NULL;
      CHECK(langsift_detector_new_from_bytes(bytes, len / 2, &t, msg, sizeof msg) == LANGSIFT_CORRUPT_MODEL && t == NULL);
      free(bytes);
    }
    langsift_detector_free(f);
    langsift_detector_free(m);
  }
  langsift_detector_free(d);
  return check_exit_status();
}
