/* langsift — C ABI (library `langsift_c`, link with -llangsift_c or CMake langsift::c).
 *
 * For crawlers and bindings in other languages (the Java bridge in bindings/java uses it). Plain C
 * types only; no exception, allocation failure or bad argument crosses this boundary: every
 * function reports a langsift_status instead. The library never prints, exits or aborts.
 *
 *   langsift_detector* d = NULL;
 *   if (langsift_detector_new(NULL, &d, NULL, 0) != LANGSIFT_OK) ...;   // the built-in model
 *   langsift_page_options o = {0};
 *   o.content_type = "text/html; charset=iso-8859-1";
 *   o.url = "http://example.de/";
 *   langsift_result r;
 *   langsift_detect(d, body, body_len, &o, &r);        // r.languages[0].code: "de"
 *   langsift_url_result u;
 *   langsift_url_classify("http://www.lemonde.fr/politique/", (size_t)-1, NULL, &u);
 *   langsift_detector_free(d);
 *
 * Thread safety: a detector is immutable once created; any number of threads may call
 * langsift_detect / langsift_detect_text on the same detector at once; langsift_url_classify needs
 * no detector and may be called from any thread.
 * Create and free are not concurrent with use of the same detector.
 *
 * Strings in: UTF-8 (a body may be in any encoding: it is detected and converted). Lengths are in
 * bytes; (size_t)-1 for a NUL-terminated string where a length is taken. Strings out: NUL-terminated
 * UTF-8 in fixed arrays of the result structs, valid as long as the struct.
 */
#ifndef LANGSIFT_H
#define LANGSIFT_H

#include <stddef.h>

#if defined(_WIN32)
#define LANGSIFT_C_API __declspec(dllexport)
#else
#define LANGSIFT_C_API __attribute__((visibility("default")))
#endif

/* Functions kept for binary compatibility only. Define LANGSIFT_NO_DEPRECATION_WARNINGS to
 * silence the warning. */
#if defined(LANGSIFT_NO_DEPRECATION_WARNINGS) || !(defined(__GNUC__) || defined(__clang__))
#define LANGSIFT_DEPRECATED(msg)
#else
#define LANGSIFT_DEPRECATED(msg) __attribute__((deprecated(msg)))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The same values and names as langsift::status (langsift/common.hpp). */
typedef enum langsift_status {
  LANGSIFT_OK = 0,
  LANGSIFT_EMPTY_INPUT = 1,      /* nothing to work on: the answer is "und" */
  LANGSIFT_INVALID_UTF8 = 2,     /* text that must be UTF-8 was not; bad sequences were replaced */
  LANGSIFT_TRUNCATED = 3,        /* longer than a cap: a prefix or sample was examined */
  LANGSIFT_UNKNOWN_ENCODING = 4, /* a charset no converter knows: decoded as windows-1252 */
  LANGSIFT_CONVERSION_ERROR = 5,
  LANGSIFT_INVALID_ARGUMENT = 6, /* a NULL pointer, an out-of-range option */
  LANGSIFT_CORRUPT_MODEL = 7,    /* a model file that is truncated, bit-flipped or not a model */
  LANGSIFT_MODEL_VERSION = 8,    /* a model or frontier state file of another format version */
  LANGSIFT_IO_ERROR = 9,         /* a file could not be read */
  LANGSIFT_OUT_OF_MEMORY = 10,
  LANGSIFT_INTERNAL_ERROR = 11,
  LANGSIFT_BINARY_INPUT = 12,    /* the bytes are not text: the answer is "und" */
  LANGSIFT_CORRUPT_STATE = 13,   /* a frontier state file that is truncated, bit-flipped or not one */
  LANGSIFT_UNSUPPORTED_PLATFORM = 14, /* a binary file this host cannot read (a big-endian host) */
  LANGSIFT_TOO_LARGE = 15        /* over a size cap the caller set: refused, not read */
} langsift_status;

/* "ok", "empty_input", ... ; "unknown_status" for a value out of range. Static storage. */
LANGSIFT_C_API const char* langsift_status_name(langsift_status s);

/* "0.1.0". Static storage. */
LANGSIFT_C_API const char* langsift_version(void);

typedef struct langsift_detector langsift_detector;

/* Creates a detector. model_path NULL or "": the built-in model. On failure *out is NULL and, if
 * error/error_size are given, a message (NUL-terminated, truncated to fit) is written there. */
LANGSIFT_C_API langsift_status langsift_detector_new(const char* model_path, langsift_detector** out,
                                                     char* error, size_t error_size);
/* Creates a detector over a built-in model by name: "default" (as langsift_detector_new with NULL)
 * or "wide" (more languages; parsed on its first use, not copied). An unknown name or NULL:
 * LANGSIFT_INVALID_ARGUMENT, with a message naming the built-in models. */
LANGSIFT_C_API langsift_status langsift_detector_new_builtin(const char* name, langsift_detector** out,
                                                             char* error, size_t error_size);
/* The number of built-in models, and the name of the i-th (NULL when out of range). Static storage. */
LANGSIFT_C_API size_t langsift_builtin_model_count(void);
LANGSIFT_C_API const char* langsift_builtin_model_name(size_t i);
/* As above from model bytes in memory (copied), with the same error message. */
LANGSIFT_C_API langsift_status langsift_detector_new_from_bytes(const void* model_bytes, size_t len,
                                                                langsift_detector** out, char* error,
                                                                size_t error_size);
/* Deprecated (0.1): langsift_detector_new_from_bytes without the message. Kept for binary
 * compatibility; it calls the former. */
LANGSIFT_C_API LANGSIFT_DEPRECATED("use langsift_detector_new_from_bytes")
langsift_status langsift_detector_new_from_memory(const void* model_bytes, size_t len, langsift_detector** out);
/* NULL is allowed. */
LANGSIFT_C_API void langsift_detector_free(langsift_detector* d);

/* Number of languages of the detector's model, and the code of the i-th ("" when out of range). */
LANGSIFT_C_API size_t langsift_detector_language_count(const langsift_detector* d);
LANGSIFT_C_API const char* langsift_detector_language(const langsift_detector* d, size_t i);

enum { LANGSIFT_KIND_SNIFF = 0, LANGSIFT_KIND_HTML = 1, LANGSIFT_KIND_TEXT = 2 };

/* All fields optional: zero-initialise, then set what you know. */
typedef struct langsift_page_options {
  const char* content_type;     /* HTTP Content-Type, e.g. "text/html; charset=Shift_JIS" */
  const char* content_language; /* HTTP Content-Language */
  const char* url;              /* the page's URL: its country-code TLD is a weak hint */
  const char* encoding;         /* force this encoding, skipping detection; a label no converter
                                   knows: LANGSIFT_UNKNOWN_ENCODING (as the command line) */
  const char* only;             /* codes to choose from, separated by commas and/or white space,
                                   in either ISO form and any case, e.g. "de,fr,it" or "deu fra"
                                   ("zh" includes zh-Hant); a code the model lacks:
                                   LANGSIFT_INVALID_ARGUMENT */
  int kind;                     /* LANGSIFT_KIND_*: sniff (default), html or text */
  int main_content;             /* HTML: only the main-content blocks */
  size_t max_text_bytes;        /* text bytes examined at most (0: the default, 64 KiB; 1..255:
                                   LANGSIFT_INVALID_ARGUMENT, as the command line) */
  size_t short_text_bytes;      /* below this many text bytes the result is "short" (0: 400) */
} langsift_page_options;

typedef struct langsift_language {
  char code[24];   /* ISO 639-1 where one exists, else 639-3, maybe with a script subtag */
  int percent;     /* share of the text bytes, 0..100 */
  size_t bytes;    /* text bytes in this language */
  float score;     /* fit to the language's training text: ~1 normal, < 0.5 unusual */
} langsift_language;

typedef struct langsift_result {
  langsift_language languages[3]; /* most bytes first; `count` are valid */
  int count;                      /* 0: "und" */
  char language[24];              /* languages[0].code, or "und" */
  size_t text_bytes;
  float confidence;               /* calibrated probability (0..1) that `language` is right: among
                                     answers given p, about p are right; 0 for "und" */
  int reliable;
  int is_short;
  int is_html;
  char encoding[40];              /* "utf-8", "windows-1252", "shift_jis"... ("" for detect_text) */
  char encoding_source[12];       /* "bom", "http", "meta", "detected", "default" */
  size_t replaced_bytes;          /* input bytes that were invalid and became U+FFFD */
  langsift_status status;         /* of the detection: ok, empty_input, binary_input, truncated... */
} langsift_result;

/* The whole pipeline on an HTTP body (any encoding, HTML or text). options may be NULL.
 * len (size_t)-1: body is a NUL-terminated string.
 * Returns LANGSIFT_OK when *out holds an answer (which may be "und": see out->status; a page cut
 * by a cap says LANGSIFT_TRUNCATED there), or LANGSIFT_INVALID_ARGUMENT (NULL detector/out, NULL
 * body with len > 0, an option out of range, a code of `only` the model lacks) /
 * LANGSIFT_UNKNOWN_ENCODING (options->encoding no converter knows) / LANGSIFT_OUT_OF_MEMORY, with
 * *out set to "und". */
LANGSIFT_C_API langsift_status langsift_detect(const langsift_detector* d, const void* body, size_t len,
                                               const langsift_page_options* options, langsift_result* out);

/* Detection on UTF-8 text only (no encoding detection, no HTML). Invalid UTF-8 is read as U+FFFD:
 * out->replaced_bytes counts its bytes and out->status is LANGSIFT_INVALID_UTF8 (when nothing else
 * was to say); the return value is LANGSIFT_OK, as an answer was given. */
LANGSIFT_C_API langsift_status langsift_detect_text(const langsift_detector* d, const char* utf8, size_t len,
                                                    langsift_result* out);

/* One language and its calibrated probability (langsift_detect_probabilities). */
typedef struct langsift_probability {
  char code[24];  /* as langsift_language.code */
  float p;        /* 0..1 */
} langsift_probability;

/* The most probable languages one may ask for (k). */
#define LANGSIFT_MAX_TOP_K 16

/* As langsift_detect / langsift_detect_text, and also the k (0..LANGSIFT_MAX_TOP_K) most probable
 * languages with their calibrated probabilities in probs[0 .. *count), most probable first; they
 * sum to at most 1 (the rest is "other"), and a text in several languages spreads them by its
 * languages' shares (60 % German, 40 % French: de about 0.6). *count is 0 for "und" and on any
 * failure. k > LANGSIFT_MAX_TOP_K, or probs or count NULL with k > 0: LANGSIFT_INVALID_ARGUMENT. */
LANGSIFT_C_API langsift_status langsift_detect_probabilities(const langsift_detector* d, const void* body, size_t len,
                                                             const langsift_page_options* options, langsift_result* out,
                                                             langsift_probability* probs, size_t k, size_t* count);
LANGSIFT_C_API langsift_status langsift_detect_text_probabilities(const langsift_detector* d, const char* utf8,
                                                                  size_t len, langsift_result* out,
                                                                  langsift_probability* probs, size_t k, size_t* count);

typedef struct langsift_url_language {
  char code[24];
  float score; /* probability-like, 0..1 */
} langsift_url_language;

typedef struct langsift_url_result {
  langsift_url_language languages[3];
  int count;            /* 0: "und" (nothing in the URL tells) */
  char language[24];    /* languages[0].code, or "und" */
  langsift_status status; /* ok, truncated (a prefix was classified), empty_input, invalid_argument */
} langsift_url_result;

/* Language of the page a URL leads to, from the URL alone (the built-in URL models; no detector
 * is needed). country_hint: ISO 3166 code of the host's country (e.g. from geo-IP), or NULL.
 * Returns LANGSIFT_OK when *out holds an answer (see out->status), or LANGSIFT_INVALID_ARGUMENT
 * (NULL out, NULL url with len > 0). */
LANGSIFT_C_API langsift_status langsift_url_classify(const char* url, size_t len, const char* country_hint,
                                                     langsift_url_result* out);
/* Deprecated (0.1): langsift_url_classify with a detector argument it never used (NULL is still
 * LANGSIFT_INVALID_ARGUMENT, as it was). Kept for binary compatibility. */
LANGSIFT_C_API LANGSIFT_DEPRECATED("use langsift_url_classify")
langsift_status langsift_classify_url(const langsift_detector* d, const char* url, size_t len,
                                      const char* country_hint, langsift_url_result* out);

/* ============================================================================================
 * Crawl frontier (langsift/frontier.hpp; docs/frontier.md). Thread-safe: any number of threads may
 * call the functions below on the same frontier at once (not concurrently with its free).
 *
 *   langsift_frontier* f = NULL;
 *   langsift_frontier_new(NULL, &f);                     // default options
 *   langsift_frontier_set_quota(f, "de", 1000000);
 *   langsift_frontier_record_fetch(f, url, (size_t)-1, &page_result);   // a fetched page
 *   langsift_frontier_add_votes(f, &page_result, links, NULL, n_links, NULL);
 *   langsift_frontier_decision x;
 *   langsift_frontier_decide(f, link, (size_t)-1, &url_result, &x);   // x.fetch, x.priority
 * ============================================================================================ */

typedef struct langsift_frontier langsift_frontier;

typedef struct langsift_frontier_options {
  int min_vote_percent;   /* a page language votes with at least this share of its text (20) */
  float url_weight;       /* the URL classifier counts as this many referrer votes (2) */
  float vote_prior;       /* pseudo-votes for an unknown language (1) */
  float min_url_guess;    /* URL scores below this are no guess for the skip rule (0.3) */
  float unknown_priority; /* priority of a URL nothing is known about (0.1) */
  int skip_saturated;     /* skip a URL whose every guess is a saturated language (1) */
  int skip_unwanted;      /* ... or saturated or without a quota (0) */
  size_t max_urls;        /* URLs kept at most, 0: no bound (0) */
} langsift_frontier_options;

enum {
  LANGSIFT_FRONTIER_WANTED = 0,    /* fetch */
  LANGSIFT_FRONTIER_UNKNOWN = 1,   /* fetch: nothing known, priority = unknown_priority */
  LANGSIFT_FRONTIER_UNWANTED = 2,  /* fetch: no guess is wanted */
  LANGSIFT_FRONTIER_SATURATED = 3, /* skip: every guess is a saturated language */
  LANGSIFT_FRONTIER_FETCHED = 4,   /* skip: fetched already */
  LANGSIFT_FRONTIER_INVALID = 5    /* skip: an empty URL */
};

typedef struct langsift_frontier_decision {
  int fetch;          /* 1: fetch, 0: skip */
  int reason;         /* LANGSIFT_FRONTIER_* */
  float priority;     /* 0..1, higher first */
  unsigned votes;     /* referrer votes the URL collected */
  char language[24];  /* the most probable language, or "und" */
} langsift_frontier_decision;

/* Fills *o with the defaults (the values in parentheses above). */
LANGSIFT_C_API void langsift_frontier_default_options(langsift_frontier_options* o);
/* options NULL: the defaults. INVALID_ARGUMENT (and *out NULL) when url_weight, vote_prior or
 * min_url_guess is not in 0..1e6, or unknown_priority not in 0..1 (NaN included). */
LANGSIFT_C_API langsift_status langsift_frontier_new(const langsift_frontier_options* options, langsift_frontier** out);
/* NULL is allowed. */
LANGSIFT_C_API void langsift_frontier_free(langsift_frontier* f);
/* target 0 removes the quota. INVALID_ARGUMENT for a NULL or empty code, one over 15 bytes, or a
 * full language table (254 codes). */
LANGSIFT_C_API langsift_status langsift_frontier_set_quota(langsift_frontier* f, const char* lang,
                                                           unsigned long long target);
LANGSIFT_C_API langsift_status langsift_frontier_get_quota(const langsift_frontier* f, const char* lang,
                                                           unsigned long long* target, unsigned long long* count);
/* A page was fetched: the URL is skipped from now on and the page's top language counts toward
 * its quota (once per URL). page: the result of langsift_detect / langsift_detect_text. */
LANGSIFT_C_API langsift_status langsift_frontier_record_fetch(langsift_frontier* f, const char* url, size_t len,
                                                              const langsift_result* page);
/* The page's languages vote for each of the n out-link URLs (none when page->is_short).
 * lens NULL: the URLs are NUL-terminated. *votes (if given): votes recorded. */
LANGSIFT_C_API langsift_status langsift_frontier_add_votes(langsift_frontier* f, const langsift_result* page,
                                                           const char* const* urls, const size_t* lens, size_t n,
                                                           size_t* votes);
/* Fetch or skip, and the priority. scores: langsift_classify_url's answer for this URL, or NULL
 * (referrer votes only). */
LANGSIFT_C_API langsift_status langsift_frontier_decide(const langsift_frontier* f, const char* url, size_t len,
                                                        const langsift_url_result* scores,
                                                        langsift_frontier_decision* out);
/* State files (versioned, checksummed). A truncated, corrupt or foreign file gives
 * LANGSIFT_CORRUPT_STATE, another version LANGSIFT_MODEL_VERSION, and leaves the frontier
 * unchanged; error/error_size
 * (optional) receive a message. */
LANGSIFT_C_API langsift_status langsift_frontier_save(const langsift_frontier* f, const char* path, char* error,
                                                      size_t error_size);
LANGSIFT_C_API langsift_status langsift_frontier_load(langsift_frontier* f, const char* path, char* error,
                                                      size_t error_size);

/* ============================================================================================
 * Result filters (NCL-Crawl, Table 1; langsift/filter.hpp): a page is kept when ONE of its detected
 * languages passes EVERY enabled filter — its code is among the labels ("zh" also keeps zh-Hant),
 * it has at least min_bytes and at most max_bytes of text, and at least min_percent of the text;
 * with min_probability only the top language can pass, and only when its calibrated probability
 * (langsift_result.confidence) is at least that. With no filter enabled every page is kept; "und"
 * pages only then. A filter is immutable: any number of threads may use one at once.
 *
 *   langsift_filter* f = NULL;
 *   langsift_filter_from_config(get, conf, NULL, &f, msg, sizeof msg);   // filter.lang.* names
 *   int keep = 0;
 *   langsift_filter_keep(f, &page_result, &keep);
 *   langsift_filter_free(f);
 * ============================================================================================ */

typedef struct langsift_filter langsift_filter;

typedef struct langsift_filter_settings {
  const char* labels;     /* language codes as `only` takes them ("de, nld"); NULL: no label filter */
  long long min_bytes;    /* a passing language has at least this many text bytes; < 0: off */
  long long max_bytes;    /* ... and at most this many; < 0: off */
  int min_percent;        /* ... and at least this share of the text, 0..100; < 0: off */
  float min_probability;  /* the top language only, at least this probable (0..1); < 0: off */
} langsift_filter_settings;

/* Fills *s with every filter off (labels NULL, the numbers -1): a filter that keeps every page. */
LANGSIFT_C_API void langsift_filter_default_settings(langsift_filter_settings* s);

/* A filter from settings. also: a detector whose model's codes are accepted as labels too (a trained
 * model's), or NULL. INVALID_ARGUMENT (*out NULL; error/error_size, optional, receive a message)
 * for NULL settings or out, labels that hold no code or name a language neither the built-in
 * models nor `also` know ("not a language langsift knows: 'ger' (did you mean 'de'?)"),
 * min_percent over 100, min_probability over 1 or NaN. */
LANGSIFT_C_API langsift_status langsift_filter_new(const langsift_filter_settings* s, const langsift_detector* also,
                                                   langsift_filter** out, char* error, size_t error_size);

/* A configuration source for langsift_filter_from_config: the value of `key` (NUL-terminated UTF-8,
 * valid until get is called again or langsift_filter_from_config returns), or NULL when not set. */
typedef const char* (*langsift_config_get)(void* context, const char* key);

/* A filter from NCL-Crawl's configuration names, read through get(context, key) (as Hadoop's
 * Configuration::get; the library's reader, langsift/options.hpp): everything is off unless
 * filter.lang.enable is "true"; then each of filter.lang.label, filter.lang.minSize.bytes,
 * filter.lang.maxSize.bytes and filter.lang.minPercentage.limit is on when its own ".enable" is
 * "true". also, *out and the errors as langsift_filter_new; the message names the key
 * ("filter.lang.minSize.bytes: not a number: 'many'"). */
LANGSIFT_C_API langsift_status langsift_filter_from_config(langsift_config_get get, void* context,
                                                           const langsift_detector* also, langsift_filter** out,
                                                           char* error, size_t error_size);

/* NULL is allowed. */
LANGSIFT_C_API void langsift_filter_free(langsift_filter* f);

/* The filter's settings; labels in langsift's form joined by "," ("de,nl"; NULL when that filter
 * is off), valid as long as f. */
LANGSIFT_C_API langsift_status langsift_filter_get_settings(const langsift_filter* f, langsift_filter_settings* out);
/* The number of labels (0 when that filter is off), and the i-th ("de"; NULL when out of range),
 * valid as long as f. */
LANGSIFT_C_API size_t langsift_filter_label_count(const langsift_filter* f);
LANGSIFT_C_API const char* langsift_filter_label(const langsift_filter* f, size_t i);

/* *keep = 1 when the page is kept, else 0. page: a result of langsift_detect / langsift_detect_text
 * (its count, languages and confidence are read). INVALID_ARGUMENT for a NULL pointer. */
LANGSIFT_C_API langsift_status langsift_filter_keep(const langsift_filter* f, const langsift_result* page, int* keep);
/* *passes = 1 when the language passes every enabled filter but min_probability (a condition on
 * the page: langsift_filter_keep), else 0. */
LANGSIFT_C_API langsift_status langsift_filter_passes(const langsift_filter* f, const langsift_language* language,
                                                      int* passes);

#ifdef __cplusplus
}
#endif

#endif /* LANGSIFT_H */
