"""Builds langsift's Python extension (`langsift._langsift`) with CMake.

The package metadata is in pyproject.toml. The extension is the target `langsift_python` of the
project's own CMake build (bindings/python/CMakeLists.txt), for the interpreter that runs this
script. What goes into the package is what `cmake --install <build> --component python` stages:
the extension and, beside it, liblangsift_data.so.0 (the built-in models, found through the
extension's $ORIGIN run path). The extension holds the `langsift` command too (tools/langsift:
`python3 -m langsift`, and the `langsift` script pyproject.toml declares).

Two ways (docs/python.md):
  - from scratch (the default): configures a fresh CMake tree under build-python/ without tests,
    tools or the Java bridge, and compiles the library and the extension (minutes on 2 cores);
  - from an existing build tree: LANGSIFT_CMAKE_BUILD_DIR=DIR names a configured langsift build
    (e.g. the README's `build`, made with the same Python); only `cmake --build DIR --target
    langsift_python` runs there (nothing to do when it is up to date), then the install step.

Needs cmake, a C++20 compiler and Debian's libicu-dev, libuchardet-dev, libxxhash-dev, zlib1g-dev,
libzstd-dev, python3-dev and pybind11-dev (scripts/install-deps.sh). Nothing is downloaded.

Environment: LANGSIFT_CMAKE_BUILD_DIR (an existing build tree to take the extension from),
LANGSIFT_BUILD_JOBS (parallel compile jobs, default: the CPU count), LANGSIFT_CMAKE_ARGS (extra
arguments for the CMake configure step of a fresh tree).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


def cache_value(build_dir: Path, name: str) -> str:
    """The value of `name` in build_dir's CMakeCache.txt ("" when absent)."""
    for line in (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return ""


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if shutil.which("cmake") is None:
            raise RuntimeError("building langsift needs cmake (Debian: cmake; scripts/install-deps.sh)")
        out_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        jobs = os.environ.get("LANGSIFT_BUILD_JOBS") or str(os.cpu_count() or 1)
        given = os.environ.get("LANGSIFT_CMAKE_BUILD_DIR", "")
        if given:
            build_dir = Path(given).expanduser().resolve()
            self.check_build_tree(build_dir)
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            build_dir.mkdir(parents=True, exist_ok=True)
            configure = [
                "cmake", "-S", str(ROOT), "-B", str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DLANGSIFT_BUILD_TESTS=OFF", "-DLANGSIFT_BUILD_TOOLS=OFF", "-DLANGSIFT_BUILD_JAVA=OFF",
                "-DLANGSIFT_INSTALL=OFF", "-DLANGSIFT_BUILD_PYTHON=ON",
                f"-DPython_EXECUTABLE={sys.executable}",
            ]
            if shutil.which("ninja") and not (build_dir / "Makefile").exists():
                configure += ["-G", "Ninja"]
            configure += shlex.split(os.environ.get("LANGSIFT_CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "langsift_python", "-j", jobs], check=True)
        # The install step sets the run path to $ORIGIN and stages liblangsift_data.so.0 beside the
        # extension; everything staged goes into the package directory.
        with tempfile.TemporaryDirectory(prefix="langsift-stage-") as stage:
            subprocess.run(["cmake", "--install", str(build_dir), "--component", "python", "--prefix", stage],
                           check=True)
            staged = Path(stage) / "langsift"
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            if not (staged / ("_langsift" + suffix)).is_file():
                found = sorted(p.name for p in staged.glob("_langsift*")) if staged.is_dir() else []
                raise RuntimeError(f"the CMake build in {build_dir} staged no _langsift{suffix} for this Python "
                                   f"({sys.executable}); it staged: {found or 'nothing'}")
            out_dir.mkdir(parents=True, exist_ok=True)
            for f in staged.iterdir():
                shutil.copy2(f, out_dir / f.name)

    @staticmethod
    def check_build_tree(build_dir: Path) -> None:
        """A build tree given by LANGSIFT_CMAKE_BUILD_DIR must be a langsift build with the
        Python package and no sanitizers (a wheel of an instrumented extension would not load)."""
        where = f"LANGSIFT_CMAKE_BUILD_DIR={build_dir}"
        if not (build_dir / "CMakeCache.txt").is_file():
            raise RuntimeError(f"{where}: not a configured CMake build tree (no CMakeCache.txt)")
        if cache_value(build_dir, "CMAKE_PROJECT_NAME") != "langsift":
            raise RuntimeError(f"{where}: not a build tree of langsift")
        if cache_value(build_dir, "LANGSIFT_BUILD_PYTHON") not in ("ON", "1", "TRUE", "YES"):
            raise RuntimeError(f"{where}: configured without the Python package (LANGSIFT_BUILD_PYTHON=OFF)")
        if cache_value(build_dir, "LANGSIFT_SANITIZE"):
            raise RuntimeError(f"{where}: a sanitizer build (LANGSIFT_SANITIZE="
                               f"{cache_value(build_dir, 'LANGSIFT_SANITIZE')}): its extension needs the "
                               f"sanitizer runtimes preloaded")
        source = cache_value(build_dir, "langsift_SOURCE_DIR") or cache_value(build_dir, "CMAKE_HOME_DIRECTORY")
        if source and Path(source).resolve() != ROOT:
            raise RuntimeError(f"{where}: a build of {source}, not of {ROOT}")


setup(
    ext_modules=[CMakeExtension("langsift._langsift")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' scratch space away from the CMake build tree at build/ (both are git-ignored).
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
)
