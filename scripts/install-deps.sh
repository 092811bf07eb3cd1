#!/bin/sh
# Installs every Debian package langsift's build, tests, benchmarks and comparisons need.
# Nothing else is downloaded at build or run time. Safe to run repeatedly. Python: Debian's own
# python3 and its packages (the Python package, its Scrapy and Dask modules, their tests and the
# Python benchmark's peers fastText and langdetect; zstandard for the Dask job's .zst outputs;
# readability for the corpus benchmark's Python pipeline); nothing comes from PyPI. help2man makes the man
# pages at build time; valgrind counts instructions for CI's performance check (benchmarks/perf_check.py); dpkg-dev's dpkg-shlibdeps gives the .deb packages their dependencies and lintian checks them (docs/packaging.md); ant and ivy build the Nutch plugin in a mock Nutch tree (bindings/java/nutch/README.md).
set -eu

PKGS="g++ cmake ninja-build pkg-config
  libicu-dev libuchardet-dev libxxhash-dev zlib1g-dev libdeflate-dev libzstd-dev zstd
  catch2 libbenchmark-dev
  clang libclang-rt-14-dev
  libcld2-dev fasttext libfasttext-dev
  publicsuffix default-jdk-headless ant ivy
  help2man dpkg-dev lintian valgrind
  python3 python3-dev python3-pybind11 pybind11-dev python3-pytest
  python3-venv python3-pip python3-setuptools python3-wheel
  python3-scrapy python3-dask python3-distributed python3-fsspec
  python3-fasttext python3-langdetect python3-hypothesis
  python3-zstandard python3-readability"

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -n "$missing" ]; then
  echo "install-deps: installing:$missing" >&2
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "install-deps: all packages present" >&2
fi
