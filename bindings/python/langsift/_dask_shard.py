"""langsift.dask's task: process_shard reads one WARC/WET input and writes its JSON lines
atomically (one output, or one per language), compressed as the output's name says."""

from __future__ import annotations

import dataclasses
import itertools
import os
import socket
import time
import zlib
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import langsift

from ._dask_files import COMPRESSIONS, _fs_str, _fsync_dir, _is_url, _is_utf8, _language_dir, _temp_path
from ._dask_results import MAX_PROBLEMS, ShardResult

_READ_OPTIONS = ("all", "any_type", "main_content", "max_record_bytes", "codes", "max_text_bytes",
                 "short_text_bytes", "text", "schema", "languages", "min_probability")
#: process_shard's options: read_warc's, the model, and whether to write one file per language.
_SHARD_OPTIONS = _READ_OPTIONS + ("model", "split_languages")


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


class _Failed(Exception):
    """A shard that cannot be done (an input not read to its end, an output not written): its
    error text, which becomes the ShardResult's `error`."""


def _cannot_write(path: str, e: BaseException) -> _Failed:
    return _Failed(f"cannot write {path}: {_os_error_text(e)}")


def _open_input(source: str, name: str, named: bool, model: Optional["langsift.Model"], opts: Mapping[str, Any],
                storage_options: Optional[Mapping[str, Any]]) -> Tuple[Any, Any]:
    """The input's reader and the file object opened for it (or None): a URL opened with fsspec,
    a path read by the library itself, or, when the documents name their source (`named`), a
    file object under `name`. The file object is closed here when read_warc raises."""
    if _is_url(source):
        import fsspec

        stream = fsspec.open(source, "rb", **dict(storage_options or {})).open()
    elif named:
        stream = open(os.open(source, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)), "rb", buffering=0)
    else:
        return _read_local(source, model, opts)
    try:
        return langsift.read_warc(_NamedStream(stream, name) if named else stream, errors="ignore",
                                  model=model, **opts), stream
    except BaseException:
        stream.close()
        raise


def _write_lines(reader: Any, output_path: str, split: bool, outputs: Dict[str, "_Output"]) -> int:
    """Writes the reader's lines to temporary files, made here in `outputs`: one for `output_path`,
    or with `split` one per language (``<dir>/<language>/<name>``, made on its first line).
    Returns how many lines; _Failed when the input cannot be read to its end or an output
    cannot be written."""
    out_dir, out_name = os.path.split(output_path)
    if not split:
        try:
            outputs[""] = _Output(output_path)
        except OSError as e:
            raise _cannot_write(output_path, e) from e
    lines = 0
    records = iter(reader)
    while True:
        try:
            rec = next(records)
        except StopIteration:
            break
        except (OSError, EOFError) as e:  # a read error half-way: no output either
            raise _Failed(_os_error_text(e)) from e
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
            raise _cannot_write(path, e) from e
        lines += 1
    return lines


def _commit(outputs: Dict[str, "_Output"], committed: List[str], output_path: str, split: bool) -> None:
    """Finishes every output (flushed, fsynced), renames each over its final name (appending it to
    `committed`), then fsyncs their directories; _Failed when an output cannot be written."""
    for out in outputs.values():
        try:
            out.finish()
        except OSError as e:
            raise _cannot_write(out.path, e) from e
    for key in sorted(outputs):
        out = outputs[key]
        try:
            out.commit()
        except OSError as e:
            raise _cannot_write(out.path, e) from e
        committed.append(out.path)
    out_dir = os.path.dirname(output_path)
    for d in sorted({os.path.dirname(o.path) for o in outputs.values()} | ({out_dir} if split else set())):
        _fsync_dir(d or ".")


def _read_result(base: ShardResult, reader: Any, lines: int, outputs: Dict[str, "_Output"], output_path: str,
                 split: bool, t0: float) -> ShardResult:
    """The result of an input read to its end: counts, outputs, problems and statistics."""
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
    stream = None
    outputs: Dict[str, _Output] = {}
    committed: List[str] = []
    done = False
    try:
        try:  # the input: a path read by the library itself, or a file object
            reader, stream = _open_input(source, name, named, model, opts, storage_options)
        except (OSError, EOFError) as e:  # unreadable: no output, the other inputs go on
            raise _Failed(_os_error_text(e)) from e
        lines = _write_lines(reader, output_path, split, outputs)
        _commit(outputs, committed, output_path, split)
        done = True
    except _Failed as e:
        return dataclasses.replace(base, error=str(e), seconds=time.monotonic() - t0)
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
    return _read_result(base, reader, lines, outputs, output_path, split, t0)
