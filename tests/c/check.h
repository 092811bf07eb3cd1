/* CHECK for the C tests: reports a failed condition with its place and counts it; main returns
 * non-zero when `failures` is (return check_exit_status()). Include once per test program. */
#ifndef LANGSIFT_TESTS_C_CHECK_H
#define LANGSIFT_TESTS_C_CHECK_H

#include <stdio.h>

static int failures = 0;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);        \
      ++failures;                                                                     \
    }                                                                                 \
  } while (0)

/* main's exit status: 0, or 1 after saying how many checks failed. */
static int check_exit_status(void) {
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}

#endif
