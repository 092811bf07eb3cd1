"""The Hadoop Streaming recipe of docs/warc.md, played with pipes. Hadoop itself is not run (there
is none here); what is simulated is Streaming's side of the contract, as Hadoop's sources define it:

- the `-mapper`/`-reducer` strings are split into argv by a port of `PipeMapRed.splitArgs` (spaces
  outside quotes; '...' and "..." group; no backslash escapes), and run without a shell;
- a map task of `NLineInputFormat` gets one line on stdin as `OFFSET<TAB>PATH` (the key is written
  for input formats other than TextInputFormat: `PipeMapper`, `TextInputWriter`);
- `hdfs dfs -cat PATH` is a STAND-IN: a script named `hdfs` that runs `cat` on the local file;
- each output line is split at its first TAB into key and value (`TextOutputReader`: no TAB, the
  whole line is the key and the value is empty); the shuffle sorts by key; a reducer reads
  `key<TAB>value` lines (`TextInputWriter`); output files hold `key<TAB>value` (`TextOutputFormat`).

The results must equal `langsift warc` on each shard and `langsift warc --stats` over all of them.

Run by ctest ("python: streaming") with LANGSIFT_BUILD_DIR=<build> and LANGSIFT_SOURCE_DIR=<repo>.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD_DIR, SOURCE_DIR, TEST_DATA, run_tool, tool

WARC_DIR = TEST_DATA / "warc"
DOC = SOURCE_DIR / "docs" / "warc.md"

HDFS_STAND_IN = """#!/bin/sh
# STAND-IN for Hadoop's `hdfs` client, made by bindings/python/tests/test_streaming.py: no Hadoop
# here. `hdfs dfs -cat PATH...` prints local files, as the real one prints HDFS files; an unreadable
# file makes it fail (exit 1), as the real one does. Nothing else is simulated.
if [ "$1" != dfs ] || [ "$2" != -cat ]; then
  echo "hdfs stand-in: only 'hdfs dfs -cat PATH' is simulated" >&2
  exit 2
fi
shift 2
exec cat -- "$@"
"""


# ---- Streaming's side, ported ------------------------------------------------------------------


def hadoop_split_args(args: str) -> list[str]:
    """PipeMapRed.splitArgs (Hadoop Streaming): the argv of a -mapper/-reducer string."""
    outside, single, double = 1, 2, 3
    argv: list[str] = []
    state, start = outside, 0
    for c in range(len(args) + 1):
        last = c == len(args)
        before = state
        end = False
        if not last:
            ch = args[c]
            if ch == "'":
                state = single if state == outside else outside if state == single else state
                end = state != before
            elif ch == '"':
                state = double if state == outside else outside if state == double else state
                end = state != before
            elif ch == " " and state == outside:
                end = True
        if last or end:
            if c != start:
                argv.append(args[start:c])
            start = c + 1
    return argv


def split_key_value(line: bytes) -> tuple[bytes, bytes]:
    """TextOutputReader: key up to the first TAB, the rest the value ('' when there is no TAB)."""
    key, tab, value = line.partition(b"\t")
    return key, value


def text_output_format(pairs: list[tuple[bytes, bytes]]) -> bytes:
    """TextOutputFormat: key TAB value per line (the value is an empty Text, not null: TAB written)."""
    return b"".join(k + b"\t" + v + b"\n" for k, v in pairs)


def shuffle(map_outputs: list[bytes], seed: int = 7) -> bytes:
    """The reducer's stdin: every map output line as (key, value), sorted by key bytes, the values
    of one key in an arbitrary order (Hadoop does not sort values), written as key TAB value."""
    pairs = [split_key_value(line) for out in map_outputs for line in out.splitlines()]
    rng = random.Random(seed)
    rng.shuffle(pairs)
    pairs.sort(key=lambda kv: kv[0])  # stable: within a key, the shuffled order stays
    return b"".join(k + b"\t" + v + b"\n" for k, v in pairs)


def strip_output_tab(data: bytes) -> bytes:
    """A pages-job output file back to `langsift warc`'s lines (each line got a trailing TAB)."""
    lines = data.splitlines()
    assert all(line.endswith(b"\t") and line.count(b"\t") == 1 for line in lines)
    return b"".join(line[:-1] + b"\n" for line in lines)


# ---- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Four shards: warcgen gzip with requests, warcgen plain HTML, the WARC/1.0 and 1.1 fixtures
    (with a conversion record), and the malformed fixture bad.warc.gz."""
    d = tmp_path_factory.mktemp("shards")
    pages = sorted((SOURCE_DIR / "examples" / "pages").glob("*.html"))
    corpus = sorted((TEST_DATA / "corpus").glob("*.txt"))
    a = d / "crawl-00000.warc.gz"
    run_tool("langsift-warcgen", "--gzip", "--requests", "--repeat", 5, *pages, *corpus, "-o", a)
    b = d / "crawl-00001.warc"
    run_tool("langsift-warcgen", "--wrap-html", "--repeat", 4, *corpus, "-o", b)
    out = [a, b]
    for name in ("sample.warc", "sample.warc.gz", "bad.warc.gz"):
        out.append(Path(shutil.copy(WARC_DIR / name, d / name)))
    return out


@pytest.fixture(scope="module")
def stand_in_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """PATH for the simulated task: the `hdfs` stand-in, the build's `langsift`, then the system's."""
    d = tmp_path_factory.mktemp("bin")
    hdfs = d / "hdfs"
    hdfs.write_text(HDFS_STAND_IN)
    hdfs.chmod(0o755)
    tool("langsift")
    return os.pathsep.join([str(d), str(BUILD_DIR), "/usr/bin", "/bin"])


def sh(command: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/sh", "-c", command], capture_output=True, timeout=300, **kw)


def cli_stats(paths: list[Path]) -> bytes:
    p = run_tool("langsift", "warc", "--stats", *paths, check_status=None)
    assert p.returncode in (0, 3)
    return p.stdout


# ---- the plain contract: cat shard | langsift warc - | reducer ---------------------------------


def test_mapper_reads_the_shard_from_stdin_as_the_tool_reads_the_file(shards: list[Path]):
    lsw = shlex.quote(str(tool("langsift")))
    for shard in shards:
        direct = run_tool("langsift", "warc", shard, check_status=None)
        piped = sh(f"cat {shlex.quote(str(shard))} | {lsw} warc -")
        assert piped.returncode == direct.returncode == (3 if shard.name == "bad.warc.gz" else 0)
        assert piped.stdout == direct.stdout and piped.stdout, shard
        # the same problems, with 'stdin' for the file name
        assert piped.stderr.decode().replace("stdin", str(shard)) == direct.stderr.decode()
        stats = sh(f"cat {shlex.quote(str(shard))} | {lsw} warc --stats -")
        assert stats.stdout == run_tool("langsift", "warc", "--stats", shard, check_status=None).stdout


def test_sorted_mapper_statistics_reduce_to_the_statistics_of_all_shards(shards: list[Path], tmp_path: Path):
    """`cat shard | langsift warc --stats -` per shard, concatenated, `sort`ed, and reduced by
    `langsift warc --merge-stats -`: the table of `langsift warc --stats` over all the shards."""
    lsw = shlex.quote(str(tool("langsift")))
    parts = tmp_path / "map-outputs"
    with open(parts, "wb") as f:
        for shard in shards:
            f.write(sh(f"cat {shlex.quote(str(shard))} | {lsw} warc --stats -").stdout)
    reduced = sh(f"LC_ALL=C sort {shlex.quote(str(parts))} | {lsw} warc --merge-stats -")
    assert reduced.returncode == 0, reduced.stderr
    expected = cli_stats(shards)
    assert reduced.stdout == expected
    # in any order at all, and with Streaming's framing (a TAB after the comment lines' key)
    framed = shuffle([parts.read_bytes()], seed=3)
    assert b"(langsift-warc(1): --stats)\t\n" in framed
    again = run_tool("langsift", "warc", "--merge-stats", "-", input=framed)
    assert again.stdout == expected


# ---- the commands of docs/warc.md, run as written -----------------------------------------------


def doc_commands() -> list[list[str]]:
    """The `hadoop jar` commands of docs/warc.md's Hadoop Streaming section, as argv."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"^## Hadoop Streaming\n(.*?)(?=^## )", text, re.M | re.S)
    assert m, "docs/warc.md has no '## Hadoop Streaming' section"
    section = m.group(1)
    assert "Hadoop itself was not run here" in section
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = [shlex.split(b.replace("\\\n", " ")) for b in blocks if "hadoop jar" in b]
    assert len(commands) == 2, blocks
    return commands


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def defines(argv: list[str]) -> dict[str, str]:
    return dict(argv[i + 1].split("=", 1) for i, a in enumerate(argv) if a == "-D")


def run_map_task(command: str, line: bytes, path_env: str) -> subprocess.CompletedProcess:
    """One map task: the -mapper string split as Streaming splits it, run without a shell, with
    one NLineInputFormat record (OFFSET TAB PATH) on stdin."""
    argv = hadoop_split_args(command)
    return subprocess.run(argv, input=line, capture_output=True, timeout=300,
                          env={"PATH": path_env, "LC_ALL": "C"})


def nline_records(paths: list[str]) -> list[bytes]:
    """warc-paths.txt as NLineInputFormat hands it out, one line per map: byte offset TAB line."""
    records, offset = [], 0
    for p in paths:
        records.append(f"{offset}\t{p}\n".encode())
        offset += len(p.encode()) + 1
    return records


def test_split_args_port_and_why_the_mapper_has_no_escaped_quotes():
    assert hadoop_split_args("langsift warc --merge-stats -") == ["langsift", "warc", "--merge-stats", "-"]
    assert hadoop_split_args("bash -c \"a 'b c' d\"") == ["bash", "-c", "a 'b c' d"]
    assert hadoop_split_args("x  'y z'\"w\"") == ["x", "y z", "w"]
    # The page's earlier mapper: Streaming ends the -c argument at the escaped quote.
    old = 'sh -c "cut -f2 | while read p; do hdfs dfs -cat \\"$p\\" | langsift warc -j 2 -; done"'
    argv = hadoop_split_args(old)
    assert argv[:2] == ["sh", "-c"] and argv[2] == "cut -f2 | while read p; do hdfs dfs -cat \\" and len(argv) > 3


def test_the_documented_jobs_as_written(shards: list[Path], stand_in_path: str, tmp_path: Path):
    pages_job, stats_job = doc_commands()
    for job in (pages_job, stats_job):
        assert job[:3] == ["hadoop", "jar", "hadoop-streaming.jar"]
        assert option(job, "-inputformat") == "org.apache.hadoop.mapred.lib.NLineInputFormat"
        assert defines(job).get("mapreduce.input.lineinputformat.linespermap") == "1"
        assert "-mapper" in job and hadoop_split_args(option(job, "-mapper"))[:2] == ["bash", "-c"]
    assert option(pages_job, "-numReduceTasks") == "0" and "-reducer" not in pages_job
    assert option(stats_job, "-numReduceTasks") == "1"
    assert hadoop_split_args(option(stats_job, "-reducer")) == ["langsift", "warc", "--merge-stats", "-"]

    paths = [str(s) for s in shards]
    records = nline_records(paths)
    # Job 1, map only: each task's output file is `langsift warc FILE` with a TAB after each line.
    for shard, record in zip(shards, records):
        task = run_map_task(option(pages_job, "-mapper"), record, stand_in_path)
        assert task.returncode == 0, task.stderr  # malformed input (bad.warc.gz) does not fail the task
        direct = run_tool("langsift", "warc", shard, check_status=None)
        part = text_output_format([split_key_value(line) for line in task.stdout.splitlines()])
        assert strip_output_tab(part) == direct.stdout
        assert task.stderr.decode().replace("stdin", str(shard)) == direct.stderr.decode()
    # Job 2: map, shuffle, one reducer: the statistics of all the shards.
    map_outputs = []
    for record in records:
        task = run_map_task(option(stats_job, "-mapper"), record, stand_in_path)
        assert task.returncode == 0, task.stderr
        map_outputs.append(task.stdout)
    reducer = subprocess.run(hadoop_split_args(option(stats_job, "-reducer")), input=shuffle(map_outputs),
                             capture_output=True, timeout=300, env={"PATH": stand_in_path})
    assert reducer.returncode == 0, reducer.stderr
    expected = cli_stats(shards)
    assert reducer.stdout == expected
    # The job's output file (TextOutputFormat) reads back as the same table.
    part = text_output_format([split_key_value(line) for line in reducer.stdout.splitlines()])
    assert run_tool("langsift", "warc", "--merge-stats", "-", input=part).stdout == expected
    # Two reducers (partitioned by key): their parts concatenated and merged again.
    pairs = [split_key_value(line) for out in map_outputs for line in out.splitlines()]
    halves = [[kv for kv in pairs if hash_partition(kv[0], 2) == r] for r in (0, 1)]
    parts = b""
    for half in halves:
        out = run_tool("langsift", "warc", "--merge-stats", "-",
                       input=b"".join(k + b"\t" + v + b"\n" for k, v in sorted(half, key=lambda kv: kv[0]))).stdout
        parts += text_output_format([split_key_value(line) for line in out.splitlines()])
    assert run_tool("langsift", "warc", "--merge-stats", "-", input=parts).stdout == expected


def hash_partition(key: bytes, n: int) -> int:
    """A stand-in for HashPartitioner (which key goes where does not matter, only that a key goes
    to one reducer)."""
    return sum(key) % n


def test_a_shard_that_cannot_be_read_fails_its_map_task(stand_in_path: str, tmp_path: Path):
    pages_job, stats_job = doc_commands()
    missing = tmp_path / "missing.warc.gz"
    for job in (pages_job, stats_job):
        task = run_map_task(option(job, "-mapper"), f"0\t{missing}\n".encode(), stand_in_path)
        assert task.returncode == 1 and b"missing.warc.gz" in task.stderr, task
    # and the mapper runs with bash, whose pipefail makes that so (dash's sh has none)
    assert shutil.which("bash", path=stand_in_path)
