"""The packaging tests: what a new user does, in a fresh virtual environment. Two ways in:

from scratch (the default):
1. copies the source tree (without build directories) to WORK/src, as a clean checkout;
2. makes WORK/venv with `python3 -m venv --system-site-packages` (Debian's setuptools, wheel,
   pybind11, pytest, scrapy and dask are seen from it);
3. `pip install --no-build-isolation --no-index .` from the copy: offline, nothing downloaded, the
   C++ library compiled afresh;

from the build tree (--from-build-tree):
1. `pip wheel --no-build-isolation --no-index .` in the source tree with
   LANGSIFT_CMAKE_BUILD_DIR=BUILD_DIR: the wheel takes the build tree's extension (nothing is
   compiled when it is up to date); checks what the wheel holds (the extension, run path $ORIGIN
   only; liblangsift_data.so.0 once, as a file; the `langsift` console script);
2. makes WORK/venv as above and `pip install`s the wheel into it (timed);

then, either way:
4. checks that `import langsift` in the venv is the installed package (not a build tree), with its
   py.typed and stubs, and runs the API tests (test_api.py) against it;
5. runs the `langsift` command the install put in the venv's bin/ and `python -m langsift` from the
   venv: their output must be the build's `langsift`'s, byte for byte.
The times of the build and install steps are printed (docs/python.md records them).

Run by ctest as "python: pip install into a venv" and "python: pip wheel from the build tree,
installed into a venv" (see CMakeLists.txt); by hand:
    /usr/bin/python3 bindings/python/tests/venv_install.py --source . --work /tmp/langsift-venv-test \\
        --build-dir build [--from-build-tree]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

IGNORE = shutil.ignore_patterns("build", "build-*", ".git", "__pycache__", "*.pyc", "out")


def run(argv: list[str], **kw) -> float:
    """Runs argv (check=True); returns the seconds it took."""
    print("+", " ".join(argv), flush=True)
    t0 = time.monotonic()
    subprocess.run(argv, check=True, **kw)
    return time.monotonic() - t0


def package_files(source: Path) -> list[str]:
    """The pure-Python package's files, as the wheel and an install must hold them (every module,
    the private parts of langsift.dask and langsift.scrapy included; the stubs and py.typed)."""
    package = source / "bindings" / "python" / "langsift"
    return sorted(p.name for p in package.iterdir() if p.suffix in (".py", ".pyi") or p.name == "py.typed")


def check_wheel(wheel: Path, build_dir: Path, source: Path) -> None:
    """What a wheel built from the build tree holds: the extension (run path $ORIGIN, nothing of the
    build tree), liblangsift_data.so.0 once and as a file (a zip has no links: a symlink would have
    become a second 75 MB copy), the pure-Python package and the `langsift` console script."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        infos = {i.filename: i for i in z.infolist()}
        entry_points = next((z.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt")), "")
        ext = [n for n in names if n.startswith("langsift/_langsift") and n.endswith(".so")]
        assert len(ext) == 1, f"{wheel.name}: expected one extension, found {ext}"
        data = [n for n in names if "liblangsift_data" in n]
        assert data == ["langsift/liblangsift_data.so.0"], f"{wheel.name}: the models' library: {data}"
        built = build_dir / "liblangsift_data.so.0"
        assert infos[data[0]].file_size == built.stat().st_size, "liblangsift_data.so.0 differs from the build's"
        for n in ["langsift/" + f for f in package_files(source)]:
            assert n in names, f"{wheel.name} lacks {n}"
        assert "langsift = langsift.__main__:main" in entry_points, f"no langsift console script: {entry_points!r}"
        extracted = Path(z.extract(ext[0], wheel.parent / "unpacked"))
    dynamic = subprocess.run(["readelf", "-d", str(extracted)], capture_output=True, text=True, check=True).stdout
    runpath = [line for line in dynamic.splitlines() if "RUNPATH" in line or "RPATH" in line]
    assert len(runpath) == 1 and runpath[0].rstrip().endswith("[$ORIGIN]"), f"the extension's run path: {runpath}"
    assert "liblangsift_data.so.0" in dynamic, "the extension does not link liblangsift_data.so.0"
    print(f"ok: {wheel.name} ({wheel.stat().st_size / 1e6:.1f} MB): the extension (RUNPATH $ORIGIN), "
          f"liblangsift_data.so.0 once, the langsift script", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, type=Path, help="the repository")
    ap.add_argument("--work", required=True, type=Path, help="scratch directory (emptied)")
    ap.add_argument("--build-dir", required=True, type=Path, help="a build of the tools (for the API tests)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter to make the venv with")
    ap.add_argument("--from-build-tree", action="store_true",
                    help="pip wheel with LANGSIFT_CMAKE_BUILD_DIR=BUILD_DIR, then install the wheel")
    a = ap.parse_args()

    work = a.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    venv = work / "venv"
    py = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # offline: a missing build requirement fails instead of downloading
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.setdefault("LANGSIFT_BUILD_JOBS", "2")
    pip_flags = ["--no-build-isolation", "--no-index", "--no-deps", "--no-cache-dir"]
    if a.from_build_tree:
        wheels = work / "wheels"
        built = run([a.python, "-m", "pip", "wheel", *pip_flags, "-w", str(wheels), str(a.source.resolve())],
                    cwd=str(work), env={**env, "LANGSIFT_CMAKE_BUILD_DIR": str(a.build_dir.resolve())})
        [wheel] = list(wheels.glob("langsift-*.whl"))
        check_wheel(wheel, a.build_dir.resolve(), a.source.resolve())
        run([a.python, "-m", "venv", "--system-site-packages", str(venv)])
        installed = run([py, "-m", "pip", "install", *pip_flags, str(wheel)], cwd=str(work), env=env)
        print(f"times: pip wheel from the build tree {built:.1f} s, pip install of the wheel {installed:.1f} s",
              flush=True)
    else:
        src = work / "src"
        shutil.copytree(a.source.resolve(), src, ignore=IGNORE, symlinks=True)
        run([a.python, "-m", "venv", "--system-site-packages", str(venv)])
        installed = run([py, "-m", "pip", "install", *pip_flags, str(src)], cwd=str(work), env=env)
        print(f"times: pip install from scratch (compiles the library) {installed:.1f} s", flush=True)

    probe = (
        "import langsift, pathlib, sys; p = pathlib.Path(langsift.__file__).parent; "
        "assert str(p).startswith(sys.prefix), p; "
        "assert (p / 'py.typed').is_file() and (p / '_langsift.pyi').is_file(); "
        # every file of the pure-Python package is installed (langsift.dask, langsift.scrapy and their parts)
        f"missing = set({package_files(a.source.resolve())!r}) - {{f.name for f in p.iterdir()}}; "
        "assert not missing, missing; "
        "import langsift.dask; "
        "assert langsift.detect('Der schnelle braune Fuchs springt über den faulen Hund.').language == 'de'; "
        # the models come from the venv's own liblangsift_data.so.0, not from a build tree's
        "data = {l.split()[-1] for l in open('/proc/self/maps') if 'liblangsift_data' in l}; "
        "assert data and all(x.startswith(sys.prefix) for x in data), data; "
        "print('installed:', p, 'models:', *data)"
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
