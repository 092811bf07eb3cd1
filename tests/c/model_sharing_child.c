/* The second program of "model_data: two programs share the built-in models' pages"
 * (tests/unit/test_model_data.cpp): a C program over the C ABI (liblangsift_c.so), unlike the C++
 * test that starts it. It sets up the default built-in model and detects a sentence with it, then
 * prints the memory figures of its own mapping of FILE that covers the file offsets [BEGIN, END)
 * (where the default model's bytes are), from /proc/self/smaps, in kB, and how long setting up
 * the model took:
 *     rss=N shared=N anonymous=N setup_us=N
 * (shared: Shared_Clean + Shared_Dirty, the resident pages that another process maps too;
 * anonymous: pages that are copies, not the file's.)
 * Exit 0; 1 (and a line on stderr) when detection fails or it has no such mapping.
 * Usage: langsift-test-model-sharing-child FILE BEGIN END */
#define _POSIX_C_SOURCE 200809L
#include <langsift.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long field(const char* line, const char* name) {
  size_t n = strlen(name);
  if (strncmp(line, name, n) != 0 || line[n] != ':') return -1;
  return strtol(line + n + 1, NULL, 10);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s FILE BEGIN END\n", argv[0]);
    return 2;
  }
  const char* file = argv[1];
  const unsigned long long begin = strtoull(argv[2], NULL, 10), end = strtoull(argv[3], NULL, 10);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  langsift_detector* d = NULL;
  char error[256] = "";
  if (langsift_detector_new(NULL, &d, error, sizeof error) != LANGSIFT_OK) {
    fprintf(stderr, "model_sharing_child: the default model: %s\n", error);
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const long setup_us = (long)((t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L);
  const char text[] = "Der Stadtrat hat am Dienstag einen neuen Haushalt beschlossen.";
  langsift_result r;
  if (langsift_detect_text(d, text, sizeof text - 1, &r) != LANGSIFT_OK || strcmp(r.language, "de") != 0) {
    fprintf(stderr, "model_sharing_child: detection failed\n");
    return 1;
  }

  FILE* f = fopen("/proc/self/smaps", "r");
  if (!f) {
    perror("model_sharing_child: /proc/self/smaps");
    return 1;
  }
  char line[4096];
  int in = 0, found = 0;
  long rss = 0, shared = 0, anonymous = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long lo, hi, off;
    char perms[8], path[3000] = "";
    if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %2999s", &lo, &hi, perms, &off, path) >= 4 &&
        strchr(line, '-') && strlen(perms) == 4) {
      in = strcmp(path, file) == 0 && off <= begin && end <= off + (hi - lo);
      found |= in;
      continue;
    }
    if (!in) continue;
    long v;
    if ((v = field(line, "Rss")) >= 0) rss = v;
    else if ((v = field(line, "Shared_Clean")) >= 0) shared += v;
    else if ((v = field(line, "Shared_Dirty")) >= 0) shared += v;
    else if ((v = field(line, "Anonymous")) >= 0) anonymous = v;
  }
  fclose(f);
  langsift_detector_free(d);
  if (!found) {
    fprintf(stderr, "model_sharing_child: no mapping of %s covering offsets [%llu, %llu)\n", file, begin, end);
    return 1;
  }
  printf("rss=%ld shared=%ld anonymous=%ld setup_us=%ld\n", rss, shared, anonymous, setup_us);
  return 0;
}
