#!/bin/sh
# Fake detector for tests/tools/test_eval.cpp: the same `--format tsv` answer for every line
# (en 60 %, fr 40 %); with an argument, prints that text as the langs field instead.
langs=${1:-en:60:600,fr:40:400}
exec awk -v langs="$langs" '{ printf "en\t%s\t1000\t1\t0\t0.5\n", langs }'
