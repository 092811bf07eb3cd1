#!/usr/bin/env bash
# fastText language identification (lid.176) as a line detector for `langsift-eval`: one sample
# per input line on stdin, one language code per output line on stdout.
#
#   tools/peers/fasttext-lines.sh MODEL        # MODEL: lid.176.ftz (scripts/get-peer-models.sh)
#
# Uses Debian's `fasttext` CLI (`fasttext predict MODEL - 1`). Output stays aligned with the input:
# every line, empty ones included, is sent as its own line (empty or blank lines as the placeholder
# `_`, for which fastText still answers: the answer is meaningless, but the line is not lost).
# Labels `__label__xx` are printed as `xx`, with two codes mapped to langsift's convention:
#   no  -> nb   (lid.176's Norwegian is Bokmal-dominated Wikipedia; it has `nn` separately)
#   als -> gsw  (lid.176's `als` is Wikipedia's Alemannic, ISO 639-3 gsw; ISO `als` is Tosk Albanian)
# Every other label is kept as it is (e.g. `sh` Serbo-Croatian, `nds`, `arz`, `yue`, `wuu`, `eml`:
# they name other languages or varieties than the ones they resemble and count as such).
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -eq 1 ] && { [ "$1" = "-h" ] || [ "$1" = "--help" ]; } && exit 0
  exit 2
fi
model=$1
[ -r "$model" ] || { echo "fasttext-lines.sh: cannot read model '$model'" >&2; exit 1; }
command -v fasttext >/dev/null || { echo "fasttext-lines.sh: the fasttext CLI is not installed (Debian package fasttext)" >&2; exit 1; }

# `fasttext predict` splits on whitespace and treats only '\n' as the end of a line; a line of
# only whitespace is replaced so that it cannot merge with its neighbours.
LC_ALL=C awk '{ if ($0 ~ /^[ \t\r\v\f]*$/) print "_"; else print }' |
  fasttext predict "$model" - 1 |
  LC_ALL=C awk '{ sub(/^__label__/, "", $1); c = $1;
                  if (c == "no") c = "nb"; else if (c == "als") c = "gsw"; else if (c == "") c = "und";
                  print c; fflush() }'
