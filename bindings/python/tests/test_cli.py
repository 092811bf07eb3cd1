"""`python3 -m langsift`: the C++ `langsift` command run inside the interpreter (_langsift._cli_main).

Its output, messages and exit statuses are those of the build's `langsift`, byte for byte, for
every subcommand; it behaves as a process of its own for signals (Ctrl-C ends it with no
traceback and removes the file being written, a closed pipe ends it quietly) and for a stdout that
cannot be written; the interpreter's own signal handlers come back afterwards. Also the progress
line both show when stderr is a terminal.
"""

from __future__ import annotations

import gzip
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SOURCE_DIR, TEST_DATA, tool

PAGE = SOURCE_DIR / "examples" / "pages" / "de-news.windows-1252.html"
LINES = ("Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\n"
         "Le chat dort sur le canapé depuis ce matin.\n\n"
         "The weather is fine today, and the sea is calm.\n")


def python_m(*args: object) -> list:
    return [sys.executable, "-m", "langsift", *[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]]


def binary(*args: object) -> list:
    return [str(tool("langsift")), *[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "lines.txt").write_text(LINES, encoding="utf-8")
    (tmp_path / "lines.gz").write_bytes(gzip.compress(LINES.encode()))
    (tmp_path / "docs.jsonl").write_text(
        '{"id":1,"text":"Guten Morgen, wie geht es dir heute?"}\nnot json\n{"id":3}\n'
        '{"id":4,"text":"Le chat dort sur le canap\\u00e9."}\n', encoding="utf-8")
    (tmp_path / "urls.txt").write_text("http://www.beispiel.de/seite\nhttp://www.exemple.fr/page\n")
    (tmp_path / os.fsdecode(b"\xff-not-utf8.txt")).write_text(LINES, encoding="utf-8")
    return tmp_path


CASES = [
    [],
    ["--help"],
    ["--version"],
    ["detcet"],
    ["detect", "--help"],
    ["detect", "--lines", "{W}/lines.txt"],
    ["detect", "--lines", "--format", "jsonl", "-j", "2", "{W}/lines.gz", "{W}/lines.txt"],
    ["detect", "--lines", "{W}/" + os.fsdecode(b"\xff-not-utf8.txt")],
    ["detect", "{PAGE}", "{W}/lines.txt"],
    ["detect", "--format", "jsonl", "--main", "{PAGE}"],
    ["detect", "--jsonl", "{W}/docs.jsonl"],
    ["detect", "--lines", "--model", "wide", "--format", "code", "{W}/lines.txt"],
    ["detect", "--lines", "--formt", "jsonl"],
    ["detect", "{W}/missing.txt"],
    ["encoding", "--verbose", "{PAGE}", "{W}/lines.gz"],
    ["text", "--meta", "--links", "--base", "http://www.example.de/a/", "{PAGE}"],
    ["text", "--main", "{PAGE}"],
    ["url", "http://www.beispiel.de/seite", "https://www.lemonde.fr/politique/"],
    ["url", "--lines", "--format", "jsonl", "{W}/urls.txt"],
    ["warc", "{D}/warc/sample.warc.gz"],
    ["warc", "--stats", "-j", "2", "{D}/warc/sample.warc.gz", "{D}/warc/bad.warc.gz"],
]


@pytest.mark.parametrize("case", CASES, ids=[" ".join(c) or "(none)" for c in CASES])
def test_python_m_langsift_writes_what_the_tool_writes(inputs: Path, case: list) -> None:
    args = [a.replace("{W}", str(inputs)).replace("{PAGE}", str(PAGE)).replace("{D}", str(TEST_DATA)) for a in case]
    ran = [subprocess.run(argv, capture_output=True, timeout=300, cwd=inputs) for argv in (binary(*args), python_m(*args))]
    tool_run, py_run = ran
    assert py_run.returncode == tool_run.returncode
    assert py_run.stdout == tool_run.stdout
    assert py_run.stderr == tool_run.stderr
    if case[:2] == ["detect", "--lines"] and "missing" not in case[-1] and "--formt" not in case:
        assert tool_run.returncode == 0 and tool_run.stdout  # the cases compare real output


def test_stdin_and_a_written_file_are_the_tools_too(inputs: Path) -> None:
    for argv in (binary("detect", "--lines", "-"), python_m("detect", "--lines", "-")):
        p = subprocess.run(argv, input=gzip.compress(LINES.encode()), capture_output=True, timeout=120)
        assert p.returncode == 0 and p.stdout.decode().splitlines()[0].startswith("de\t")
    outs = []
    for name, argv in (("a", binary), ("b", python_m)):
        out = inputs / f"stats-{name}.tsv"
        p = subprocess.run(argv("warc", "--stats-file", out, TEST_DATA / "warc" / "sample.warc.gz"),
                           capture_output=True, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.append((p.stdout, out.read_bytes()))
    assert outs[0] == outs[1] and outs[0][1]


def test_a_stdout_that_cannot_be_written_is_an_error_as_in_the_tool(inputs: Path) -> None:
    for argv in (binary("detect", "--lines", inputs / "lines.txt"), python_m("detect", "--lines", inputs / "lines.txt")):
        with open("/dev/full", "wb") as full:
            p = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, timeout=120)
        assert p.returncode == 1
        assert p.stderr == b"langsift detect: write error on stdout: No space left on device\n"


def test_a_closed_pipe_ends_it_quietly_as_the_tool(inputs: Path) -> None:
    big = inputs / "big.txt"
    big.write_text(LINES * 20000, encoding="utf-8")
    for argv in (binary("detect", "--lines", big), python_m("detect", "--lines", big)):
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert p.stdout.read(10)
        p.stdout.close()  # the reader goes away
        _, err = p.communicate(timeout=120)
        assert p.returncode == -signal.SIGPIPE, err
        assert err == b""


@pytest.mark.parametrize("runner", [binary, python_m], ids=["langsift", "python -m langsift"])
def test_ctrl_c_ends_it_without_a_traceback_and_removes_the_file_being_written(tmp_path: Path, runner) -> None:
    # `warc --stats-file` opens its temporary file before reading; stdin stays open: it waits.
    p = subprocess.Popen(runner("warc", "--stats-file", "stats.tsv", "-"), cwd=tmp_path, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not any(f.name.startswith("stats.tsv.tmp-") for f in tmp_path.iterdir()):
        assert time.monotonic() < deadline and p.poll() is None, p.stderr.read() if p.poll() is not None else ""
        time.sleep(0.05)
    time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == -signal.SIGINT  # ended by the signal: the shell's $? is 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert list(tmp_path.iterdir()) == []  # the temporary file was removed, no stats.tsv made


def test_in_process_calls_restore_the_interpreters_signal_handlers(inputs: Path) -> None:
    script = f"""
import os, signal, sys
from langsift import _langsift
from langsift.__main__ import main
before = {{s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM)}}
print("first", flush=False)       # Python's buffered output comes before the tool's
rc1 = main(["detect", "--lines", "--format", "code", {str(inputs / 'lines.txt')!r}])
print("second")
rc2 = _langsift._cli_main([b"langsift", b"url", b"http://www.beispiel.de/"])
print("rc", rc1, rc2)
assert {{s: signal.getsignal(s) for s in before}} == before
for bad, exc in (("detect", TypeError), ([1], TypeError), ([], ValueError), (["langsift", "a\\0b"], ValueError)):
    try:
        _langsift._cli_main(bad)
    except exc:
        pass
    else:
        raise AssertionError(bad)
sys.stdout.flush()
try:
    os.kill(os.getpid(), signal.SIGINT)  # Python's handler is back at the C level too
    for _ in range(100):
        pass
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    url = subprocess.run(binary("url", "http://www.beispiel.de/"), capture_output=True, timeout=60).stdout.decode()
    assert p.stdout.decode() == "first\nde\nfr\nund\nen\nsecond\n" + url + "rc 0 0\nKeyboardInterrupt\n"


@pytest.mark.parametrize("runner", [binary, python_m], ids=["langsift", "python -m langsift"])
def test_progress_is_shown_on_a_terminal_only(inputs: Path, runner) -> None:
    big = inputs / "big.txt"
    big.write_text(LINES * 20000, encoding="utf-8")
    argv = runner("detect", "--lines", "--format", "code", big)
    piped = subprocess.run(argv, capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b""
    leader, follower = pty.openpty()
    try:
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=follower)
        os.close(follower)
        err = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, "no end of the progress line"
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed (EIO): the tool has ended
                break
            if not chunk:
                break
            err += chunk
        assert p.wait(timeout=60) == 0
    finally:
        os.close(leader)
    assert err.startswith(b"\rlangsift detect: ")
    assert b" MB of " in err and b"%" in err  # the files' total is known
    assert err.endswith(b"\r\x1b[K")  # the line is cleared at the end
