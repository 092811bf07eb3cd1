#!/bin/sh
# Fake detector for tests/tools/test_eval.cpp (`langsift-eval junk`): each sample starts with the
# answer and its reliable flag ("en 1 rest..."); prints them as langsift's TSV fields 1 and 4.
exec awk '{ printf "%s\t%s:100:10\t10\t%s\t1\t0.5\n", $1, $1, $2 }'
