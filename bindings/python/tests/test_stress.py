"""Threads, close() and interpreter exit: a WARC reader shared by threads or used after close(),
daemon threads still inside langsift when the interpreter exits, threads that cannot start.

Run by ctest ("python: stress") and, in CI, under ASan+UBSan (.ci/run): a use after close, a race
between threads or a model freed under a thread at exit is then a report, not a lucky pass.
"""

from __future__ import annotations

import concurrent.futures
import gzip
import io
import os
import random
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import langsift
from conftest import SOURCE_DIR

SAMPLE = SOURCE_DIR / "tests" / "data" / "warc" / "sample.warc"
TEXTS = ["Der Stadtrat hat am Dienstagabend einen neuen Haushalt beschlossen.",
         "Le conseil municipal a adopté mardi soir un nouveau budget.",
         "The city council passed a new budget on Tuesday evening."]


def warc_record(i: int) -> bytes:
    block = f"{TEXTS[i % 3]} ({i})".encode()
    head = (f"WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: http://example.org/{i}\r\n"
            f"WARC-Record-ID: <urn:uuid:{i:032x}>\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


N_RECORDS = 1000
RECORDS = [warc_record(i) for i in range(N_RECORDS)]
PLAIN = b"".join(RECORDS)
IDS = [f"<urn:uuid:{i:032x}>" for i in range(N_RECORDS)]


@pytest.fixture
def warc_files(tmp_path: Path) -> dict[str, Path]:
    plain = tmp_path / "x.warc"
    plain.write_bytes(PLAIN)
    gz = tmp_path / "x.warc.gz"
    gz.write_bytes(b"".join(gzip.compress(r) for r in RECORDS))
    return {"plain": plain, "gzip": gz}


def sources(files: dict[str, Path]):
    """Every kind of source read_warc takes, each a fresh one: (name, source)."""
    yield "str path", str(files["plain"])
    yield "Path", files["plain"]
    yield "gzip path", files["gzip"]
    yield "file object", open(files["plain"], "rb")
    yield "gzip file object", open(files["gzip"], "rb")
    yield "BytesIO", io.BytesIO(PLAIN)
    yield "bytes", PLAIN


# ---- close ---------------------------------------------------------------------------------------


def test_a_closed_reader_raises_value_error_whatever_its_source(warc_files: dict[str, Path]):
    for name, source in sources(warc_files):
        r = langsift.read_warc(source)
        assert next(r).record_id == IDS[0] and not r.closed
        r.close()
        assert r.closed, name
        for use in (next, list, iter):
            with pytest.raises(ValueError, match="I/O operation on closed reader"):
                use(r)
        r.close()  # again: nothing
        with langsift.read_warc(source if name == "bytes" else warc_files["plain"]) as r:
            assert next(r).record_id == IDS[0]
        with pytest.raises(ValueError, match="closed reader"):
            next(r)
        if hasattr(source, "close"):
            assert not source.closed  # the caller's file object is the caller's to close
            source.close()
    # Read to its end without close(): an exhausted iterator, StopIteration again and again.
    r = langsift.read_warc(PLAIN)
    assert len(list(r)) == N_RECORDS
    assert list(r) == [] and list(r) == []
    with pytest.raises(StopIteration):
        next(r)


def test_threads_sharing_a_reader_get_every_record_once(warc_files: dict[str, Path]):
    for name, source in sources(warc_files):
        reader = langsift.read_warc(source)
        got: list[list[str]] = [[] for _ in range(4)]

        def take(k: int) -> None:
            for record in reader:
                got[k].append(record.record_id)

        threads = [threading.Thread(target=take, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        all_ids = [i for g in got for i in g]
        assert sorted(all_ids) == sorted(IDS), name  # each record once: none lost, none twice
        assert all(g == sorted(g) for g in got), name  # each thread sees the input's order
        assert reader.errors == [] and reader.error_count == 0 and reader.stats.records == N_RECORDS
        if hasattr(source, "close"):
            source.close()


def test_close_from_another_thread_while_one_reads(warc_files: dict[str, Path]):
    rng = random.Random(29)
    for round_ in range(40):
        for name, source in sources(warc_files):
            reader = langsift.read_warc(source)
            got: list[str] = []
            ended: list[BaseException | None] = []

            def read() -> None:
                try:
                    for record in reader:
                        got.append(record.record_id)
                    ended.append(None)
                except ValueError as e:
                    ended.append(e)

            t = threading.Thread(target=read)
            t.start()
            threading.Event().wait(rng.random() * 0.004)
            reader.close()
            t.join()
            assert got == IDS[:len(got)], (name, round_)  # a prefix, in order
            if ended[0] is not None:
                assert "closed reader" in str(ended[0])
            else:
                assert len(got) == N_RECORDS
            if hasattr(source, "close"):
                source.close()


class CallsBack(io.RawIOBase):
    """A stream whose read() calls `hook` once, after `after` bytes."""

    def __init__(self, data: bytes, after: int, hook):
        self.data, self.pos, self.after, self.hook = data, 0, after, hook

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if self.pos >= self.after and self.hook:
            hook, self.hook = self.hook, None
            hook()
        chunk = self.data[self.pos:self.pos + min(n, 4096)]
        self.pos += len(chunk)
        return chunk


def test_close_or_next_from_inside_the_file_objects_read():
    box: list = []
    reader = langsift.read_warc(CallsBack(PLAIN, 20_000, lambda: box[0].close()))
    box.append(reader)
    got = []
    with pytest.raises(ValueError, match="closed reader"):
        for record in reader:
            got.append(record.record_id)
    assert got == IDS[:len(got)] and 0 < len(got) < N_RECORDS and reader.closed

    box.clear()
    reader = langsift.read_warc(CallsBack(PLAIN, 20_000, lambda: next(box[0])))
    box.append(reader)
    with pytest.raises(ValueError, match="already executing"):
        list(reader)  # read() raised: reading ends with its error...
    with pytest.raises(ValueError, match="reading stopped at an earlier error"):
        next(reader)  # ...and says so, instead of a silent end


def test_threads_hammering_shared_readers(warc_files: dict[str, Path]):
    """Readers shared by threads that read, close, and look at stats/errors/repr at random: under
    ASan any use after close or race on the reader is reported."""
    rng = random.Random(7)
    readers = [langsift.read_warc(s) for _, s in sources(warc_files)]
    lock = threading.Lock()
    stop = threading.Event()
    failures: list[BaseException] = []

    def work(seed: int) -> None:
        local = random.Random(seed)
        try:
            while not stop.is_set():
                with lock:
                    k = local.randrange(len(readers))
                    r = readers[k]
                op = local.random()
                try:
                    if op < 0.85:
                        next(r)
                    elif op < 0.9:
                        r.close()
                    else:
                        repr(r), r.stats.records, r.errors, r.error_count, r.input_bytes, r.closed
                except (ValueError, StopIteration):
                    with lock:
                        if readers[k] is r:
                            readers[k] = langsift.read_warc(PLAIN if local.random() < 0.5 else warc_files["gzip"])
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=work, args=(rng.random(),)) for _ in range(4)]
    for t in threads:
        t.start()
    threading.Event().wait(3)
    stop.set()
    for t in threads:
        t.join()
    assert failures == []


# ---- interpreter exit with daemon threads inside langsift ----------------------------------------

EXIT_SCRIPT = """
import io, sys, threading, time
import langsift
T = "Der Stadtrat hat einen Haushalt beschlossen. " * 2000
B = ("<html><body><p>" + T + "</p></body></html>").encode()
W = {warc!r}
WB = open(W, "rb").read()
F = langsift.Frontier()
call = {call}
def loop():
    while True:
        call()
for _ in range(2):
    threading.Thread(target=loop, daemon=True).start()
time.sleep(float(sys.argv[1]))
"""

EXIT_CALLS = {
    "detect": "lambda: langsift.detect(T)",
    "detect_keywords": "lambda: langsift.detect(T, codes='iso639-3')",
    "detect_page": "lambda: langsift.detect_page(B)",
    "detect_many": "lambda: langsift.detect_many([T[:3000]] * 64, threads=2)",
    "classify_url": "lambda: langsift.classify_url('http://www.example.de/nachrichten/politik')",
    "decide_many": "lambda: F.decide_many(['http://example.de/haus/%d' % i for i in range(200)])",
    "read_warc_path": "lambda: list(langsift.read_warc(W))",
    "read_warc_file_object": "lambda: list(langsift.read_warc(open(W, 'rb')))",
    "read_warc_BytesIO": "lambda: list(langsift.read_warc(io.BytesIO(WB)))",
    "read_warc_bytes": "lambda: list(langsift.read_warc(WB))",
    "wide_model": "lambda: langsift.detect(T, model=langsift.Model.builtin('wide'))",
}


def run_exit_script(call: str, seconds: float) -> subprocess.CompletedProcess:
    script = EXIT_SCRIPT.format(warc=str(SAMPLE), call=call)
    return subprocess.run([sys.executable, "-c", script, str(seconds)], capture_output=True, timeout=120)


@pytest.mark.parametrize("kind", EXIT_CALLS)
def test_interpreter_exit_while_daemon_threads_are_inside_langsift(kind: str):
    """As a zlib or hashlib loop does, the interpreter exits 0 with nothing on stderr; it aborted
    ("terminate called without an active exception", 134) or crashed (139)."""
    delays = [0.05 + 0.035 * i for i in range(8)]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda s: run_exit_script(EXIT_CALLS[kind], s), delays))
    for delay, p in zip(delays, runs):
        assert (p.returncode, p.stderr.decode(errors="replace")) == (0, ""), f"{kind}, exit after {delay:.3f} s"


def test_interpreter_exit_while_detect_many_workers_run():
    """The C++ worker threads of a long batch still run while exit() destroys static objects: the
    models they read must outlive them (under ASan, a read of a freed model is reported)."""
    call = "lambda: langsift.detect_many([T[:20000]] * 4000, threads=2, model=langsift.Model.builtin('wide'))"
    for delay in (0.3, 0.6):
        p = run_exit_script(call, delay)
        assert (p.returncode, p.stderr.decode(errors="replace")) == (0, "")


# ---- threads that cannot start ---------------------------------------------------------------------


def test_detect_many_with_threads_that_cannot_start_raises_memory_error():
    """Under a 3 GB address-space limit, 4000 threads (8 MB stacks) cannot all start: MemoryError,
    and the interpreter goes on (it was SIGABRT, an uncaught std::system_error)."""
    script = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3_000_000_000, 3_000_000_000))
        import langsift
        texts = ["Der Stadtrat hat einen Haushalt beschlossen."] * 100_000
        try:
            langsift.detect_many(texts, threads=4000)
            print("no error")
        except MemoryError as e:
            print("MemoryError:", e)
        print([d.language for d in langsift.detect_many(texts[:64] + ["Le conseil municipal a voté."], threads=2)][-2:])
        print(langsift.detect("The city council passed a new budget.").language)
        """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    assert p.stdout.decode().splitlines() == [
        "MemoryError: out of memory: cannot start a thread", "['de', 'fr']", "en"]
