#!/usr/bin/python3
"""The corpus benchmark: WARC files of HTML pages to per-language JSONL with text, five ways, in one
run, in interleaved rounds (each round runs every pipeline once, in turn, so that the load of a
shared machine falls on all of them alike).

    /usr/bin/python3 benchmarks/corpus_bench.py [--build DIR] [--pages-x N] [--shards K] [--rounds R] [-o FILE]

Input: the 150 HTML pages of benchmarks/make-inputs.sh (~29 KB each, 102 languages, 12 in legacy
encodings; made from ../shared/data/eval/lingua-dev, used only to measure speed), written N times
(default 20: 3000 pages) into K WARC files (default 4) by `langsift-warcgen --gzip --requests`:
every response after its request record, one gzip member per record; each file lists the pages in
another rotation. Every pipeline reads the same K files and writes documents with their text and
language:

  langsift warc -j 1   `langsift warc -j 1 --text --schema corpus -o OUT/corpus.jsonl FILES` (one
                       file: the documents carry their language; the CLI does not split by language)
  langsift warc -j 2   the same on 2 threads
  Python API           a loop over langsift.read_warc(FILE, text=True, schema="corpus") writing each
                       rec.json to OUT/<language>/<file>.jsonl
  Dask job             langsift.dask.process_archives(FILES, OUT, schema="corpus", text=True,
                       split_languages=True) on a LocalCluster of 2 worker processes (1 thread
                       each), started once before the rounds (its start is reported apart)
  Python pipeline      what a Python user writes today from Debian packages: gzip + a hand-written
                       WARC record loop (Debian has no warcio) + python3-readability (the main
                       content; when it raises or gives no text, lxml's text of the whole page
                       without <script>/<style>, counted) + fastText lid.176's Python binding
                       (python3-fasttext; model.predict(text, k=1)), writing
                       OUT/<language>/<file>.jsonl

Reported per pipeline: pages/s and MB/s (uncompressed HTTP bodies) of wall time, CPU seconds of
all its processes (threads, subprocesses and the Dask workers) and pages per CPU second, and the
CPU other processes used meanwhile (/proc/stat); medians over the rounds, and the ratios to the
Python pipeline (single-threaded). Then the language agreement: `--text --schema corpus` against
plain `langsift warc` (the same pipeline: target 100 %, at least 99 %), and, for information,
langsift against fastText on readability's text (codes compared as ISO 639-3, without script).
The three langsift pipelines must write the same documents (checked).

Needs: a build with langsift, langsift-warcgen and the Python package (build/python); Debian's
python3-fasttext, python3-readability, python3-lxml, python3-distributed; fastText's lid.176.ftz
($LANGSIFT_FASTTEXT_MODEL, else ~/.cache/langsift/peers/lid.176.ftz: scripts/get-peer-models.sh).
A missing one stops the benchmark with a message saying what to install (exit 1), never a
silent skip.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gzip
import hashlib
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, NoReturn, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_report  # noqa: E402 (after the path)

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


def fail(message: str) -> NoReturn:
    print(f"corpus_bench: {message}", file=sys.stderr)
    sys.exit(1)


# ---- CPU accounting -----------------------------------------------------------------------------


def _descendants_cpu() -> float:
    """CPU seconds of the live descendants of this process (their own and their reaped children's)."""
    parent: Dict[int, int] = {}
    times: Dict[int, float] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parent[int(d)] = int(fields[1])
        times[int(d)] = sum(int(x) for x in fields[11:15]) / CLK_TCK  # utime stime cutime cstime
    me, total = os.getpid(), 0.0
    for pid in times:
        p = parent.get(pid, 0)
        while p > 1 and p != me:
            p = parent.get(p, 0)
        if p == me and pid != me:
            total += times[pid]
    return total


def cpu_now() -> float:
    """This process's CPU, its reaped children's (the CLI runs) and its live descendants' (Dask)."""
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime + _descendants_cpu()


def busy_now() -> float:
    """CPU seconds all processes of the machine have used (/proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[0] + v[1] + v[2] + v[5] + v[6]) / CLK_TCK


# ---- inputs -------------------------------------------------------------------------------------


def make_inputs(build: Path, work: Path, pages_x: int, shards: int) -> List[Path]:
    pages_dir = build / "bench-inputs" / "pages"
    if not pages_dir.is_dir() or not any(pages_dir.iterdir()):
        subprocess.run([str(ROOT / "benchmarks" / "make-inputs.sh"),
                        str(ROOT.parent / "shared/data/eval/lingua-dev/sentences"), str(build / "bench-inputs")],
                       check=True, stdout=subprocess.DEVNULL)
    pages = sorted(str(p) for p in pages_dir.glob("*.html"))
    if pages_x % shards:
        fail(f"--pages-x {pages_x} is not a multiple of --shards {shards}")
    out = []
    for k in range(shards):
        path = work / f"corpus-{k:02d}.warc.gz"
        n = k * len(pages) // shards
        rotated = pages[n:] + pages[:n]
        subprocess.run([str(build / "langsift-warcgen"), "--gzip", "--requests", "--repeat", str(pages_x // shards),
                        *rotated, "-o", str(path)], check=True)
        out.append(path)
    return out


# ---- the Python pipeline of Debian packages -----------------------------------------------------


def warc_records(path: Path) -> Iterator[Tuple[Dict[str, str], bytes]]:
    """(WARC headers with lower-case names, block) of each record of a (multi-member) gzip WARC."""
    with gzip.open(path, "rb") as f:
        while True:
            line = f.readline()
            if not line:
                return
            if not line.strip():
                continue
            if not line.startswith(b"WARC/"):
                raise ValueError(f"{path}: not a WARC record at {line[:40]!r}")
            headers: Dict[str, str] = {}
            while True:
                line = f.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                k, _, v = line.decode("utf-8", "replace").partition(":")
                headers[k.strip().lower()] = v.strip()
            yield headers, f.read(int(headers.get("content-length", "0")))


def http_parts(block: bytes) -> Tuple[Dict[str, str], bytes]:
    head, _, body = block.partition(b"\r\n\r\n")
    headers: Dict[str, str] = {}
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        out, rest = [], body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            out.append(rest[:size])
            rest = rest[size + 2:]
        body = b"".join(out)
    if headers.get("content-encoding", "").lower() in ("gzip", "x-gzip"):
        body = gzip.decompress(body)
    elif headers.get("content-encoding", "").lower() == "deflate":
        body = zlib.decompress(body)
    return headers, body


class PythonPipeline:
    def __init__(self, model_path: Path) -> None:
        import fasttext  # Debian python3-fasttext
        import lxml.html  # Debian python3-lxml
        from readability import Document  # Debian python3-readability

        self.ft = fasttext.FastText._FastText(model_path=str(model_path))  # load_model without its warning
        self.Document = Document
        self.lxml_html = lxml.html
        self.fallbacks = 0
        self.pages = 0

    def text_of(self, body: bytes, charset: Optional[str]) -> str:
        page: Any = body
        if charset:
            try:
                page = body.decode(charset, "replace")
            except LookupError:
                pass
        try:
            summary = self.Document(page).summary(html_partial=True)
            text = self.lxml_html.fromstring(summary).text_content()
            if text.strip():
                return text
        except Exception:  # readability raises Unparseable (and lxml errors) on some pages
            pass
        self.fallbacks += 1
        tree = self.lxml_html.document_fromstring(page)
        for el in tree.xpath("//script|//style"):
            el.drop_tree()
        return tree.text_content()

    def run(self, files: List[Path], out: Path) -> Dict[Tuple[str, str], str]:
        langs: Dict[Tuple[str, str], str] = {}
        handles: Dict[str, Any] = {}
        try:
            for path in files:
                for lang_file in handles.values():
                    lang_file.close()
                handles.clear()
                for h, block in warc_records(path):
                    if h.get("warc-type") != "response":
                        continue
                    headers, body = http_parts(block)
                    ctype = headers.get("content-type", "")
                    if "html" not in ctype.lower():
                        continue
                    m = re.search(r"charset=[\"']?([\w.:-]+)", ctype, re.I)
                    text = self.text_of(body, m.group(1) if m else None)
                    labels, probs = self.ft.predict(" ".join(text.split()), k=1)
                    lang = labels[0].removeprefix("__label__") if labels else "und"
                    doc = {"id": h.get("warc-record-id", ""), "source": path.name, "url": h.get("warc-target-uri", ""),
                           "language": lang, "language_score": round(float(probs[0]) if labels else 0.0, 4),
                           "text": text}
                    f = handles.get(lang)
                    if f is None:
                        (out / lang).mkdir(parents=True, exist_ok=True)
                        f = handles[lang] = open(out / lang / f"{path.name}.jsonl", "w", encoding="utf-8")
                    f.write(json.dumps(doc, ensure_ascii=False) + "\n")
                    langs[(path.name, doc["id"])] = lang
                    self.pages += 1
        finally:
            for lang_file in handles.values():
                lang_file.close()
        return langs


# ---- main ---------------------------------------------------------------------------------------

PIPELINES = ("langsift warc -j 1", "langsift warc -j 2", "Python API", "Dask job, 2 workers", "Python pipeline")


class Corpus(NamedTuple):
    """The input WARC files and what plain `langsift warc` (the reference, not timed) reads in them."""
    files: List[Path]
    warc_bytes: int
    pages: int
    body_mb: float
    plain: Dict[Tuple[str, str], str]  # (file name, record id) -> language


def parse_args() -> argparse.Namespace:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, default=ROOT / "build", help="build with langsift, langsift-warcgen, python/")
    ap.add_argument("--pages-x", type=int, default=20, help="how many times the 150 pages are written (default 20)")
    ap.add_argument("--shards", type=int, default=4, help="WARC files the pages are spread over (default 4)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--work", type=Path, help="where inputs and outputs go (default: a temporary directory)")
    ap.add_argument("-o", type=Path, help="also write the report (markdown) to this file")
    return ap.parse_args()


def check_prerequisites(build: Path) -> Path:
    """Stops (exit 1, saying what to build or install) unless every pipeline can run; returns fastText's model."""
    for tool in ("langsift", "langsift-warcgen"):
        if not (build / tool).is_file():
            fail(f"{build / tool} is missing: build it (cmake --build {build} --target {tool})")
    if not list((build / "python" / "langsift").glob("_langsift*.so")):
        fail(f"{build}/python has no langsift extension: cmake --build {build} --target langsift_python")
    model = Path(os.environ.get("LANGSIFT_FASTTEXT_MODEL") or Path.home() / ".cache/langsift/peers/lid.176.ftz")
    if not model.is_file():
        fail(f"fastText's model {model} is missing: run scripts/get-peer-models.sh (or set LANGSIFT_FASTTEXT_MODEL)")
    for module, package in (("fasttext", "python3-fasttext"), ("readability", "python3-readability"),
                            ("lxml.html", "python3-lxml"), ("distributed", "python3-distributed")):
        try:
            __import__(module)
        except ImportError as e:
            fail(f"the Python pipeline needs {module} ({e}): install Debian's {package} (scripts/install-deps.sh)")
    return model


def reference_run(cli: str, files: List[Path]) -> Corpus:
    """Plain `langsift warc` and its statistics (pages, body bytes) over the files; not timed."""
    stats_tsv = subprocess.run([cli, "warc", "--stats", *map(str, files)], capture_output=True, text=True,
                               check=True).stdout
    totals = {m.group(1): int(m.group(2)) for m in re.finditer(r"^total\t(\w+)\t(\d+)$", stats_tsv, re.M)}
    plain = {}
    for line in subprocess.run([cli, "warc", *map(str, files)], capture_output=True, text=True, check=True).stdout.splitlines():
        d = json.loads(line)
        if "skipped" not in d:
            plain[(Path(d["file"]).name, d["record_id"])] = d["language"]
    return Corpus(files, sum(p.stat().st_size for p in files), totals["pages"], totals["body_bytes"] / 1e6, plain)


def start_cluster() -> Tuple[Any, Any, float]:
    """Dask's LocalCluster of 2 worker processes (1 thread each), its client, and the seconds it took to start."""
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0")
    client = Client(cluster)
    client.run(lambda: __import__("langsift"))  # the workers import the package once, as a job's first task would
    return cluster, client, time.perf_counter() - t0


def run_cli(cli: str, threads: int, corpus: Corpus, out: Path) -> int:
    """`langsift warc -j THREADS --text --schema corpus -o OUT/corpus.jsonl FILES`; the pages it read."""
    out.mkdir(parents=True)
    subprocess.run([cli, "warc", "-j", str(threads), "--text", "--schema", "corpus", "-o",
                    str(out / "corpus.jsonl"), *map(str, corpus.files)], check=True)
    return corpus.pages


def run_api(files: List[Path], out: Path) -> int:
    """langsift.read_warc over each file, writing each rec.json to OUT/<language>/<file>.jsonl; the documents written."""
    import langsift

    n = 0
    for path in files:
        handles: Dict[str, Any] = {}
        try:
            for rec in langsift.read_warc(str(path), text=True, schema="corpus"):
                f = handles.get(rec.language)
                if f is None:
                    (out / rec.language).mkdir(parents=True, exist_ok=True)
                    f = handles[rec.language] = open(out / rec.language / f"{path.name}.jsonl", "w", encoding="utf-8")
                f.write(rec.json)
                f.write("\n")
                n += 1
        finally:
            for f in handles.values():
                f.close()
    return n


def run_dask(client: Any, files: List[Path], out: Path) -> int:
    """langsift.dask.process_archives over the files on the cluster, split by language; the pages it read."""
    from langsift.dask import process_archives

    report = process_archives([str(p) for p in files], out, client=client, schema="corpus", text=True,
                              split_languages=True)
    if report.exit_status != 0:
        fail(f"the Dask job failed: {report.messages()}")
    return report.stats.pages


def run_python(pipeline: PythonPipeline, files: List[Path], written: Dict[str, Any], out: Path) -> int:
    """The Python pipeline of Debian packages; keeps its languages in written; the pages it read."""
    before = pipeline.pages
    written["Python pipeline"] = pipeline.run(files, out)
    return pipeline.pages - before


def documents_written(out: Path) -> collections.Counter:
    """(source, id, language, SHA-1 of the text) of every document of the JSONL files under out, counted."""
    docs: collections.Counter = collections.Counter()
    for p in out.rglob("*.jsonl"):
        for line in p.open(encoding="utf-8"):
            d = json.loads(line)
            text = hashlib.sha1(d["text"].encode("utf-8")).hexdigest()
            docs[(Path(d["source"]).name, d["id"], d["language"], text)] += 1
    return docs


def timed_rounds(pipelines: Dict[str, Callable[[Path], int]], rounds: int, work: Path, pages: int,
                 written: Dict[str, Any]) -> Dict[str, List[Tuple[float, float, float]]]:
    """Runs every pipeline once per round, in turn: (wall s, CPU s, other processes' CPU s) of each run.
    Keeps in written what each langsift pipeline wrote in the first round."""
    results: Dict[str, List[Tuple[float, float, float]]] = collections.defaultdict(list)
    for r in range(rounds):
        for name, go in pipelines.items():
            out = work / "out" / re.sub(r"\W+", "-", name)
            shutil.rmtree(out, ignore_errors=True)
            b0, c0, t = busy_now(), cpu_now(), time.perf_counter()
            n = go(out)
            wall, cpu = time.perf_counter() - t, cpu_now() - c0
            other = max(0.0, busy_now() - b0 - cpu)
            if n != pages:
                fail(f"{name} wrote {n} documents, langsift warc counts {pages} pages")
            results[name].append((wall, cpu, other))
            print(f"round {r + 1}: {name}: {wall:.2f} s, {pages / wall:.0f} pages/s, CPU {cpu:.2f} s, "
                  f"other processes {other:.2f} CPU s", file=sys.stderr)
            if r == 0 and name != "Python pipeline":  # what each wrote, for the checks below
                written[name] = documents_written(out)
    return results


class Checks(NamedTuple):
    """The checks' results: same documents per langsift pipeline, and the language agreements."""
    same_docs: Dict[str, bool]
    agree_text: int  # pages where --text --schema corpus gives plain `langsift warc`'s language
    corpus_pages: int
    agree_ft: int  # pages where fastText on readability's text gives langsift's language


def run_checks(written: Dict[str, Any], plain: Dict[Tuple[str, str], str]) -> Checks:
    """The three langsift pipelines wrote the same documents; the languages of --text against plain
    `langsift warc`; langsift against fastText on readability's text."""
    import langsift

    reference = written["langsift warc -j 1"]
    same_docs = {name: written[name] == reference for name in ("langsift warc -j 2", "Python API", "Dask job, 2 workers")}
    corpus_lang = {(src, i): lang for (src, i, lang, _), _ in reference.items()}
    agree_text = sum(1 for k, v in plain.items() if corpus_lang.get(k) == v)

    def norm(code: str) -> str:
        base = code.split("-")[0]
        try:
            return langsift.to_iso639_3(base)
        except ValueError:
            return base

    ft = written["Python pipeline"]
    agree_ft = sum(1 for k, v in corpus_lang.items() if k in ft and norm(ft[k]) == norm(v))
    return Checks(same_docs, agree_text, len(corpus_lang), agree_ft)


def header_lines(a: argparse.Namespace, corpus: Corpus, load_before: List[str], cluster_start: float) -> List[str]:
    """The report's title, command, machine and input paragraphs."""
    cpu_model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    n = len(corpus.files)
    return [
        bench_report.title("Corpus"), "",
        f"`{bench_report.command_line('corpus_bench.py')}`; revision "
        f"{bench_report.revision() or 'unknown'}; {os.cpu_count()} CPUs ({cpu_model}); CPython "
        f"{platform.python_version()}; load average before {' '.join(load_before)}; {a.rounds} interleaved rounds.", "",
        f"Input: {n} WARC files (`langsift-warcgen --gzip --requests --repeat {a.pages_x // a.shards}`, the "
        f"150 pages of make-inputs.sh in {n} rotations), {corpus.warc_bytes / 1e6:.1f} MB of gzip, {corpus.pages} HTML "
        f"pages, {corpus.body_mb:.1f} MB of HTTP bodies. MB/s below: bodies. Dask's LocalCluster (2 processes) took "
        f"{cluster_start:.2f} s to start, not counted.", ""]


def table_lines(results: Dict[str, List[Tuple[float, float, float]]], corpus: Corpus) -> List[str]:
    """The table of every round, then the medians' table with the ratios to the Python pipeline."""
    pages, body_mb = corpus.pages, corpus.body_mb
    lines = ["| pipeline | round | wall s | pages/s | MB/s | CPU s | pages per CPU s | other processes, CPU s |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in PIPELINES:
        for r, (wall, cpu, other) in enumerate(results[name], 1):
            lines.append(f"| {name if r == 1 else ''} | {r} | {wall:.2f} | {pages / wall:,.0f} | {body_mb / wall:.1f} | "
                         f"{cpu:.2f} | {pages / cpu:,.0f} | {other:.2f} |")
    med = bench_report.medians(results)
    base_wall, base_cpu = med["Python pipeline"][0], med["Python pipeline"][1]
    lines += ["", "Medians over the rounds, and ratios to the Python pipeline (single-threaded):", "",
              "| pipeline | pages/s | MB/s | pages per CPU s | × Python pipeline (wall) | × Python pipeline (CPU) |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name in PIPELINES:
        wall, cpu, _other = med[name]
        lines.append(f"| {name} | {pages / wall:,.0f} | {body_mb / wall:.1f} | {pages / cpu:,.0f} | "
                     f"{base_wall / wall:.1f}× | {base_cpu / cpu:.1f}× |")
    return lines


def check_lines(c: Checks, plain_pages: int, python_pipeline: PythonPipeline, rounds: int) -> List[str]:
    """The report's list of the checks' results."""
    return [
        "",
        f"- Same language with `--text --schema corpus` as with plain `langsift warc`: {c.agree_text} of {plain_pages} "
        f"pages ({100.0 * c.agree_text / plain_pages:.2f} %; target ≥ 99 %).",
        f"- langsift (`--schema corpus`) and fastText lid.176 on readability's text give the same language for "
        f"{c.agree_ft} of {c.corpus_pages} pages ({100.0 * c.agree_ft / c.corpus_pages:.1f} %; codes as ISO 639-3, "
        f"without script; for information).",
        f"- readability gave no text (raised, or an empty summary) on {python_pipeline.fallbacks} of "
        f"{python_pipeline.pages} page readings ({rounds} rounds); lxml's text of the whole page was used for those.",
        "- The three langsift pipelines wrote the same documents (id, source, language, text) as `langsift warc -j 1`: "
        + ", ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in c.same_docs.items()) + ".",
    ]


def main() -> int:
    """Checks, makes the inputs, runs the reference and the timed rounds, checks and reports; 1 if a check failed."""
    a = parse_args()
    build = a.build.resolve()
    model = check_prerequisites(build)
    sys.path.insert(0, str(build / "python"))
    import distributed  # noqa: F401 (loaded before any work: the pipelines and the checks use them)
    import langsift  # noqa: F401
    import langsift.dask  # noqa: F401

    work = a.work.resolve() if a.work else Path(tempfile.mkdtemp(prefix="corpus-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    files = make_inputs(build, work, a.pages_x, a.shards)
    cli = str(build / "langsift")
    corpus = reference_run(cli, files)
    cluster, client, cluster_start = start_cluster()

    python_pipeline = PythonPipeline(model)
    written: Dict[str, Any] = {}
    pipelines: Dict[str, Callable[[Path], int]] = dict(zip(PIPELINES, (
        functools.partial(run_cli, cli, 1, corpus), functools.partial(run_cli, cli, 2, corpus),
        functools.partial(run_api, files), functools.partial(run_dask, client, files),
        functools.partial(run_python, python_pipeline, files, written))))
    load_before = open("/proc/loadavg").read().split()[:3]
    results = timed_rounds(pipelines, a.rounds, work, corpus.pages, written)
    client.close()
    cluster.close()

    checks = run_checks(written, corpus.plain)
    lines = (header_lines(a, corpus, load_before, cluster_start) + table_lines(results, corpus)
             + check_lines(checks, len(corpus.plain), python_pipeline, a.rounds))
    report = "\n".join(lines) + "\n"
    print(report)
    if a.o:
        bench_report.write_report(a.o, report)
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    if not all(checks.same_docs.values()) or checks.agree_text < 0.99 * len(corpus.plain):
        print("corpus_bench: a check failed (see above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
