#!/usr/bin/python3
"""The performance check CI runs: instruction and simulated last-level-cache miss counts of the hot
paths, under callgrind, against the figures recorded in benchmarks/perf-counts.tsv.

    /usr/bin/python3 benchmarks/perf_check.py [--build DIR] [--update] [--cases a,b]

Counts, not timings: callgrind executes the same instructions on any machine, and its cache
simulation is given a fixed geometry (32 KB 8-way L1s, an 8 MB 16-way last level, 64-byte lines)
instead of the host's, so the figures do not depend on the machine's load or its CPU. Each case
collects only inside the call it measures (--toggle-collect), over fixed inputs:

  sentences       langsift-bench, default model, 600 lingua-dev sentences   detect()
  docs-2k         langsift-bench, default model, 60 documents of ~2 KB      detect()
  sentences-wide  langsift-bench, the wide model, 300 sentences             detect()
  pages           langsift detect, 20 HTML pages (~30 KB), whole pipeline   detect_page()
  urls            langsift url --lines, 3,000 URLs of urls-dev.tsv          url_classifier::classify()

The inputs are made by benchmarks/make-inputs.sh from ../shared/data/eval (used to measure speed
only, never to choose anything). Per case: instructions per input byte and last-level misses
(instruction and data, reads and writes) per KB of input. The check fails (exit 1) when either
grows by more than 3 % over the recorded figure (misses: and by more than 0.01 per KB, so that a
count near zero does not fail on a handful of misses), and says which; a figure 3 % or more
better is printed so that it can be recorded. `--update` records the figures measured instead
(a change that makes a case slower on purpose updates them in the same commit, and says why).

Needs valgrind (Debian's `valgrind`, installed by scripts/install-deps.sh) and a Release build
with langsift-bench and langsift (the README's build). Exit 2 for usage errors, 1 for a failed
check or a missing prerequisite, with one line saying which.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "benchmarks" / "perf-counts.tsv"
TOLERANCE = 0.03
MISS_FLOOR = 0.01  # per KB
CACHE = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]


class Case(NamedTuple):
    name: str
    toggle: str
    command: List[str]
    input_bytes: int
    passes: int  # how many times the command runs the measured call over the input


def fail(message: str, code: int = 1) -> None:
    print(f"perf_check: {message}", file=sys.stderr)
    sys.exit(code)


def evenly(lines: List[str], n: int) -> List[str]:
    """n lines spread evenly over the list (as langsift-bench --max-docs picks them)."""
    if len(lines) <= n:
        return lines
    return [lines[i * len(lines) // n] for i in range(n)]


def make_cases(build: Path, work: Path) -> List[Case]:
    inputs = build / "bench-inputs"
    if not (inputs / "sentences.txt").is_file() or not (inputs / "pages").is_dir():
        subprocess.run([str(ROOT / "benchmarks" / "make-inputs.sh"),
                        str(ROOT.parent / "shared/data/eval/lingua-dev/sentences"), str(inputs)],
                       check=True, stdout=subprocess.DEVNULL)
    bench, tool = build / "langsift-bench", build / "langsift"
    for p in (bench, tool):
        if not os.access(p, os.X_OK):
            fail(f"{p} is missing: build the Release tree first (the README's build command)")

    def text_case(name: str, source: str, n: int, model: str) -> Case:
        lines = [l for l in (inputs / source).read_text(encoding="utf-8").split("\n") if l]
        chosen = evenly(lines, n)
        path = work / f"{name}.txt"
        path.write_text("\n".join(chosen) + "\n", encoding="utf-8")
        # --repeat 1 --warmup 0: langsift-bench makes 3 passes (check, throughput, latency).
        cmd = [str(bench), "--peers", "langsift", "--model", model, "--repeat", "1", "--warmup", "0",
               "--no-memory", "--tsv", str(path)]
        return Case(name, "*langsift_worker::detect*", cmd, sum(len(l.encode()) for l in chosen), 3)

    pages = sorted((inputs / "pages").glob("*.html"))
    pages = [pages[i * len(pages) // 20] for i in range(20)]
    urls_tsv = ROOT.parent / "shared/data/eval/urls-dev.tsv"
    rows = [l.split("\t") for l in urls_tsv.read_text(encoding="utf-8").split("\n")[1:] if l.count("\t") >= 2]
    urls = evenly([r[1] for r in rows], 3000)
    url_file = work / "urls.txt"
    url_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    return [
        text_case("sentences", "sentences.txt", 600, "default"),
        text_case("docs-2k", "docs-2k.txt", 60, "default"),
        text_case("sentences-wide", "sentences.txt", 300, "wide"),
        Case("pages", "langsift::v1::detect_page*", [str(tool), "detect", "--format", "code", *map(str, pages)],
             sum(p.stat().st_size for p in pages), 1),
        Case("urls", "langsift::v1::url_classifier::classify*", [str(tool), "url", "--lines", str(url_file)],
             sum(len(u.encode()) for u in urls), 1),
    ]


def measure(case: Case, work: Path) -> Tuple[float, float]:
    out = work / f"{case.name}.callgrind"
    r = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", *CACHE, f"--callgrind-out-file={out}",
                        f"--toggle-collect={case.toggle}", *case.command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        fail(f"{case.name}: {' '.join(case.command[:2])} failed under valgrind: {r.stderr.strip().splitlines()[-1:]}")
    events: List[str] = []
    totals: List[int] = []
    for line in out.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("summary:", "totals:")) and not totals:
            totals = [int(x) for x in line.split()[1:]]
    count = dict(zip(events, totals))
    if not count.get("Ir"):
        fail(f"{case.name}: callgrind collected nothing inside {case.toggle} (was the function renamed?)")
    ir = count["Ir"] / (case.passes * case.input_bytes)
    misses = sum(count.get(e, 0) for e in ("ILmr", "DLmr", "DLmw")) / (case.passes * case.input_bytes / 1024)
    return ir, misses


def read_record() -> Dict[str, Tuple[float, float]]:
    rec: Dict[str, Tuple[float, float]] = {}
    if RECORD.is_file():
        for line in RECORD.read_text().splitlines():
            if line and not line.startswith("#") and not line.startswith("case\t"):
                name, ir, miss = line.split("\t")[:3]
                rec[name] = (float(ir), float(miss))
    return rec


def write_record(figures: Dict[str, Tuple[float, float]]) -> None:
    lines = ["# Recorded by benchmarks/perf_check.py --update: instructions per input byte and simulated",
             "# last-level-cache misses per KB of input, inside the measured call (see its docstring).",
             "case\tinstructions_per_byte\tll_misses_per_kb"]
    lines += [f"{n}\t{ir:.3f}\t{m:.4f}" for n, (ir, m) in figures.items()]
    tmp = RECORD.with_name(RECORD.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, RECORD)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", type=Path, default=ROOT / "build")
    ap.add_argument("--update", action="store_true", help="record the figures measured")
    ap.add_argument("--cases", help="comma-separated cases (default: all)")
    a = ap.parse_args()
    if subprocess.run(["sh", "-c", "command -v valgrind"], stdout=subprocess.DEVNULL).returncode != 0:
        fail("valgrind is not installed (scripts/install-deps.sh installs it)")
    record = read_record()
    with tempfile.TemporaryDirectory(prefix="perf-check-") as w:
        work = Path(w)
        cases = make_cases(a.build.resolve(), work)
        if a.cases:
            wanted = a.cases.split(",")
            unknown = [c for c in wanted if c not in {x.name for x in cases}]
            if unknown:
                fail(f"unknown case {unknown[0]!r}: {', '.join(x.name for x in cases)}", 2)
            cases = [c for c in cases if c.name in wanted]
        measured: Dict[str, Tuple[float, float]] = {}
        worse = []
        print(f"{'case':<16} {'instr/byte':>11} {'recorded':>10} {'change':>8}   {'LL miss/KB':>10} {'recorded':>10}")
        for c in cases:
            ir, miss = measure(c, work)
            measured[c.name] = (ir, miss)
            old = record.get(c.name)
            if old is None:
                print(f"{c.name:<16} {ir:>11.3f} {'-':>10} {'new':>8}   {miss:>10.4f} {'-':>10}")
                if not a.update:
                    worse.append(f"{c.name}: no recorded figure (run with --update)")
                continue
            d = ir / old[0] - 1
            note = ""
            if d > TOLERANCE:
                worse.append(f"{c.name}: {ir:.3f} instructions per byte, {d:+.1%} over the recorded {old[0]:.3f}")
            elif d < -TOLERANCE:
                note = "  better: record it (--update)"
            if miss > old[1] * (1 + TOLERANCE) and miss - old[1] > MISS_FLOOR:
                worse.append(f"{c.name}: {miss:.4f} LL misses per KB, over the recorded {old[1]:.4f}")
            elif miss < old[1] * (1 - TOLERANCE) and old[1] - miss > MISS_FLOOR:
                note = "  better: record it (--update)"
            print(f"{c.name:<16} {ir:>11.3f} {old[0]:>10.3f} {d:>+8.1%}   {miss:>10.4f} {old[1]:>10.4f}{note}")
    if a.update:
        merged = {**record, **measured}
        write_record(merged)
        print(f"perf_check: recorded in {RECORD.relative_to(ROOT)}")
        return
    if worse:
        for w in worse:
            print(f"perf_check: slower: {w}", file=sys.stderr)
        sys.exit(1)
    print("perf_check: every case within 3 % of its recorded figures")


if __name__ == "__main__":
    main()
