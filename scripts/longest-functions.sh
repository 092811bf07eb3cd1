#!/usr/bin/env bash
# Lists the longest functions of the tree (the library, tools, bindings, fuzz targets, benchmarks
# and scripts, in C++, C, Python and Java; tests excepted: tests/ and any test/ or tests/ folder),
# longest first, from Universal Ctags' end lines: lines<TAB>file:line<TAB>name. Lambdas count
# within their enclosing function; a Python method counts apart from its class.
#   scripts/longest-functions.sh [N]        the N longest (default 10)
#   scripts/longest-functions.sh --over L   every function over L lines (#34: none over 100)
set -euo pipefail
cd "$(dirname "$0")/.."
over=0 count=${1:-10}
if [ "${1:-}" = --over ]; then over=${2:?--over needs a line count}; count=1000000; fi
ctags -R -x --_xformat='%{end}	%{line}	%{input}	%{name}' --kinds-C++=f --kinds-C=f --kinds-Python=fm \
    --kinds-Java=m --fields=+ne --languages=C++,C,Python,Java --langmap=C++:+.inc \
    include src tools bindings fuzz benchmarks scripts 2>/dev/null |
  awk -F'\t' -v over="$over" '$3 !~ /(^|\/)tests?\// &&
      $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $1 - $2 + 1 > over {
      printf "%d\t%s:%s\t%s\n", $1 - $2 + 1, $3, $2, $4 }' |
  sort -rn | head -n "$count"
