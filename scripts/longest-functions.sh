#!/usr/bin/env bash
# Lists the longest functions of the library (include/ and src/), longest first, from Universal
# Ctags' end lines: lines<TAB>file:line<TAB>name. Lambdas count within their enclosing function.
#   scripts/longest-functions.sh [N]   (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
ctags -R -x --_xformat='%{end}	%{line}	%{input}	%{name}' --kinds-C++=f --fields=+ne \
    --languages=C++ --langmap=C++:+.inc include src 2>/dev/null |
  awk -F'\t' '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { printf "%d\t%s:%s\t%s\n", $1 - $2 + 1, $3, $2, $4 }' |
  sort -rn | head -n "${1:-10}"
