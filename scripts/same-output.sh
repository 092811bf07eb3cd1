#!/usr/bin/env bash
# Writes what the tools answer on a fixed set of inputs, so that two builds can be compared byte
# for byte (the "output does not change" check of a refactoring; see docs/architecture.md):
#
#   scripts/same-output.sh BUILD_DIR OUT_DIR [INPUTS_DIR]
#     BUILD_DIR   a build with langsift and langsift-eval
#     OUT_DIR     written: one file per check
#     INPUTS_DIR  langsift-bench's inputs (benchmarks/make-inputs.sh; default build-bench/inputs)
#
# Then `diff -r OUT_A OUT_B`. Covers `langsift detect` on the benchmark inputs (sentences and 2 KB
# documents as --lines, the HTML pages), on every file of tests/data, with every model format
# (the built-in model and the format 1, 2 and 3 seeds of fuzz/corpus/model), the `langsift url`
# answers on urls-dev, and langsift-eval's lingua-dev and two-language (mixed) reports.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: scripts/same-output.sh BUILD_DIR OUT_DIR [INPUTS_DIR]" >&2; exit 2; }
bin=$(cd "$1" && pwd); out=$2; inputs=${3:-$root/build-bench/inputs}
data=$root/../shared/data
[ -x "$bin/langsift" ] || { echo "same-output: $bin/langsift: not built" >&2; exit 1; }
[ -f "$inputs/sentences.txt" ] || { echo "same-output: $inputs: run benchmarks/make-inputs.sh first" >&2; exit 1; }
mkdir -p "$out"
cd "$root"
ls_files() { find "$@" -type f | LC_ALL=C sort; }
for fmt in tsv jsonl; do
  "$bin/langsift" detect --lines --format $fmt < "$inputs/sentences.txt" > "$out/sentences.$fmt"
  "$bin/langsift" detect --lines --format $fmt < "$inputs/docs-2k.txt" > "$out/docs-2k.$fmt"
  ls_files "$inputs/pages" | xargs -d '\n' "$bin/langsift" detect --format $fmt > "$out/pages.$fmt"
  ls_files tests/data | xargs -d '\n' "$bin/langsift" detect --format $fmt > "$out/tests-data.$fmt" || true
done
"$bin/langsift" detect --main --format jsonl $(ls_files "$inputs/pages" | head -20) > "$out/pages-main.jsonl"
for m in models/default.lsm fuzz/corpus/model/mini.lsm fuzz/corpus/model/mini-v1.lsm fuzz/corpus/model/mini-v2.lsm; do
  name=$(basename "$m" .lsm)
  "$bin/langsift" detect --model "$m" --lines --format jsonl < "$inputs/sentences.txt" > "$out/model-$name.sentences.jsonl"
  "$bin/langsift" detect --model "$m" --scorer rank --lines --format tsv < "$inputs/docs-2k.txt" > "$out/model-$name.rank.tsv"
done
tail -n +2 "$data/eval/urls-dev.tsv" 2>/dev/null | cut -f2 | head -20000 > "$out/.urls" || true
if [ -s "$out/.urls" ]; then "$bin/langsift" url --lines --format jsonl < "$out/.urls" > "$out/urls.jsonl"; fi
rm -f "$out/.urls"
if [ -d "$data/eval/lingua-dev" ]; then
  for kind in sentences word-pairs single-words; do
    "$bin/langsift-eval" lang --markdown "$out/.report.md" --tsv "$out/eval-lang-$kind.tsv" "$data/eval/lingua-dev/$kind"
  done
  "$bin/langsift-eval" mixed --markdown "$out/.report.md" --tsv "$out/eval-mixed.tsv" "$data/eval/lingua-dev/sentences"
fi
rm -f "$out/.report.md"
echo "same-output: $(ls "$out" | wc -l) files in $out"
