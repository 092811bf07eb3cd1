#!/usr/bin/env bash
# Throughput of `langsift warc` (pages/s, 1 and 2 threads) on ~30 KB HTML pages.
#
#   benchmarks/warc-bench.sh [BUILD_DIR] [REPEAT] [RUNS]
#     BUILD_DIR  a Release build with langsift and langsift-warcgen (default build-warc)
#     REPEAT     how many times the 150 pages are written into the WARC file (default 20: 3000
#                responses, each after a request record, one gzip member per record)
#     RUNS       timed runs per thread count (default 3); every run's figure is printed
#   WAIT_QUIET=S (environment) before each run, wait up to S seconds for the machine to be quiet
#                (5 s with < 0.2 CPU used by anything); default 0
#
# The pages are benchmarks/make-inputs.sh's pages/ (built from the lingua-dev evaluation
# sentences: used only to measure speed, nothing is tuned on them), made when missing, in
# BUILD_DIR/bench-inputs. Content-Type is plain text/html: the encoding of the 12 legacy-encoded
# pages comes from <meta> or from detection. Each run is
#   langsift warc -j N --timing FILE > /dev/null
# whose --timing line (stderr) gives records, pages, input and body bytes, seconds and pages/s:
# the wall time of the whole run (reading, gunzip, HTTP parsing, the whole pipeline, JSON output),
# and the process's CPU time (all threads). The CPU time other processes took during the run
# (from /proc/stat) is printed beside it: on a shared machine, read pages/s with it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
build=${1:-$root/build-warc}
repeat=${2:-20}
runs=${3:-3}
wait_quiet=${WAIT_QUIET:-0}
. "$root/benchmarks/warc-input.sh"
warc_bench_input warc-bench "$root" "$build" "$repeat"
echo "input: $warc: $(stat -c %s "$warc") bytes, $((pages * repeat)) response records ($pages pages x $repeat), $(du -b -c "$inputs"/pages/*.html | tail -1 | cut -f1) bytes of HTML per repetition"
print_machine "$root"
for j in 1 2; do
  for run in $(seq "$runs"); do
    if [ "$wait_quiet" -gt 0 ]; then  # wait (up to WAIT_QUIET s) for 5 s with < 0.2 CPU used
      for _ in $(seq $((wait_quiet / 5))); do
        b0=$(busy); sleep 5; b1=$(busy)
        awk -v a="$b0" -v b="$b1" 'BEGIN{exit !((b-a)/5 < 0.2)}' && break
      done
    fi
    b0=$(busy)
    line=$("$build/langsift" warc -j "$j" --timing "$warc" 2>&1 >/dev/null)
    b1=$(busy)
    own=$(echo "$line" | sed -n 's/.*CPU \([0-9.]*\) s.*/\1/p')
    others=$(awk -v a="$b0" -v b="$b1" -v o="$own" 'BEGIN{x=b-a-o; if (x<0) x=0; printf "%.1f", x}')
    echo "run $run: $line; other processes: $others CPU s during the run"
  done
done
