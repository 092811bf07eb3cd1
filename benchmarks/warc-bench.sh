#!/usr/bin/env bash
# Throughput of `langsift warc` (pages/s, 1 and 2 threads) on ~30 KB HTML pages.
#
#   benchmarks/warc-bench.sh [BUILD_DIR] [REPEAT] [RUNS]
#     BUILD_DIR  a Release build with langsift and langsift-warcgen (default build-warc)
#     REPEAT     how many times the 150 pages are written into the WARC file (default 20: 3000
#                responses, each after a request record, one gzip member per record)
#     RUNS       timed runs per thread count (default 3); every run's figure is printed
#
# The pages are benchmarks/make-inputs.sh's pages/ (built from the lingua-dev evaluation
# sentences: used only to measure speed, nothing is tuned on them), made when missing, in
# BUILD_DIR/bench-inputs. Content-Type is plain text/html: the encoding of the 12 legacy-encoded
# pages comes from <meta> or from detection. Each run is
#   langsift warc -j N --timing FILE > /dev/null
# whose --timing line (stderr) gives records, pages, input and body bytes, seconds and pages/s:
# the wall time of the whole run (reading, gunzip, HTTP parsing, the whole pipeline, JSON output).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
build=${1:-$root/build-warc}
repeat=${2:-20}
runs=${3:-3}
[ -x "$build/langsift" ] && [ -x "$build/langsift-warcgen" ] || {
  echo "warc-bench: $build/langsift and $build/langsift-warcgen are needed (cmake --build $build)" >&2
  exit 1
}
inputs=$build/bench-inputs
if [ ! -d "$inputs/pages" ] || [ -z "$(ls -A "$inputs/pages" 2>/dev/null)" ]; then
  "$root/benchmarks/make-inputs.sh" "$root/../shared/data/eval/lingua-dev/sentences" "$inputs" >&2
fi
warc=$inputs/pages-x$repeat.warc.gz
if [ ! -s "$warc" ]; then
  "$build/langsift-warcgen" --gzip --requests --repeat "$repeat" "$inputs"/pages/*.html -o "$warc"
fi
pages=$(ls "$inputs"/pages/*.html | wc -l)
echo "input: $warc: $(stat -c %s "$warc") bytes, $((pages * repeat)) response records ($pages pages x $repeat), $(du -b -c "$inputs"/pages/*.html | tail -1 | cut -f1) bytes of HTML per repetition"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "revision: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
for j in 1 2; do
  for run in $(seq "$runs"); do
    "$build/langsift" warc -j "$j" --timing "$warc" 2>&1 >/dev/null | sed "s/^/run $run: /"
  done
done
