#!/bin/sh
# Fake span detector for tests/tools/test_eval.cpp (`langsift-eval spans`): every word "en" or "fr"
# (the first word of each fixture sentence) starts the language of what follows, so its spans
# are the true ones. With the argument `one`, a single span of the first word's language instead;
# with `bad`, spans out of order.
mode=${1:-words}
exec awk -v mode="$mode" '{
  if (mode == "one") { printf "{\"spans\":[[0,%d,\"%s\"]]}\n", length($0), $1; next }
  if (mode == "bad") { print "{\"spans\":[[5,9,\"en\"],[0,3,\"fr\"]]}"; next }
  n = split($0, w, " "); pos = 0; out = ""; cur = ""; start = 0
  for (i = 1; i <= n; i++) {
    if ((w[i] == "en" || w[i] == "fr") && w[i] != cur) {
      if (cur != "") out = out sprintf("[%d,%d,\"%s\"],", start, pos, cur)
      cur = w[i]; start = pos
    }
    pos += length(w[i]) + 1
  }
  if (cur != "") out = out sprintf("[%d,%d,\"%s\"]", start, length($0), cur)
  printf "{\"spans\":[%s]}\n", out
}'
