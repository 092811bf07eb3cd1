"""Property tests of read_warc and of the path arguments (Debian python3-hypothesis): file objects
whose read() misbehaves in every allowed way (short reads, more than asked, bytearray/memoryview,
an exception or None midway), arbitrary bytes as input, and file names of arbitrary bytes.

Run by ctest ("python: reader_properties"). Bounded: a few hundred examples in all.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import langsift
from conftest import SOURCE_DIR, TEST_DATA

SAMPLE = (TEST_DATA / "warc" / "sample.warc").read_bytes()
SAMPLE_GZ = (TEST_DATA / "warc" / "sample.warc.gz").read_bytes()
BAD_GZ = (TEST_DATA / "warc" / "bad.warc.gz").read_bytes()
INPUTS = {"plain": SAMPLE, "gzip": SAMPLE_GZ, "bad gzip": BAD_GZ}

SETTINGS = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def read_all(source, **kw) -> tuple[list[str], list, int, str]:
    """(json lines, errors, error_count, stats TSV) of reading `source` to its end."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = langsift.read_warc(source, errors="ignore", **kw)
        lines = [rec.json for rec in r]
    return lines, r.errors, r.error_count, r.stats.to_tsv()


EXPECTED = {name: read_all(data) for name, data in INPUTS.items()}


class Boom(Exception):
    """Raised by a test stream's read()."""


class OddStream(io.RawIOBase):
    """A stream over `data` whose read(n) follows `plan`, cycling: each step is (how much, as what):
    'short' (1..n bytes), 'exact' (n), 'long' (more than n: n + extra), returned as bytes, bytearray,
    memoryview, or a memoryview of a slice of a bigger buffer; at step `fail_at` it raises Boom or
    returns None instead."""

    def __init__(self, data: bytes, plan, fail_at: int | None, fail_with: str, rng):
        self.data, self.pos, self.plan, self.fail_at, self.fail_with, self.rng = data, 0, plan, fail_at, fail_with, rng
        self.calls = 0
        self.delivered_when_failed: int | None = None

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1):
        step = self.plan[self.calls % len(self.plan)]
        if self.fail_at is not None and self.calls == self.fail_at:
            self.calls += 1
            self.delivered_when_failed = self.pos
            if self.fail_with == "none":
                return None
            raise Boom(f"read #{self.fail_at} failed")
        self.calls += 1
        how, kind, extra = step
        size = {"short": max(1, min(n, extra % max(n, 1) + 1)), "exact": n, "long": n + 1 + extra}[how]
        chunk = self.data[self.pos:self.pos + size]
        self.pos += len(chunk)
        if kind == "bytes":
            return chunk
        if kind == "bytearray":
            return bytearray(chunk)
        if kind == "memoryview":
            return memoryview(chunk)
        return memoryview(b"\x00" + chunk + b"\x00")[1:1 + len(chunk)]


steps = st.tuples(st.sampled_from(["short", "exact", "long"]),
                  st.sampled_from(["bytes", "bytearray", "memoryview", "memoryview slice"]),
                  st.integers(min_value=0, max_value=70_000))


@SETTINGS
@given(name=st.sampled_from(sorted(INPUTS)), plan=st.lists(steps, min_size=1, max_size=6),
       fail_at=st.one_of(st.none(), st.integers(min_value=0, max_value=12)),
       fail_with=st.sampled_from(["raise", "none"]), seed=st.integers(0, 2**32 - 1))
def test_any_read_behaviour_gives_the_records_of_the_bytes(name, plan, fail_at, fail_with, seed):
    import random
    data = INPUTS[name]
    lines, errors, count, tsv = EXPECTED[name]
    stream = OddStream(data, plan, fail_at, fail_with, random.Random(seed))
    got: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reader = langsift.read_warc(stream, errors="ignore")
        try:
            for rec in reader:
                got.append(rec.json)
        except Boom:
            assert fail_with == "raise" and stream.delivered_when_failed is not None
        except BlockingIOError as e:
            assert fail_with == "none" and stream.delivered_when_failed is not None
            assert "returned None" in str(e)
        else:
            # No failure happened (the input ended before the failing call): exactly the records.
            assert stream.delivered_when_failed is None
            assert (got, reader.errors, reader.error_count, reader.stats.to_tsv()) == (lines, errors, count, tsv)
            return
    # read() failed: its error came out (not blamed on the data), after a prefix of the records...
    assert got == lines[:len(got)]
    assert reader.errors == errors[:len(reader.errors)] and reader.error_count == len(reader.errors)
    # ...and reading does not silently go on or end.
    with pytest.raises(ValueError, match="reading stopped at an earlier error"):
        next(reader)


class Returns(io.RawIOBase):
    """A stream whose read() returns these values, then b""."""

    def __init__(self, *values):
        self.values = list(values)

    def readable(self) -> bool:
        return True

    def read(self, n=-1):
        return self.values.pop(0) if self.values else b""


def test_read_results_of_other_types():
    with pytest.raises(TypeError, match="returned str: open the file in binary mode"):
        list(langsift.read_warc(Returns("WARC/1.0")))
    with pytest.raises(TypeError, match="must return bytes or another bytes-like object, not int"):
        list(langsift.read_warc(Returns(42)))
    # Any contiguous buffer is its bytes, whatever its item size; in one piece, over several calls.
    padded = SAMPLE + b"\r\n" * (-len(SAMPLE) % 8 // 2)
    import array
    for value in (memoryview(padded).cast("H"), memoryview(padded).cast("Q"), array.array("b", padded)):
        assert [r.json for r in langsift.read_warc(Returns(value))] == EXPECTED["plain"][0]
    # A non-contiguous buffer cannot be read as bytes: its error, not a silent end.
    with pytest.raises((TypeError, BufferError, ValueError)):
        list(langsift.read_warc(Returns(memoryview(SAMPLE)[::2])))


def mutate(data: bytes, edits) -> bytes:
    b = bytearray(data)
    for pos, kind, junk in edits:
        if not b:
            b += junk
            continue
        i = pos % (len(b) + 1)
        if kind == "insert":
            b[i:i] = junk
        elif kind == "delete":
            del b[i:i + len(junk) + 1]
        elif kind == "replace":
            b[i:i + len(junk)] = junk
        else:  # cut
            del b[i:]
    return bytes(b)


edits = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["insert", "delete", "replace", "cut"]),
                           st.binary(min_size=1, max_size=40)), max_size=5)
junk_heavy = st.builds(lambda n, unit: unit * n, st.integers(0, 400),
                       st.sampled_from([b"WARC/1.0\r\n\r\n", b"\x00", b"WARC/1.1\r\nContent-Length: 5\r\n\r\nab",
                                        b"\r\n", b"WARC/1.0\r\nWARC-Target-URI: \xff\xfe\r\n\r\n"]))


@SETTINGS
@given(data=st.one_of(st.binary(max_size=3000),
                      st.builds(mutate, st.sampled_from([SAMPLE, SAMPLE_GZ, gzip.compress(SAMPLE)]), edits),
                      junk_heavy))
def test_arbitrary_bytes_read_alike_from_every_source_and_never_crash(data: bytes, tmp_path_factory):
    path = tmp_path_factory.mktemp("w") / "x.warc"
    path.write_bytes(data)
    from_bytes = read_all(data)
    lines, errors, count, _ = from_bytes
    assert read_all(io.BytesIO(data)) == from_bytes
    assert read_all(path) == from_bytes
    with open(path, "rb") as f:
        assert read_all(f) == from_bytes
    # Problems: every one counted, the first 100 kept, as (offset, str).
    assert len(errors) == min(count, 100)
    assert all(isinstance(o, int) and isinstance(m, str) and m for o, m in errors)
    # Every record's fields can be read, and are those of its JSON line.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rec in langsift.read_warc(data, errors="ignore", all=True):
            d = json.loads(rec.json)
            assert rec.to_dict() == d and rec.offset == d["offset"]
            assert (rec.warc_type, rec.url, rec.record_id) == (d.get("warc_type", ""), d.get("target_uri", ""),
                                                               d.get("record_id", ""))
            repr(rec), rec.content_type, rec.content_language, rec.problem, rec.skipped, rec.language
            if rec.page is not None:
                rec.page.declared_encoding, rec.page.html_lang, rec.page.encoding, repr(rec.page)


# ---- paths ------------------------------------------------------------------------------------------


class BytesPath:
    """An os.PathLike whose __fspath__ gives bytes."""

    def __init__(self, p: bytes):
        self.p = p

    def __fspath__(self) -> bytes:
        return self.p


names = st.binary(min_size=1, max_size=24).filter(lambda b: b"/" not in b and b"\x00" not in b and b not in (b".", b".."))


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names)
def test_file_names_of_any_bytes(name: bytes, tmp_path_factory):
    d = os.fsencode(tmp_path_factory.mktemp("p"))
    p = os.path.join(d, name + b".warc")
    with open(p, "wb") as f:
        f.write(SAMPLE)
    expected = EXPECTED["plain"][0]
    shown = os.fsdecode(p)
    for source in (shown, Path(shown), BytesPath(p)):
        r = langsift.read_warc(source)
        assert [rec.json for rec in r] == expected and r.name == shown and repr(shown) in repr(r)
    missing = os.path.join(d, b"missing-" + name)
    for source in (os.fsdecode(missing), Path(os.fsdecode(missing)), BytesPath(missing)):
        with pytest.raises(FileNotFoundError) as e:
            langsift.read_warc(source)
        assert e.value.filename == os.fsdecode(missing)
    # A file that is not a model: ModelError naming it as os.fsdecode gives it.
    for source in (shown, Path(shown), BytesPath(p)):
        with pytest.raises(langsift.ModelError, match="corrupt_model") as e:
            langsift.Model.load(source)
        assert shown in str(e.value)
    # The frontier's state: str, bytes and os.PathLike, saved and loaded.
    f = langsift.Frontier()
    f.set_quota("de", 7)
    state = os.path.join(d, name + b".state")
    for source in (state, os.fsdecode(state), Path(os.fsdecode(state)), BytesPath(state)):
        f.save(source)
        g = langsift.Frontier()
        g.load(source)
        assert g.quota("de") == (7, 0)
    with pytest.raises(OSError) as e:
        langsift.Frontier().load(missing)
    assert os.fsdecode(missing) in str(e.value)


def test_a_model_loads_from_a_file_name_that_is_not_utf8(tmp_path: Path):
    p = os.path.join(os.fsencode(tmp_path), b"mod\xff\xfe\xe9l.lsm")
    os.link(SOURCE_DIR / "models" / "default.lsm", p)  # a link, not a 25 MB copy
    builtin = langsift.Model.builtin()
    for source in (os.fsdecode(p), Path(os.fsdecode(p)), BytesPath(p)):
        m = langsift.Model.load(source)
        assert m.checksum == builtin.checksum and not m.is_builtin
    # bytes are the model's bytes, not a path (documented): a path as bytes is refused as a model.
    with pytest.raises(langsift.ModelError, match="model bytes"):
        langsift.Model.load(p)


def test_a_directory_is_a_read_error_with_its_errno(tmp_path: Path):
    with pytest.raises(IsADirectoryError) as e:  # was OSError("<dir>: read error")
        list(langsift.read_warc(tmp_path))
    assert e.value.filename == str(tmp_path)
