#!/usr/bin/python3
"""The input side of `langsift detect` (#30): --lines against --jsonl, plain against gzip and
zstd input, and -j 2 against -j 1, on sentences and on 2 KB documents; CPU and wall seconds, the
median of interleaved rounds (with --baseline, another build's `langsift` in the same rounds).

    /usr/bin/python3 benchmarks/cli_input_bench.py --build build --rounds 7 \\
        --baseline /path/to/other/build/langsift ../shared/data/eval/lingua-dev/sentences/*.txt

The inputs are made in --work from the given text files: their first 100,000 lines (repeated if
needed), the same as JSON lines ({"id", "text", "source"}), gzip and zstd copies (Python's gzip
at level 6, `zstd -3`), and documents of 15 lines joined (about 2 KB each). Needs `zstd`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def make_inputs(texts: list, work: Path) -> None:
    lines = []
    while len(lines) < 100_000:
        for t in texts:
            lines += Path(t).read_bytes().decode("utf-8", "surrogateescape").splitlines()
    lines = lines[:100_000]
    docs = [" ".join(lines[i:i + 15]) for i in range(0, len(lines) - 15, 15)]
    for name, items in (("sentences", lines), ("docs", docs)):
        (work / f"{name}.txt").write_bytes(("\n".join(items) + "\n").encode("utf-8", "surrogateescape"))
        with open(work / f"{name}.jsonl", "w", encoding="utf-8", errors="surrogateescape") as f:
            for i, t in enumerate(items):
                f.write(json.dumps({"id": i, "text": t, "source": "bench"}, ensure_ascii=False) + "\n")
    data = (work / "sentences.txt").read_bytes()
    (work / "sentences.txt.gz").write_bytes(gzip.compress(data, 6))
    subprocess.run(["zstd", "-q", "-f", "-3", str(work / "sentences.txt"), "-o", str(work / "sentences.txt.zst")], check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("texts", nargs="+", help="text files, one sentence per line")
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--baseline", help="another `langsift` to run --lines with, for comparison")
    ap.add_argument("--work", type=Path, default=Path("/tmp/langsift-cli-input-bench"))
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    make_inputs(a.texts, a.work)
    tool, w = str(a.build / "langsift"), a.work
    runs = {}
    if a.baseline:
        runs["baseline --lines, sentences"] = [a.baseline, "detect", "--lines", w / "sentences.txt"]
    runs.update({
        "--lines, sentences": [tool, "detect", "--lines", w / "sentences.txt"],
        "--lines -j 2, sentences": [tool, "detect", "--lines", "-j", "2", w / "sentences.txt"],
        "--jsonl, sentences": [tool, "detect", "--jsonl", w / "sentences.jsonl"],
        "--jsonl -j 2, sentences": [tool, "detect", "--jsonl", "-j", "2", w / "sentences.jsonl"],
        "--lines, sentences .gz": [tool, "detect", "--lines", w / "sentences.txt.gz"],
        "--lines, sentences .zst": [tool, "detect", "--lines", w / "sentences.txt.zst"],
        "--lines, documents": [tool, "detect", "--lines", w / "docs.txt"],
        "--lines -j 2, documents": [tool, "detect", "--lines", "-j", "2", w / "docs.txt"],
        "--jsonl, documents": [tool, "detect", "--jsonl", w / "docs.jsonl"],
    })
    res = {k: [] for k in runs}
    for _ in range(a.rounds):
        for k, argv in runs.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([str(x) for x in argv], stdout=subprocess.DEVNULL, check=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            res[k].append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    print(f"{'run':30s} {'wall s':>8s} {'CPU s':>8s}   (median of {a.rounds}; load {os.getloadavg()[0]:.2f})")
    for k, v in res.items():
        print(f"{k:30s} {statistics.median(x[0] for x in v):8.3f} {statistics.median(x[1] for x in v):8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
