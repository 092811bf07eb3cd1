"""The packaging test: what a new user does, in a fresh virtual environment.

1. copies the source tree (without build directories) to WORK/src, as a clean checkout;
2. makes WORK/venv with `python3 -m venv --system-site-packages` (Debian's setuptools, wheel,
   pybind11, pytest, scrapy and dask are seen from it);
3. `pip install --no-build-isolation --no-index .` from the copy: offline, nothing downloaded;
4. checks that `import langsift` in the venv is the installed package (not a build tree), with its
   py.typed and stubs, and runs the API tests (test_api.py) against it;
5. runs the `langsift` command the install put in the venv's bin/ and `python -m langsift` from the
   venv: their output must be the build's `langsift`'s, byte for byte.

Run by ctest as "python: pip install into a venv" (see CMakeLists.txt); by hand:
    /usr/bin/python3 bindings/python/tests/venv_install.py --source . --work /tmp/langsift-venv-test \\
        --build-dir build
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

IGNORE = shutil.ignore_patterns("build", "build-*", ".git", "__pycache__", "*.pyc", "out")


def run(argv: list[str], **kw) -> None:
    print("+", " ".join(argv), flush=True)
    subprocess.run(argv, check=True, **kw)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, type=Path, help="the repository")
    ap.add_argument("--work", required=True, type=Path, help="scratch directory (emptied)")
    ap.add_argument("--build-dir", required=True, type=Path, help="a build of the tools (for the API tests)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter to make the venv with")
    a = ap.parse_args()

    work = a.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    src, venv = work / "src", work / "venv"
    shutil.copytree(a.source.resolve(), src, ignore=IGNORE, symlinks=True)
    run([a.python, "-m", "venv", "--system-site-packages", str(venv)])
    py = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # offline: a missing build requirement fails instead of downloading
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.setdefault("LANGSIFT_BUILD_JOBS", "2")
    run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", "--no-cache-dir", str(src)],
        cwd=str(work), env=env)

    probe = (
        "import langsift, pathlib, sys; p = pathlib.Path(langsift.__file__).parent; "
        "assert str(p).startswith(sys.prefix), p; "
        "assert (p / 'py.typed').is_file() and (p / '_langsift.pyi').is_file(); "
        "assert langsift.detect('Der schnelle braune Fuchs springt über den faulen Hund.').language == 'de'; "
        "print('installed:', p)"
    )
    run([py, "-c", probe], cwd=str(work), env=env)
    tests = Path(__file__).resolve().parent
    env.update(LANGSIFT_SOURCE_DIR=str(a.source.resolve()), LANGSIFT_BUILD_DIR=str(a.build_dir.resolve()),
               PYTHONDONTWRITEBYTECODE="1")
    run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests / "test_api.py")], cwd=str(tests), env=env)

    # The command: the venv's `langsift` script and `python -m langsift` write what build/langsift writes.
    source, build = a.source.resolve(), a.build_dir.resolve()
    lines = work / "lines.txt"
    lines.write_text("Guten Morgen, wie geht es dir heute?\nLe chat dort sur le canapé.\n", encoding="utf-8")
    page = source / "examples" / "pages" / "de-news.windows-1252.html"
    for args in (["detect", "--lines", str(lines)], ["detect", "--format", "jsonl", str(page)], ["--version"],
                 ["warc", "--stats", str(source / "tests" / "data" / "warc" / "sample.warc.gz")]):
        expected = subprocess.run([str(build / "langsift"), *args], capture_output=True, check=True, timeout=300)
        for argv in ([str(venv / "bin" / "langsift"), *args], [py, "-m", "langsift", *args]):
            print("+", " ".join(argv), flush=True)
            got = subprocess.run(argv, capture_output=True, env=env, cwd=str(work), timeout=300)
            if (got.returncode, got.stdout, got.stderr) != (0, expected.stdout, expected.stderr):
                print(f"{argv[0]}: exit {got.returncode}, stdout {got.stdout[:300]!r}, stderr {got.stderr[:300]!r};\n"
                      f"build/langsift: stdout {expected.stdout[:300]!r}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
