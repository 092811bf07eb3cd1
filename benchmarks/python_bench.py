#!/usr/bin/python3
"""The Python benchmark: langsift's Python calls beside the same work in C++ and beside the Python
bindings of fastText and langdetect, in one process and one run (interleaved repetitions, so that
machine noise hits all alike; ratios, not absolute rates, are what to compare).

    /usr/bin/python3 benchmarks/python_bench.py [--inputs DIR] [--build DIR] [--repeat N] [-o FILE]

Inputs: DIR/sentences.txt and DIR/docs-2k.txt of benchmarks/make-inputs.sh (one document per line;
default DIR: build-bench/inputs, made if missing from ../shared/data/eval/lingua-dev/sentences, for
measuring speed only). Per input, each repetition runs, in turn:

  C++ loop          detect() over the texts in a plain C++ loop inside the extension (UTF-8 taken
                    beforehand, no Python object made): the C++ call's cost in this process
  detect            langsift.detect(text) per text from a Python loop
  detect_many 1/2   langsift.detect_many(texts, threads=1 / 2)
  fastText          Debian's python3-fasttext, lid.176.ftz (as langsift-bench finds it:
                    $LANGSIFT_FASTTEXT_MODEL, else ~/.cache/langsift/peers/lid.176.ftz from
                    scripts/get-peer-models.sh): model.predict(list of texts), and per text
  langdetect        Debian's python3-langdetect, per text, on a sample (it is ~1000x slower)

  langsift-bench    `langsift-bench --peers langsift --threads 1 --repeat 1` (the C++ tool, a
                    process of its own) on the same file
Reported: documents/s and ns/document from the median repetition, and the targets' ratios.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_report  # noqa: E402 (after the path)

ROOT = Path(__file__).resolve().parent.parent
BENCH_KEY = "langsift-bench (C++ tool, 1 thread, same file)"


def load_lines(path: Path) -> list[str]:
    return [line.rstrip("\n") for line in path.open(encoding="utf-8") if line.strip()]


def timed(f) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def langsift_bench_rate(build: Path, path: Path, repeat: int) -> float | None:
    """docs/s of `langsift-bench` (C++), one thread, langsift only."""
    exe = build / "langsift-bench"
    if not exe.is_file():
        return None
    out = subprocess.run([str(exe), "--peers", "langsift", "--threads", "1", "--repeat", str(repeat), "--no-memory",
                          "--tsv", str(path)], capture_output=True, text=True, check=True).stdout
    lines = [line.split("\t") for line in out.splitlines() if line]
    head = lines[0]
    for f in lines[1:]:
        row = dict(zip(head, f))
        if row.get("detector") == "langsift" and row.get("threads") == "1":
            return float(row["docs_per_s"])
    raise RuntimeError(f"langsift-bench printed no langsift row:\n{out}")


def fasttext_model() -> Path | None:
    p = os.environ.get("LANGSIFT_FASTTEXT_MODEL") or str(Path.home() / ".cache/langsift/peers/lid.176.ftz")
    return Path(p) if Path(p).is_file() else None


def parse_args() -> argparse.Namespace:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=Path, default=ROOT / "build-bench" / "inputs")
    ap.add_argument("--build", type=Path, default=ROOT / "build", help="build with build/python and langsift-bench")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--langdetect-docs", type=int, default=300, help="texts langdetect runs on (a sample)")
    ap.add_argument("-o", type=Path, help="also write the report to this file")
    return ap.parse_args()


def load_peers() -> tuple[Any, Callable[[str], Any] | None]:
    """fastText's model and langdetect's detect, each None (said on stderr) when it is missing."""
    ft = None
    ft_path = fasttext_model()
    try:
        import fasttext  # Debian python3-fasttext

        if ft_path:
            ft = fasttext.load_model(str(ft_path))
    except ImportError:
        print("python_bench: python3-fasttext is not installed: no fastText row", file=sys.stderr)
    try:
        from langdetect import DetectorFactory, detect as ld_detect  # Debian python3-langdetect

        DetectorFactory.seed = 0
    except ImportError:
        ld_detect = None
        print("python_bench: python3-langdetect is not installed: no langdetect row", file=sys.stderr)
    return ft, ld_detect


def header_lines(a: argparse.Namespace, version: str) -> list[str]:
    """The report's title and its command, interpreter, machine and revision line."""
    report = [bench_report.title("Python"), "",
              f"`{bench_report.command_line('python_bench.py')}`; {platform.python_implementation()} "
              f"{platform.python_version()}, langsift {version}, {os.cpu_count()} CPUs "
              f"({platform.processor() or platform.machine()}); median of {a.repeat} interleaved repetitions.", ""]
    rev = bench_report.revision()
    if rev is not None:
        report[2] += f" Revision {rev}."
    return report


def time_calls(a: argparse.Namespace, path: Path, texts: list[str], ft: Any,
               ld_detect: Callable[[str], Any] | None) -> dict[str, list[float]]:
    """Seconds per document of each call, per repetition (interleaved; langdetect once, on a sample)."""
    import langsift
    from langsift import _langsift

    ft_texts = [t.replace("\n", " ") for t in texts]
    sample = texts[:: max(1, len(texts) // a.langdetect_docs)][: a.langdetect_docs]
    runs: dict[str, list[float]] = {}

    def add(key: str, seconds: float, n: int) -> None:
        runs.setdefault(key, []).append(seconds / n)

    det = langsift.detect
    _langsift._bench_detect_loop(texts)  # warm-up: UTF-8 caches, pages of the model
    langsift.detect_many(texts)
    for _ in range(a.repeat):
        add("C++ loop (in the extension)", _langsift._bench_detect_loop(texts)[0], len(texts))
        add("detect (per call)", timed(lambda: [det(t) for t in texts]), len(texts))
        add("detect_many, 1 thread", timed(lambda: langsift.detect_many(texts, threads=1)), len(texts))
        add("detect_many, 2 threads", timed(lambda: langsift.detect_many(texts, threads=2)), len(texts))
        rate = langsift_bench_rate(a.build, path, 1)
        if rate:
            runs.setdefault(BENCH_KEY, []).append(1 / rate)
        if ft is not None:
            add("fastText predict(list)", timed(lambda: ft.predict(ft_texts, k=1)), len(texts))
            add("fastText predict (per call)", timed(lambda: [ft.predict(t, k=1) for t in ft_texts]), len(texts))
    if ld_detect is not None:
        def run_ld() -> None:
            for t in sample:
                try:
                    ld_detect(t)
                except Exception:  # langdetect raises on text without features
                    pass
        add("langdetect (per call)", timed(run_ld), len(sample))
    return runs


def input_section(name: str, texts: list[str], runs: dict[str, list[float]]) -> list[str]:
    """One input's table of medians (docs/s, ns/doc, spread) and its targets' ratios."""
    med = bench_report.medians(runs)
    bench = 1 / med[BENCH_KEY] if BENCH_KEY in med else None
    avg_bytes = sum(len(t.encode()) for t in texts) / len(texts)
    report = [f"## {name}.txt: {len(texts)} documents, {avg_bytes:.0f} bytes on average", "",
              "| call | docs/s | ns/doc | spread |", "| --- | ---: | ---: | ---: |"]
    for k, v in med.items():
        spread = (max(runs[k]) - min(runs[k])) / v if len(runs[k]) > 1 else 0.0
        report.append(f"| {k} | {1 / v:,.0f} | {v * 1e9:,.0f} | {spread:.0%} |")
    report.append("")
    cxx = med["C++ loop (in the extension)"]
    many1 = med["detect_many, 1 thread"]
    report.append(f"- detect_many on 1 thread: {many1 / cxx:.2f}x the C++ loop's time per document"
                  + (f", {bench * many1:.2f}x langsift-bench's (target: within 1.15x)" if bench else ""))
    report.append(f"- detect per call costs {(med['detect (per call)'] - cxx) * 1e9:,.0f} ns over the C++ call "
                  "(target: at most 1,000 ns)")
    report.append(f"- detect_many on 2 threads: {many1 / med['detect_many, 2 threads']:.2f}x one thread")
    if "fastText predict(list)" in med:
        report.append(f"- detect_many (1 thread) is {med['fastText predict(list)'] / many1:.1f}x fastText's "
                      f"predict(list) and {med['fastText predict (per call)'] / many1:.1f}x its per-call predict "
                      "(target on 2 KB documents: at least 10x)")
    if "langdetect (per call)" in med:
        report.append(f"- detect per call is {med['langdetect (per call)'] / med['detect (per call)']:,.0f}x "
                      "langdetect's per call")
    report.append("")
    return report


def main() -> int:
    """Times every call on sentences.txt and docs-2k.txt and prints the report (and writes it with -o)."""
    a = parse_args()
    sys.path.insert(0, str(a.build / "python"))
    import langsift

    if not (a.inputs / "sentences.txt").is_file():
        subprocess.run([str(ROOT / "benchmarks" / "make-inputs.sh"), str(ROOT.parent / "shared/data/eval/lingua-dev/sentences"),
                        str(a.inputs)], check=True)
    ft, ld_detect = load_peers()
    report = header_lines(a, langsift.__version__)
    for name in ("sentences", "docs-2k"):
        path = a.inputs / f"{name}.txt"
        texts = load_lines(path)
        report += input_section(name, texts, time_calls(a, path, texts, ft, ld_detect))
    text = "\n".join(report)
    print(text)
    if a.o:
        bench_report.write_report(a.o, text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
