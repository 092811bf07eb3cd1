#!/bin/sh
# Regenerates the known answers of the built-in model (tests/data/detect/known.tsv) from
# tests/data/detect/known.txt. Run it after retraining the default model or changing scoring,
# read the diff, and commit it on purpose: the test "known answers of the built-in model" fails
# on any change in top-3, percent, bytes, flags or score.
#   usage: scripts/bless-known-answers.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
"$build/langsift" detect --lines --format tsv < tests/data/detect/known.txt > tests/data/detect/known.tsv
git --no-pager diff --stat -- tests/data/detect/known.tsv || true
