"""What the reports of benchmarks/corpus_bench.py and benchmarks/python_bench.py share: the title,
the command line, the revision, medians over the rounds, and writing the report to its file.
Imported by path (the scripts put benchmarks/ first on sys.path); no package."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, TypeVar

ROOT = Path(__file__).resolve().parent.parent
K = TypeVar("K")


def title(kind: str) -> str:
    """The report's first line: `# <kind> benchmark, <date and minute>`."""
    return f"# {kind} benchmark, {time.strftime('%Y-%m-%d %H:%M')}"


def command_line(script: str) -> str:
    """The command as run, from the source tree's root: `benchmarks/<script> <arguments>`."""
    return " ".join([f"benchmarks/{script}"] + sys.argv[1:])


def revision() -> Optional[str]:
    """The source tree's commit (10 hex digits), or None outside a git checkout."""
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True)
    return git.stdout.strip() if git.returncode == 0 else None


def medians(runs: Dict[K, List[Any]]) -> Dict[K, Any]:
    """Per key, the median of its rounds' figures (element-wise when each round gives a tuple)."""
    return {k: tuple(statistics.median(x[i] for x in v) for i in range(len(v[0]))) if isinstance(v[0], tuple)
            else statistics.median(v) for k, v in runs.items()}


def write_report(path: Path, text: str) -> None:
    """Writes the report to path atomically (a temporary file beside it, then renamed), making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
