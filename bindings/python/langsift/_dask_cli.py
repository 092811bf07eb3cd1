"""langsift.dask's command line (``python3 -m langsift.dask``): the options, the input lists, the
messages on stderr and the exit statuses, and SIGINT/SIGTERM stopping the job cleanly."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import threading
from typing import Any, Dict, List, NoReturn, Optional, Sequence

from ._dask_files import _say
from ._dask_job import OutputDirectoryNotEmpty, process_archives
from ._dask_results import EXIT_UNREADABLE, EXIT_USAGE
from ._dask_shard import _os_error_text

_PROG = "langsift.dask"


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints two)
        raise _UsageError(message)


def _size(text: str) -> int:
    m = re.fullmatch(r"(\d+)([kKmMgG]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 4194304, 512K, 4M)")
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"not a positive integer: {text!r}")
    return n


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        p = -1.0
    if not 0.0 <= p <= 1.0:  # NaN too
        raise argparse.ArgumentTypeError(f"needs a probability from 0 to 1, not {text!r}")
    return p


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=f"python3 -m {_PROG}",
        description="Identifies the language and encoding of every page of WARC/WET files on a Dask "
        "cluster, one task per file. Writes OUTDIR/<file name>.jsonl per input (the lines "
        "`langsift warc FILE` prints with the same options; with --split-languages, "
        "OUTDIR/<language>/<file name>.jsonl), OUTDIR/stats.tsv (the tables of `langsift warc --stats` over "
        "all the inputs) and OUTDIR/report.json. Malformed input is reported on stderr as "
        "'INPUT: offset N: what' and the job goes on; a worker that dies has its file redone.",
        epilog="Exit status: 0 all well, 3 some input was malformed (reported), 1 an input could not "
        "be read (reported; the others were processed) or the job failed, 2 usage error.")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="WARC/WET files (plain or gzip): paths or fsspec URLs")
    p.add_argument("-o", "--output-dir", required=True, metavar="OUTDIR", help="where the outputs go (created)")
    p.add_argument("--inputs-from", metavar="FILE", action="append", default=[],
                   help="read inputs from FILE, one per line ('-': stdin; blank lines and #comments skipped)")
    p.add_argument("--stats", metavar="FILE", help="write the merged statistics to FILE (default OUTDIR/stats.tsv)")
    p.add_argument("--report", metavar="FILE", help="write the report to FILE (default OUTDIR/report.json)")
    p.add_argument("--overwrite", action="store_true",
                   help="OUTDIR may hold an earlier run's files: the job's own (*.jsonl[.gz|.zst] outputs, also in "
                   "language directories, stats.tsv, report.json, temporary files) are removed before the tasks "
                   "start; other files stay. "
                   "Without it, an OUTDIR that is not empty is refused")
    g = p.add_argument_group("cluster (default: a local cluster, one worker process per core)")
    g.add_argument("--scheduler", metavar="ADDR", help="use the Dask scheduler at ADDR (tcp://host:8786)")
    g.add_argument("--workers", type=_positive, metavar="N", help="local cluster: N worker processes")
    g.add_argument("--threads-per-worker", type=_positive, metavar="M", help="local cluster: M threads each (default 1)")
    g.add_argument("--retries", type=int, default=0, metavar="N", help="rerun a task that raised up to N times (default 0)")
    g.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an fsspec storage option for URL inputs (VALUE parsed as JSON when it can be)")
    r = p.add_argument_group("reading (as `langsift warc`)")
    r.add_argument("--all", action="store_true", help="also a line for records that are not classified")
    r.add_argument("--any-type", action="store_true", help="classify every Content-Type")
    r.add_argument("--main", action="store_true", help="HTML: classify only the main content")
    r.add_argument("--max-record-bytes", type=_size, default=4 << 20, metavar="N",
                   help="keep at most N bytes of a record's block (default 4M)")
    r.add_argument("--model", metavar="NAME|FILE",
                   help="a built-in model (default, wide) or a model file (default: the built-in default)")
    r.add_argument("--codes", default="iso639-1", metavar="iso639-1|iso639-3",  # names checked by the library
                   help="language codes in the lines and the statistics (default iso639-1)")
    r.add_argument("--text", action="store_true", help="add each page's text to its line")
    r.add_argument("--schema", choices=("default", "corpus"), default="default",
                   help="corpus: one document per page, {id, source, url, language, language_score, metadata, "
                   "text}, as datatrove and Dolma read them")
    r.add_argument("--languages", metavar="CODES",
                   help="write only the pages whose top language is one of CODES (de,fr; the others are counted "
                   "as filtered)")
    r.add_argument("--min-probability", type=_probability, default=0.0, metavar="P",
                   help="write only the pages whose language has at least the calibrated probability P")
    w = p.add_argument_group("outputs")
    w.add_argument("--split-languages", action="store_true",
                   help="one file per language and input, OUTDIR/<language>/<name>.jsonl, instead of one per input")
    w.add_argument("--compression", choices=("gz", "zst"),
                   help="compress the outputs: <name>.jsonl.gz (gzip) or <name>.jsonl.zst (zstd; needs Debian's "
                   "python3-zstandard)")
    p.add_argument("--timing", action="store_true",
                   help="print inputs, records, pages, seconds and pages/s to stderr at the end")
    return p


def _read_list(name: str) -> List[str]:
    """The inputs of a list file ('-': stdin), one a line, names as bytes decoded as the OS's
    (surrogateescape: a name that is not UTF-8 keeps its bytes)."""
    if name == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else os.fsencode(sys.stdin.read())
    else:
        with open(name, "rb") as f:
            data = f.read()
    lines = (line.strip() for line in data.splitlines())
    return [os.fsdecode(line) for line in lines if line and not line.startswith(b"#")]


class _Signalled(BaseException):
    """SIGINT or SIGTERM arrived: the job stops (process_archives cleans up) and main exits 128+N."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_signal(signum: int, frame: Any) -> None:
    for s in (signal.SIGINT, signal.SIGTERM):  # the clean-up runs once, not interrupted again
        signal.signal(s, signal.SIG_IGN)
    raise _Signalled(signum)


def _run_main(a: argparse.Namespace, storage: Dict[str, Any], err: Any) -> int:
    inputs = list(a.inputs)
    for name in a.inputs_from:
        try:
            inputs += _read_list(name)
        except OSError as e:
            _say(err, f"{_PROG}: {name}: {_os_error_text(e)}")
            return EXIT_UNREADABLE
    if not inputs:
        _say(err, f"{_PROG}: no inputs (see --help)")
        return EXIT_USAGE
    try:
        report = process_archives(
            inputs, a.output_dir, client=a.scheduler, n_workers=a.workers, threads_per_worker=a.threads_per_worker,
            stats_path=a.stats, report_path=a.report, storage_options=storage, retries=a.retries,
            overwrite=a.overwrite, all=a.all, any_type=a.any_type, main_content=a.main,
            max_record_bytes=a.max_record_bytes, codes=a.codes, model=a.model, text=a.text, schema=a.schema,
            languages=a.languages, min_probability=a.min_probability, split_languages=a.split_languages,
            compression=a.compression)
    except OutputDirectoryNotEmpty as e:
        _say(err, f"{_PROG}: {e.filename}: the output directory is not empty: --overwrite replaces an earlier "
                  "run's files (see --help)")
        return EXIT_USAGE
    except (OSError, TimeoutError) as e:  # the scheduler, the model, the output directory
        if isinstance(e, OSError) and e.strerror:
            msg = f"{e.filename}: {e.strerror}" if e.filename else e.strerror
        else:
            msg = str(e) or type(e).__name__
        _say(err, f"{_PROG}: {msg}")
        return EXIT_UNREADABLE
    except ValueError as e:
        _say(err, f"{_PROG}: {e} (see --help)")
        return EXIT_USAGE
    except ImportError as e:  # zstd outputs without the zstandard module
        _say(err, f"{_PROG}: {e}")
        return EXIT_UNREADABLE
    # The report is written: from here a signal ends the process as it would any other.
    if threading.current_thread() is threading.main_thread():
        for s in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(s) is _on_signal:
                signal.signal(s, signal.SIG_DFL)
    for line in report.messages():
        _say(err, f"{_PROG}: {line}")
    if a.timing:
        s = report.stats
        secs = max(report.seconds, 1e-9)
        mb = sum(r.input_bytes for r in report.shards) / 1e6
        filtered = f", {s.filtered} filtered" if s.filtered else ""
        _say(err, f"{_PROG}: {len(report.shards)} inputs, {s.records} records, {s.pages} pages{filtered}, {mb:.1f} MB read, "
                  f"{report.seconds:.2f} s, {s.pages / secs:.0f} pages/s, {report.workers} workers"
                  + (f", {sum(report.removed_partial.values())} partial outputs of dead attempts removed"
                     if report.removed_partial else ""))
    return report.exit_status


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m langsift.dask``: returns the exit status (0, 3 malformed, 1 unreadable, 2 usage,
    130/143 stopped by SIGINT/SIGTERM)."""
    err = sys.stderr
    try:
        a = _parser().parse_args(argv)
        if a.scheduler and (a.workers or a.threads_per_worker):
            raise _UsageError("--scheduler and --workers/--threads-per-worker exclude each other")
        if a.retries < 0:
            raise _UsageError("--retries must be >= 0")
        storage: Dict[str, Any] = {}
        for kv in a.storage_option:
            k, eq, v = kv.partition("=")
            if not eq or not k:
                raise _UsageError(f"--storage-option wants KEY=VALUE, not {kv!r}")
            try:
                storage[k] = json.loads(v)
            except ValueError:
                storage[k] = v
    except _UsageError as e:
        _say(err, f"{_PROG}: {e} (see --help)")
        return EXIT_USAGE
    # SIGINT and SIGTERM stop the job cleanly (a signal ignored when the job started stays so).
    saved: Dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for s in (signal.SIGINT, signal.SIGTERM):
            old = signal.getsignal(s)
            if old is not signal.SIG_IGN:
                saved[s] = old
                signal.signal(s, _on_signal)
    try:
        return _run_main(a, storage, err)
    except _Signalled as e:
        _say(err, f"{_PROG}: interrupted by {signal.Signals(e.signum).name}: the job was stopped and its temporary "
                  "files removed; no statistics or report were written")
        return 128 + e.signum
    finally:
        for s, old in saved.items():
            signal.signal(s, old if old is not None else signal.SIG_DFL)
