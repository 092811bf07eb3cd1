#!/usr/bin/env bash
# The standard benchmark run, one command: builds langsift-bench (and the micro-benchmarks), builds
# the inputs if they are missing, fetches the fastText model if it can, and runs
#   1. sentences.txt  (~145-byte sentences, 75 languages)   langsift, CLD2, fastText; 1 and 2 threads
#   2. docs-2k.txt    (~2 KB plain-text documents)           the same
#   3. pages/ --html  (~30 KB HTML pages, whole pipeline)    the same, with the time per stage
#   4. instruction counts per document under callgrind (repeatable where timings are not)
#   5. the Google Benchmark micro-benchmarks of the detection hot path
# and writes everything, with the machine description, the git revision and the exact commands,
# to one markdown file under benchmarks/results/ (printed at the end).
#
#   benchmarks/run.sh [options] [-- extra langsift-bench options]
#     -o FILE          results file (default benchmarks/results/<date>-<revision>.md)
#     --build DIR      build directory (default build-bench; configured if needed)
#     --inputs DIR     inputs (default DIR/inputs; built by benchmarks/make-inputs.sh if missing)
#     --eval DIR       sentences to build the inputs from (default ../shared/data/eval/lingua-dev/sentences)
#     --repeat N       measured repetitions per run (default 10)
#     --quick          --repeat 2, fewer callgrind documents, short micro-benchmarks
#     --no-callgrind   skip step 4          --no-micro   skip step 5
#     --wait-quiet MIN before each timed run, wait up to MIN minutes for the other processes on
#                      the machine to use < 0.1 CPU (over 5 s); each report says how busy it was
#   LANGSIFT_REVISION overrides the revision recorded (for a tree that is not a git checkout).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
command_line="benchmarks/run.sh"; [ $# -eq 0 ] || command_line+=$(printf ' %q' "$@")
build=$root/build-bench
inputs=""
eval_dir=""
out=""
repeat=10
quick=0
callgrind=1
micro=1
wait_quiet=0
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --inputs) inputs=$2; shift 2 ;;
    --eval) eval_dir=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --quick) quick=1; repeat=2; shift ;;
    --no-callgrind) callgrind=0; shift ;;
    --no-micro) micro=0; shift ;;
    --wait-quiet) wait_quiet=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
build=$(mkdir -p "$build" && cd "$build" && pwd)
inputs=${inputs:-$build/inputs}

# The revision, taken before building (the tree is what gets built).
if [ -n "${LANGSIFT_REVISION:-}" ]; then
  revision=$LANGSIFT_REVISION
  rev_short=${revision:0:10}
elif revision=$(git -C "$root" rev-parse HEAD 2>/dev/null); then
  rev_short=$(git -C "$root" rev-parse --short=10 HEAD)
  dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null || true)
  if [ -n "$dirty" ]; then
    revision="$revision + uncommitted changes in: $(echo "$dirty" | awk '{print $2}' | paste -sd' ' -)"
    rev_short=$rev_short-dirty
  fi
else
  revision=unknown
  rev_short=unknown
fi

# 1. Build (Release, benchmarks on).
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON >&2
fi
targets=(langsift-bench)
[ "$micro" = 1 ] && targets+=(langsift-microbench)
cmake --build "$build" --target "${targets[@]}" >&2
bench=$build/langsift-bench

# 2. Inputs.
if [ ! -f "$inputs/sentences.txt" ] || [ ! -f "$inputs/docs-2k.txt" ] || [ ! -d "$inputs/pages" ]; then
  "$root/benchmarks/make-inputs.sh" "${eval_dir:-$root/../shared/data/eval/lingua-dev/sentences}" "$inputs" >&2
fi

# 3. The fastText model (a skipped peer is reported, not fatal).
ft_args=()
if ft=$("$root/scripts/get-peer-models.sh" 2>/dev/null) && [ -f "$ft" ]; then
  ft_args=(--fasttext-model "$ft")
else
  echo "run.sh: no fastText model (scripts/get-peer-models.sh failed): fastText is skipped" >&2
fi

date_utc=$(date -u +%Y-%m-%dT%H%MZ)
out=${out:-$root/benchmarks/results/${date_utc%T*}-$rev_short.md}
mkdir -p "$(dirname "$out")"
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp".*' EXIT

{
  echo "# langsift-bench results, $date_utc"
  echo
  echo "- revision: \`$revision\`"
  [ -n "${LANGSIFT_REVISION:-}" ] && echo "- tree: $root, not checked against git (revision from LANGSIFT_REVISION)"
  echo "- command: \`${command_line% }\` (the standard set; each langsift-bench command is given below)"
  echo "- build: $build_type, $("$compiler" --version | head -1)"
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs," \
       "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), Linux $(uname -r)"
  echo "- load average when run.sh started: $(cut -d' ' -f1-3 /proc/loadavg) (each run below says what other processes used while it ran)"
  echo
  echo '<details><summary>lscpu</summary>'
  echo
  echo '```'
  lscpu | grep -E '^(Architecture|CPU\(s\)|Model name|Vendor ID|CPU family|Model|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|CPU max MHz|BogoMIPS|Hypervisor vendor|Virtualization type|L1d cache|L1i cache|L2 cache|L3 cache|NUMA node\(s\)):' || true
  echo '```'
  echo
  echo '</details>'
  echo
} >"$out"

busy_jiffies() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
quiet() {  # waits up to $wait_quiet minutes for < 0.1 CPU of other work (measured over 5 s)
  local deadline=$(( $(date +%s) + wait_quiet * 60 )) a b hz
  hz=$(getconf CLK_TCK)
  while :; do
    a=$(busy_jiffies); sleep 5; b=$(busy_jiffies)
    [ $(( (b - a) * 10 )) -lt $(( 5 * hz )) ] && return 0
    [ "$(date +%s)" -ge "$deadline" ] && { echo "run.sh: the machine is still busy; measuring anyway" >&2; return 0; }
    echo "run.sh: waiting for a quiet machine ($(( (b - a) * 100 / (5 * hz) )) % of a CPU busy)" >&2
  done
}

run() {  # run TITLE ARGS...: one langsift-bench run, its command and its report
  local title=$1
  shift
  [ "$wait_quiet" -gt 0 ] && quiet
  echo "run.sh: $title" >&2
  local shown=("${@/#$root\//}")
  {
    echo "## $title"
    echo
    echo '```sh'
    echo "langsift-bench ${shown[*]}"
    echo '```'
    echo
  } >>"$out"
  if "$bench" "$@" >"$tmp" 2>"$tmp.err"; then
    sed '1{/^## langsift-bench:/d}' "$tmp" | sed '1{/^$/d}' >>"$out"
  else
    { echo "**failed** (exit $?):"; echo '```'; cat "$tmp.err"; echo '```'; } >>"$out"
  fi
  if [ -s "$tmp.err" ]; then
    { echo; echo "stderr:"; echo '```'; cat "$tmp.err"; echo '```'; } >>"$out"
  fi
  echo >>"$out"
}

common=(--threads 1,2 --repeat "$repeat" --warmup 1 "${ft_args[@]}" "${extra[@]}")
run "Sentences (~145 bytes)" "${common[@]}" "$inputs/sentences.txt"
run "2 KB plain-text documents" "${common[@]}" "$inputs/docs-2k.txt"
run "HTML pages (~30 KB), whole pipeline" --html "${common[@]}" "$inputs/pages"

# 4. Instructions per document (callgrind): only the detector's call is collected
#    (--toggle-collect on the bench's *_worker::detect), over a sample of documents; the tool makes
#    3 passes with --repeat 1 --warmup 0 (check, throughput, latency).
if [ "$callgrind" = 1 ] && command -v valgrind >/dev/null; then
  echo "run.sh: callgrind" >&2
  if [ "$quick" = 1 ]; then n_sent=300; n_2k=40; n_pages=10; else n_sent=2000; n_2k=200; n_pages=30; fi
  {
    echo "## Instructions per document (callgrind)"
    echo
    echo "\`valgrind --tool=callgrind --toggle-collect='*_worker::detect*'\` around"
    echo "\`langsift-bench --peers X --repeat 1 --warmup 0 --no-memory --max-docs N INPUT\`: instructions"
    echo "executed inside the detector's call only (for pages: the detect stage on the extracted text),"
    echo "divided by 3 passes × N documents. Repeatable to a fraction of a percent, unlike timings."
    echo
    echo "| input | documents | detector | instructions/doc | instructions/byte |"
    echo "| --- | ---: | --- | ---: | ---: |"
  } >>"$out"
  for spec in "sentences.txt:$n_sent:" "docs-2k.txt:$n_2k:" "pages:$n_pages:--html"; do
    IFS=: read -r input n mode <<<"$spec"
    for det in langsift cld2 fasttext; do
      args=(--peers "$det" --repeat 1 --warmup 0 --no-memory --max-docs "$n" --tsv "${ft_args[@]}" ${mode:+"$mode"})
      if valgrind --tool=callgrind --callgrind-out-file="$tmp.cg" --toggle-collect='*_worker::detect*' \
          "$bench" "${args[@]}" "$inputs/$input" >"$tmp" 2>"$tmp.err"; then
        ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$tmp.cg" | head -1)
        docs=$(awk -F'\t' 'NR == 2 {print $3}' "$tmp")
        bytes=$(awk -F'\t' 'NR == 2 {print $4}' "$tmp")
        if [ -n "$ir" ] && [ -n "$docs" ] && [ "$docs" -gt 0 ]; then
          awk -v i="$input" -v n="$docs" -v d="$det" -v ir="$ir" -v b="$bytes" -v h="$mode" 'BEGIN {
            per = ir / (3 * n)
            if (h == "") printf "| %s | %d | %s | %.0f | %.1f |\n", i, n, d, per, ir / (3 * b)
            else printf "| %s | %d | %s | %.0f | — |\n", i, n, d, per }' >>"$out"
        fi
      else
        echo "| $input | $n | $det | skipped: $(head -1 "$tmp.err") | |" >>"$out"
      fi
      rm -f "$tmp.cg"
    done
  done
  echo >>"$out"
  echo "For pages, instructions/byte is left out: the detector reads the extracted text, not the page." >>"$out"
  echo >>"$out"
fi

# 5. Micro-benchmarks.
if [ "$micro" = 1 ]; then
  [ "$wait_quiet" -gt 0 ] && quiet
  echo "run.sh: micro-benchmarks" >&2
  min_time=0.5
  [ "$quick" = 1 ] && min_time=0.1
  {
    echo "## Micro-benchmarks (Google Benchmark)"
    echo
    echo '```sh'
    echo "langsift-microbench --benchmark_filter='^BM_(ngram|detect|model)' --benchmark_min_time=$min_time"
    echo '```'
    echo
    echo '```'
    "$build/langsift-microbench" --benchmark_filter='^BM_(ngram|detect|model)' --benchmark_min_time=$min_time 2>&1 |
      grep -v '^\*\*\*WARNING' || true
    echo '```'
  } >>"$out"
fi

echo "run.sh: wrote $out" >&2
echo "$out"
