#!/bin/sh
# Regenerates the accuracy reports of the built-in model, beside CLD2 (Debian libcld2, full tables)
# and fastText lid.176.ftz (scripts/get-peer-models.sh), on the development evaluation data.
#   usage: models/reports/run.sh [EVAL_DIR] [BUILD_DIR]    (defaults: ../shared/data/eval, build)
set -eu
cd "$(dirname "$0")/../.."
eval_dir=${1:-../shared/data/eval}
build=${2:-build}
ft=$(scripts/get-peer-models.sh)
out=models/reports
"$build/langsift-eval" lang "$eval_dir/lingua-dev" --sets sentences,word-pairs,single-words \
  --detector "langsift-rank=$build/langsift detect --lines --scorer rank" \
  --detector "cld2=$build/langsift-peer-cld2" --detector "cld2-best-effort=$build/langsift-peer-cld2 --best-effort" \
  --detector "fasttext=tools/peers/fasttext-lines.sh $ft" \
  --per-language --markdown $out/lingua-dev.md --tsv $out/lingua-dev.tsv --svg $out/lingua-dev.svg
"$build/langsift-eval" docs "$eval_dir/lingua-dev/sentences" --bytes 400,160 \
  --detector "langsift-rank=$build/langsift detect --lines --scorer rank" \
  --detector "cld2=$build/langsift-peer-cld2" --detector "fasttext=tools/peers/fasttext-lines.sh $ft" > $out/docs.md
"$build/langsift-eval" mixed "$eval_dir/lingua-dev/sentences" --detector "cld2=$build/langsift-peer-cld2 --tsv" > $out/mixed.md
"$build/langsift-eval" mixed "$eval_dir/lingua-dev/sentences" --random 20 --seed 1 \
  --detector "cld2=$build/langsift-peer-cld2 --tsv" > $out/mixed-random.md
