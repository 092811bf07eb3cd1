"""Builds langsift's Python extension (`langsift._langsift`) with CMake.

The package metadata is in pyproject.toml. The extension is the target `langsift_python` of the
project's own CMake build (bindings/python/CMakeLists.txt), configured here without tests, tools
or the Java bridge, for the interpreter that runs this script. Needs cmake, a C++20 compiler and
Debian's libicu-dev, libuchardet-dev, libxxhash-dev, zlib1g-dev, libzstd-dev, python3-dev and
pybind11-dev (scripts/install-deps.sh). Nothing is downloaded. The extension holds the `langsift`
command too (tools/langsift: `python3 -m langsift`, and the `langsift` script pyproject.toml
declares).

Environment: LANGSIFT_BUILD_JOBS (parallel compile jobs, default: the CPU count),
LANGSIFT_CMAKE_ARGS (extra arguments for the CMake configure step).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if shutil.which("cmake") is None:
            raise RuntimeError("building langsift needs cmake (Debian: cmake; scripts/install-deps.sh)")
        out_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DLANGSIFT_BUILD_TESTS=OFF", "-DLANGSIFT_BUILD_TOOLS=OFF", "-DLANGSIFT_BUILD_JAVA=OFF",
            "-DLANGSIFT_INSTALL=OFF", "-DLANGSIFT_BUILD_PYTHON=ON",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DLANGSIFT_PYTHON_OUTPUT_DIR={out_dir}",
        ]
        if shutil.which("ninja") and not (build_dir / "Makefile").exists():
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("LANGSIFT_CMAKE_ARGS", ""))
        jobs = os.environ.get("LANGSIFT_BUILD_JOBS") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "langsift_python", "-j", jobs], check=True)
        built = list(out_dir.glob("_langsift*" + (".pyd" if os.name == "nt" else ".so")))
        if not built:
            raise RuntimeError(f"the CMake build left no _langsift extension in {out_dir}")


setup(
    ext_modules=[CMakeExtension("langsift._langsift")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' scratch space away from the CMake build tree at build/ (both are git-ignored).
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
)
