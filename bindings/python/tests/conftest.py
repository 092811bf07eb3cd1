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
from hypothesis.configuration import set_hypothesis_home_dir


SOURCE_DIR = Path(os.environ.get("LANGSIFT_SOURCE_DIR", Path(__file__).resolve().parents[3]))
BUILD_DIR = Path(os.environ.get("LANGSIFT_BUILD_DIR", SOURCE_DIR / "build"))
TEST_DATA = SOURCE_DIR / "tests" / "data"

# Property tests (Debian python3-hypothesis): no example database and no cache in the source tree
# (a test run must not write beside the tests), and no per-example deadline (this machine's load
# varies). By default the examples are derandomized: every run (and CI) tries the same ones, so a
# failure is reproducible rather than flaky. LANGSIFT_HYPOTHESIS_PROFILE=explore draws new random
# examples each run (and `long`, in test_properties.py, many more): run it by hand to search.
EXPLORE = os.environ.get("LANGSIFT_HYPOTHESIS_PROFILE", "") in ("explore", "long")
set_hypothesis_home_dir(str(BUILD_DIR / "hypothesis"))
settings.register_profile("langsift", database=None, deadline=None, derandomize=not EXPLORE)
settings.load_profile("langsift")


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
