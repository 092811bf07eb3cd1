/* The C ABI's result filters (langsift_filter_*), compiled as C11 against the shared library:
 * settings and NCL-Crawl's configuration names read by the library, labels checked and put in
 * langsift's form, keep/passes on real detections, error paths with their messages, NULL pointers.
 * Usage: langsift-test-capi-filter */
#include <langsift.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const char kGerman[] = "Die Kinder spielten im Garten, w\xc3\xa4hrend ihre Eltern das Abendessen kochten.";
static const char kFrench[] = "Les enfants jouaient dans le jardin pendant que leurs parents pr\xc3\xa9paraient le d\xc3\xaener.";
static const char kTraditionalChinese[] = "\xe6\x88\x91\xe5\x80\x91\xe6\x98\xaf\xe5\xad\xb8\xe7\x94\x9f\xef\xbc\x8c"
                                          "\xe6\x88\x91\xe5\x80\x91\xe5\x96\x9c\xe6\xad\xa1\xe8\xae\x80\xe6\x9b\xb8\xe3\x80\x82";

/* A configuration: pairs of key and value, ending with a NULL key. */
typedef struct {
  const char* const* pairs;
  int calls;
} config;

static const char* get(void* context, const char* key) {
  config* c = (config*)context;
  ++c->calls;
  for (const char* const* p = c->pairs; p[0]; p += 2)
    if (strcmp(p[0], key) == 0) return p[1];
  return NULL;
}

static langsift_status from_config(const char* const* pairs, langsift_filter** out, char* msg, size_t size) {
  config c = {pairs, 0};
  return langsift_filter_from_config(get, &c, NULL, out, msg, size);
}

static int keeps(const langsift_filter* f, const langsift_result* r) {
  int keep = -1;
  CHECK(langsift_filter_keep(f, r, &keep) == LANGSIFT_OK);
  return keep;
}

static void test_settings(const langsift_result* de, const langsift_result* fr, const langsift_result* und) {
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  CHECK(s.labels == NULL && s.min_bytes == -1 && s.max_bytes == -1 && s.min_percent == -1 && s.min_probability < 0);
  langsift_filter* f = NULL;
  char msg[256] = "";
  CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && keeps(f, de) == 1 && keeps(f, fr) == 1 && keeps(f, und) == 1); /* nothing enabled: every page */
  langsift_filter_free(f);

  s.labels = "deu, NL";  /* as `only`: either ISO form, any case */
  s.min_percent = 30;
  CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  if (!f) return;
  langsift_filter_settings back;
  CHECK(langsift_filter_get_settings(f, &back) == LANGSIFT_OK);
  CHECK(back.labels && strcmp(back.labels, "de,nl") == 0);
  CHECK(back.min_bytes == -1 && back.max_bytes == -1 && back.min_percent == 30 && back.min_probability < 0);
  CHECK(langsift_filter_label_count(f) == 2);
  CHECK(strcmp(langsift_filter_label(f, 0), "de") == 0 && strcmp(langsift_filter_label(f, 1), "nl") == 0);
  CHECK(langsift_filter_label(f, 2) == NULL);
  CHECK(keeps(f, de) == 1 && keeps(f, fr) == 0 && keeps(f, und) == 0);
  int passes = -1;
  CHECK(langsift_filter_passes(f, &de->languages[0], &passes) == LANGSIFT_OK && passes == 1);
  CHECK(langsift_filter_passes(f, &fr->languages[0], &passes) == LANGSIFT_OK && passes == 0);
  langsift_filter_free(f);

  /* min_probability: the top language, at that calibrated probability. */
  langsift_filter_default_settings(&s);
  s.min_probability = 0.5f;
  CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && keeps(f, de) == (de->confidence >= 0.5f) && keeps(f, und) == 0);
  langsift_filter_free(f);
  langsift_filter_default_settings(&s);
  s.min_bytes = (long long)de->languages[0].bytes + 1;
  CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && keeps(f, de) == 0);
  langsift_filter_free(f);
  s.min_bytes = -1;
  s.max_bytes = (long long)de->languages[0].bytes;
  CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && keeps(f, de) == 1);
  langsift_filter_free(f);
}

static void test_bad_settings(void) {
  static const struct {
    const char* labels;
    int min_percent;
    float min_probability;
    const char* message;
  } cases[] = {
      {" , ", -1, -1, "labels is empty: give at least one code, or NULL"},
      {"de,ger", -1, -1, "labels: not a language langsift knows: 'ger' (did you mean 'de'?)"},
      {"German xx", -1, -1, "labels: not a language langsift knows: 'German' (did you mean 'de'?), 'xx'"},
      {"und", -1, -1, "labels: not a language langsift knows: 'und'"},
      {NULL, 101, -1, "min_percent must be 0..100 (or negative: off), not 101"},
      {NULL, -1, 1.5f, "min_probability must be 0..1 (or negative: off)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    langsift_filter_settings s;
    langsift_filter_default_settings(&s);
    s.labels = cases[i].labels;
    s.min_percent = cases[i].min_percent;
    s.min_probability = cases[i].min_probability;
    langsift_filter* f = (langsift_filter*)1;
    char msg[256] = "";
    CHECK(langsift_filter_new(&s, NULL, &f, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
    CHECK(f == NULL);
    if (strcmp(msg, cases[i].message) != 0) fprintf(stderr, "message: %s\n", msg);
    CHECK(strcmp(msg, cases[i].message) == 0);
  }
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  s.min_probability = NAN;
  langsift_filter* f = NULL;
  CHECK(langsift_filter_new(&s, NULL, &f, NULL, 0) == LANGSIFT_INVALID_ARGUMENT && f == NULL);
  /* A message cut to its buffer, NUL-terminated. */
  char small[8] = "xxxxxxx";
  s.min_probability = 2;
  CHECK(langsift_filter_new(&s, NULL, &f, small, sizeof small) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(strcmp(small, "min_pro") == 0);
}

static void test_config(const langsift_result* de, const langsift_result* fr, const langsift_result* zh) {
  static const char* const kNone[] = {NULL};
  static const char* const kNotEnabled[] = {"filter.lang.label.enable", "true", "filter.lang.label", "fr", NULL};
  static const char* const kLabels[] = {"filter.lang.enable", "true", "filter.lang.label.enable", "true",
                                        "filter.lang.label", "deu nl", "filter.lang.minPercentage.limit.enable", "TRUE",
                                        "filter.lang.minPercentage.limit", " 30 ", NULL};
  static const char* const kCase[] = {"filter.lang.enable", "true", "filter.lang.label.enable", "true",
                                      "filter.lang.label", "ZH-hant", NULL};
  langsift_filter* f = NULL;
  char msg[256] = "";
  config c = {kNone, 0};
  CHECK(langsift_filter_from_config(get, &c, NULL, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(c.calls == 1); /* filter.lang.enable only */
  CHECK(f && keeps(f, fr) == 1 && langsift_filter_label_count(f) == 0);
  langsift_filter_free(f);
  CHECK(from_config(kNotEnabled, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && keeps(f, fr) == 1);
  langsift_filter_free(f);

  CHECK(from_config(kLabels, &f, msg, sizeof msg) == LANGSIFT_OK);
  if (!f) return;
  langsift_filter_settings s;
  CHECK(langsift_filter_get_settings(f, &s) == LANGSIFT_OK);
  CHECK(s.labels && strcmp(s.labels, "de,nl") == 0 && s.min_percent == 30 && s.min_bytes == -1 && s.max_bytes == -1);
  CHECK(keeps(f, de) == 1 && keeps(f, fr) == 0);
  langsift_filter_free(f);

  /* Any case (Java's filter ignored it, C++ compared exactly): the library's form for both. */
  CHECK(from_config(kCase, &f, msg, sizeof msg) == LANGSIFT_OK);
  CHECK(f && strcmp(langsift_filter_label(f, 0), "zh-Hant") == 0);
  CHECK(f && strcmp(zh->language, "zh-Hant") == 0 && keeps(f, zh) == 1 && keeps(f, de) == 0);
  langsift_filter_free(f);
}

static void test_bad_config(void) {
  static const char* const kEmpty[] = {"filter.lang.enable", "true", "filter.lang.label.enable", "true", NULL};
  static const char* const kNumber[] = {"filter.lang.enable", "true", "filter.lang.minSize.bytes.enable", "true",
                                        "filter.lang.minSize.bytes", "many", NULL};
  static const char* const kUnset[] = {"filter.lang.enable", "true", "filter.lang.maxSize.bytes.enable", "true", NULL};
  static const char* const kPercent[] = {"filter.lang.enable", "true", "filter.lang.minPercentage.limit.enable", "true",
                                         "filter.lang.minPercentage.limit", "200", NULL};
  static const char* const kLabel[] = {"filter.lang.enable", "true", "filter.lang.label.enable", "true",
                                       "filter.lang.label", "de, GER", NULL};
  static const struct {
    const char* const* pairs;
    const char* message;
  } cases[] = {
      {kEmpty, "filter.lang.label is enabled but empty"},
      {kNumber, "filter.lang.minSize.bytes: not a number: 'many'"},
      {kUnset, "filter.lang.maxSize.bytes is enabled but not set"},
      {kPercent, "filter.lang.minPercentage.limit must be 0..100, not 200"},
      {kLabel, "filter.lang.label: not a language langsift knows: 'GER' (did you mean 'de'?)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    langsift_filter* f = (langsift_filter*)1;
    char msg[256] = "";
    CHECK(from_config(cases[i].pairs, &f, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
    CHECK(f == NULL);
    if (strcmp(msg, cases[i].message) != 0) fprintf(stderr, "message: %s\n", msg);
    CHECK(strcmp(msg, cases[i].message) == 0);
  }
}

static void test_null_pointers(const langsift_result* de) {
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  langsift_filter_default_settings(NULL);
  langsift_filter* f = (langsift_filter*)1;
  char msg[64] = "";
  CHECK(langsift_filter_new(NULL, NULL, &f, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT && f == NULL);
  CHECK(langsift_filter_new(&s, NULL, NULL, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  f = (langsift_filter*)1;
  CHECK(langsift_filter_from_config(NULL, NULL, NULL, &f, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT && f == NULL);
  CHECK(langsift_filter_from_config(get, NULL, NULL, NULL, msg, sizeof msg) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_new(&s, NULL, &f, NULL, 0) == LANGSIFT_OK);
  int keep = 7;
  CHECK(langsift_filter_keep(NULL, de, &keep) == LANGSIFT_INVALID_ARGUMENT && keep == 0);
  CHECK(langsift_filter_keep(f, NULL, &keep) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_keep(f, de, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_passes(f, NULL, &keep) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_passes(NULL, &de->languages[0], &keep) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_get_settings(NULL, &s) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_get_settings(f, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_filter_label_count(NULL) == 0 && langsift_filter_label(NULL, 0) == NULL);
  /* A count out of 0..3 in a caller's result is clamped, not read past. */
  langsift_result odd = *de;
  odd.count = 99;
  CHECK(langsift_filter_keep(f, &odd, &keep) == LANGSIFT_OK && keep == 1);
  langsift_filter_free(f);
  langsift_filter_free(NULL);
}

int main(void) {
  langsift_detector* d = NULL;
  char msg[256] = "";
  if (langsift_detector_new(NULL, &d, msg, sizeof msg) != LANGSIFT_OK) {
    fprintf(stderr, "built-in model: %s\n", msg);
    return 1;
  }
  langsift_result de, fr, zh, und;
  CHECK(langsift_detect_text(d, kGerman, (size_t)-1, &de) == LANGSIFT_OK && strcmp(de.language, "de") == 0);
  CHECK(langsift_detect_text(d, kFrench, (size_t)-1, &fr) == LANGSIFT_OK && strcmp(fr.language, "fr") == 0);
  CHECK(langsift_detect_text(d, kTraditionalChinese, (size_t)-1, &zh) == LANGSIFT_OK);
  CHECK(langsift_detect_text(d, "12345", (size_t)-1, &und) == LANGSIFT_OK && und.count == 0);
  test_settings(&de, &fr, &und);
  test_bad_settings();
  test_config(&de, &fr, &zh);
  test_bad_config();
  test_null_pointers(&de);
  langsift_detector_free(d);
  return check_exit_status();
}
