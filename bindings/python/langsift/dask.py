"""langsift.dask: the languages and encodings of WARC/WET shards, one Dask task per shard.

    >>> from langsift.dask import process_archives
    >>> report = process_archives(["crawl-00000.warc.gz", "s3://bucket/crawl-00001.warc.gz"],
    ...                           "out/", client="tcp://scheduler:8786")
    >>> report.exit_status, report.stats.pages
    (0, 51234)

or from a shell (``/usr/bin/python3`` on Debian, where python3-dask lives)::

    python3 -m langsift.dask --workers 2 -o out/ crawl-*.warc.gz
    python3 -m langsift.dask --scheduler tcp://scheduler:8786 -o out/ --inputs-from paths.txt

For every input, ``OUTDIR/<name>.jsonl`` holds exactly the lines ``langsift warc INPUT`` prints;
``OUTDIR/stats.tsv`` (or ``stats_path``) holds the tables of ``langsift warc --stats`` over all the
inputs, and ``OUTDIR/report.json`` what happened to each input. The engine is Dask's
(``distributed``): its scheduler hands the inputs to the workers and, when a worker dies, gives the
dead worker's task to another one. What makes that safe is here:

- A task is a pure function of its input: it reads the whole input with
  :func:`langsift.read_warc`, writes its lines to a temporary file beside the final one
  (``.<name>.jsonl.<pid>.<random>.tmp``), fsyncs it and renames it over the final name. An attempt
  that dies leaves a temporary file, never a partial output; the attempt that succeeds writes the
  whole file again, so no line appears twice. The temporary files of dead attempts are removed
  when the job ends (and counted in the report).
- A task returns small data (its statistics as TSV, the malformed input's offsets and messages,
  counts): the statistics are merged on the client from the one result Dask delivers per input, so
  every input is counted once, whichever attempt produced it.
- Malformed input (a corrupt or cut shard) is reported per input, as ``langsift warc`` reports it on
  stderr, and reading goes on; an unreadable input is reported and the other inputs go on.

Local paths must be readable by the workers under the same name (a shared file system on a real
cluster); anything else with ``://`` (``file://``, ``s3://``, ``hdfs://``, ``memory://``...) is
opened with fsspec on the worker. The output directory must be a file system the workers share
with the client (renames must be atomic there): S3 and the like are not supported as outputs.
See docs/dask.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import hashlib
import json
import os
import re
import socket
import sys
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, NoReturn, Optional, Sequence, Tuple, Union

import langsift

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = [
    "Report",
    "ShardResult",
    "main",
    "output_names",
    "process_archives",
    "process_shard",
]

#: Exit statuses, as `langsift warc` has them.
EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, EXIT_MALFORMED = 0, 1, 2, 3

_PROG = "langsift.dask"
_READ_OPTIONS = ("all", "any_type", "main_content", "max_record_bytes", "codes", "max_text_bytes",
                 "short_text_bytes", "model")


# ------------------------------------------------------------------------------------------------
# Results


@dataclasses.dataclass(frozen=True)
class ShardResult:
    """What one task did with one input (made on the worker, sent back to the client).

    `output` is the JSONL file written (an absolute path), None when nothing was written because
    the input could not be read (`error` says why). `malformed` lists (offset, message) for input
    that was not a well-formed record, exactly what ``langsift warc`` reports on stderr for it.
    `stats_tsv` is the input's ``langsift warc --stats`` table. `worker` and `pid` name the worker
    (and process) of the attempt whose result this is.
    """

    input: str
    output: Optional[str] = None
    lines: int = 0
    records: int = 0
    pages: int = 0
    input_bytes: int = 0
    malformed: Tuple[Tuple[int, str], ...] = ()
    error: Optional[str] = None
    stats_tsv: str = ""
    worker: str = ""
    pid: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the input was read to its end (it may still have had malformed parts)."""
        return self.error is None

    @property
    def stats(self) -> "langsift.WarcStats":
        """The input's statistics (empty when it could not be read)."""
        return langsift.WarcStats.from_tsv(self.stats_tsv) if self.stats_tsv else langsift.WarcStats()

    def messages(self) -> List[str]:
        """One line per problem: ``INPUT: offset N: what`` (malformed) or ``INPUT: what`` (unreadable)."""
        lines = [f"{self.input}: offset {off}: {msg}" for off, msg in self.malformed]
        if self.error is not None:
            lines.append(f"{self.input}: {self.error}")
        return lines

    def to_dict(self) -> Dict[str, Any]:
        """The fields as JSON-ready values (report.json's entries), without the statistics table."""
        d = dataclasses.asdict(self)
        d.pop("stats_tsv")
        d["malformed"] = [[off, msg] for off, msg in self.malformed]
        d["seconds"] = round(self.seconds, 3)
        return d


@dataclasses.dataclass
class Report:
    """The outcome of :func:`process_archives`: one ShardResult per input (in input order), the
    merged statistics, where they were written, and the temporary files of interrupted attempts
    that were removed (per input)."""

    shards: List[ShardResult]
    stats: "langsift.WarcStats"
    output_dir: str
    stats_path: str
    report_path: str
    removed_partial: Dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 0

    @property
    def exit_status(self) -> int:
        """1 when an input could not be read, else 3 when some input was malformed, else 0
        (the exit statuses of ``langsift warc``)."""
        if any(s.error is not None for s in self.shards):
            return EXIT_UNREADABLE
        if any(s.malformed for s in self.shards):
            return EXIT_MALFORMED
        return EXIT_OK

    @property
    def failed(self) -> List[ShardResult]:
        """The inputs that could not be read (no output written)."""
        return [s for s in self.shards if s.error is not None]

    @property
    def malformed(self) -> List[ShardResult]:
        """The inputs that were read but had malformed parts."""
        return [s for s in self.shards if s.malformed]

    def messages(self) -> List[str]:
        """Every problem as one line (``INPUT: offset N: what`` / ``INPUT: what``), in input order."""
        return [m for s in self.shards for m in s.messages()]

    def to_dict(self) -> Dict[str, Any]:
        """report.json: the inputs (with their outputs and problems), totals and the exit status."""
        return {
            "exit_status": self.exit_status,
            "inputs": [dict(s.to_dict(), removed_partial=self.removed_partial.get(s.input, 0)) for s in self.shards],
            "stats": self.stats_path,
            "records": self.stats.records,
            "pages": self.stats.pages,
            "malformed": self.stats.malformed,
            "unreadable": len(self.failed),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
        }


# ------------------------------------------------------------------------------------------------
# Names


def _is_url(source: str) -> bool:
    return "://" in source or "::" in source


def _basename(source: str) -> str:
    path = source
    if _is_url(source):
        path = source.split("::")[-1].split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]


def output_names(inputs: Sequence[str]) -> List[str]:
    """The output file name of each input: its base name (safe characters only) + ``.jsonl``.

    ``crawl-00001.warc.gz`` gives ``crawl-00001.warc.gz.jsonl``. Inputs whose names would be the
    same (``a/x.warc.gz`` and ``b/x.warc.gz``) each get the first 8 hex digits of the SHA-1 of the
    input as given (``x.warc.gz.3f2a9c1b.jsonl``): deterministic, and independent of the order of
    the inputs. Names never start with a dot (temporary files do).
    """
    stems = []
    for source in inputs:
        base = re.sub(r"[^A-Za-z0-9._+=@,-]", "_", _basename(str(source)))
        base = base.lstrip(".") or "input"
        stems.append(base)
    counts: Dict[str, int] = {}
    for s in stems:
        counts[s] = counts.get(s, 0) + 1
    names = []
    for source, s in zip(inputs, stems):
        if counts[s] > 1:
            s = f"{s}.{hashlib.sha1(str(source).encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
        names.append(s + ".jsonl")
    seen: Dict[str, int] = {}
    for i, n in enumerate(names):  # a hashed name equal to another input's plain name: number it
        if n in seen:
            k = 2
            while f"{n[:-6]}-{k}.jsonl" in seen or f"{n[:-6]}-{k}.jsonl" in names:
                k += 1
            names[i] = n = f"{n[:-6]}-{k}.jsonl"
        seen[n] = i
    return names


def _temp_pattern(final_path: str) -> str:
    d, name = os.path.split(final_path)
    return os.path.join(glob.escape(d), "." + glob.escape(name) + ".*.tmp")


def _temp_path(final_path: str) -> str:
    d, name = os.path.split(final_path)
    return os.path.join(d, f".{name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_atomic(path: str, text: str) -> None:
    """Writes `text` to `path` through a temporary file in the same directory, fsynced and renamed."""
    tmp = _temp_path(path)
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(os.path.dirname(path) or ".")


# ------------------------------------------------------------------------------------------------
# The task


_MODELS: Dict[str, "langsift.Model"] = {}


def _model(path: Optional[str]) -> Optional["langsift.Model"]:
    if path is None:
        return None
    m = _MODELS.get(path)
    if m is None:  # a built-in model's name ("wide") wins over a file so named, as in `langsift warc`
        m = _MODELS[path] = (langsift.Model.builtin(path) if path in langsift.Model.builtin_names()
                             else langsift.Model.load(path))
    return m


def _os_error_text(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except Exception:  # not inside a Dask worker (a direct call)
        return socket.gethostname()


def process_shard(source: str, output_path: str, options: Optional[Mapping[str, Any]] = None,
                  storage_options: Optional[Mapping[str, Any]] = None) -> ShardResult:
    """Reads one WARC/WET input and writes its JSON lines to `output_path`, atomically.

    The Dask task of :func:`process_archives`, usable on its own. `source` is a local path or an
    fsspec URL (opened with `storage_options`); `options` are :func:`langsift.read_warc`'s
    (all, any_type, main_content, max_record_bytes, codes, max_text_bytes, short_text_bytes) and
    ``model``, a built-in model's name or a model file's path. The lines go to a temporary file in the output's directory
    (``.<name>.<pid>.<random>.tmp``), which is fsynced and renamed to `output_path` once the input
    has been read to its end; so running this again, or twice at once, leaves one whole file.
    Malformed input is listed in the result; an input that cannot be opened or read gives a result
    with `error` set and writes nothing. Raises only for a bad option or an unloadable model.
    """
    t0 = time.monotonic()
    opts = dict(options or {})
    unknown = set(opts) - set(_READ_OPTIONS)
    if unknown:
        raise TypeError(f"process_shard: unknown option(s) {', '.join(sorted(unknown))}")
    model = _model(opts.pop("model", None))
    base = ShardResult(input=source, worker=_worker_address(), pid=os.getpid())

    def failed(error: str) -> ShardResult:
        return dataclasses.replace(base, error=error, seconds=time.monotonic() - t0)

    stream = None
    tmp = ""
    try:
        try:  # the input: a path read by the library itself, or a file object of fsspec's
            if _is_url(source):
                import fsspec

                stream = fsspec.open(source, "rb", **dict(storage_options or {})).open()
            reader = langsift.read_warc(stream if stream is not None else source, errors="ignore",
                                        model=model, **opts)
        except (OSError, EOFError) as e:  # unreadable: no output, the other inputs go on
            return failed(_os_error_text(e))
        tmp = _temp_path(output_path)
        try:
            out = open(tmp, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            tmp = ""
            return failed(f"cannot write {output_path}: {_os_error_text(e)}")
        lines = 0
        with out:
            records = iter(reader)
            while True:
                try:
                    rec = next(records)
                except StopIteration:
                    break
                except (OSError, EOFError) as e:  # a read error half-way: no output either
                    return failed(_os_error_text(e))
                try:
                    out.write(rec.json)
                    out.write("\n")
                except OSError as e:
                    return failed(f"cannot write {output_path}: {_os_error_text(e)}")
                lines += 1
            try:
                out.flush()
                os.fsync(out.fileno())
            except OSError as e:
                return failed(f"cannot write {output_path}: {_os_error_text(e)}")
        try:
            os.replace(tmp, output_path)
        except OSError as e:
            return failed(f"cannot write {output_path}: {_os_error_text(e)}")
        tmp = ""
        _fsync_dir(os.path.dirname(output_path) or ".")
    finally:
        if stream is not None:
            stream.close()
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    stats = reader.stats
    return dataclasses.replace(
        base, output=output_path, lines=lines, records=stats.records, pages=stats.pages,
        input_bytes=reader.input_bytes, malformed=tuple((int(o), str(m)) for o, m in reader.errors),
        stats_tsv=stats.to_tsv(), seconds=time.monotonic() - t0)


# ------------------------------------------------------------------------------------------------
# The job


def _connect(client: Union[None, str, "Client"], n_workers: Optional[int],
             threads_per_worker: Optional[int]) -> Tuple["Client", Callable[[], None]]:
    """The client to use and how to let it go (closing only what was started here)."""
    from distributed import Client, LocalCluster

    if isinstance(client, Client):
        if n_workers is not None or threads_per_worker is not None:
            raise ValueError("n_workers and threads_per_worker are for a local cluster, not with a client")
        return client, lambda: None
    if isinstance(client, str):
        if n_workers is not None or threads_per_worker is not None:
            raise ValueError("n_workers and threads_per_worker are for a local cluster, not with a scheduler address")
        try:
            c = Client(client, timeout="30s")
        except (OSError, TimeoutError) as e:
            raise OSError(f"cannot reach the Dask scheduler at {client}: {e}") from e
        return c, c.close
    if client is not None:
        raise TypeError(f"client must be a distributed.Client, a scheduler address or None, not {type(client).__name__}")
    # The scheduler's HTTP server (health checks; a dashboard when bokeh is installed) on a free
    # port of the loopback interface, not on 8787, which another cluster may hold.
    cluster = LocalCluster(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=threads_per_worker or 1,
                           processes=True, dashboard_address="127.0.0.1:0")
    c = Client(cluster)

    def close() -> None:
        c.close()
        cluster.close()

    return c, close


def _failure_text(fut: Any) -> str:
    try:
        exc = fut.exception()
    except Exception as e:  # cancelled, or the scheduler went away
        return f"task lost: {_os_error_text(e)}"
    if type(exc).__name__ == "KilledWorker":
        return "every worker that ran this input died (distributed.scheduler.allowed-failures reached)"
    return f"task failed: {_os_error_text(exc)}" if exc is not None else "task failed"


def process_archives(
    inputs: Iterable[Union[str, "os.PathLike[str]"]],
    output_dir: Union[str, "os.PathLike[str]"],
    *,
    client: Union[None, str, "Client"] = None,
    n_workers: Optional[int] = None,
    threads_per_worker: Optional[int] = None,
    stats_path: Union[None, str, "os.PathLike[str]"] = None,
    report_path: Union[None, str, "os.PathLike[str]"] = None,
    storage_options: Optional[Mapping[str, Any]] = None,
    retries: int = 0,
    on_result: Optional[Callable[[ShardResult], None]] = None,
    all: bool = False,
    any_type: bool = False,
    main_content: bool = False,
    max_record_bytes: int = 4 << 20,
    codes: str = "iso639-1",
    model: Union[None, str, "os.PathLike[str]"] = None,
) -> Report:
    """Identifies the pages of WARC/WET files on a Dask cluster, one task per input.

    inputs: local paths (read by the workers under their absolute names) or fsspec URLs
      (``file://``, ``s3://``..., opened on the workers with `storage_options`). An input given
      twice is a ValueError; so is ``-``.
    output_dir: created if needed; gets ``<name>.jsonl`` per input (:func:`output_names`), with
      the lines ``langsift warc INPUT`` prints, plus ``stats.tsv`` and ``report.json``.
    client: a ``distributed.Client``, a scheduler address (``tcp://host:8786``), or None to start a
      ``LocalCluster`` of `n_workers` processes (default: one per core) with `threads_per_worker`
      threads (default 1), closed at the end. A client given is left open.
    stats_path: where the merged statistics go (default ``output_dir/stats.tsv``): the TSV of
      ``langsift warc --stats`` over all the inputs. report_path: default ``output_dir/report.json``.
    retries: how often Dask reruns a task that raised (not needed for worker deaths: the scheduler
      reschedules those by itself, up to ``distributed.scheduler.allowed-failures`` times).
    on_result: called on the client with each ShardResult as it arrives (progress).
    all, any_type, main_content, max_record_bytes, codes: as for :func:`langsift.read_warc` and
      ``langsift warc``; model: a built-in model's name ("wide") or a model file's path, readable by
      the client (which loads it once to check it) and by the workers (each process loads it once).

    Returns a Report (its `exit_status` is ``langsift warc``'s: 0, 3 malformed, 1 unreadable).
    Prints nothing. Raises ValueError/TypeError for bad arguments, langsift.ModelError for a model
    that does not load, and OSError when the scheduler cannot be reached or the output directory,
    the statistics or the report cannot be written.
    """
    t0 = time.monotonic()
    sources = [os.fspath(s) for s in inputs]
    for s in sources:
        if not isinstance(s, str):
            raise TypeError(f"inputs must be str or os.PathLike[str], not {type(s).__name__}")
        if s in ("", "-"):
            raise ValueError("an input must be a file or a URL (stdin '-' cannot be shared by workers)")
    if not sources:
        raise ValueError("no inputs")
    dup = next((s for i, s in enumerate(sources) if s in sources[:i]), None)
    if dup is not None:
        raise ValueError(f"input given twice: {dup}")
    if retries < 0:
        raise ValueError("retries must be >= 0")
    if max_record_bytes < 1024:
        raise ValueError("max_record_bytes must be at least 1024")
    if codes not in ("iso639-1", "iso639_1", "639-1", "iso639-3", "iso639_3", "639-3"):
        raise ValueError(f"codes must be 'iso639-1' or 'iso639-3', not {codes!r}")
    model_path = os.fspath(model) if model is not None else None
    if model_path is not None and model_path not in langsift.Model.builtin_names():
        model_path = os.path.abspath(model_path)
    if model_path is not None:  # loaded here first, so that a bad model fails the job, not every task
        _model(model_path)
    out_dir = os.fspath(output_dir)
    if _is_url(out_dir):
        raise ValueError("output_dir must be a directory path (a shared file system), not a URL")
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    stats_file = os.path.abspath(os.fspath(stats_path)) if stats_path is not None else os.path.join(out_dir, "stats.tsv")
    report_file = (os.path.abspath(os.fspath(report_path)) if report_path is not None
                   else os.path.join(out_dir, "report.json"))
    names = output_names(sources)
    outputs = [os.path.join(out_dir, n) for n in names]
    options: Dict[str, Any] = {"all": all, "any_type": any_type, "main_content": main_content,
                               "max_record_bytes": int(max_record_bytes), "codes": codes}
    if model is not None:
        options["model"] = model_path
    located = [s if _is_url(s) else os.path.abspath(s) for s in sources]

    from distributed import as_completed

    c, release = _connect(client, n_workers, threads_per_worker)
    results: List[Optional[ShardResult]] = [None] * len(sources)
    futures: List[Any] = []
    try:
        run = uuid.uuid4().hex[:8]
        for i, (src, dst) in enumerate(zip(located, outputs)):
            try:  # the biggest inputs first, so that a big one does not start last
                size = os.path.getsize(src) if not _is_url(src) else 0
            except OSError:
                size = 0
            futures.append(c.submit(process_shard, src, dst, options, dict(storage_options or {}),
                                    key=f"langsift-{run}-{i:06d}-{names[i]}", pure=False, retries=retries,
                                    priority=size))
        index = {f.key: i for i, f in enumerate(futures)}
        workers = len(c.scheduler_info().get("workers", {}))
        for fut in as_completed(futures):
            i = index[fut.key]
            if fut.status == "finished":
                r: ShardResult = fut.result()
                r = dataclasses.replace(r, input=sources[i])
            else:
                r = ShardResult(input=sources[i], error=_failure_text(fut))
            results[i] = r
            fut.release()
            if on_result is not None:
                on_result(r)
    except BaseException:
        for f in futures:
            f.cancel()
        release()
        raise
    release()

    removed: Dict[str, int] = {}
    for src, dst in zip(sources, outputs):  # partial outputs of attempts that died
        n = 0
        for leftover in glob.glob(_temp_pattern(dst)):
            try:
                os.unlink(leftover)
                n += 1
            except FileNotFoundError:
                pass
        if n:
            removed[src] = n

    shards = [r for r in results if r is not None]
    stats = langsift.WarcStats()
    for r in shards:
        if r.stats_tsv:
            stats.merge(langsift.WarcStats.from_tsv(r.stats_tsv))
    report = Report(shards=shards, stats=stats, output_dir=out_dir, stats_path=stats_file,
                    report_path=report_file, removed_partial=removed, seconds=time.monotonic() - t0,
                    workers=workers)
    os.makedirs(os.path.dirname(stats_file), exist_ok=True)
    _write_atomic(stats_file, stats.to_tsv())
    os.makedirs(os.path.dirname(report_file), exist_ok=True)
    _write_atomic(report_file, json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n")
    return report


# ------------------------------------------------------------------------------------------------
# Command line


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


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=f"python3 -m {_PROG}",
        description="Identifies the language and encoding of every page of WARC/WET files on a Dask "
        "cluster, one task per file. Writes OUTDIR/<file name>.jsonl per input (the lines "
        "`langsift warc FILE` prints), OUTDIR/stats.tsv (the tables of `langsift warc --stats` over "
        "all the inputs) and OUTDIR/report.json. Malformed input is reported on stderr as "
        "'INPUT: offset N: what' and the job goes on; a worker that dies has its file redone.",
        epilog="Exit status: 0 all well, 3 some input was malformed (reported), 1 an input could not "
        "be read (reported; the others were processed) or the job failed, 2 usage error. "
        "See docs/dask.md.")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="WARC/WET files (plain or gzip): paths or fsspec URLs")
    p.add_argument("-o", "--output-dir", required=True, metavar="OUTDIR", help="where the outputs go (created)")
    p.add_argument("--inputs-from", metavar="FILE", action="append", default=[],
                   help="read inputs from FILE, one per line ('-': stdin; blank lines and #comments skipped)")
    p.add_argument("--stats", metavar="FILE", help="write the merged statistics to FILE (default OUTDIR/stats.tsv)")
    p.add_argument("--report", metavar="FILE", help="write the report to FILE (default OUTDIR/report.json)")
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
    p.add_argument("--timing", action="store_true",
                   help="print inputs, records, pages, seconds and pages/s to stderr at the end")
    return p


def _read_list(name: str) -> List[str]:
    text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
    return [s.strip() for s in text.splitlines() if s.strip() and not s.lstrip().startswith("#")]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m langsift.dask``: returns the exit status (0, 3 malformed, 1 unreadable, 2 usage)."""
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
        print(f"{_PROG}: {e} (see --help)", file=err)
        return EXIT_USAGE
    inputs = list(a.inputs)
    for name in a.inputs_from:
        try:
            inputs += _read_list(name)
        except OSError as e:
            print(f"{_PROG}: {name}: {_os_error_text(e)}", file=err)
            return EXIT_UNREADABLE
    if not inputs:
        print(f"{_PROG}: no inputs (see --help)", file=err)
        return EXIT_USAGE
    bad = next((s for s in inputs if s == "-"), None)
    dup = next((s for i, s in enumerate(inputs) if s in inputs[:i]), None)
    if bad is not None or dup is not None:
        msg = "stdin '-' is not an input of a cluster job" if bad is not None else f"input given twice: {dup}"
        print(f"{_PROG}: {msg} (see --help)", file=err)
        return EXIT_USAGE
    try:
        report = process_archives(
            inputs, a.output_dir, client=a.scheduler, n_workers=a.workers, threads_per_worker=a.threads_per_worker,
            stats_path=a.stats, report_path=a.report, storage_options=storage, retries=a.retries, all=a.all,
            any_type=a.any_type, main_content=a.main, max_record_bytes=a.max_record_bytes, model=a.model)
    except (OSError, TimeoutError) as e:  # the scheduler, the model, the output directory
        if isinstance(e, OSError) and e.strerror:
            msg = f"{e.filename}: {e.strerror}" if e.filename else e.strerror
        else:
            msg = str(e) or type(e).__name__
        print(f"{_PROG}: {msg}", file=err)
        return EXIT_UNREADABLE
    except ValueError as e:
        print(f"{_PROG}: {e}", file=err)
        return EXIT_USAGE
    for line in report.messages():
        print(f"{_PROG}: {line}", file=err)
    if a.timing:
        s = report.stats
        secs = max(report.seconds, 1e-9)
        mb = sum(r.input_bytes for r in report.shards) / 1e6
        print(f"{_PROG}: {len(report.shards)} inputs, {s.records} records, {s.pages} pages, {mb:.1f} MB read, "
              f"{report.seconds:.2f} s, {s.pages / secs:.0f} pages/s, {report.workers} workers"
              + (f", {sum(report.removed_partial.values())} partial outputs of dead attempts removed"
                 if report.removed_partial else ""), file=err)
    return report.exit_status


if __name__ == "__main__":
    # Run as `python3 -m langsift.dask`: call the module under its own name, so that the tasks
    # Dask sends to the workers are pickled by reference to langsift.dask, not to __main__.
    from langsift.dask import main as _main

    sys.exit(_main())
