"""langsift.dask's job: process_archives checks its arguments, reaches (or starts) a Dask
cluster, runs one process_shard task per input, cleans up after attempts that died, and writes
the merged statistics and the report."""

from __future__ import annotations

import dataclasses
import errno
import os
import signal
import stat
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import langsift

from ._dask_files import (COMPRESSIONS, _absolute, _check_inputs, _fs_str, _is_url, _json_text, _remove_job_files,
                          _write_atomic, output_names)
from ._dask_results import Report, ShardResult
from ._dask_shard import _MODELS, _READ_OPTIONS, _model, _os_error_text, process_shard

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

class OutputDirectoryNotEmpty(FileExistsError):
    """process_archives: the output directory holds files and overwrite=True was not given."""


def _check_output_dir(out_dir: str, overwrite: bool) -> None:
    try:
        with os.scandir(out_dir) as it:
            empty = next(it, None) is None
    except (FileNotFoundError, NotADirectoryError):  # made, or refused, by os.makedirs
        return
    if not empty and not overwrite:
        raise OutputDirectoryNotEmpty(errno.ENOTEMPTY, "the output directory is not empty: overwrite=True "
                                      "replaces an earlier run's files", out_dir)


class _SignalsIgnoredInWorkers:
    """While a LocalCluster starts, SIGINT and SIGTERM are ignored, so that its worker processes
    (spawned then) ignore them: a signal to the whole process group (Ctrl-C, ``timeout``, a
    service manager) reaches the client alone, which stops the cluster and removes what the tasks
    left, instead of each worker dying or printing a traceback on its own (and Dask restarting
    it meanwhile). The workers still go: Dask's nanny stops them with a message, then SIGKILL,
    and a worker exits when the client process is gone. A signal that comes during the start
    itself (about a second) is lost. Only from the main thread; a signal already ignored stays so."""

    def __enter__(self) -> None:
        self.old: Dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                old = signal.getsignal(s)
                if old not in (signal.SIG_IGN, None):
                    self.old[s] = old
                    signal.signal(s, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        for s, old in self.old.items():
            signal.signal(s, old)


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
    with _SignalsIgnoredInWorkers():
        cluster = LocalCluster(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=threads_per_worker or 1,
                               processes=True, dashboard_address="127.0.0.1:0")
    try:
        c = Client(cluster)
    except BaseException:
        cluster.close()
        raise

    def close() -> None:
        try:
            c.close()
        finally:
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


@dataclasses.dataclass
class _Job:
    """What process_archives checked and worked out before it starts the tasks."""

    sources: List[str]       # the inputs as given (str; surrogate escapes for names not UTF-8)
    located: List[str]       # what the workers open: absolute paths, URLs
    sizes: List[int]         # the Dask priority of each: its size (0 when unknown)
    names: List[str]         # output_names(sources), with the compression's suffix
    out_dir: str
    stats_file: str
    report_file: str
    options: Dict[str, Any]

    @property
    def outputs(self) -> List[str]:
        return [os.path.join(self.out_dir, n) for n in self.names]


def _run_tasks(c: "Client", job: _Job, storage_options: Mapping[str, Any], retries: int,
               on_result: Optional[Callable[[ShardResult], None]]) -> Tuple[List[ShardResult], int]:
    """Submits one task per input, collects the results in input order; the number of workers."""
    from distributed import as_completed

    results: List[Optional[ShardResult]] = [None] * len(job.sources)
    futures: List[Any] = []
    try:
        run = uuid.uuid4().hex[:8]
        for i, (src, dst) in enumerate(zip(job.located, job.outputs)):
            # the biggest inputs first, so that a big one does not start last
            futures.append(c.submit(process_shard, src, dst, job.options, dict(storage_options), name=job.sources[i],
                                    key=f"langsift-{run}-{i:06d}-{job.names[i]}", pure=False, retries=retries,
                                    priority=job.sizes[i]))
        index = {f.key: i for i, f in enumerate(futures)}
        workers = len(c.scheduler_info().get("workers", {}))
        for fut in as_completed(futures):
            i = index[fut.key]
            if fut.status == "finished":
                r: ShardResult = fut.result()
                r = dataclasses.replace(r, input=job.sources[i])
            else:
                r = ShardResult(input=job.sources[i], error=_failure_text(fut))
            results[i] = r
            fut.release()
            if on_result is not None:
                on_result(r)
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    return [r for r in results if r is not None], workers


def _prepare(inputs: Iterable[Any], output_dir: Any, stats_path: Any, report_path: Any, overwrite: bool,
             options: Dict[str, Any], model: Any, compression: Optional[str]) -> _Job:
    """Checks the arguments (nothing is started or written before they are all right)."""
    sources = [_fs_str(s, "inputs") for s in inputs]
    for s in sources:
        if s in ("", "-"):
            raise ValueError("an input must be a file or a URL (stdin '-' cannot be shared by workers)")
    if not sources:
        raise ValueError("no inputs")
    local_stats = _check_inputs(sources)
    if options["max_record_bytes"] < 1024:
        raise ValueError("max_record_bytes must be at least 1024")
    if model is not None:
        model_path = _fs_str(model, "model")
        m = _model(model_path)  # loaded here first, so that a bad model fails the job, not every task
        if not m.is_builtin:  # a file: named so that other processes find it
            model_path = _absolute(model_path)
            _MODELS[model_path] = m
        options["model"] = model_path
    if compression not in COMPRESSIONS:
        raise ValueError(f"compression must be None, 'gz' or 'zst', not {compression!r}")
    if compression == "zst":
        try:
            import zstandard  # noqa: F401
        except ImportError as e:
            raise ImportError(f"zstd outputs need the Python module zstandard (Debian: python3-zstandard): {e}") from e
    # read_warc checks the reading options as the workers will use them (codes, languages against
    # the model, the choices that exclude each other), so that a bad one fails here, not every task
    read_options = {k: v for k, v in options.items() if k in _READ_OPTIONS}
    langsift.read_warc(b"", model=_model(options.get("model")), **read_options).close()
    out_dir = _fs_str(output_dir, "output_dir")
    if _is_url(out_dir):
        raise ValueError("output_dir must be a directory path (a shared file system), not a URL")
    out_dir = _absolute(out_dir)
    _check_output_dir(out_dir, overwrite)
    os.makedirs(out_dir, exist_ok=True)
    return _Job(
        sources=sources,
        located=[s if _is_url(s) else _absolute(s) for s in sources],
        sizes=[st.st_size if st is not None and stat.S_ISREG(st.st_mode) else 0 for st in local_stats],
        names=[n + COMPRESSIONS[compression] for n in output_names(sources)],
        out_dir=out_dir,
        stats_file=(_absolute(_fs_str(stats_path, "stats_path")) if stats_path is not None
                    else os.path.join(out_dir, "stats.tsv")),
        report_file=(_absolute(_fs_str(report_path, "report_path")) if report_path is not None
                     else os.path.join(out_dir, "report.json")),
        options=options)


def _shard_options(*, all: bool, any_type: bool, main_content: bool, max_record_bytes: int, codes: str, text: bool,
                   schema: str, languages: Union[None, str, Iterable[str]], min_probability: float,
                   split_languages: bool) -> Dict[str, Any]:
    """process_shard's options from process_archives' arguments."""
    options: Dict[str, Any] = {"all": all, "any_type": any_type, "main_content": main_content,
                               "max_record_bytes": int(max_record_bytes), "codes": codes}
    # the new options only when used, so that the tasks of a plain job are called as before
    if text:
        options["text"] = True
    if schema != "default":
        options["schema"] = schema
    if languages is not None:
        options["languages"] = languages if isinstance(languages, str) else list(languages)
    if min_probability != 0.0:
        options["min_probability"] = min_probability
    if split_languages:
        options["split_languages"] = True
    return options


def _remove_dead_attempts(job: _Job, shards: List[ShardResult],
                          temp_of_an_output: Callable[[str, str], bool]) -> Dict[str, int]:
    """After the tasks: removes the temporary files of attempts that died, and the outputs of an
    input whose result is a failure (an attempt renamed them, then its worker died). Returns how
    many temporary files were removed per input."""
    by_name = _remove_job_files(job.out_dir, temp_of_an_output)  # of attempts that died
    removed = {src: by_name[n] for src, n in zip(job.sources, job.names) if n in by_name}
    failed = {n for r, n in zip(shards, job.names) if r.error is not None}
    if failed:  # an attempt renamed its output(s), then its worker died
        _remove_job_files(job.out_dir, lambda name, final: name == final and final in failed)
    return removed


def _write_report(job: _Job, shards: List[ShardResult], workers: int, removed: Dict[str, int], removed_earlier: int,
                  t0: float) -> Report:
    """The job's Report: the statistics of the inputs merged, written (atomically) with the report."""
    stats = langsift.WarcStats()
    for r in shards:
        if r.stats_tsv:
            stats.merge(langsift.WarcStats.from_tsv(r.stats_tsv))
    report = Report(shards=shards, stats=stats, output_dir=job.out_dir, stats_path=job.stats_file,
                    report_path=job.report_file, removed_partial=removed, seconds=time.monotonic() - t0,
                    workers=workers, removed_earlier=removed_earlier)
    os.makedirs(os.path.dirname(job.stats_file), exist_ok=True)
    _write_atomic(job.stats_file, stats.to_tsv())
    os.makedirs(os.path.dirname(job.report_file), exist_ok=True)
    _write_atomic(job.report_file, _json_text(report.to_dict()) + "\n")
    return report


def process_archives(
    inputs: Iterable[Union[str, bytes, "os.PathLike[Any]"]],
    output_dir: Union[str, bytes, "os.PathLike[Any]"],
    *,
    client: Union[None, str, "Client"] = None,
    n_workers: Optional[int] = None,
    threads_per_worker: Optional[int] = None,
    stats_path: Union[None, str, bytes, "os.PathLike[Any]"] = None,
    report_path: Union[None, str, bytes, "os.PathLike[Any]"] = None,
    storage_options: Optional[Mapping[str, Any]] = None,
    retries: int = 0,
    on_result: Optional[Callable[[ShardResult], None]] = None,
    overwrite: bool = False,
    all: bool = False,
    any_type: bool = False,
    main_content: bool = False,
    max_record_bytes: int = 4 << 20,
    codes: str = "iso639-1",
    model: Union[None, str, bytes, "os.PathLike[Any]"] = None,
    text: bool = False,
    schema: str = "default",
    languages: Union[None, str, Iterable[str]] = None,
    min_probability: float = 0.0,
    split_languages: bool = False,
    compression: Optional[str] = None,
) -> Report:
    """Identifies the pages of WARC/WET files on a Dask cluster, one task per input.

    inputs: local paths (str, bytes or os.PathLike, read by the workers under their absolute
      names; a name that is not UTF-8 is read as Python's open reads it) or fsspec URLs
      (``file://``, ``s3://``..., opened on the workers with `storage_options`). One file given
      twice is a ValueError, under any two names (``x``, ``./x``, its absolute path, a symlink or
      hard link to it, a ``file://`` URL of it; URLs compared after normalising); so is ``-``.
    output_dir: created if needed; gets ``<name>.jsonl`` per input (:func:`output_names`), with
      the lines ``langsift warc INPUT`` prints (with the same options), plus ``stats.tsv`` and
      ``report.json``. With `split_languages`, the lines of each language go to
      ``<language>/<name>.jsonl`` instead (one file per language that has lines). `compression`
      ``"gz"`` or ``"zst"`` compresses each output (``<name>.jsonl.gz``, ``.jsonl.zst``; zstd needs
      Debian's python3-zstandard), as ``langsift warc -o FILE.gz`` does. A directory that is not
      empty is refused (OutputDirectoryNotEmpty, a FileExistsError) unless `overwrite` is true:
      then, once the cluster is reached, the files there that the job writes (outputs of output
      names, ``stats.tsv``, ``report.json`` and their temporary files; outputs in language
      directories, and those directories once empty) are removed, whichever run wrote them,
      before the tasks start; other files are left alone.
    client: a ``distributed.Client``, a scheduler address (``tcp://host:8786``), or None to start a
      ``LocalCluster`` of `n_workers` processes (default: one per core) with `threads_per_worker`
      threads (default 1), closed at the end. A client given is left open.
    stats_path: where the merged statistics go (default ``output_dir/stats.tsv``): the TSV of
      ``langsift warc --stats`` over all the inputs. report_path: default ``output_dir/report.json``.
    retries: how often Dask reruns a task that raised (not needed for worker deaths: the scheduler
      reschedules those by itself, up to ``distributed.scheduler.allowed-failures`` times).
    on_result: called on the client with each ShardResult as it arrives (progress).
    all, any_type, main_content, max_record_bytes, codes, text, schema, languages, min_probability:
      as for :func:`langsift.read_warc` and ``langsift warc`` (``--text``, ``--schema corpus``,
      ``--languages``, ``--min-probability``; pages left out are counted in ``stats.filtered``);
      corpus documents name their ``source`` as the input was given here; model: a built-in model's name ("wide") or a model file's path, readable by
      the client (which loads it once to check it) and by the workers (each process loads it once).

    Returns a Report (its `exit_status` is ``langsift warc``'s: 0, 3 malformed, 1 unreadable).
    Prints nothing. Raises ValueError/TypeError for bad arguments (also those read_warc refuses:
    an unknown language, `all` with a filter...), ImportError for zstd without zstandard,
    OutputDirectoryNotEmpty,
    langsift.ModelError for a model that does not load, and OSError when the scheduler cannot be
    reached or the output directory, the statistics or the report cannot be written. Interrupted
    (KeyboardInterrupt or any other exception while the tasks run), it cancels them, closes the
    cluster it started, removes the temporary files in the output directory and re-raises.
    """
    t0 = time.monotonic()
    if retries < 0:
        raise ValueError("retries must be >= 0")
    options = _shard_options(all=all, any_type=any_type, main_content=main_content, max_record_bytes=max_record_bytes,
                             codes=codes, text=text, schema=schema, languages=languages,
                             min_probability=min_probability, split_languages=split_languages)
    job = _prepare(inputs, output_dir, stats_path, report_path, overwrite, options, model, compression)
    finals = set(job.names)

    def temp_of_an_output(name: str, final: str) -> bool:
        return name != final and final in finals

    c, release = _connect(client, n_workers, threads_per_worker)
    try:
        try:
            removed_earlier = sum(_remove_job_files(job.out_dir, lambda n, f: True).values()) if overwrite else 0
            shards, workers = _run_tasks(c, job, storage_options or {}, retries, on_result)
        finally:
            release()
    except BaseException:
        _remove_job_files(job.out_dir, temp_of_an_output)  # the tasks' (their workers are gone)
        raise
    removed = _remove_dead_attempts(job, shards, temp_of_an_output)
    return _write_report(job, shards, workers, removed, removed_earlier, t0)
