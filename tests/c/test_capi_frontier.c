/* The C ABI's crawl frontier (include/langsift.h, last section), compiled as C11 against the
 * shared library: votes from detected pages (short pages do not vote), quotas and the skip rule,
 * URL scores in the priority, state files (round trip, corrupt file), NULL arguments, 4 threads.
 * Usage: langsift-test-capi-frontier WORK_DIR (where a state file may be written). */
#include <langsift.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"


static const char kGerman[] =
    "Die Bundesregierung hat am Mittwoch einen Gesetzentwurf beschlossen, der die F\xc3\xb6rderung von "
    "erneuerbaren Energien in den kommenden Jahren deutlich ausweiten soll. Nach Angaben des "
    "Wirtschaftsministeriums sollen vor allem Windkraftanlagen an Land und auf See sowie gro\xc3\x9f" "e "
    "Solarparks schneller genehmigt werden. Kritiker bem\xc3\xa4ngeln, dass die Netze nicht im gleichen "
    "Tempo ausgebaut w\xc3\xbcrden und die Kosten f\xc3\xbcr die Verbraucher weiter steigen k\xc3\xb6nnten.";

static langsift_frontier* shared;

static void* voter(void* arg) {
  const int t = *(const int*)arg;
  char url[64];
  for (int i = t; i < 4000; i += 4) {
    snprintf(url, sizeof url, "http://h%d.example/p%d", i % 31, i);
    langsift_result r;
    memset(&r, 0, sizeof r);
    r.count = 1;
    strcpy(r.languages[0].code, (i % 2) ? "de" : "fr");
    r.languages[0].percent = 100;
    const char* urls[1] = {url};
    size_t votes = 0;
    if (langsift_frontier_add_votes(shared, &r, urls, NULL, 1, &votes) != LANGSIFT_OK || votes != 1) return (void*)1;
  }
  return NULL;
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  langsift_detector* det = NULL;
  CHECK(langsift_detector_new(NULL, &det, NULL, 0) == LANGSIFT_OK);
  langsift_frontier* f = NULL;
  CHECK(langsift_frontier_new(NULL, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_new(NULL, &f) == LANGSIFT_OK && f);
  { /* options out of range (NaN, infinite, huge: priorities would not be numbers) are refused */
    const float bad[] = {NAN, INFINITY, -1.0f, FLT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
      langsift_frontier_options o;
      langsift_frontier_default_options(&o);
      o.vote_prior = bad[i];
      langsift_frontier* g = (langsift_frontier*)&o;
      CHECK(langsift_frontier_new(&o, &g) == LANGSIFT_INVALID_ARGUMENT && g == NULL);
      langsift_frontier_default_options(&o);
      o.url_weight = bad[i];
      CHECK(langsift_frontier_new(&o, &g) == LANGSIFT_INVALID_ARGUMENT && g == NULL);
    }
  }

  /* a detected German page votes for its links; a short one does not */
  langsift_result page, short_page;
  CHECK(langsift_detect_text(det, kGerman, (size_t)-1, &page) == LANGSIFT_OK);
  CHECK(strcmp(page.language, "de") == 0 && !page.is_short);
  CHECK(langsift_detect_text(det, "Die Bundesregierung hat beschlossen.", (size_t)-1, &short_page) == LANGSIFT_OK);
  CHECK(short_page.is_short);
  const char* links[2] = {"http://a.example/x", "http://b.example/y#frag"};
  size_t votes = 99;
  CHECK(langsift_frontier_add_votes(f, &page, links, NULL, 2, &votes) == LANGSIFT_OK && votes == 2);
  CHECK(langsift_frontier_add_votes(f, &short_page, links, NULL, 2, &votes) == LANGSIFT_OK && votes == 0);

  CHECK(langsift_frontier_set_quota(f, "de", 1) == LANGSIFT_OK);
  CHECK(langsift_frontier_set_quota(f, "", 1) == LANGSIFT_INVALID_ARGUMENT);
  langsift_frontier_decision x;
  CHECK(langsift_frontier_decide(f, "http://b.example/y", (size_t)-1, NULL, &x) == LANGSIFT_OK);
  CHECK(x.fetch == 1 && x.reason == LANGSIFT_FRONTIER_WANTED && x.votes == 1 && strcmp(x.language, "de") == 0);
  CHECK(x.priority > 0.5f && x.priority <= 1.0f);

  /* URL scores: a classifier answer for an unknown URL */
  langsift_url_result u;
  CHECK(langsift_url_classify("http://www.spiegel.de/politik/deutschland/", (size_t)-1, NULL, &u) == LANGSIFT_OK);
  CHECK(langsift_frontier_decide(f, "http://www.spiegel.de/politik/deutschland/", (size_t)-1, &u, &x) == LANGSIFT_OK);
  CHECK(x.fetch == 1 && strcmp(x.language, "de") == 0);

  /* the quota fills: URLs guessed only German are skipped, a fetched URL too */
  CHECK(langsift_frontier_record_fetch(f, "http://de.example/", (size_t)-1, &page) == LANGSIFT_OK);
  unsigned long long target = 0, count = 0;
  CHECK(langsift_frontier_get_quota(f, "de", &target, &count) == LANGSIFT_OK && target == 1 && count == 1);
  CHECK(langsift_frontier_decide(f, "http://b.example/y", (size_t)-1, NULL, &x) == LANGSIFT_OK);
  CHECK(x.fetch == 0 && x.reason == LANGSIFT_FRONTIER_SATURATED);
  CHECK(langsift_frontier_decide(f, "http://de.example/", (size_t)-1, NULL, &x) == LANGSIFT_OK);
  CHECK(x.fetch == 0 && x.reason == LANGSIFT_FRONTIER_FETCHED);

  /* state file round trip, and a corrupt file */
  char path[512], bad[512], err[256];
  snprintf(path, sizeof path, "%s/capi-frontier.state", dir);
  snprintf(bad, sizeof bad, "%s/capi-frontier-bad.state", dir);
  CHECK(langsift_frontier_save(f, path, err, sizeof err) == LANGSIFT_OK);
  langsift_frontier* g = NULL;
  CHECK(langsift_frontier_new(NULL, &g) == LANGSIFT_OK);
  CHECK(langsift_frontier_load(g, path, err, sizeof err) == LANGSIFT_OK);
  CHECK(langsift_frontier_get_quota(g, "de", &target, &count) == LANGSIFT_OK && target == 1 && count == 1);
  CHECK(langsift_frontier_decide(g, "http://b.example/y", (size_t)-1, NULL, &x) == LANGSIFT_OK && x.reason == LANGSIFT_FRONTIER_SATURATED);
  FILE* in = fopen(path, "rb");
  FILE* out = fopen(bad, "wb");
  CHECK(in && out);
  if (in && out) {
    char buf[4096];
    const size_t n = fread(buf, 1, sizeof buf, in);
    CHECK(n > 40);
    fwrite(buf, 1, n - 5, out); /* truncated */
  }
  if (in) fclose(in);
  if (out) fclose(out);
  CHECK(langsift_frontier_load(g, bad, err, sizeof err) == LANGSIFT_CORRUPT_STATE);
  CHECK(strstr(err, "frontier state") != NULL);
  CHECK(langsift_frontier_get_quota(g, "de", &target, &count) == LANGSIFT_OK && target == 1); /* unchanged */
  CHECK(langsift_frontier_load(g, "/nonexistent/dir/state", err, sizeof err) == LANGSIFT_IO_ERROR);
  remove(path);
  remove(bad);

  /* NULL arguments */
  CHECK(langsift_frontier_decide(NULL, "http://x/", (size_t)-1, NULL, &x) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(strcmp(x.language, "und") == 0 && x.fetch == 0);
  CHECK(langsift_frontier_decide(f, NULL, 0, NULL, &x) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_decide(f, "http://x/", (size_t)-1, NULL, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_add_votes(f, NULL, links, NULL, 2, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_add_votes(f, &page, NULL, NULL, 2, NULL) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_record_fetch(f, NULL, 0, &page) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_save(NULL, path, err, sizeof err) == LANGSIFT_INVALID_ARGUMENT);
  CHECK(langsift_frontier_get_quota(NULL, "de", &target, &count) == LANGSIFT_INVALID_ARGUMENT && target == 0);
  langsift_frontier_options o;
  langsift_frontier_default_options(&o);
  CHECK(o.min_vote_percent == 20 && o.skip_saturated == 1 && o.max_urls == 0);
  o.url_weight = -1;
  langsift_frontier* h = NULL;
  CHECK(langsift_frontier_new(&o, &h) == LANGSIFT_INVALID_ARGUMENT && h == NULL);

  /* 4 threads voting on one frontier: every vote counted */
  CHECK(langsift_frontier_new(NULL, &shared) == LANGSIFT_OK);
  pthread_t th[4];
  int ids[4] = {0, 1, 2, 3};
  for (int t = 0; t < 4; ++t) pthread_create(&th[t], NULL, voter, &ids[t]);
  for (int t = 0; t < 4; ++t) {
    void* rv = NULL;
    pthread_join(th[t], &rv);
    CHECK(rv == NULL);
  }
  CHECK(langsift_frontier_decide(shared, "http://h1.example/p1", (size_t)-1, NULL, &x) == LANGSIFT_OK);
  CHECK(x.votes == 1 && strcmp(x.language, "de") == 0);

  langsift_frontier_free(shared);
  langsift_frontier_free(g);
  langsift_frontier_free(f);
  langsift_frontier_free(NULL);
  langsift_detector_free(det);
  return check_exit_status();
}
