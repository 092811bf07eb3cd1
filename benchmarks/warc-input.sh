# Sourced by warc-bench.sh and warc-text-bench.sh: their common input and machine lines.
#
#   warc_bench_input NAME ROOT BUILD REPEAT
# checks that BUILD has langsift and langsift-warcgen (else names NAME and exits 1), makes
# benchmarks/make-inputs.sh's pages (from the lingua-dev sentences: used only to measure speed) in
# BUILD/bench-inputs when missing, writes them REPEAT times into a gzip WARC file (each response
# after a request record, one gzip member per record) when missing, and sets `inputs`, `warc` and
# `pages` (the number of distinct pages).
warc_bench_input() {
  local name=$1 root=$2 build=$3 repeat=$4
  [ -x "$build/langsift" ] && [ -x "$build/langsift-warcgen" ] || {
    echo "$name: $build/langsift and $build/langsift-warcgen are needed (cmake --build $build)" >&2
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
}

# The machine and revision lines every run prints first.
print_machine() {
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "revision: $(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)"
}

# CPU seconds all processes used since boot (user nice system irq softirq; USER_HZ = 100).
busy() { awk '/^cpu /{printf "%.2f", ($2+$3+$4+$7+$8)/100}' /proc/stat; }
