#!/usr/bin/env bash
# What the text and the corpus output cost: `langsift warc --text --schema corpus` against plain
# `langsift warc`, on 1 and 2 threads, to stdout and to compressed files (-o out.jsonl.zst / .gz),
# in interleaved runs; and whether the languages are the same (they should be: one pipeline).
#
#   benchmarks/warc-text-bench.sh [BUILD_DIR] [REPEAT] [RUNS]
#     BUILD_DIR  a Release build with langsift and langsift-warcgen (default build)
#     REPEAT     how many times the 150 pages are written into the WARC file (default 20: 3000
#                responses, each after a request record, one gzip member per record)
#     RUNS       rounds; each round runs every configuration once, in turn (default 3)
#
# The input is warc-bench.sh's (benchmarks/make-inputs.sh's ~30 KB HTML pages, built from the
# lingua-dev sentences: used only to measure speed). Each run is
#   langsift warc -j N --timing [--text --schema corpus] [-o FILE] INPUT > /dev/null
# and prints the --timing line's pages/s (wall), CPU seconds, pages per CPU second and peak RSS,
# the output's size, and the CPU time other processes took meanwhile (/proc/stat).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
build=${1:-$root/build}
repeat=${2:-20}
runs=${3:-3}
. "$root/benchmarks/warc-input.sh"
warc_bench_input warc-text-bench "$root" "$build" "$repeat"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "input: $warc: $(stat -c %s "$warc") bytes, $((pages * repeat)) response records"
print_machine "$root"

# The same language for every page, with and without the text?
"$build/langsift" warc "$warc" > "$out/plain.jsonl"
"$build/langsift" warc --text --schema corpus "$warc" > "$out/corpus.jsonl"
python3 - "$out/plain.jsonl" "$out/corpus.jsonl" <<'EOF'
import json, sys
plain = {d["record_id"]: d["language"] for d in map(json.loads, open(sys.argv[1]))}
corpus = {d["id"]: d["language"] for d in map(json.loads, open(sys.argv[2]))}
same = sum(1 for k, v in plain.items() if corpus.get(k) == v)
print(f"same language: {same} of {len(plain)} pages ({100.0 * same / len(plain):.2f} %); documents: {len(corpus)}")
EOF
rm -f "$out"/*.jsonl

printf '%-34s %3s %8s %7s %8s %9s %7s %9s %7s\n' configuration j "wall s" pages/s "CPU s" pages/CPUs "RSS MB" "out MB" others
for run in $(seq "$runs"); do
  for j in 1 2; do
    for conf in plain corpus corpus-zst corpus-gz; do
      case $conf in
        plain) args=(); file=/dev/null ;;
        corpus) args=(--text --schema corpus); file=/dev/null ;;
        corpus-zst) args=(--text --schema corpus -o "$out/out.jsonl.zst"); file=$out/out.jsonl.zst ;;
        corpus-gz) args=(--text --schema corpus -o "$out/out.jsonl.gz"); file=$out/out.jsonl.gz ;;
      esac
      b0=$(busy)
      line=$("$build/langsift" warc -j "$j" --timing "${args[@]}" "$warc" 2>&1 >"$out/stdout")
      b1=$(busy)
      size=$(stat -c %s "$out/stdout")
      [ "$file" != /dev/null ] && size=$(stat -c %s "$file")
      echo "$line" | awk -v conf="$conf" -v j="$j" -v b0="$b0" -v b1="$b1" -v size="$size" '{
        for (i = 1; i <= NF; i++) {
          if ($i == "in" && $(i + 2) == "s:") secs = $(i + 1);
          if ($(i + 1) == "pages/s,") rate = $i;
          if ($i == "CPU" && $(i + 2) == "s:") cpu = $(i + 1);
          if ($(i + 1) == "pages" && $(i + 2) == "per") pcpu = $i;
          if ($i == "RSS") rss = $(i + 1);
        }
        other = (b1 - b0) - cpu; if (other < 0) other = 0;
        printf "%-34s %3s %8s %7s %8s %9s %7s %9.1f %7.1f\n", conf, j, secs, rate, cpu, pcpu, rss, size / 1e6, other
      }'
      rm -f "$out"/out.jsonl.*
    done
  done
done
