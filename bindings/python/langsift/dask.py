"""langsift.dask: the languages and encodings of WARC/WET shards, one Dask task per shard.

    >>> from langsift.dask import process_archives
    >>> report = process_archives(["crawl-00000.warc.gz", "s3://bucket/crawl-00001.warc.gz"],
    ...                           "out/", client="tcp://scheduler:8786")
    >>> report.exit_status, report.stats.pages
    (0, 51234)

or from a shell (``/usr/bin/python3`` on Debian, where python3-dask lives)::

    python3 -m langsift.dask --workers 2 -o out/ crawl-*.warc.gz
    python3 -m langsift.dask --scheduler tcp://scheduler:8786 -o out/ --inputs-from paths.txt

For every input, ``OUTDIR/<name>.jsonl`` holds exactly the lines ``langsift warc INPUT`` prints
(with ``--text``, ``--schema corpus``, ``--languages``, ``--min-probability``: those of ``langsift
warc`` with the same options; with ``--split-languages``, the lines of each language go to
``OUTDIR/<language>/<name>.jsonl``; ``--compression gz|zst`` adds ``.gz`` / ``.zst``);
``OUTDIR/stats.tsv`` (or ``stats_path``) holds the tables of ``langsift warc --stats`` over all the
inputs, and ``OUTDIR/report.json`` what happened to each input. The engine is Dask's
(``distributed``): its scheduler hands the inputs to the workers and, when a worker dies, gives the
dead worker's task to another one. What makes that safe is here:

- A task is a pure function of its input: it reads the whole input with
  :func:`langsift.read_warc`, writes its lines to a temporary file beside the final one
  (``.<name>.jsonl.<pid>.<random>.tmp``; one per language with split_languages), fsyncs it and
  renames it over the final name once the whole input is read. An attempt
  that dies leaves a temporary file, never a partial output; the attempt that succeeds writes the
  whole file again, so no line appears twice. The temporary files of dead attempts are removed
  when the job ends (and counted in the report).
- A task returns small data (its statistics as TSV, the malformed input's offsets and messages,
  counts): the statistics are merged on the client from the one result Dask delivers per input, so
  every input is counted once, whichever attempt produced it.
- Malformed input (a corrupt or cut shard) is reported per input, as ``langsift warc`` reports it on
  stderr (the first MAX_PROBLEMS of an input, and how many more), and reading goes on; an
  unreadable input is reported and the other inputs go on.
- One file is one input: the same file under two names (``x``, ``./x``, a symlink...) is refused.
  The output directory holds one run: one that is not empty is refused unless ``overwrite``, which
  first removes the job's own files there (and nothing else).
- Names are taken as the OS gives them (str with surrogateescape, bytes, os.PathLike); report.json
  writes the bytes of a name that is not UTF-8 as ``\\udcXX`` escapes (valid JSON).
- Stopped (KeyboardInterrupt; SIGINT or SIGTERM from the command line), the job stops the cluster
  it started and removes the tasks' temporary files.

Local paths must be readable by the workers under the same name (a shared file system on a real
cluster); anything else with ``://`` (``file://``, ``s3://``, ``hdfs://``, ``memory://``...) is
opened with fsspec on the worker. The output directory must be a file system the workers share
with the client (renames must be atomic there): S3 and the like are not supported as outputs.
See docs/dask.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import hashlib
import itertools
import json
import os
import re
import signal
import socket
import stat
import sys
import threading
import time
import uuid
import zlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, NoReturn, Optional, Sequence, Tuple, Union

import langsift

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = [
    "MAX_PROBLEMS",
    "OutputDirectoryNotEmpty",
    "Report",
    "ShardResult",
    "main",
    "output_names",
    "process_archives",
    "process_shard",
]

#: Exit statuses, as `langsift warc` has them.
EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, EXIT_MALFORMED = 0, 1, 2, 3

#: The problems (malformed input) of one input kept in its ShardResult, report.json and on stderr:
#: the first ones; the others are counted (ShardResult.malformed_count).
MAX_PROBLEMS = 100

_PROG = "langsift.dask"
_READ_OPTIONS = ("all", "any_type", "main_content", "max_record_bytes", "codes", "max_text_bytes",
                 "short_text_bytes", "text", "schema", "languages", "min_probability")
#: process_shard's options: read_warc's, the model, and whether to write one file per language.
_SHARD_OPTIONS = _READ_OPTIONS + ("model", "split_languages")
#: --compression: the suffix of the output names (the compression follows the name, as for
#: `langsift warc -o FILE.gz`).
COMPRESSIONS = {None: "", "gz": ".gz", "zst": ".zst"}


# ------------------------------------------------------------------------------------------------
# Results


@dataclasses.dataclass(frozen=True)
class ShardResult:
    """What one task did with one input (made on the worker, sent back to the client).

    `output` is the JSONL file written (an absolute path), None when nothing was written because
    the input could not be read (`error` says why), and None with split_languages: then `outputs`
    lists the files written, (language, path, lines) sorted by language, one per language that
    has lines (none for an input without any). `lines` counts the lines written, `filtered` the
    pages left out by `languages` / `min_probability`. `malformed` lists (offset, message) for input
    that was not a well-formed record, exactly what ``langsift warc`` reports on stderr for it: the
    first MAX_PROBLEMS (100) of them; `malformed_count` counts them all. `stats_tsv` is the input's
    ``langsift warc --stats`` table. `worker` and `pid` name the worker (and process) of the
    attempt whose result this is. `input` is the input as given; a name that is not UTF-8 is a str
    with surrogate escapes (``os.fsencode(input)`` gives its bytes back).
    """

    input: str
    output: Optional[str] = None
    lines: int = 0
    records: int = 0
    pages: int = 0
    input_bytes: int = 0
    filtered: int = 0
    outputs: Tuple[Tuple[str, str, int], ...] = ()
    malformed: Tuple[Tuple[int, str], ...] = ()
    malformed_count: int = 0
    error: Optional[str] = None
    stats_tsv: str = ""
    worker: str = ""
    pid: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.malformed_count < len(self.malformed):  # made without a count: the list is all
            object.__setattr__(self, "malformed_count", len(self.malformed))

    @property
    def ok(self) -> bool:
        """True when the input was read to its end (it may still have had malformed parts)."""
        return self.error is None

    @property
    def stats(self) -> "langsift.WarcStats":
        """The input's statistics (empty when it could not be read)."""
        return langsift.WarcStats.from_tsv(self.stats_tsv) if self.stats_tsv else langsift.WarcStats()

    def messages(self) -> List[str]:
        """One line per problem: ``INPUT: offset N: what`` (malformed) or ``INPUT: what``
        (unreadable); after the first MAX_PROBLEMS, one ``INPUT: ... and M more problems (N in all)``."""
        lines = [f"{self.input}: offset {off}: {msg}" for off, msg in self.malformed]
        if self.malformed_count > len(self.malformed):
            lines.append(f"{self.input}: ... and {self.malformed_count - len(self.malformed)} more problems "
                         f"({self.malformed_count} in all)")
        if self.error is not None:
            lines.append(f"{self.input}: {self.error}")
        return lines

    def to_dict(self) -> Dict[str, Any]:
        """The fields as JSON-ready values (report.json's entries), without the statistics table."""
        d = dataclasses.asdict(self)
        d.pop("stats_tsv")
        d["malformed"] = [[off, msg] for off, msg in self.malformed]
        d["outputs"] = [[lang, path, n] for lang, path, n in self.outputs]
        d["seconds"] = round(self.seconds, 3)
        return d


@dataclasses.dataclass
class Report:
    """The outcome of :func:`process_archives`: one ShardResult per input (in input order), the
    merged statistics, where they were written, the temporary files of interrupted attempts that
    were removed (per input), and how many files of an earlier run were removed (overwrite=True)."""

    shards: List[ShardResult]
    stats: "langsift.WarcStats"
    output_dir: str
    stats_path: str
    report_path: str
    removed_partial: Dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 0
    removed_earlier: int = 0

    @property
    def exit_status(self) -> int:
        """1 when an input could not be read, else 3 when some input was malformed, else 0
        (the exit statuses of ``langsift warc``)."""
        if any(s.error is not None for s in self.shards):
            return EXIT_UNREADABLE
        if any(s.malformed_count for s in self.shards):
            return EXIT_MALFORMED
        return EXIT_OK

    @property
    def failed(self) -> List[ShardResult]:
        """The inputs that could not be read (no output written)."""
        return [s for s in self.shards if s.error is not None]

    @property
    def malformed(self) -> List[ShardResult]:
        """The inputs that were read but had malformed parts."""
        return [s for s in self.shards if s.malformed_count]

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
            "filtered": self.stats.filtered,
            "malformed": self.stats.malformed,
            "unreadable": len(self.failed),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "removed_earlier": self.removed_earlier,
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
    input as given (``x.warc.gz.3f2a9c1b.jsonl``; a name that is not UTF-8 hashed as its bytes):
    deterministic, and independent of the order of the inputs. Names never start with a dot
    (temporary files do).
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
    taken = set(names)
    seen: Dict[str, int] = {}
    for i, n in enumerate(names):  # a hashed name equal to another input's plain name: number it
        if n in seen:
            k = 2
            while f"{n[:-6]}-{k}.jsonl" in taken:
                k += 1
            names[i] = n = f"{n[:-6]}-{k}.jsonl"
            taken.add(n)
        seen[n] = i
    return names


# The files the job writes in an output directory, and only those: outputs (output_names), the
# default statistics and report, and the temporary files of each (_temp_path). overwrite=True
# removes these and nothing else.
_OUTPUT_NAME = r"[A-Za-z0-9_+=@,-][A-Za-z0-9._+=@,-]*\.jsonl(?:\.gz|\.zst)?"
_JOB_NAME = rf"(?:{_OUTPUT_NAME}|stats\.tsv|report\.json)"
_JOB_FILE = re.compile(rf"{_JOB_NAME}|\.({_JOB_NAME})\.[0-9]+\.[0-9a-f]{{12}}\.tmp")
# In a language directory (split_languages: OUTDIR/<language>/<output name>): outputs and their
# temporary files only. A language directory's name is a language code made safe (_language_dir):
# letters, digits, '-' and '_' (de, zh-Hant, deu, und; a trained model's codes too).
_LANGUAGE_FILE = re.compile(rf"{_OUTPUT_NAME}|\.({_OUTPUT_NAME})\.[0-9]+\.[0-9a-f]{{12}}\.tmp")
_LANGUAGE_DIR = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def _is_job_file(name: str) -> bool:
    return _JOB_FILE.fullmatch(name) is not None


def _language_dir(code: str) -> str:
    """The directory of a language's outputs (split_languages): its code, any character outside
    ``A-Za-z0-9_-`` replaced by ``_`` (codes are ``de``, ``zh-Hant``, ``deu``, ``und``)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "_", code)[:64]
    return name if _LANGUAGE_DIR.fullmatch(name) else ("x" + name)[:64]


def _temp_path(final_path: str) -> str:
    d, name = os.path.split(final_path)
    return os.path.join(d, f".{name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def _remove_job_files(directory: str, which: Callable[[str, str], bool]) -> Dict[str, int]:
    """Removes the job's files in `directory` and in its language directories (split_languages)
    for which ``which(name, final)`` is true, `final` being the name the file has or is a
    temporary file of; returns how many were removed per final name. A language directory that
    this leaves empty is removed too. One pass over the directories, however many inputs."""
    removed: Dict[str, int] = {}

    def scan(d: str, pattern: "re.Pattern[str]", subdirs: Optional[List[str]]) -> bool:
        try:
            entries = list(os.scandir(d))
        except (FileNotFoundError, NotADirectoryError):
            return False
        any_removed = False
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if subdirs is not None and _LANGUAGE_DIR.fullmatch(e.name):
                    subdirs.append(e.path)
                continue
            m = pattern.fullmatch(e.name)
            if m is None:
                continue
            final = m.group(1) or e.name
            if which(e.name, final):
                try:
                    os.unlink(e.path)
                except FileNotFoundError:
                    continue
                removed[final] = removed.get(final, 0) + 1
                any_removed = True
        return any_removed

    subdirs: List[str] = []
    scan(directory, _JOB_FILE, subdirs)
    for d in subdirs:
        if scan(d, _LANGUAGE_FILE, None):
            try:
                os.rmdir(d)  # only when empty now
            except OSError:
                pass
    return removed


# ------------------------------------------------------------------------------------------------
# Paths and names as the OS gives them


def _fs_str(value: Any, what: str) -> str:
    """A path as str: bytes and os.PathLike decoded as Python's own open() does (the file system
    encoding with surrogateescape, so that a name that is not UTF-8 keeps its bytes)."""
    try:
        return os.fsdecode(os.fspath(value))
    except TypeError:
        raise TypeError(f"{what} must be str, bytes or os.PathLike, not {type(value).__name__}") from None


def _absolute(path: str) -> str:
    """`path` made absolute for other processes: os.path.abspath, except that a path with ".."
    keeps it (abspath drops "x/.." by name, which is another place when x is a symlink)."""
    full = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
    return full if ".." in full.split(os.sep) else os.path.normpath(full)


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_text(obj: Any) -> str:
    """JSON with UTF-8 text as it is and a name that is not UTF-8 (a str with lone surrogates from
    surrogateescape) written with \\udcXX escapes, as ``json.dumps`` writes them: valid JSON whose
    ``json.loads`` gives the surrogate str back (``os.fsencode`` then gives the name's bytes)."""
    text = json.dumps(obj, ensure_ascii=False, indent=1)
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _line_bytes(line: str) -> bytes:
    for encoding, errors in ((sys.getfilesystemencoding(), "surrogateescape"), ("utf-8", "surrogateescape")):
        try:
            return line.encode(encoding, errors)
        except UnicodeEncodeError:
            pass
    return line.encode("utf-8", "backslashreplace")  # a lone surrogate that no name decodes to


def _say(stream: Any, line: str) -> None:
    """One line on stderr; a name in it that is not UTF-8 goes out as the bytes it has (as
    ``langsift warc`` prints it)."""
    data = _line_bytes(line + "\n")
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text stream only (tests, notebooks)
        stream.write(data.decode("utf-8", "backslashreplace"))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://(.*)", re.S)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986, 5.2.4, on the path of a URL (http, https)."""
    out: List[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/".join(out)


def _url_key(url: str) -> str:
    """What identifies a URL input: the scheme lower-cased; http(s): the host lower-cased and dot
    segments removed; file:// and local://: the local file's real path. Object-store keys are
    compared as they are (``a/./b`` may be a key of its own there)."""
    parts = []
    for part in url.split("::"):
        m = _URL_SCHEME.fullmatch(part)
        if m is None:
            parts.append(part)
            continue
        scheme, rest = m.group(1).lower(), m.group(2)
        if scheme in ("file", "local"):
            parts.append("file://" + os.path.realpath(rest or "."))
        elif scheme in ("http", "https"):
            host, slash, path = rest.partition("/")
            path, q, query = path.partition("?")
            parts.append(f"{scheme}://{host.lower()}{slash}{_remove_dot_segments(path)}{q}{query}")
        else:
            parts.append(f"{scheme}://{rest}")
    return "::".join(parts)


def _missing_path_key(path: str, real_dirs: Dict[str, str]) -> str:
    """os.path.realpath of a path that does not stat, its directory's resolved once for all the
    inputs in it (realpath walks every component: the check took 0.87 s for 40,000 inputs that
    do not exist, 0.3 s so)."""
    head, tail = os.path.split(path)
    try:
        if tail in ("", ".", "..") or stat.S_ISLNK(os.lstat(path).st_mode):  # a dangling symlink: followed
            return os.path.realpath(path)
    except (OSError, ValueError):
        pass
    real = real_dirs.get(head)
    if real is None:  # realpath resolves the directory's symlinks before its ".."s
        real = real_dirs[head] = os.path.realpath(head or ".")
    return os.path.join(real, tail)


def _check_inputs(sources: Sequence[str]) -> List[Optional[os.stat_result]]:
    """Raises ValueError when two inputs are one file: the same file (device and inode) for local
    files that exist, so symlinks and hard links too; the same real path for local ones that do
    not; the same URL after _url_key for fsspec URLs, where a file:// URL is its local file.
    Linear: one stat (and, for what does not exist, one realpath) per input. Returns each local
    input's stat (None for URLs and missing files)."""
    first: Dict[Any, int] = {}
    stats: List[Optional[os.stat_result]] = []
    real_dirs: Dict[str, str] = {}
    for i, src in enumerate(sources):
        st: Optional[os.stat_result] = None
        local = None if _is_url(src) else src
        if local is None and "::" not in src:
            m = _URL_SCHEME.fullmatch(src)
            if m is not None and m.group(1).lower() in ("file", "local"):
                local = m.group(2) or "."
        if local is not None:
            try:
                st = os.stat(local)
                key: Any = ("inode", st.st_dev, st.st_ino)
            except (OSError, ValueError):
                key = ("path", _missing_path_key(local, real_dirs))
        else:
            key = ("url", _url_key(src))
        j = first.setdefault(key, i)
        if j != i:
            same = f" (the same file as {sources[j]})" if sources[j] != src else ""
            raise ValueError(f"input given twice: {src}{same}")
        stats.append(st if not _is_url(src) else None)
    return stats


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
    """Writes `text` to `path` through a temporary file in the same directory, fsynced and renamed.

    A `path` that exists but is not a regular file (/dev/stdout, a FIFO, a device) is written in
    place: renaming a file over it would replace the device or pipe itself.
    """
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return
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
    """The model the `model` option names, by the library's rule as everywhere (Model.named,
    langsift::resolve_model): a built-in model's name ("wide") wins over a file so named, "" is the
    default model, anything else is a model file. Loaded once per process."""
    if path is None:
        return None
    m = _MODELS.get(path)
    if m is None:
        m = _MODELS[path] = langsift.Model.named(path)
    return m


def _read_local(path: str, model: Optional["langsift.Model"], opts: Mapping[str, Any]) -> Tuple[Any, Any]:
    """read_warc on a local path: the reader and the file object opened here (or None)."""
    try:
        return langsift.read_warc(path, errors="ignore", model=model, **opts), None
    except UnicodeEncodeError:  # a name that is not UTF-8, which the extension took as UTF-8 text
        if _is_utf8(path):      # before #29: opened here then, and read through a file object
            raise               # (named by its descriptor: a file object's name is taken as text too)
    stream = open(os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)), "rb")
    try:
        return langsift.read_warc(stream, errors="ignore", model=model, **opts), stream
    except BaseException:
        stream.close()
        raise


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


def _compression(path: str) -> Optional[str]:
    """The compression an output's name asks for, as `langsift warc -o FILE` decides it."""
    for kind, suffix in COMPRESSIONS.items():
        if kind is not None and path.endswith(suffix):
            return kind
    return None


def _compressor(kind: Optional[str]) -> Any:
    """A compressobj (compress(), flush() ending the stream) for `kind`, or None. The parameters
    are `langsift warc -o`'s: gzip level 3 (one member; zlib's header, mtime 0, so that every
    attempt writes the same bytes), zstd level 3 (one frame with its checksum)."""
    if kind is None:
        return None
    if kind == "gz":
        return zlib.compressobj(3, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    import zstandard  # Debian python3-zstandard (process_archives checks it on the client first)

    return zstandard.ZstdCompressor(level=3, write_checksum=True).compressobj()


class _Output:
    """One output file being written: its lines go to a temporary file beside `path`
    (``.<name>.<pid>.<random>.tmp``), compressed as `path`'s name says. finish() flushes and
    fsyncs it, commit() renames it over `path`; discard() removes it unless committed."""

    _BATCH = 32 << 10  # characters of lines encoded and compressed at once

    def __init__(self, path: str) -> None:
        self.path = path
        self.compressor = _compressor(_compression(path))
        self.tmp = _temp_path(path)
        try:
            self.file = open(self.tmp, "wb")
        except BaseException:
            self.tmp = ""
            raise
        self.pending: List[str] = []
        self.pending_chars = 0
        self.lines = 0

    def write(self, line: str) -> None:
        self.pending.append(line)
        self.pending_chars += len(line)
        self.lines += 1
        if self.pending_chars >= self._BATCH:
            self._drain()

    def _drain(self) -> None:
        if not self.pending:
            return
        self.pending.append("")
        data = "\n".join(self.pending).encode("utf-8")
        self.pending, self.pending_chars = [], 0
        self.file.write(self.compressor.compress(data) if self.compressor is not None else data)

    def finish(self) -> None:
        self._drain()
        if self.compressor is not None:
            self.file.write(self.compressor.flush())
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()

    def commit(self) -> None:
        os.replace(self.tmp, self.path)
        self.tmp = ""

    def discard(self) -> None:
        if not self.file.closed:
            try:
                self.file.close()
            except OSError:
                pass
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = ""


class _NamedStream:
    """A binary stream under another name: read_warc takes a file object's ``name`` as the corpus
    documents' ``source``, which is the input as given to the job (what ``langsift warc INPUT``
    writes), not the absolute path or URL object the worker opened."""

    def __init__(self, stream: Any, name: str) -> None:
        self.read = stream.read
        self.name = name


def process_shard(source: Union[str, bytes, "os.PathLike[Any]"], output_path: Union[str, bytes, "os.PathLike[Any]"],
                  options: Optional[Mapping[str, Any]] = None,
                  storage_options: Optional[Mapping[str, Any]] = None, *,
                  name: Union[None, str, bytes, "os.PathLike[Any]"] = None) -> ShardResult:
    """Reads one WARC/WET input and writes its JSON lines to `output_path`, atomically.

    The Dask task of :func:`process_archives`, usable on its own. `source` is a local path (str,
    bytes or os.PathLike; a name that is not UTF-8 is read as Python's open reads it) or an
    fsspec URL (opened with `storage_options`); `options` are :func:`langsift.read_warc`'s
    (all, any_type, main_content, max_record_bytes, codes, max_text_bytes, short_text_bytes,
    text, schema, languages, min_probability), ``model`` (a built-in model's name or a model
    file's path) and ``split_languages``. `name` is the input's name in corpus documents
    (``source``; default: `source`). The lines are ``langsift warc``'s with the same options.

    The output is compressed as its name says (``.gz``: gzip, ``.zst``: zstd, else plain), as
    for ``langsift warc -o``. With ``split_languages``, each line goes to
    ``dirname(output_path)/<language>/basename(output_path)`` instead, `<language>` being the
    line's ``language`` (made safe for a file name), so that each language's file holds that
    language's lines, in input order.

    The lines go to a temporary file in the output's directory (``.<name>.<pid>.<random>.tmp``),
    which is fsynced and renamed to its final name once the input has been read to its end; so
    running this again, or twice at once, leaves whole files. Malformed input is listed in the
    result (the first MAX_PROBLEMS, all counted); an input that cannot be opened or read gives a
    result with `error` set and writes nothing. Raises only for a bad option or an unloadable
    model.
    """
    t0 = time.monotonic()
    source = _fs_str(source, "source")
    output_path = _fs_str(output_path, "output_path")
    name = source if name is None else _fs_str(name, "name")
    opts = dict(options or {})
    unknown = set(opts) - set(_SHARD_OPTIONS)
    if unknown:
        raise TypeError(f"process_shard: unknown option(s) {', '.join(sorted(unknown))}")
    model = _model(opts.pop("model", None))
    split = bool(opts.pop("split_languages", False))
    named = opts.get("schema", "default") == "corpus"  # the documents name their source
    base = ShardResult(input=source, worker=_worker_address(), pid=os.getpid())

    def failed(error: str) -> ShardResult:
        return dataclasses.replace(base, error=error, seconds=time.monotonic() - t0)

    def cannot_write(path: str, e: BaseException) -> ShardResult:
        return failed(f"cannot write {path}: {_os_error_text(e)}")

    stream = None
    outputs: Dict[str, _Output] = {}
    committed: List[str] = []
    done = False
    try:
        try:  # the input: a path read by the library itself, or a file object
            if _is_url(source):
                import fsspec

                stream = fsspec.open(source, "rb", **dict(storage_options or {})).open()
                reader = langsift.read_warc(_NamedStream(stream, name) if named else stream, errors="ignore",
                                            model=model, **opts)
            elif named:
                stream = open(os.open(source, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)), "rb", buffering=0)
                reader = langsift.read_warc(_NamedStream(stream, name), errors="ignore", model=model, **opts)
            else:
                reader, stream = _read_local(source, model, opts)
        except (OSError, EOFError) as e:  # unreadable: no output, the other inputs go on
            return failed(_os_error_text(e))
        out_dir, out_name = os.path.split(output_path)
        if not split:
            try:
                outputs[""] = _Output(output_path)
            except OSError as e:
                return cannot_write(output_path, e)
        lines = 0
        records = iter(reader)
        while True:
            try:
                rec = next(records)
            except StopIteration:
                break
            except (OSError, EOFError) as e:  # a read error half-way: no output either
                return failed(_os_error_text(e))
            key = rec.language if split else ""
            out = outputs.get(key)
            path = output_path
            try:
                if out is None:  # the first line of a language
                    path = os.path.join(out_dir, _language_dir(key), out_name)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    out = outputs[key] = _Output(path)
                path = out.path
                out.write(rec.json)
            except OSError as e:
                return cannot_write(path, e)
            lines += 1
        for out in outputs.values():
            try:
                out.finish()
            except OSError as e:
                return cannot_write(out.path, e)
        for key in sorted(outputs):
            out = outputs[key]
            try:
                out.commit()
            except OSError as e:
                return cannot_write(out.path, e)
            committed.append(out.path)
        for d in sorted({os.path.dirname(o.path) for o in outputs.values()} | ({out_dir} if split else set())):
            _fsync_dir(d or ".")
        done = True
    finally:
        if stream is not None:
            stream.close()
        for out in outputs.values():
            out.discard()
        if not done:  # a failed commit: no output of this attempt stays, whole or not
            for path in committed:
                try:
                    os.unlink(path)
                except OSError:
                    pass
    stats = reader.stats
    errors = reader.errors  # the reader keeps the first 100 (#29); before that, every one of them
    count = getattr(reader, "error_count", None)
    return dataclasses.replace(
        base, output=None if split else output_path, lines=lines, records=stats.records, pages=stats.pages,
        filtered=stats.filtered, input_bytes=reader.input_bytes,
        outputs=tuple((k, outputs[k].path, outputs[k].lines) for k in sorted(outputs)) if split else (),
        malformed=tuple((int(o), str(m)) for o, m in itertools.islice(errors, MAX_PROBLEMS)),
        malformed_count=int(count) if count is not None else len(errors),
        stats_tsv=stats.to_tsv(), seconds=time.monotonic() - t0)


# ------------------------------------------------------------------------------------------------
# The job


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
    by_name = _remove_job_files(job.out_dir, temp_of_an_output)  # of attempts that died
    removed = {src: by_name[n] for src, n in zip(job.sources, job.names) if n in by_name}
    failed = {n for r, n in zip(shards, job.names) if r.error is not None}
    if failed:  # an attempt renamed its output(s), then its worker died
        _remove_job_files(job.out_dir, lambda name, final: name == final and final in failed)

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


if __name__ == "__main__":
    # Run as `python3 -m langsift.dask`: call the module under its own name, so that the tasks
    # Dask sends to the workers are pickled by reference to langsift.dask, not to __main__.
    from langsift.dask import main as _main

    sys.exit(_main())
