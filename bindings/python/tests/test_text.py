"""The page's text (issue 30): `langsift warc --text`, WarcRecord.text, PageResult.text,
extract_text() and `langsift text` give the same text byte for byte; the corpus schema is what
datatrove's JsonlReader and Dolma read; the language filter; zstd WARC input in read_warc."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import pytest

import langsift
from conftest import SOURCE_DIR, TEST_DATA, run_tool

# HTML pages in several encodings (the examples, the main-content fixtures) and text files in 20
# encodings, whose bytes are the HTTP bodies of the WARC written from them.
HTML = sorted((SOURCE_DIR / "examples" / "pages").glob("*.html")) + sorted((TEST_DATA / "html" / "main-content").glob("*.html"))
TEXTS = sorted((TEST_DATA / "encoding").glob("*.txt"))


def charset_of(path: Path) -> str:
    """What langsift-warcgen --charset-from-name declares: NAME.X.EXT -> X."""
    parts = path.name.split(".")
    return parts[1] if len(parts) >= 3 else ""


def content_type_of(path: Path) -> str:
    cs = charset_of(path)
    return "text/html" + (f"; charset={cs}" if cs else "")


def lines(p) -> list[str]:
    return p.stdout.decode().splitlines()


@pytest.fixture(scope="module")
def pages_warc(tmp_path_factory) -> Path:
    """Every file of HTML and TEXTS as a response record (one gzip member each, charset from the name)."""
    out = tmp_path_factory.mktemp("text") / "pages.warc.gz"
    run_tool("langsift-warcgen", "--gzip", "--charset-from-name", *HTML, *TEXTS, "-o", out)
    return out


@pytest.mark.parametrize("main", [False, True], ids=["text", "main"])
def test_the_text_is_the_same_from_the_cli_python_and_langsift_text(pages_warc: Path, main: bool):
    flags = ["--main"] if main else []
    cli = lines(run_tool("langsift", "warc", "--text", *flags, pages_warc))
    plain = lines(run_tool("langsift", "warc", *flags, pages_warc))
    records = list(langsift.read_warc(pages_warc, text=True, main_content=main))
    assert [r.json for r in records] == cli
    files = HTML + TEXTS
    assert len(cli) == len(files)
    html_pages = 0
    for path, line, plain_line, rec in zip(files, cli, plain, records):
        doc = json.loads(line)
        text = doc.pop("text")
        # The same line as without --text (the same languages: the same pipeline), the text added.
        assert doc == json.loads(plain_line), path
        assert rec.text == text and rec.page.text == text
        body = path.read_bytes()
        ct = content_type_of(path)
        page = langsift.detect_page(body, content_type=ct, url=rec.url, main_content=main)
        assert page.text == text, path
        assert page.detection == rec.detection
        assert langsift.extract_text(body, content_type=ct, main=main) == text, path
        if page.is_html:
            # `langsift text` prints the HTML's text and a newline (nothing for no text).
            html_pages += 1
            out = run_tool("langsift", "text", *flags, "--content-type", ct, path).stdout.decode()
            assert out == (text + "\n" if text else ""), path
    assert html_pages >= len(HTML)
    assert sum(1 for r in records if r.page.is_html) == html_pages


def test_extract_text_arguments_and_answers():
    german = "<html><body><nav><a href=/a>Start</a> <a href=/b>Kontakt</a></nav><p>Die Kinder spielten im Garten, während " \
             "ihre Eltern kochten. Am Abend gingen alle spazieren.</p></body></html>"
    body = german.encode("windows-1252")
    assert langsift.extract_text(body, content_type="text/html; charset=windows-1252").endswith("Am Abend gingen alle spazieren.")
    assert "während" in langsift.extract_text(body)  # detected
    assert "Kontakt" in langsift.extract_text(body) and "Kontakt" not in langsift.extract_text(body, main=True)
    assert langsift.extract_text(bytearray(body)) == langsift.extract_text(memoryview(body)) == langsift.extract_text(body)
    # Not HTML: the decoded text as it is; not text: nothing.
    assert langsift.extract_text("<b>x</b>\n  y".encode(), content_type="text/plain") == "<b>x</b>\n  y"
    assert langsift.extract_text("Grüße".encode("utf-16")) == "Grüße"
    assert langsift.extract_text(b"\x89PNG\r\n\x1a\n" + bytes(range(32)) * 40) == ""
    assert langsift.extract_text(b"") == ""
    # No cap: a page over 16 MiB is read whole.
    big = b"<p>" + b"Der Stadtrat hat beschlossen. " * 700_000 + b"</p><p>ENDE</p>"
    assert len(big) > 16 << 20 and langsift.extract_text(big).endswith("ENDE")
    with pytest.raises(TypeError, match="extract_text"):
        langsift.extract_text("<p>str</p>")
    with pytest.raises(TypeError, match="extract_text"):
        langsift.extract_text(None)
    with pytest.raises(TypeError, match="content_type"):
        langsift.extract_text(b"x", content_type=3)
    with pytest.raises(TypeError, match="main"):
        langsift.extract_text(b"x", main="yes")


def test_page_result_text_is_kept_pickled_and_old_states_still_load():
    body = (SOURCE_DIR / "examples" / "pages" / "de-news.windows-1252.html").read_bytes()
    page = langsift.detect_page(body)
    assert page.text.startswith("Startseite") and "Radwege" in page.text
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(page, proto))
        assert back == page and back.text == page.text and hash(back) == hash(page)
    # Results read without their text: None (not '').
    rec = next(iter(langsift.read_warc(TEST_DATA / "warc" / "sample.warc.gz")))
    assert rec.text is None and rec.page.text is None
    assert pickle.loads(pickle.dumps(rec)).page.text is None
    # A PageResult pickled before the text existed (a 9-field state) loads, without text.
    make, (name, state) = page.__reduce_ex__(2)
    assert name == "PageResult" and len(state) == 10 and state[9] == page.text.encode()
    old = make(name, state[:9])
    assert old.text is None and old.detection == page.detection
    with pytest.raises(ValueError):
        make(name, state[:9] + ("not bytes",))


def test_corpus_schema_is_what_datatrove_and_dolma_read(pages_warc: Path):
    docs = [json.loads(line) for line in lines(run_tool("langsift", "warc", "--schema", "corpus", pages_warc))]
    plain = [json.loads(line) for line in lines(run_tool("langsift", "warc", "--text", pages_warc))]
    assert len(docs) == len(plain) == len(HTML) + len(TEXTS)
    ids = set()
    for doc, line in zip(docs, plain):
        # The fields; the rest of today's line in metadata (the record id, URI and language are the document's).
        assert list(doc) == ["id", "source", "url", "language", "language_score", "metadata", "text"]
        assert doc["id"] == line["record_id"] and doc["id"].startswith("<urn:uuid:")
        assert doc["source"] == str(pages_warc)
        assert doc["url"] == line["target_uri"] and doc["language"] == line["language"]
        assert doc["text"] == line["text"]
        assert isinstance(doc["language_score"], float) and 0 <= doc["language_score"] <= 1
        assert doc["language_score"] == pytest.approx(line["confidence"], abs=1e-3)  # until calibrated top-k
        rest = {k: v for k, v in line.items() if k not in ("record_id", "target_uri", "language", "text")}
        assert doc["metadata"] == rest
        ids.add(doc["id"])
        # datatrove's JsonlReader (readers/base.py, the default adapter): text, id, and the rest in metadata.
        d = dict(doc)
        adapted = {"text": d.pop("text", ""), "id": d.pop("id"), "media": d.pop("media", []),
                   "metadata": d.pop("metadata", {}) | d}
        assert adapted["text"] == line["text"] and adapted["metadata"]["language"] == line["language"]
        assert adapted["metadata"]["url"] == line["target_uri"] and "language_score" in adapted["metadata"]
        # Dolma's InputSpec (python/dolma/core/data_types.py): id, text and source, all str.
        assert all(isinstance(doc[k], str) for k in ("id", "text", "source"))
    assert len(ids) == len(docs)  # unique ids
    # read_warc(schema='corpus') yields the same documents.
    assert [r.json for r in langsift.read_warc(str(pages_warc), schema="corpus")] == \
        lines(run_tool("langsift", "warc", "--schema", "corpus", pages_warc))
    # A record without WARC-Record-ID still gets an id of its own: the input's name and the
    # record's place in the (uncompressed) data.
    warc = (b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHallo\r\n\r\n") * 2
    got = [json.loads(r.json)["id"] for r in langsift.read_warc(warc, schema="corpus")]
    assert got == ["<bytes>#0", f"<bytes>#{len(warc) // 2}"]


def test_languages_and_min_probability_yield_the_wanted_pages_and_count_the_others(pages_warc: Path):
    args = ["--languages", "de,rus,ja", "--min-probability", "0.8"]
    cli = lines(run_tool("langsift", "warc", *args, pages_warc))
    every = [json.loads(line) for line in lines(run_tool("langsift", "warc", pages_warc))]
    wanted = [json.dumps(d) for d in every if d["language"] in ("de", "ru", "ja") and d["confidence"] >= 0.8]
    assert len(cli) == len(wanted) >= 5
    assert [json.loads(x)["record_id"] for x in cli] == [json.loads(x)["record_id"] for x in wanted]
    reader = langsift.read_warc(pages_warc, languages=["deu", "ru", "ja"], min_probability=0.8)
    assert [r.json for r in reader] == cli
    assert reader.stats.filtered == len(every) - len(cli)
    assert reader.stats.pages == len(every)
    stats = run_tool("langsift", "warc", "--stats", *args, pages_warc).stdout.decode()
    assert reader.stats.to_tsv() == stats and f"total\tfiltered\t{len(every) - len(cli)}\n" in stats
    assert langsift.WarcStats.from_tsv(stats).filtered == len(every) - len(cli)
    # Checked as every code argument: ValueError naming the codes, with a suggestion.
    with pytest.raises(ValueError, match=r"languages: not a language of the model: 'de-DE' \(did you mean 'de'\?\), 'xx'"):
        langsift.read_warc(pages_warc, languages="de-DE xx")
    with pytest.raises(ValueError, match="languages is empty"):
        langsift.read_warc(pages_warc, languages=[])
    with pytest.raises(ValueError, match="min_probability"):
        langsift.read_warc(pages_warc, min_probability=1.5)
    with pytest.raises(ValueError, match="schema"):
        langsift.read_warc(pages_warc, schema="dolma")
    with pytest.raises(ValueError, match="all=True"):
        langsift.read_warc(pages_warc, all=True, schema="corpus")


def test_read_warc_reads_zstd_input_from_paths_bytes_and_file_objects(tmp_path: Path, pages_warc: Path):
    zst = tmp_path / "pages.warc.zst"
    run_tool("langsift-warcgen", "--zstd", "--charset-from-name", *HTML, *TEXTS, "-o", zst)

    def without_offsets(records) -> list[dict]:
        return [{k: v for k, v in r.to_dict().items() if k not in ("offset", "length")} for r in records]

    want = without_offsets(langsift.read_warc(pages_warc, text=True))
    data = zst.read_bytes()
    for source in (zst, str(zst), data, io.BytesIO(data), open(zst, "rb")):
        reader = langsift.read_warc(source, text=True, errors="raise")
        assert without_offsets(reader) == want
        assert reader.error_count == 0
    # The lines of the command line tool, offsets and lengths included (a frame per record).
    assert [r.json for r in langsift.read_warc(zst)] == lines(run_tool("langsift", "warc", zst))
    # Cut short: reported (a warning; with errors='raise', WarcFormatError), never a crash.
    with pytest.warns(langsift.WarcFormatWarning, match="zstd"):
        got = list(langsift.read_warc(data[: len(data) // 2]))
    assert 0 < len(got) < len(want)
    with pytest.raises(langsift.WarcFormatError):
        list(langsift.read_warc(data[: len(data) // 2], errors="raise"))
