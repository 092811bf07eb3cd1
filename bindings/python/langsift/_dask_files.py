"""langsift.dask's files and names: the output names of the inputs, the files a job writes in an
output directory (and removes with overwrite), temporary files and atomic writes, paths and names
as the OS gives them (str with surrogateescape, bytes, os.PathLike; lines on stderr with a name's
own bytes), and what identifies an input (one file given twice is refused)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import uuid
from typing import Any, Callable, Dict, List, Optional, Sequence

#: --compression: the suffix of the output names (the compression follows the name, as for
#: `langsift warc -o FILE.gz`).
COMPRESSIONS = {None: "", "gz": ".gz", "zst": ".zst"}


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
