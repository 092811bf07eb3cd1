"""langsift.dask on a real Dask cluster: distributed.LocalCluster with two worker processes of one
thread each, over more than eight WARC/WET shards written by langsift-warcgen and by the test.

Every per-input JSONL file must be byte for byte what `langsift warc INPUT` prints, and the merged
statistics what `langsift warc --stats` prints over all the inputs. Corrupt, cut and missing
shards are reported (as `langsift warc` reports them) without stopping the others. A worker is
killed (SIGKILL) in the middle of a task: the input is a FIFO that the test feeds half-way and then
holds, so the kill lands mid-task every time (no timing guess); the task is redone elsewhere, and
the output is whole, without a duplicate line, and counted once in the statistics.

Run by ctest ("python: dask") with PYTHONPATH=<build>/python and LANGSIFT_BUILD_DIR=<build>.
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
from distributed import Client, LocalCluster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SOURCE_DIR, TEST_DATA, run_tool
from langsift.dask import ShardResult, output_names, process_archives, process_shard

# distributed 2022.12 on Python 3.11 starts tornado loops the deprecated way: not this test's concern
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

WARC_DIR = TEST_DATA / "warc"
CORPUS = sorted((TEST_DATA / "corpus").glob("*.txt"))
ENCODINGS = sorted((TEST_DATA / "encoding").glob("*.txt"))
PAGES = sorted((SOURCE_DIR / "examples" / "pages").glob("*.html"))


# ---- inputs ------------------------------------------------------------------------------------


def warcgen(out: Path, *args: object) -> Path:
    run_tool("langsift-warcgen", *args, "-o", out)
    assert out.stat().st_size > 0
    return out


def wet_bytes(texts: list[Path], compress: bool) -> bytes:
    """A WET file as Common Crawl writes them: a warcinfo record, then one `conversion` record
    (text/plain) per text; gzip: one member per record."""
    def record(n: int, wtype: str, block: bytes, uri: str | None, ctype: str) -> bytes:
        h = ["WARC/1.0", f"WARC-Type: {wtype}", "WARC-Date: 2026-11-25T10:00:00Z",
             f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012d}>"]
        if uri:
            h += [f"WARC-Target-URI: {uri}", f"WARC-Refers-To: <urn:uuid:00000000-0000-4000-9000-{n:012d}>"]
        h += [f"Content-Type: {ctype}", f"Content-Length: {len(block)}"]
        return ("\r\n".join(h) + "\r\n\r\n").encode("ascii") + block + b"\r\n\r\n"

    records = [record(0, "warcinfo", b"Software-Info: langsift test_dask\r\n", None, "application/warc-fields")]
    for i, t in enumerate(texts, 1):
        records.append(record(i, "conversion", t.read_bytes(), f"http://{t.stem}.example.org/{i}", "text/plain"))
    if compress:
        return b"".join(gzip.compress(r, mtime=0) for r in records)
    return b"".join(records)


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Eleven well-formed shards: gzip and plain, WARC/1.0 and 1.1, requests beside responses,
    chunked and gzip HTTP bodies, legacy encodings, WET conversion records, two inputs with the
    same file name in different directories."""
    d = tmp_path_factory.mktemp("good")
    (d / "a").mkdir()
    (d / "b").mkdir()
    utf8_texts = [p for p in ENCODINGS if ".utf-8." in p.name] + CORPUS
    out = [
        warcgen(d / "pages.warc.gz", "--gzip", "--requests", "--repeat", 40, *PAGES, *CORPUS),
        warcgen(d / "corpus.warc", "--wrap-html", "--repeat", 30, *CORPUS),
        warcgen(d / "encodings.warc.gz", "--gzip", "--charset-from-name", "--chunked", *ENCODINGS),
        warcgen(d / "encodings-cgzip.warc", "--warc-version", "1.0", "--content-gzip", "--charset-from-name",
                "--requests", *ENCODINGS),
        warcgen(d / "plain.warc.gz", "--gzip", "--content-type", "text/plain", "--repeat", 10, *CORPUS),
        Path(shutil.copy(WARC_DIR / "sample.warc", d / "sample.warc")),
        Path(shutil.copy(WARC_DIR / "sample.warc.gz", d / "sample.warc.gz")),
        d / "crawl-00000.warc.wet.gz",
        d / "crawl-00000.warc.wet",
        warcgen(d / "a" / "same.warc.gz", "--gzip", *PAGES),
        warcgen(d / "b" / "same.warc.gz", "--gzip", "--repeat", 3, *CORPUS),
    ]
    out[7].write_bytes(wet_bytes(utf8_texts, compress=True))
    out[8].write_bytes(wet_bytes(utf8_texts * 3, compress=False))
    for p in out:  # the CLI reads each of them without a complaint
        assert run_tool("langsift", "warc", p, check_status=0).stdout, p
    return out


@pytest.fixture(scope="module")
def bad_shards(tmp_path_factory: pytest.TempPathFactory, shards: list[Path]) -> list[Path]:
    """A shard with malformed records (the fixture bad.warc.gz), a gzip shard cut inside a member,
    a gzip shard with 300 bytes overwritten in the middle, junk that is no WARC at all, and a path
    that does not exist."""
    d = tmp_path_factory.mktemp("bad")
    data = shards[0].read_bytes()
    cut = d / "cut.warc.gz"
    cut.write_bytes(data[: len(data) * 3 // 5 + 11])
    rng = random.Random(22)
    corrupt = bytearray(data)
    mid = len(data) // 3
    corrupt[mid:mid + 300] = bytes(rng.randrange(256) for _ in range(300))
    (d / "corrupt.warc.gz").write_bytes(bytes(corrupt))
    (d / "junk.warc").write_bytes(bytes(rng.randrange(256) for _ in range(50000)))
    out = [Path(shutil.copy(WARC_DIR / "bad.warc.gz", d / "bad.warc.gz")), cut, d / "corrupt.warc.gz",
           d / "junk.warc", d / "missing.warc.gz"]
    for p in out[:4]:  # each one is reported by the CLI (exit 3)
        p_cli = run_tool("langsift", "warc", p, check_status=3)
        assert p_cli.stderr, p
    return out


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0")
    c = Client(cluster)
    try:
        assert len(c.scheduler_info()["workers"]) == 2
        yield c
    finally:
        c.close()
        cluster.close()


def cli(*paths: object, stats: bool = False, flags: tuple[str, ...] | list[str] = ()) -> subprocess.CompletedProcess:
    return run_tool("langsift", "warc", *flags, *(["--stats"] if stats else []), *paths, check_status=None)


def decompressed(path: Path) -> bytes:
    """An output's bytes, decompressed by Debian's gzip or zstd (not by the code that wrote them)."""
    tool = {".gz": ["gzip", "-dc"], ".zst": ["zstd", "-dcq"]}.get(path.suffix)
    if tool is None:
        return path.read_bytes()
    return subprocess.run([*tool, str(path)], capture_output=True, check=True, timeout=60).stdout


def by_language(lines: bytes) -> dict[str, bytes]:
    """The lines of each language ("language" field), in order."""
    out: dict[str, list[bytes]] = {}
    for line in lines.splitlines(keepends=True):
        out.setdefault(json.loads(line)["language"], []).append(line)
    return {k: b"".join(v) for k, v in out.items()}


def check_job_outputs(report, out: Path, inputs: list[Path | str], flags: list[str], split: bool,
                      suffix: str) -> None:
    """Each input's output(s) hold the lines of `langsift warc FLAGS INPUT`, byte for byte once
    decompressed by Debian's tools; split: one file per language, OUT/<language>/<name>, each with
    that language's lines in input order; nothing else is in OUT."""
    names = [n + suffix for n in output_names([str(i) for i in inputs])]
    files = {"stats.tsv", "report.json"}
    for shard, path, name in zip(report.shards, inputs, names):
        expected = cli(path, flags=flags)
        assert expected.returncode == 0 and shard.ok, (path, expected.stderr)
        assert shard.lines == len(expected.stdout.splitlines())
        if not split:
            assert shard.output == str(out / name) and shard.outputs == ()
            assert decompressed(out / name) == expected.stdout, path
            files.add(name)
            continue
        want = by_language(expected.stdout)
        assert shard.output is None
        assert [(lang, n) for lang, _, n in shard.outputs] == sorted((k, len(v.splitlines())) for k, v in want.items())
        for lang, file, _ in shard.outputs:
            assert file == str(out / lang / name)
            assert decompressed(Path(file)) == want[lang], (path, lang)
            files.add(f"{lang}/{name}")
    assert {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} == files
    assert not [p for p in out.iterdir() if p.is_dir() and not any(p.iterdir())]  # no empty directory


def check_outputs(report, inputs: list[Path | str], cli_inputs: list[Path] | None = None) -> None:
    """Every input's JSONL equals `langsift warc` on it, byte for byte, with no line twice."""
    cli_inputs = cli_inputs or [Path(str(i)) for i in inputs]
    assert [s.input for s in report.shards] == [str(i) for i in inputs]
    for shard, path in zip(report.shards, cli_inputs):
        expected = cli(path)
        assert [f"langsift warc: {m}" for m in shard.messages()] == expected.stderr.decode().splitlines(), path
        if shard.error is not None:
            assert shard.output is None and expected.stdout == b"" and expected.returncode == 1
            continue
        got = Path(shard.output).read_bytes()
        assert got == expected.stdout, path
        lines = got.splitlines()
        assert len(lines) == len(set(lines)) == shard.lines, path


def no_temp_files(out: Path) -> None:
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


# ---- names and the task on its own -------------------------------------------------------------


def test_output_names_are_deterministic_and_unique():
    assert output_names(["a/crawl-1.warc.gz", "crawl-2.warc", "s3://bucket/x/crawl-3.warc.wet.gz?v=1"]) == [
        "crawl-1.warc.gz.jsonl", "crawl-2.warc.jsonl", "crawl-3.warc.wet.gz.jsonl"]
    names = output_names(["a/x.warc.gz", "b/x.warc.gz", "y.warc"])
    assert names[2] == "y.warc.jsonl" and len(set(names)) == 3
    assert re.fullmatch(r"x\.warc\.gz\.[0-9a-f]{8}\.jsonl", names[0])
    assert output_names(["b/x.warc.gz", "a/x.warc.gz"]) == [names[1], names[0]]  # order does not matter
    assert output_names([".hidden", "we ird|name", "http://host/"]) == ["hidden.jsonl", "we_ird_name.jsonl", "host.jsonl"]
    many = output_names([f"d{i}/x" for i in range(50)] + ["x"])
    assert len(set(many)) == 51 and all(not n.startswith(".") for n in many)
    # language directories (split_languages): the code, made safe; recognised by --overwrite
    from langsift.dask import _LANGUAGE_DIR, _language_dir
    dirs = [_language_dir(c) for c in ("de", "zh-Hant", "deu", "und", "quc_2", "a/b", "_x", "..")]
    assert dirs == ["de", "zh-Hant", "deu", "und", "quc_2", "a_b", "x_x", "x__"]
    assert all(_LANGUAGE_DIR.fullmatch(d) for d in dirs)


def test_a_stats_or_report_path_that_is_a_fifo_is_written_in_place(tmp_path: Path):
    # --stats /dev/stdout or a FIFO: renaming a temporary file over it would replace the device
    # (as root, /dev/stdout itself). A FIFO stands in for the device.
    from langsift.dask import _write_atomic

    fifo = tmp_path / "stats.fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    _write_atomic(str(fifo), "total\tpages\t3\n")
    reader.join(timeout=30)
    assert got == ["total\tpages\t3\n"]
    assert fifo.is_fifo()
    assert os.listdir(tmp_path) == ["stats.fifo"]


def test_process_shard_reads_fsspec_urls_and_reports_unreadable_input(tmp_path: Path):
    """The task alone, in this process: an fsspec memory:// input gives the CLI's lines; a missing
    input gives an error and no file; a second run replaces the output whole."""
    import fsspec

    fs = fsspec.filesystem("memory")
    fs.pipe("/langsift-test/sample.warc.gz", (WARC_DIR / "sample.warc.gz").read_bytes())
    out = tmp_path / "sample.jsonl"
    for _ in range(2):
        r = process_shard("memory://langsift-test/sample.warc.gz", str(out))
        assert isinstance(r, ShardResult) and r.ok and r.output == str(out)
        assert out.read_bytes() == cli(WARC_DIR / "sample.warc.gz").stdout
        assert r.stats.to_tsv() == cli(WARC_DIR / "sample.warc.gz", stats=True).stdout.decode()
        assert r.pid == os.getpid() and r.lines == 8 and r.records == 12
    r = process_shard("memory://langsift-test/nothing.warc.gz", str(tmp_path / "nothing.jsonl"))
    assert not r.ok and r.output is None and r.error and not (tmp_path / "nothing.jsonl").exists()
    r = process_shard(str(tmp_path / "missing.warc"), str(tmp_path / "missing.jsonl"))
    assert r.error == "No such file or directory" and r.messages() == [f"{tmp_path / 'missing.warc'}: No such file or directory"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sample.jsonl"]  # no temporary file left
    with pytest.raises(TypeError):
        process_shard("x", str(tmp_path / "x.jsonl"), {"threads": 2})


def test_arguments_are_checked(tmp_path: Path, client: Client):
    with pytest.raises(ValueError, match="no inputs"):
        process_archives([], tmp_path, client=client)
    with pytest.raises(ValueError, match="twice"):
        process_archives(["a.warc", "a.warc"], tmp_path, client=client)
    with pytest.raises(ValueError, match="stdin"):
        process_archives(["-"], tmp_path, client=client)
    with pytest.raises(ValueError, match="URL"):
        process_archives(["a.warc"], "s3://bucket/out", client=client)
    with pytest.raises(ValueError, match="local cluster"):
        process_archives(["a.warc"], tmp_path, client=client, n_workers=2)


# ---- the job on the cluster --------------------------------------------------------------------


def test_shards_on_two_worker_processes_equal_the_command_line_tool(tmp_path: Path, client: Client, shards: list[Path]):
    assert len(shards) >= 8
    seen: list[ShardResult] = []
    out = tmp_path / "out"
    report = process_archives(shards, out, client=client, on_result=seen.append)
    assert report.exit_status == 0 and report.messages() == []
    assert len(seen) == len(shards) and {s.input for s in seen} == {str(p) for p in shards}
    check_outputs(report, shards)
    expected = cli(*shards, stats=True)
    assert expected.returncode == 0
    assert report.stats.to_tsv() == expected.stdout.decode()
    assert (out / "stats.tsv").read_bytes() == expected.stdout
    assert report.stats.pages == sum(s.pages for s in report.shards) > 500
    # WET input: conversion records, classified
    wet = [json.loads(line) for line in Path(report.shards[7].output).read_text().splitlines()]
    assert wet and {d["warc_type"] for d in wet} == {"conversion"} and "und" not in {d["language"] for d in wet}
    # the report file names every input and output
    rj = json.loads((out / "report.json").read_text())
    assert rj["exit_status"] == 0 and [e["input"] for e in rj["inputs"]] == [str(p) for p in shards]
    assert sorted(p.name for p in out.iterdir()) == sorted(output_names([str(p) for p in shards]) + ["report.json", "stats.tsv"])
    assert report.workers == 2 and len({s.worker for s in report.shards}) <= 2
    no_temp_files(out)
    # A second run into the same directory, asked for, replaces every file whole.
    again = process_archives(shards, out, client=client, overwrite=True)
    check_outputs(again, shards)
    no_temp_files(out)


def test_fsspec_url_inputs_on_the_cluster(tmp_path: Path, client: Client, shards: list[Path]):
    urls = [f"file://{p}" for p in shards[:4]]
    report = process_archives(urls, tmp_path / "out", client=client)
    assert report.exit_status == 0
    for shard, p in zip(report.shards, shards[:4]):
        assert Path(shard.output).read_bytes() == cli(p).stdout
    assert report.stats.to_tsv() == cli(*shards[:4], stats=True).stdout.decode()


# ---- text, corpus documents, the language filter, one file per language, compression -----------

CORPUS_CASES = {
    "text, main": (dict(text=True, main_content=True), ["--text", "--main"], False, None),
    "corpus, languages, min-probability, gz": (
        dict(schema="corpus", languages="de,fr,ru,ja,zh", min_probability=0.9),
        ["--schema", "corpus", "--languages", "de,fr,ru,ja,zh", "--min-probability", "0.9"], False, "gz"),
    "text, all, per language, zst": (dict(text=True, all=True), ["--text", "--all"], True, "zst"),
    "corpus, min-probability, iso639-3, per language": (
        dict(schema="corpus", min_probability=0.5, codes="iso639-3", languages=["de", "ukr", "zh"]),
        ["--schema", "corpus", "--min-probability", "0.5", "--codes", "iso639-3", "--languages", "de,ukr,zh"],
        True, None),
}


@pytest.mark.parametrize("case", list(CORPUS_CASES))
def test_text_corpus_documents_and_the_filter_equal_the_command_line_tool(
        tmp_path: Path, client: Client, shards: list[Path], monkeypatch: pytest.MonkeyPatch, case: str):
    """--text, --schema corpus, --languages and --min-probability mean what they mean for
    `langsift warc`: every output (one per input, or one per language and input) holds that
    tool's lines for the input, byte for byte, after decompression by Debian's gzip and zstd. The
    inputs are named relative to the working directory: a corpus document's `source` is the input
    as given, as the command line writes it. The statistics count the pages left out (filtered)."""
    kwargs, flags, split, compression = CORPUS_CASES[case]
    top = shards[0].parent
    monkeypatch.chdir(top)
    inputs = [Path(os.path.relpath(p, top)) for p in shards]
    out = tmp_path / "out"
    report = process_archives(inputs, out, client=client, split_languages=split, compression=compression, **kwargs)
    assert report.exit_status == 0 and report.messages() == []
    check_job_outputs(report, out, inputs, flags, split, {None: "", "gz": ".gz", "zst": ".zst"}[compression])
    expected = cli(*inputs, flags=flags, stats=True)
    assert expected.returncode == 0 and report.stats.to_tsv() == expected.stdout.decode()
    assert (out / "stats.tsv").read_bytes() == expected.stdout
    filtered = report.stats.filtered
    assert filtered == sum(s.filtered for s in report.shards)
    assert (filtered > 0) == ("languages" in kwargs or "min_probability" in kwargs)
    rj = json.loads((out / "report.json").read_text())
    assert rj["filtered"] == filtered and [e["filtered"] for e in rj["inputs"]] == [s.filtered for s in report.shards]
    if split:
        assert [[list(o) for o in s.outputs] for s in report.shards] == [e["outputs"] for e in rj["inputs"]]
        assert len({lang for s in report.shards for lang, _, _ in s.outputs}) >= 3
    if kwargs.get("schema") == "corpus":  # the source is the input as given, relative here
        line = decompressed(Path(report.shards[1].output or report.shards[1].outputs[0][1])).splitlines()[0]
        assert json.loads(line)["source"] == str(inputs[1])


def test_process_shard_names_the_source_of_corpus_documents(tmp_path: Path):
    """The task alone: an fsspec memory:// input in the corpus schema names its documents' source
    by the URL (or by `name`), as `langsift warc --schema corpus --name NAME -` does from stdin."""
    import fsspec

    data = (WARC_DIR / "sample.warc.gz").read_bytes()
    fsspec.filesystem("memory").pipe("/langsift-test/corpus.warc.gz", data)
    url = "memory://langsift-test/corpus.warc.gz"
    for name in (None, "crawl/CC-MAIN-00000.warc.gz"):
        out = tmp_path / "corpus.jsonl.zst"
        r = process_shard(url, out, {"schema": "corpus", "languages": "de,ru,fr"}, name=name)
        expected = run_tool("langsift", "warc", "--schema", "corpus", "--languages", "de,ru,fr", "--name", name or url,
                            "-", input=data)
        assert r.ok and r.lines == 3 and r.filtered == 4 and decompressed(out) == expected.stdout
    with pytest.raises(TypeError, match="unknown option"):
        process_shard(url, tmp_path / "x.jsonl", {"split": True})


def test_filter_and_compression_arguments_are_checked_before_anything_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An unknown language, --all with a filter or the corpus schema, a probability out of range
    and an unknown compression are refused by process_archives before it reaches the cluster
    (client=42 would be a TypeError after them) or writes anything; zstd without the zstandard
    module is an ImportError that says which package to install."""
    warc = WARC_DIR / "sample.warc"
    out = tmp_path / "o"
    for kwargs, message in ((dict(languages="de-DE"), "did you mean 'de'"),
                            (dict(languages=["de", "xx-Nope"]), "xx-Nope"),
                            (dict(all=True, schema="corpus"), "choose one"),
                            (dict(all=True, min_probability=0.5), "choose one"),
                            (dict(min_probability=1.5), "0..1"),
                            (dict(schema="dolma"), "schema"),
                            (dict(compression="bz2"), "compression")):
        with pytest.raises(ValueError, match=re.escape(message)):
            process_archives([warc], out, client=42, **kwargs)
    assert not out.exists()
    monkeypatch.setitem(sys.modules, "zstandard", None)  # as if python3-zstandard were not installed
    with pytest.raises(ImportError, match="python3-zstandard"):
        process_archives([warc], out, client=42, compression="zst")
    assert not out.exists()


def test_overwrite_removes_an_earlier_runs_language_files_and_compressed_outputs(
        tmp_path: Path, client: Client, shards: list[Path]):
    """--overwrite after a run with one file per language: the language directories' outputs (and
    temporary files) go, and so do the directories left empty; a file of the user's in one of them
    stays, with its directory. A compressed output of an earlier run goes too."""
    out = tmp_path / "out"
    first = process_archives(shards[:3], out, client=client, split_languages=True, compression="gz")
    langs = sorted({lang for s in first.shards for lang, _, _ in s.outputs})
    assert first.exit_status == 0 and len(langs) > 5 and "de" in langs
    (out / "de" / "notes.txt").write_text("mine\n")
    (out / "fr" / ".pages.warc.gz.jsonl.gz.77.0123456789ab.tmp").write_text("a dead attempt\n")
    n_outputs = sum(len(s.outputs) for s in first.shards)
    second = process_archives(shards[5:7], out, client=client, overwrite=True, compression="zst")
    assert second.exit_status == 0 and second.removed_earlier == n_outputs + 1 + 2  # + the temp, stats, report
    check_outputs_files = {p.name for p in out.iterdir()}
    assert check_outputs_files == {"de", "report.json", "stats.tsv", *(n + ".zst" for n in output_names(
        [str(p) for p in shards[5:7]]))}
    assert [p.name for p in (out / "de").iterdir()] == ["notes.txt"]
    for shard, p in zip(second.shards, shards[5:7]):
        assert decompressed(Path(shard.output)) == cli(p).stdout


def test_corrupt_truncated_and_missing_shards_are_reported_and_the_others_complete(
        tmp_path: Path, client: Client, shards: list[Path], bad_shards: list[Path]):
    inputs = [bad_shards[0], shards[0], bad_shards[1], shards[1], bad_shards[2], bad_shards[3], shards[2],
              bad_shards[4], shards[3]]
    report = process_archives(inputs, tmp_path / "out", client=client)
    assert report.exit_status == 1  # an input could not be read (langsift warc: 1 too)
    by_input = {s.input: s for s in report.shards}
    missing = by_input[str(bad_shards[4])]
    assert missing.error == "No such file or directory" and missing.output is None
    assert [s.input for s in report.failed] == [str(bad_shards[4])]
    assert {s.input for s in report.malformed} == {str(p) for p in bad_shards[:4]}
    assert any("the input ends inside a gzip member" in m for _, m in by_input[str(bad_shards[1])].malformed)
    assert by_input[str(bad_shards[1])].lines > 0  # what was there before the cut is kept
    check_outputs(report, inputs)  # outputs and messages equal the CLI's, shard by shard
    expected = cli(*inputs, stats=True)
    assert expected.returncode == 1
    assert report.stats.to_tsv() == expected.stdout.decode()
    assert report.stats.malformed == sum(len(s.malformed) for s in report.shards) > 0
    assert report.messages() == [line.removeprefix("langsift warc: ") for line in expected.stderr.decode().splitlines()]
    # without the missing one: exit status 3, as `langsift warc` has it
    readable = [p for p in inputs if p != bad_shards[4]]
    assert process_archives(readable, tmp_path / "out2", client=client).exit_status == 3
    assert cli(*readable, stats=True).returncode == 3
    no_temp_files(tmp_path / "out")


# ---- the command line --------------------------------------------------------------------------


def module_cli(*args: object, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "langsift.dask", *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def module_cli_bytes(*args: object, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """The command line with arguments as the OS has them (bytes: names that are not UTF-8)."""
    argv = [a if isinstance(a, bytes) else os.fsencode(str(a)) for a in args]
    return subprocess.run([os.fsencode(sys.executable), b"-m", b"langsift.dask", *argv], input=stdin,
                          capture_output=True, timeout=300)


@pytest.mark.parametrize("args, message", [
    ([], "the following arguments are required: -o/--output-dir"),
    (["-o", "OUT"], "no inputs"),
    (["-o", "OUT", "-"], "stdin"),
    (["-o", "OUT", "a.warc", "a.warc"], "input given twice: a.warc"),
    (["-o", "OUT", "--workers", "0", "a.warc"], "not a positive integer"),
    (["-o", "OUT", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2", "a.warc"], "exclude each other"),
    (["-o", "OUT", "--max-record-bytes", "lots", "a.warc"], "not a size"),
    (["-o", "OUT", "--storage-option", "anon", "a.warc"], "KEY=VALUE"),
    (["-o", "OUT", "--frobnicate", "a.warc"], "unrecognized arguments: --frobnicate"),
    (["-o", "OUT", "--min-probability", "2", "a.warc"], "needs a probability from 0 to 1"),
    (["-o", "OUT", "--min-probability", "nan", "a.warc"], "needs a probability from 0 to 1"),
    (["-o", "OUT", "--schema", "dolma", "a.warc"], "invalid choice: 'dolma'"),
    (["-o", "OUT", "--compression", "bz2", "a.warc"], "invalid choice: 'bz2'"),
    (["-o", "OUT", "--languages", "de-DE", str(WARC_DIR / "sample.warc")], "did you mean 'de'"),
    (["-o", "OUT", "--all", "--schema", "corpus", str(WARC_DIR / "sample.warc")], "choose one"),
])
def test_cli_usage_errors(tmp_path: Path, args: list[str], message: str):
    p = module_cli(*[a.replace("OUT", str(tmp_path / "o")) for a in args])
    assert p.returncode == 2, p.stderr
    assert p.stdout == "" and len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith("langsift.dask: ") and message in p.stderr
    assert not (tmp_path / "o").exists()


def test_cli_help_unreadable_input_list_and_bad_model(tmp_path: Path):
    p = module_cli("--help")
    assert p.returncode == 0 and "--scheduler" in p.stdout and "Exit status" in p.stdout
    p = module_cli("-o", tmp_path / "o", "--inputs-from", tmp_path / "nope.txt")
    assert p.returncode == 1 and p.stderr == f"langsift.dask: {tmp_path / 'nope.txt'}: No such file or directory\n"
    (tmp_path / "broken.lsm").write_bytes(b"not a model")
    p = module_cli("-o", tmp_path / "o", "--model", tmp_path / "broken.lsm", WARC_DIR / "sample.warc")
    assert p.returncode == 1 and len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith(f"langsift.dask: model: {tmp_path / 'broken.lsm'}: ")  # as Python's model= says it
    assert not (tmp_path / "o").exists()  # checked before anything was started or written


def test_a_builtin_model_name_selects_it_and_a_path_is_a_file(tmp_path: Path):
    import langsift
    from langsift import dask as lsdask
    assert lsdask._model("wide") is langsift.Model.builtin("wide")
    assert lsdask._model("default").checksum == langsift.Model.builtin().checksum
    (tmp_path / "wide").write_bytes(b"not a model")  # a file so named: the name still wins
    assert lsdask._model("wide") is langsift.Model.builtin("wide")
    with pytest.raises(langsift.ModelError):
        lsdask._model(str(tmp_path / "wide"))
    # The rule is the library's (Model.named), as for the tools' --model and Python's model=: "" is
    # the default model (#34: dask read it as a file named "" and failed).
    assert lsdask._model("") is langsift.Model.builtin()
    assert lsdask._prepare([str(WARC_DIR / "sample.warc")], tmp_path / "out", None, None, False,
                           {"max_record_bytes": 4 << 20, "codes": "639-3"}, "", None).options["model"] == ""
    with pytest.raises(ValueError, match="^codes must be 'iso639-1' or 'iso639-3', not 'iso639-2'$"):
        lsdask._prepare([str(WARC_DIR / "sample.warc")], tmp_path / "out", None, None, False,
                        {"max_record_bytes": 4 << 20, "codes": "iso639-2"}, None, None)


def test_cli_against_a_scheduler(tmp_path: Path, client: Client, shards: list[Path], bad_shards: list[Path]):
    """--scheduler ADDR, inputs from a list on stdin: the messages on stderr, one line each,
    exit status 1 for the missing shard, the statistics where --stats says."""
    inputs = shards + bad_shards
    listing = "# shards\n" + "\n".join(str(p) for p in inputs) + "\n\n"
    p = module_cli("--scheduler", client.scheduler.address, "-o", tmp_path / "out", "--stats", tmp_path / "s.tsv",
                   "--inputs-from", "-", stdin=listing)
    expected = cli(*inputs, stats=True)
    assert p.returncode == 1 == expected.returncode
    assert p.stdout == ""
    assert p.stderr.splitlines() == [line.replace("langsift warc: ", "langsift.dask: ", 1)
                                     for line in expected.stderr.decode().splitlines()]
    assert (tmp_path / "s.tsv").read_bytes() == expected.stdout
    assert not (tmp_path / "out" / "stats.tsv").exists()
    rj = json.loads((tmp_path / "out" / "report.json").read_text())
    assert rj["exit_status"] == 1 and rj["unreadable"] == 1 and len(rj["inputs"]) == len(inputs)
    for e, path in zip(rj["inputs"], inputs):
        if e["output"]:
            assert Path(e["output"]).read_bytes() == cli(path).stdout


def test_cli_starts_its_own_local_cluster(tmp_path: Path, shards: list[Path], bad_shards: list[Path]):
    p = module_cli("--workers", 2, "--threads-per-worker", 1, "--timing", "-o", tmp_path / "out", *shards[:3],
                   bad_shards[1])
    assert p.returncode == 3, p.stderr
    lines = p.stderr.splitlines()
    assert lines[-1].startswith("langsift.dask: 4 inputs, ") and "pages/s, 2 workers" in lines[-1]
    assert lines[:-1] == [line.replace("langsift warc: ", "langsift.dask: ", 1)
                          for line in cli(bad_shards[1]).stderr.decode().splitlines()]
    assert (tmp_path / "out" / "stats.tsv").read_bytes() == cli(*shards[:3], bad_shards[1], stats=True).stdout
    p = module_cli("--workers", 1, "-o", tmp_path / "out1", shards[5])
    assert p.returncode == 0 and p.stderr == ""
    assert (tmp_path / "out1" / "sample.warc.jsonl").read_bytes() == cli(shards[5]).stdout


def test_cli_corpus_per_language_compressed(tmp_path: Path, shards: list[Path]):
    """The command line's new options: corpus documents of some languages, one gzip file per
    language and input; the --timing line counts the pages left out."""
    flags = ["--text", "--schema", "corpus", "--languages", "de,fr,ru,en", "--min-probability", "0.5"]
    out = tmp_path / "out"
    p = module_cli("--workers", 1, "--timing", "-o", out, *flags, "--split-languages", "--compression", "gz",
                   *shards[:3])
    assert p.returncode == 0, p.stderr
    expected = cli(*shards[:3], flags=flags, stats=True)
    filtered = int(re.search(r"^total\tfiltered\t(\d+)$", expected.stdout.decode(), re.M).group(1))
    assert filtered > 0 and f" pages, {filtered} filtered, " in p.stderr.splitlines()[-1], p.stderr
    assert (out / "stats.tsv").read_bytes() == expected.stdout
    rj = json.loads((out / "report.json").read_text())
    names = output_names([str(s) for s in shards[:3]])
    for e, shard, name in zip(rj["inputs"], shards[:3], names):
        want = by_language(cli(shard, flags=flags).stdout)
        assert {lang for lang, _, _ in e["outputs"]} == set(want) <= {"de", "fr", "ru", "en"}
        for lang in want:
            assert decompressed(out / lang / f"{name}.gz") == want[lang]


# ---- a worker dies in the middle of a task -----------------------------------------------------


def _open_fifo_for_writing(path: Path, deadline: float) -> int:
    """Opens the FIFO's writing end once a reader has it open (polling: never blocks forever)."""
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            if time.monotonic() > deadline:
                raise TimeoutError(f"no task opened {path}") from None
            time.sleep(0.01)
            continue
        os.set_blocking(fd, True)
        return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _wait_until_dead(pid: int) -> None:
    """Waits until the process has exited (gone, or a zombie whose files are closed)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} still alive 60 s after SIGKILL")


def _release_readers(path: Path) -> None:
    """Gives every task still reading the FIFO an end of file (so that a failed test cannot hang)."""
    for _ in range(20):
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            return
        time.sleep(0.05)


@pytest.mark.parametrize("split", [False, True], ids=["one file per input", "per language, zstd, text"])
def test_a_worker_killed_mid_task_loses_no_output_and_duplicates_nothing(
        tmp_path: Path, client: Client, shards: list[Path], split: bool):
    """One input is a FIFO. Its first reader gets half of the shard's bytes and then waits; once the
    task's temporary output file has lines in it (split: once it has temporary files, which zstd
    may not have written to yet), the test SIGKILLs the worker process whose pid the file name
    carries. The scheduler gives the task to a worker again; its reader gets the whole shard.
    Every output must equal the CLI's, the killed attempt's partial files must be gone, and the
    statistics must count the FIFO shard once."""
    source = shards[0]  # pages.warc.gz: 320 pages, ~130 KB of lines
    data = source.read_bytes()
    fifo = tmp_path / "fifo-pages.warc.gz"
    os.mkfifo(fifo)
    out = tmp_path / "out"
    half_written, killed = threading.Event(), threading.Event()
    feeder_error: list[BaseException] = []

    def feed() -> None:
        try:
            fd = _open_fifo_for_writing(fifo, time.monotonic() + 120)
            _write_all(fd, data[: len(data) // 2])
            half_written.set()
            killed.wait(120)  # hold the first reader half-way until its worker is dead
            os.close(fd)
            deadline = time.monotonic() + 120
            while True:  # the retried task (again if its reader goes away before the end)
                fd = _open_fifo_for_writing(fifo, deadline)
                try:
                    _write_all(fd, data)
                    break
                except BrokenPipeError:
                    continue
                finally:
                    os.close(fd)
        except BaseException as e:  # reported by the test, not lost in a thread
            feeder_error.append(e)
        finally:
            half_written.set()

    outcome: dict[str, object] = {}

    kwargs = dict(text=True, split_languages=True, compression="zst") if split else {}
    temps = str(out / ("*/.fifo-pages.warc.gz.jsonl.zst.*.tmp" if split else ".fifo-pages.warc.gz.jsonl.*.tmp"))

    def run_job() -> None:
        try:
            outcome["report"] = process_archives(inputs, out, client=client, **kwargs)
        except BaseException as e:
            outcome["error"] = e

    inputs = [fifo, *shards]
    feeder = threading.Thread(target=feed, daemon=True)
    job = threading.Thread(target=run_job, daemon=True)
    feeder.start()
    job.start()
    try:
        assert half_written.wait(120) and not feeder_error, feeder_error
        deadline = time.monotonic() + 120
        partial: list[str] = []
        while not partial:
            assert time.monotonic() < deadline, "the FIFO task never started writing"
            assert job.is_alive(), outcome
            partial = [p for p in glob.glob(temps) if split or os.path.getsize(p) > 0]
            time.sleep(0.01)
        pid = int(re.search(r"\.jsonl(?:\.zst)?\.(\d+)\.[0-9a-f]+\.tmp$", partial[0]).group(1))
        assert pid in client.run(os.getpid).values()  # a worker process, not this one
        partial_lines = Path(partial[0]).read_bytes().splitlines()
        os.kill(pid, signal.SIGKILL)
        _wait_until_dead(pid)  # its end of the FIFO is closed: the next reader is the retry's
        partial = [p for p in glob.glob(temps) if f".{pid}." in os.path.basename(p)]  # all of the dead attempt's
        killed.set()
        job.join(180)
        assert not job.is_alive(), "the job did not finish after the worker was killed"
        feeder.join(10)
    finally:
        killed.set()
        if job.is_alive() or feeder.is_alive():
            _release_readers(fifo)
    assert not feeder_error, feeder_error
    assert "error" not in outcome, outcome
    report = outcome["report"]
    assert report.exit_status == 0, report.messages()
    fifo_result = report.shards[0]
    assert fifo_result.pid != pid and fifo_result.lines > len(partial_lines) and (split or partial_lines)
    assert report.removed_partial == {str(fifo): len(partial)}  # the killed attempt's files, removed at the end
    assert partial and not any(os.path.exists(p) for p in partial)
    assert not glob.glob(str(out / "**" / ".*"), recursive=True)  # no temporary file left
    if split:  # the FIFO's files hold the shard's lines, as if `langsift warc --text` had read it
        names = output_names([str(p) for p in inputs])
        for r, p in zip(report.shards, [source, *shards]):
            want = by_language(cli(p, flags=["--text"]).stdout)
            assert [(lang, n) for lang, _, n in r.outputs] == sorted((k, len(v.splitlines())) for k, v in want.items())
        for lang, file, _ in fifo_result.outputs:
            assert file == str(out / lang / f"{names[0]}.zst")
            got = decompressed(Path(file))
            assert got == by_language(cli(source, flags=["--text"]).stdout)[lang]
            assert len(got.splitlines()) == len(set(got.splitlines()))
    else:
        check_outputs(report, inputs, cli_inputs=[source, *shards])
    assert report.stats.to_tsv() == cli(source, *shards, stats=True).stdout.decode()
    assert (out / "stats.tsv").read_text() == report.stats.to_tsv()
    client.wait_for_workers(2, timeout=60)  # the nanny restarted the killed worker


# ---- one input under two names, an earlier run's directory -------------------------------------


@pytest.fixture(scope="module")
def alias_tree(tmp_path_factory: pytest.TempPathFactory, shards: list[Path]) -> Path:
    """in/f0..f2 (copies of sample.warc), in/s1 -> f1 (symlink), in/h2 (hard link of f2) and
    dirlink -> in (a symlinked directory)."""
    top = tmp_path_factory.mktemp("aliases")
    d = top / "in"
    d.mkdir()
    for i in range(3):
        shutil.copy(shards[5], d / f"f{i}")
    (d / "s1").symlink_to("f1")
    os.link(d / "f2", d / "h2")
    (top / "dirlink").symlink_to(d)
    (top / "deep").mkdir()
    (top / "deep" / "up").symlink_to("../in")  # deep/up/.. is top, not deep
    return top


def _spellings(top: Path, name: str) -> list[object]:
    """Ways to name in/NAME from the working directory `top`/in."""
    d = top / "in"
    return [name, f"./{name}", str(d / name), f"{d}//{name}", str(top / "dirlink" / name), f"../in/{name}",
            f"file://{d / name}", f"FILE://{d}/./{name}", os.fsencode(name), Path(d / name),
            f"../deep/up/../in/{name}"]


def test_an_input_given_twice_under_another_name_is_refused(alias_tree: Path, client: Client,
                                                             monkeypatch: pytest.MonkeyPatch):
    """`x ./x $PWD/x` is one file given three times: a usage error, not three outputs (the
    statistics counted it three times); so are a symlink, a hard link and a file:// URL of it."""
    monkeypatch.chdir(alias_tree / "in")
    out = alias_tree / "out"
    for other in _spellings(alias_tree, "f0")[1:]:
        with pytest.raises(ValueError, match="input given twice: "):
            process_archives(["f0", other], out, client=client)
    for a, b in (("f1", "s1"), ("f2", "h2")):
        with pytest.raises(ValueError, match=f"input given twice: {b} \\(the same file as {a}\\)"):
            process_archives([a, "f0", b], out, client=client)
    with pytest.raises(ValueError, match="twice"):  # URLs: scheme and host case, dot segments
        process_archives(["http://Example.org/a/x.warc", "HTTP://example.org/a/./b/../x.warc"], out, client=client)
    assert not out.exists()
    d = alias_tree / "in"
    # ".." after a symlink: the workers read the file the client means (they were sent the name
    # with "up/.." dropped, deep/in/f0, which does not exist)
    report = process_archives(["../deep/up/../in/f0"], out, client=client)
    assert report.exit_status == 0 and Path(report.shards[0].output).read_bytes() == cli(d / "f0").stdout
    shutil.rmtree(out)
    p = module_cli("-o", out, "f0", "./f0", d / "f0", cwd=d)
    assert p.returncode == 2 and p.stdout == "" and not out.exists(), p.stderr
    assert p.stderr == "langsift.dask: input given twice: ./f0 (the same file as f0) (see --help)\n"


_SPELLINGS = range(11)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["f0", "f1", "s1", "f2", "h2", "m0", "m1"]), st.sampled_from(_SPELLINGS)),
                min_size=1, max_size=8))
def test_property_inputs_are_duplicates_exactly_when_they_are_one_file(
        alias_tree: Path, monkeypatch: pytest.MonkeyPatch, picks: list[tuple[str, int]]):
    """Any mix of names of three files (by symlink, hard link, ./, absolute, file:// URL, bytes,
    Path) and two missing ones: process_archives refuses the list exactly when two entries are the
    same file, before it does anything else (client=42 is refused only after the inputs)."""
    monkeypatch.chdir(alias_tree / "in")
    same = {"s1": "f1", "h2": "f2"}
    files = [same.get(name, name) for name, _ in picks]
    inputs = [_spellings(alias_tree, name)[k] for name, k in picks]
    if len(set(files)) < len(files):
        with pytest.raises(ValueError, match="input given twice"):
            process_archives(inputs, alias_tree / "prop-out", client=42, overwrite=True)
    else:
        with pytest.raises(TypeError, match="client must be"):
            process_archives(inputs, alias_tree / "prop-out", client=42, overwrite=True)


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.one_of(st.binary(max_size=12).map(os.fsdecode),
                          st.sampled_from(["x.warc.gz", "a/x.warc.gz", "b/x.warc.gz", ".x", "x", "..", "x.jsonl",
                                           "s3://b/x.warc.gz?v=2", "a/x.warc.gz.3f2a9c1b", "/", "x.warc.gz-2"])),
                max_size=12, unique=True))
def test_property_output_names_are_unique_plain_and_the_jobs(inputs: list[str]):
    """Any inputs (names that are not UTF-8 included): one name each, distinct, not hidden, made
    of safe characters, of the shape --overwrite recognises as the job's, whatever the order."""
    from langsift.dask import _is_job_file

    names = output_names(inputs)
    assert len(names) == len(inputs) == len(set(names))
    for n in names:
        assert re.fullmatch(r"[A-Za-z0-9_+=@,-][A-Za-z0-9._+=@,-]*\.jsonl", n) and _is_job_file(n), n
        assert _is_job_file(n + ".gz") and _is_job_file(n + ".zst") and _is_job_file(f".{n}.zst.12.0123456789ab.tmp")
    assert dict(zip(inputs, names)) == dict(zip(inputs[::-1], output_names(inputs[::-1])))


def test_forty_thousand_inputs_are_checked_in_linear_time(tmp_path: Path):
    """The duplicate check was O(n²) and ran twice (15 s for 40,000 inputs): it runs once, linear."""
    inputs = [str(tmp_path / f"s{i:05d}.warc.gz") for i in range(40000)]
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="input given twice"):
        process_archives(inputs + [inputs[0]], tmp_path / "out", client=42)
    assert time.monotonic() - t0 < 3.0  # 0.3 s here; 7.4 s for one pass before


def test_a_non_empty_output_directory_needs_overwrite_and_keeps_no_stale_output(
        tmp_path: Path, client: Client, shards: list[Path]):
    """A second run with other inputs into the same directory left the first run's outputs beside
    the new statistics. Now a directory that is not empty is refused (nothing written); with
    overwrite=True the files the job writes that the new run does not are removed, other
    files are left alone."""
    out = tmp_path / "out"
    first = process_archives([shards[0], shards[1], shards[6]], out, client=client)
    assert first.exit_status == 0
    (out / "notes.txt").write_text("mine\n")
    (out / "keep").mkdir()
    (out / ".x.warc.jsonl.77.0123456789ab.tmp").write_text("an earlier dead attempt\n")
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    with pytest.raises(FileExistsError, match="not empty"):
        process_archives(shards[3:5], out, client=client)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    missing = tmp_path / "in" / "sample.warc.gz"  # an earlier output of its name is there: removed too
    second = process_archives([*shards[3:5], missing], out, client=client, overwrite=True)
    assert second.exit_status == 1 and second.removed_earlier == 3 + 2 + 1  # outputs, stats and report, a temp
    assert sorted(p.name for p in out.iterdir()) == sorted(
        output_names([str(p) for p in shards[3:5]]) + ["keep", "notes.txt", "report.json", "stats.tsv"])
    assert (out / "stats.tsv").read_bytes() == cli(*shards[3:5], stats=True).stdout
    check_outputs(second, [*shards[3:5], missing])
    assert json.loads((out / "report.json").read_text())["removed_earlier"] == 6
    # the command line: exit 2 without --overwrite, one line; with it, the third run's files only
    p = module_cli("--workers", 1, "-o", out, shards[5])
    assert p.returncode == 2 and p.stderr == (f"langsift.dask: {out}: the output directory is not empty: "
                                              "--overwrite replaces an earlier run's files (see --help)\n")
    p = module_cli("--workers", 1, "--overwrite", "-o", out, shards[5])
    assert p.returncode == 0, p.stderr
    assert sorted(p.name for p in out.iterdir()) == ["keep", "notes.txt", "report.json", "sample.warc.jsonl", "stats.tsv"]


# ---- names that are not UTF-8 ------------------------------------------------------------------


def test_file_names_that_are_not_utf8(tmp_path: Path, client: Client, shards: list[Path]):
    """Names as the OS gives them (bytes; str with surrogateescape in Python), in arguments, in
    --inputs-from lists and in the output directory's name: read, reported like `langsift warc`
    reports them (the same bytes), named in report.json with \\udcXX escapes (valid JSON)."""
    d = os.fsencode(tmp_path)
    good = d + b"/caf\xe9-\xff.warc.gz"
    shutil.copy(shards[6], os.fsdecode(good))
    missing = d + b"/missing-\xfe.warc"
    utf8 = d + "/café.warc".encode()
    shutil.copy(shards[5], os.fsdecode(utf8))
    listing = d + b"/list\xff.txt"
    with open(listing, "wb") as f:
        f.write(b"# inputs\n" + good + b"\r\n" + missing + b"\n")
    out = d + b"/out\xff"
    p = module_cli_bytes("--scheduler", client.scheduler.address, "-o", out, utf8, "--inputs-from", listing)
    expected = run_tool("langsift", "warc", "--stats", os.fsdecode(utf8), os.fsdecode(good), os.fsdecode(missing),
                        check_status=1)
    assert p.returncode == 1 and p.stdout == b""
    assert p.stderr == expected.stderr.replace(b"langsift warc: ", b"langsift.dask: ")
    assert p.stderr == b"langsift.dask: " + missing + b": No such file or directory\n"
    with open(out + b"/stats.tsv", "rb") as f:
        assert f.read() == expected.stdout
    with open(out + b"/report.json", "rb") as f:
        raw = f.read()
    rj = json.loads(raw.decode("utf-8"))  # strict UTF-8: valid JSON
    assert b"\\udcff" in raw and "café" in raw.decode()
    assert [os.fsencode(e["input"]) for e in rj["inputs"]] == [utf8, good, missing]
    assert os.fsencode(rj["inputs"][1]["output"]) == out + b"/caf_-_.warc.gz.jsonl"
    with open(out + b"/caf_-_.warc.gz.jsonl", "rb") as f:
        assert f.read() == cli(shards[6]).stdout
    # from stdin, with a model file so named; from Python with bytes and Path inputs
    model = d + b"/model-\xff.lsm"
    shutil.copy(SOURCE_DIR / "models" / "default.lsm", os.fsdecode(model))
    p = module_cli_bytes("--scheduler", client.scheduler.address, "-o", d + b"/out2", "--model", model,
                         "--inputs-from", "-", stdin=good + b"\n")
    assert p.returncode == 0 and p.stderr == b"", p.stderr
    with open(d + b"/out2/caf_-_.warc.gz.jsonl", "rb") as f:
        assert f.read() == run_tool("langsift", "warc", "--model", os.fsdecode(model), os.fsdecode(good)).stdout
    with open(model, "wb") as f:
        f.write(b"not a model")
    p = module_cli_bytes("--scheduler", client.scheduler.address, "-o", d + b"/out4", "--model", model, good)
    assert p.returncode == 1 and p.stderr.startswith(b"langsift.dask: model: " + model + b": "), p.stderr
    report = process_archives([good, Path(os.fsdecode(utf8))], d + b"/out3", client=client)
    assert report.exit_status == 0 and [s.input for s in report.shards] == [os.fsdecode(good), os.fsdecode(utf8)]


# ---- malformed input: the first 100 problems, counted ------------------------------------------


def test_problems_of_an_input_are_bounded_and_counted(tmp_path: Path, client: Client, shards: list[Path]):
    """3 M problems in one input made a 209 MB report.json, 3 M lines on stderr and 1.94 GB of
    memory. The first 100 of an input are kept and listed, the rest counted, with one line saying
    how many more there were."""
    junk = tmp_path / "headers.warc"
    junk.write_bytes(b"WARC/1.0\r\n\r\n" * 5000)
    expected = cli(junk, stats=True)
    cli_lines = expected.stderr.decode().splitlines()
    assert expected.returncode == 3 and len(cli_lines) == 5000
    out = tmp_path / "out"
    report = process_archives([shards[5], junk], out, client=client)
    shard = report.shards[1]
    assert report.exit_status == 3 and shard.malformed_count == 5000 == report.stats.malformed
    assert len(shard.malformed) == 100
    assert report.stats.to_tsv() == cli(shards[5], junk, stats=True).stdout.decode()
    messages = [f"langsift warc: {m}" for m in report.messages()]
    assert messages[:100] == cli_lines[:100]
    assert messages[100:] == [f"langsift warc: {junk}: ... and 4900 more problems (5000 in all)"]
    rj = json.loads((out / "report.json").read_text())
    assert rj["inputs"][1]["malformed_count"] == 5000 and len(rj["inputs"][1]["malformed"]) == 100
    assert rj["inputs"][0]["malformed_count"] == 0 and rj["malformed"] == 5000
    assert (out / "report.json").stat().st_size < 20000
    p = module_cli("--scheduler", client.scheduler.address, "--overwrite", "-o", out, junk)
    assert p.returncode == 3
    assert p.stderr.splitlines() == [m.replace("langsift warc: ", "langsift.dask: ", 1) for m in messages]


# ---- SIGINT and SIGTERM ------------------------------------------------------------------------


@pytest.mark.parametrize("sig, group, split", [(signal.SIGINT, True, False), (signal.SIGTERM, False, False),
                                               (signal.SIGTERM, True, False), (signal.SIGINT, True, True)],
                         ids=["SIGINT to the process group", "SIGTERM to the job", "SIGTERM to the process group",
                              "SIGINT, per language"])
def test_a_signal_stops_the_job_and_removes_its_temporary_files(tmp_path: Path, shards: list[Path],
                                                                sig: signal.Signals, group: bool, split: bool):
    """Ctrl-C (SIGINT to the whole process group, workers included) or SIGTERM to the job or its
    group while a task is writing: the job stops its cluster, removes the temporary files and
    exits 130 or 143 with one line and no traceback (it left the partial file and printed
    tracebacks). The workers ignore both signals (the client stops them): the group's signal
    cannot kill or interrupt them half-way. The input is a FIFO held half-written, so the signal
    lands mid-task every time."""
    data = shards[0].read_bytes()
    fifo = tmp_path / "fifo.warc.gz"
    os.mkfifo(fifo)
    out = tmp_path / "out"
    # As an interactive shell starts it: with SIGINT's default handler, even where the test runs
    # with SIGINT ignored (a background job of a script), which the job would respect.
    start = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "signal.signal(signal.SIGTERM, signal.SIG_DFL); sys.argv[0] = 'langsift.dask'; "
             "runpy.run_module('langsift.dask', run_name='__main__', alter_sys=True)")
    more = ["--split-languages", "--compression", "gz"] if split else []
    temps = str(out / ("*/.fifo.warc.gz.jsonl.gz.*.tmp" if split else ".fifo.warc.gz.jsonl.*.tmp"))
    job = subprocess.Popen([sys.executable, "-c", start, "--workers", "1", *more, "-o", str(out), str(fifo)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    fd = None
    try:
        fd = _open_fifo_for_writing(fifo, time.monotonic() + 120)
        _write_all(fd, data[: len(data) // 2])
        deadline = time.monotonic() + 120
        partial: list[str] = []
        while not partial:
            assert time.monotonic() < deadline and job.poll() is None, "the task never started writing"
            partial = [p for p in glob.glob(temps) if split or os.path.getsize(p) > 0]
            time.sleep(0.01)
        worker = int(re.search(r"\.jsonl(?:\.gz)?\.(\d+)\.[0-9a-f]+\.tmp$", partial[0]).group(1))
        ignored = int(re.search(r"^SigIgn:\s*([0-9a-f]+)$", Path(f"/proc/{worker}/status").read_text(), re.M).group(1), 16)
        assert ignored & (1 << (signal.SIGINT - 1)) and ignored & (1 << (signal.SIGTERM - 1)), hex(ignored)
        (os.killpg if group else os.kill)(job.pid, sig)
        stdout, stderr = job.communicate(timeout=120)
    finally:
        if fd is not None:
            os.close(fd)
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
            job.wait()
    assert job.returncode == 128 + sig, stderr.decode()
    assert stdout == b"" and b"Traceback" not in stderr
    # Dask's own log lines may come too (the nanny: "Worker process still alive after 3.2 seconds,
    # killing", the task being stuck in a read): ours is the one line that is not Dask's.
    lines = [line for line in stderr.decode().splitlines() if not re.match(r"\S+ \S+ - distributed\.", line)]
    assert lines == [
        f"langsift.dask: interrupted by {sig.name}: the job was stopped and its temporary files removed; "
        "no statistics or report were written"]
    assert sorted(p.name for p in out.iterdir()) == []
    _wait_until_dead(worker)  # the cluster's worker process went with the job
