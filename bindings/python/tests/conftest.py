"""Shared fixtures of the Python tests: where the repository, the build and its tools are.

ctest sets LANGSIFT_SOURCE_DIR and LANGSIFT_BUILD_DIR; run by hand, the defaults are this
checkout and its build/ directory. A missing tool fails the test that needs it (never a skip).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests (Debian python3-hypothesis): no example database in the source tree (a test run
# must not write beside the tests), and no per-example deadline (this machine's load varies).
settings.register_profile("langsift", database=None, deadline=None)
settings.load_profile("langsift")

SOURCE_DIR = Path(os.environ.get("LANGSIFT_SOURCE_DIR", Path(__file__).resolve().parents[3]))
BUILD_DIR = Path(os.environ.get("LANGSIFT_BUILD_DIR", SOURCE_DIR / "build"))
TEST_DATA = SOURCE_DIR / "tests" / "data"


def tool(name: str) -> Path:
    """A command-line tool of the build; fails the test when it was not built."""
    path = BUILD_DIR / name
    assert path.is_file(), f"{path} is missing: build the project first (the README's commands)"
    return path


def run_tool(*args: object, input: bytes | None = None, check_status: int | None = 0) -> subprocess.CompletedProcess:
    """Runs a build tool; checks its exit status unless check_status is None."""
    argv = [str(tool(str(args[0])))] + [str(a) for a in args[1:]]
    p = subprocess.run(argv, input=input, capture_output=True, timeout=300)
    if check_status is not None:
        assert p.returncode == check_status, f"{argv}: exit {p.returncode}: {p.stderr.decode(errors='replace')}"
    return p


@pytest.fixture
def source_dir() -> Path:
    return SOURCE_DIR


@pytest.fixture
def test_data() -> Path:
    return TEST_DATA
