"""The langsift Python package: known answers, the same results as the command-line tools, bad
input, models, WARC reading, the filter, the frontier, threads, pickling and the package's typing.

Run by ctest ("python: api") against the package in <build>/python, and by the venv install test
against the installed package.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import os
import pickle
import subprocess
import threading
import time
import warnings
from pathlib import Path

import pytest

import langsift
from conftest import SOURCE_DIR, TEST_DATA, run_tool

KNOWN = (TEST_DATA / "detect" / "known.txt").read_text(encoding="utf-8").splitlines()
WARC_DIR = TEST_DATA / "warc"
PAGES = sorted((SOURCE_DIR / "examples" / "pages").glob("*.html"))
GERMAN = "Der Stadtrat hat am Dienstagabend einen neuen Haushalt für Schulen und öffentliche Bibliotheken beschlossen."


def cli_jsonl(*args: object, check_status: int | None = 0) -> list[dict]:
    out = run_tool("langsift", *args, check_status=check_status).stdout.decode()
    return [json.loads(line) for line in out.splitlines() if line]


# ---- detect ------------------------------------------------------------------------------------


def test_detect_known_answers():
    d = langsift.detect(GERMAN)
    assert d.language == "de"
    assert d.languages[0].code == "de" and d.languages[0].percent == 100
    assert d.languages[0].bytes == d.text_bytes > 80
    assert d.reliable and d.is_short and d.status == "ok"
    assert 0.9 <= d.confidence <= 1.0
    assert langsift.detect("Le conseil municipal a approuvé un nouveau budget.").language == "fr"
    assert langsift.detect("東京は日本の首都です。").language == "ja"
    assert langsift.detect("").language == "und" and langsift.detect("").status == "empty_input"
    assert langsift.detect("1234 5678 !!!").languages == ()


def test_detect_equals_the_command_line_tool_field_for_field(tmp_path: Path):
    """to_dict() has the field names and values of `langsift detect --format jsonl`."""
    cli = cli_jsonl("detect", "--lines", "--format", "jsonl", TEST_DATA / "detect" / "known.txt")
    assert len(cli) == len(KNOWN) == 35
    for line, expected in zip(KNOWN, cli):
        assert langsift.detect(line).to_dict() == expected, line
    # ISO 639-3 on request: the same result with three-letter codes.
    d3 = langsift.detect(GERMAN, codes="iso639-3").to_dict()
    d1 = langsift.detect(GERMAN).to_dict()
    assert d3["language"] == "deu" and d3["languages"][0]["code"] == "deu"
    d3["language"], d3["languages"][0]["code"] = "de", "de"
    assert d3 == d1


def test_detect_page_equals_the_command_line_tool():
    assert len(PAGES) == 3
    cli = cli_jsonl("detect", "--format", "jsonl", *PAGES)
    for page, expected in zip(PAGES, cli):
        r = langsift.detect_page(page.read_bytes())
        expected.pop("file")
        assert r.to_dict() == expected, page.name
        assert r.is_html
    ja = langsift.detect_page((SOURCE_DIR / "examples/pages/ja-shop.shift_jis.html").read_bytes())
    assert (ja.language, ja.encoding, ja.encoding_source) == ("ja", "shift_jis", "detected")
    de = langsift.detect_page(
        "<p>Grüße aus München, wo heute die Sonne scheint und alle draußen sind.</p>".encode("iso-8859-1"),
        content_type="text/html; charset=iso-8859-1",
        url="http://example.de/",
    )
    assert (de.language, de.encoding, de.encoding_source) == ("de", "windows-1252", "http")
    text = langsift.detect_page(b"<p>hello</p>", content_type="text/plain", kind="sniff")
    assert not text.is_html
    binary = langsift.detect_page(bytes(range(256)) * 40)
    assert binary.detection.status == "binary_input" and binary.language == "und"


def test_probabilities_are_calibrated_descending_and_as_the_command_line_tool_prints_them():
    """detect(k=): Detection.probabilities, (code, p) of the k most probable languages."""
    d = langsift.detect(GERMAN, k=5)
    assert d.probabilities[0][0] == "de" and d.probabilities[0][1] > 0.9
    assert d.confidence == d.probabilities[0][1]
    ps = [p for _, p in d.probabilities]
    assert 1 <= len(ps) <= 5 and ps == sorted(ps, reverse=True) and all(0 < p <= 1 for p in ps) and sum(ps) <= 1
    assert all(isinstance(c, str) for c, _ in d.probabilities)
    # A short text written alike in Dutch and Afrikaans: spread between them.
    nl = dict(langsift.detect("Dit is een huis", k=3).probabilities)
    assert nl["nl"] < 0.9 and nl["af"] > 0.1
    # k=0 (the default): none; the confidence is the same.
    plain = langsift.detect(GERMAN)
    assert plain.probabilities == () and plain.confidence == d.confidence
    assert "probabilities" not in plain.to_dict() and "probabilities" not in repr(plain)
    # In the codes of the call; und has none.
    assert langsift.detect(GERMAN, k=1, codes="iso639-3").probabilities[0][0] == "deu"
    assert langsift.detect("12345", k=3).probabilities == ()
    # A text 60 % German, 40 % French: about 0.6 and 0.4, not 0.99.
    french = ("Le gouvernement français a annoncé hier une série de mesures pour soutenir les agriculteurs "
              "touchés par la sécheresse de cet été.")
    mixed = langsift.detect(GERMAN + " Die Opposition kritisierte den Entwurf als unzureichend und kündigte an, "
                            "im Bundesrat dagegen zu stimmen. " + french, k=2)
    share = mixed.languages[0].percent / 100
    assert mixed.language == "de" and 0.5 < share < 0.8, mixed
    assert abs(dict(mixed.probabilities)["de"] - share) < 0.05 and abs(dict(mixed.probabilities)["fr"] - (1 - share)) < 0.05
    # to_dict() equals the JSON line of `langsift detect --top-k K`.
    texts = [GERMAN, "Dit is een huis", "12345", KNOWN[0]]
    out = run_tool("langsift", "detect", "--lines", "--format", "jsonl", "--top-k", "3", input=("\n".join(texts) + "\n").encode())
    cli = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(cli) == len(texts) and cli[0]["probabilities"][0][0] == "de"
    for text, expected in zip(texts, cli):
        assert langsift.detect(text, k=3).to_dict() == expected, text
    # detect_many and detect_page take k too.
    many = langsift.detect_many([GERMAN, "Dit is een huis"], k=2)
    assert [m.probabilities for m in many] == [langsift.detect(t, k=2).probabilities for t in (GERMAN, "Dit is een huis")]
    page = langsift.detect_page(GERMAN.encode(), k=2)
    assert page.detection.probabilities == langsift.detect(GERMAN, k=2).probabilities
    # Values: equality, pickling and repr include them.
    assert pickle.loads(pickle.dumps(d)) == d and repr(pickle.loads(pickle.dumps(d))) == repr(d)
    assert langsift.detect(GERMAN, k=2) != langsift.detect(GERMAN, k=3) != plain
    assert "probabilities=(('de', 0.99" in repr(d)
    # k is 0..16.
    for bad in (17, -1):
        with pytest.raises(ValueError, match="k must be 0..16"):
            langsift.detect(GERMAN, k=bad)
    with pytest.raises(TypeError, match="k must be an int"):
        langsift.detect_many([GERMAN], k=1.5)
    with pytest.raises(ValueError, match="k must be 0..16"):
        langsift.detect_page(b"x", k=99)


def test_detection_pickles_made_before_probabilities_still_load():
    d = langsift.detect(GERMAN)
    fn, (old_state,) = d.__reduce__()
    assert len(old_state) == 10 and old_state[9] is None
    back = fn(old_state[:9])  # a state of 9 fields, as before #30
    assert back == d and back.probabilities == ()


def test_only_hints_and_codes():
    # A close pair: `only` and hints decide.
    assert langsift.detect("Dobar dan, kako ste danas?", only=["sr", "hr"]).language in ("hr", "sr-Latn", "sr")
    assert langsift.detect("tak", only="pl, cs").language in ("pl", "cs")
    assert langsift.detect("tak", only=["pol", "ces"]).language in ("pl", "cs")  # ISO 639-3 accepted
    d = langsift.detect("Hallo", hints={"content_language": "de", "weight": 2.0})
    assert d.language == "de"
    assert langsift.detect("Hallo", hints="nl").language == "nl"
    with pytest.raises(ValueError, match="not a language of the model: 'xx', 'qq'$"):
        langsift.detect("x", only=["de", "xx", "qq"])
    assert langsift.detect("ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ ᎠᏓᏅᏙ", only=["chr"]).language == "chr"  # decided by its script
    with pytest.raises(ValueError, match="only is empty"):
        langsift.detect("x", only=[])
    with pytest.raises(ValueError, match="unknown key 'lang'"):
        langsift.detect("x", hints={"lang": "de"})
    with pytest.raises(ValueError, match="codes must be"):
        langsift.detect("x", codes="iso639-2")
    with pytest.raises(ValueError, match="max_text_bytes"):
        langsift.detect("x", max_text_bytes=10)
    with pytest.raises(TypeError, match="only must hold str"):
        langsift.detect("x", only=[1])


def test_iso639_conversions():
    assert langsift.to_iso639_3("de") == "deu"
    assert langsift.to_iso639_3("zh-Hant") == "zho-Hant"
    assert langsift.to_iso639_1("deu") == "de"
    assert langsift.to_iso639_1("ceb") == "ceb"
    assert all(len(langsift.to_iso639_3(c).split("-")[0]) == 3 for c in langsift.languages())
    assert langsift.languages(codes="iso639-3")[:3] == ("afr", "amh", "ara")
    with pytest.raises(TypeError):
        langsift.to_iso639_3(b"de")


def test_bad_input_gets_a_clear_exception_or_status():
    with pytest.raises(TypeError, match="takes str, not bytes"):
        langsift.detect(b"bytes")
    with pytest.raises(TypeError, match="not None"):
        langsift.detect(None)
    with pytest.raises(TypeError, match="takes str, not int"):
        langsift.detect(42)
    with pytest.raises(TypeError, match="not str: for text use detect"):
        langsift.detect_page("a str")
    with pytest.raises(TypeError, match="not None"):
        langsift.detect_page(None)
    with pytest.raises(TypeError, match="content_type must be str"):
        langsift.detect_page(b"x", content_type=b"text/html")
    with pytest.raises(TypeError, match="not a single str"):
        langsift.detect_many("one text")
    with pytest.raises(TypeError, match="takes str, not bytes"):
        langsift.detect_many(["ok", b"not ok"])
    with pytest.raises(TypeError):
        langsift.classify_url(b"http://example.de/")
    with pytest.raises(ValueError, match="kind must be"):
        langsift.detect_page(b"x", kind="pdf")
    with pytest.raises(ValueError, match="not an encoding langsift can decode"):
        langsift.detect_page(b"x", encoding="no-such-charset")
    assert langsift.detect_page(GERMAN.encode("latin-1", "replace"), encoding="ISO-8859-1").encoding == "windows-1252"
    # Lone surrogates (which UTF-8 cannot hold) are replaced and said so.
    d = langsift.detect("Der Stadtrat hat \udc80 beschlossen, die Bibliothek zu erweitern.")
    assert d.language == "de" and d.status == "invalid_utf8"
    # Memoryview and bytearray bodies work (copied).
    assert langsift.detect_page(bytearray(GERMAN.encode())).language == "de"
    assert langsift.detect_page(memoryview(GERMAN.encode())).language == "de"


def test_huge_input_is_bounded_and_says_so():
    big = GERMAN * (langsift.MAX_INPUT_BYTES // len(GERMAN) + 1000)  # > 16 MiB of code points
    d = langsift.detect(big)
    assert d.language == "de" and d.status == "truncated" and d.sampled
    small_cap = langsift.detect(GERMAN * 100, max_input_bytes=1000)
    assert small_cap.status == "truncated" and small_cap.text_bytes <= 1000
    # A cut in the middle of a multi-byte character stays valid UTF-8.
    cut = langsift.detect("ü" * 1000, max_input_bytes=999)
    assert cut.status == "truncated"
    page = langsift.detect_page(GERMAN.encode() * 1000, max_input_bytes=5000)
    assert page.detection.status == "truncated"


# ---- detect_many and threads ---------------------------------------------------------------------


def test_detect_many_equals_detect_on_each_text():
    texts = KNOWN * 20
    one = [langsift.detect(t) for t in texts]
    for threads in (1, 2, 0):
        assert langsift.detect_many(texts, threads=threads) == one
    assert langsift.detect_many(iter(KNOWN[:3])) == one[:3]  # any iterable
    assert langsift.detect_many([]) == []
    three = langsift.detect_many(KNOWN[:3], codes="iso639-3")
    assert [d.language for d in three] == ["eng", "deu", "fra"]


def test_many_python_threads_share_the_model():
    texts = KNOWN * 10
    expected = [langsift.detect(t) for t in texts]
    results: dict[int, list] = {}

    def work(k: int) -> None:
        results[k] = [langsift.detect(t) for t in texts]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(8))


def test_long_calls_release_the_gil():
    """While detect_many works on a big batch, another Python thread keeps running."""
    docs = [GERMAN * 40] * 30000  # about half a second of detection
    started, done = threading.Event(), threading.Event()
    span = [0.0]

    def batch() -> None:
        started.set()
        t0 = time.perf_counter()
        langsift.detect_many(docs, threads=1)
        span[0] = time.perf_counter() - t0
        done.set()

    t = threading.Thread(target=batch)
    t.start()
    started.wait()
    first = last = time.perf_counter()
    while not done.is_set():
        last = time.perf_counter()
    t.join()
    # This thread gets the GIL back from started.wait() only when the batch releases it. A batch
    # that held the GIL throughout would leave it nothing to run before `done` (measured with a
    # GIL-holding regex of 0.68 s: 0.005 s of loop); released, the loop runs as long as the batch.
    assert span[0] > 0.1
    assert last - first > 0.5 * span[0]


# ---- results: repr, pickle, equality ----------------------------------------------------------


def test_results_have_repr_and_pickle_and_cannot_be_made_by_hand():
    d = langsift.detect(GERMAN)
    assert repr(d).startswith("Detection(language='de', languages=[Language(code='de', percent=100")
    assert repr(d.languages[0]).startswith("Language(code='de'")
    for obj in (d, d.languages[0], langsift.detect_page(GERMAN.encode())):
        back = pickle.loads(pickle.dumps(obj))
        assert repr(back) == repr(obj)
    assert pickle.loads(pickle.dumps(d)) == d
    page = langsift.detect_page(GERMAN.encode(), url="http://example.de/")
    assert "PageResult(language='de'" in repr(page)
    u = langsift.classify_url("http://www.lemonde.fr/politique/")
    assert repr(u).startswith("UrlResult(language='fr'")
    with pytest.raises(TypeError, match="cannot create"):
        langsift.Detection()
    with pytest.raises(TypeError, match="cannot create"):
        langsift.Language()


def value_examples() -> dict:
    """For every value type of the package: two equal values made apart, and a different one."""
    page = GERMAN.encode()
    url, url2 = "http://www.lemonde.fr/politique/", "https://www.spiegel.de/wirtschaft/"

    def frontier_decisions() -> list:
        f = langsift.Frontier()
        f.set_quota("de", 10)
        f.add_votes(langsift.detect(GERMAN * 5), ["http://example.org/a"])
        return [f.decide("http://example.org/a"), f.decide("http://example.org/a"), f.decide("http://example.org/b")]

    def records() -> list:
        return list(langsift.read_warc(WARC_DIR / "sample.warc", all=True))

    def stats(n: int) -> "langsift.WarcStats":
        reader = langsift.read_warc(WARC_DIR / "sample.warc")
        for _, _ in zip(range(n), reader):
            pass
        return reader.stats

    decisions = frontier_decisions()
    return {
        langsift.Detection: (langsift.detect(GERMAN, k=3), langsift.detect(GERMAN, k=3), langsift.detect(GERMAN)),
        langsift.Language: (langsift.detect(GERMAN).languages[0], langsift.detect(GERMAN).languages[0],
                            langsift.detect(KNOWN[0]).languages[0]),
        langsift.Span: (langsift.detect(GERMAN, spans=True).spans[0], langsift.detect(GERMAN, spans=True).spans[0],
                        langsift.detect(KNOWN[0], spans=True).spans[0]),
        langsift.PageResult: (langsift.detect_page(page), langsift.detect_page(page),
                              langsift.detect_page(page, content_type="text/plain; charset=latin1")),
        langsift.UrlResult: (langsift.classify_url(url), langsift.classify_url(url), langsift.classify_url(url2)),
        langsift.UrlLanguage: (langsift.classify_url(url).languages[0], langsift.classify_url(url).languages[0],
                               langsift.classify_url(url2).languages[0]),
        langsift.WarcRecord: (records()[1], records()[1], records()[2]),
        langsift.WarcStats: (stats(2), stats(2), stats(1)),
        langsift.FrontierDecision: tuple(decisions),
        langsift.FrontierGuess: (decisions[0].guesses[0], frontier_decisions()[0].guesses[0],
                                 decisions[0].guesses[1]),
        langsift.LanguageFilter: (langsift.LanguageFilter(labels=["de"], min_percent=50),
                                  langsift.LanguageFilter(labels="deu", min_percent=50),
                                  langsift.LanguageFilter(labels=["de"], min_bytes=0)),
    }


# Objects with a state that changes, or a resource: equal only to themselves, and not pickled
# (a Model by its path and Model.load, a Frontier by to_bytes/from_bytes or save/load).
RESOURCE_TYPES = {langsift.Model, langsift.Frontier, langsift.WarcReader}
MUTABLE_VALUE_TYPES = {langsift.WarcStats}  # equal by value, pickled, not hashable
EXCEPTION_TYPES = {langsift.LangsiftError, langsift.ModelError, langsift.WarcFormatError, langsift.WarcFormatWarning}


def test_every_type_is_a_value_a_resource_or_an_exception():
    """Every class the package exposes is classified below: a new type must say what it is."""
    classes = {v for k in langsift.__all__ if isinstance(v := getattr(langsift, k), type)}
    values = set(value_examples())
    assert classes == values | RESOURCE_TYPES | EXCEPTION_TYPES
    assert not values & RESOURCE_TYPES and MUTABLE_VALUE_TYPES <= values


@pytest.mark.parametrize("kind", sorted(value_examples(), key=lambda t: t.__name__), ids=lambda t: t.__name__)
def test_values_compare_hash_pickle_and_copy_by_value(kind: type):
    a, b, other = value_examples()[kind]
    assert type(a) is type(b) is type(other) is kind and a is not b
    assert a == b and not (a != b) and a != other and not (a == other)
    assert a != object() and a != None  # noqa: E711 -- other types are unequal, not an error
    if kind in MUTABLE_VALUE_TYPES:
        with pytest.raises(TypeError, match="unhashable"):
            hash(a)
    else:
        assert hash(a) == hash(b) and len({a, b, other}) == 2
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(a, protocol))
        assert type(back) is kind and back == a and repr(back) == repr(a), protocol
    for c in (copy.copy(a), copy.deepcopy(a)):
        assert type(c) is kind and c == a and repr(c) == repr(a)
    if hasattr(a, "to_dict"):
        assert pickle.loads(pickle.dumps(a)).to_dict() == a.to_dict()


def test_resources_are_equal_to_themselves_only_and_not_pickled():
    wide = langsift.Model.builtin("wide")
    objects = [langsift.Model.builtin(), wide, langsift.Frontier(), langsift.read_warc(WARC_DIR / "sample.warc")]
    assert {type(o) for o in objects} == RESOURCE_TYPES
    assert langsift.Model.builtin("wide") is wide  # one object per built-in model
    for o in objects:
        assert o == o and not (o != o)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # 0 and 1 aborted the interpreter
            with pytest.raises(TypeError, match="cannot pickle a langsift"):
                pickle.dumps(o, protocol)
        with pytest.raises(TypeError, match="cannot pickle"):
            copy.copy(o)
    assert langsift.Frontier() != langsift.Frontier()


def test_exceptions_pickle_with_their_status_and_offset():
    with pytest.raises(langsift.ModelError) as e:
        langsift.Model.load(b"not a model")
    with pytest.raises(langsift.WarcFormatError) as w:
        list(langsift.read_warc(b"garbage\r\n\r\n", errors="raise"))
    for err in (e.value, w.value):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and back.status == err.status
    assert pickle.loads(pickle.dumps(w.value)).offset == w.value.offset == 0


def test_result_strings_from_the_input_are_decoded_as_the_json_lines_are():
    """WARC headers and a declared charset need not be UTF-8: their bytes that are not become U+FFFD
    (as in `json`), where reading the attribute raised UnicodeDecodeError."""
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\xff\r\n\r\n<p>" + GERMAN.encode() + b"</p>"
    record = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.de/\xff'\r\n"
              b"WARC-Record-ID: <urn:\xfe>\r\nContent-Type: application/http; msgtype=response\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body) + body + b"\r\n\r\n")
    (r,) = langsift.read_warc(record)
    d = r.to_dict()
    assert r.url == d["target_uri"] == "http://a.de/\ufffd'" and r.record_id == d["record_id"] == "<urn:\ufffd>"
    assert r.content_type == d["content_type"] == "text/html; charset=\ufffd"
    assert repr(r).startswith("WarcRecord(offset=0, warc_type='response', url=\"http://a.de/\ufffd'\"")
    assert r.page.declared_encoding == "\ufffd" and r.language == "de"
    assert pickle.loads(pickle.dumps(r)) == r


# ---- URLs --------------------------------------------------------------------------------------


def test_classify_url_known_answers_and_the_command_line_tool(tmp_path: Path):
    urls = ["http://www.lemonde.fr/politique/", "https://www.spiegel.de/wirtschaft/", "http://example.com/es/noticias/",
            "https://www.bbc.co.uk/news", "http://www.corriere.it/"]
    got = [langsift.classify_url(u) for u in urls]
    assert [g.language for g in got] == ["fr", "de", "es", "en", "it"]
    assert got[2].decision == "pattern"
    (tmp_path / "urls.txt").write_text("\n".join(urls) + "\n")
    cli = run_tool("langsift", "url", "--lines", "--format", "code", tmp_path / "urls.txt").stdout.decode().split()
    assert cli == [g.language for g in got]
    assert langsift.classify_url("http://www.lemonde.fr/", codes="iso639-3").language == "fra"
    assert langsift.classify_url("").status == "empty_input"
    with pytest.raises(ValueError, match="two-letter"):
        langsift.classify_url("http://x.de/", country="DEU")
    assert langsift.classify_url("http://example.com/", country="DE").to_dict()["language"] == "de"


# ---- models ------------------------------------------------------------------------------------


def test_models_load_from_files_and_bytes_and_corrupt_ones_raise(tmp_path: Path):
    builtin = langsift.Model.builtin()
    assert builtin.is_builtin and len(builtin.languages) >= 100 and "de" in builtin.languages
    path = SOURCE_DIR / "models" / "default.lsm"
    from_file = langsift.Model.load(path)
    from_str = langsift.Model.load(str(path))
    from_bytes = langsift.Model.load(path.read_bytes())
    for m in (from_file, from_str, from_bytes):
        assert m.languages == builtin.languages and m.checksum == builtin.checksum and not m.is_builtin
        assert langsift.detect(GERMAN, model=m) == langsift.detect(GERMAN)
        assert langsift.detect_many(KNOWN, model=m) == langsift.detect_many(KNOWN)
    data = path.read_bytes()
    truncated = tmp_path / "truncated.lsm"
    truncated.write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0x40
    for bad, status in ((truncated, "corrupt_model"), (bytes(flipped), "corrupt_model"), (b"", "corrupt_model"),
                        (b"not a model at all", "corrupt_model"), (tmp_path / "missing.lsm", "io_error")):
        with pytest.raises(langsift.ModelError) as e:
            langsift.Model.load(bad)
        assert e.value.status == status
        assert isinstance(e.value, OSError) and isinstance(e.value, langsift.LangsiftError)
    with pytest.raises(TypeError, match="path"):
        langsift.Model.load(12)


def test_builtin_models_by_name():
    assert langsift.Model.builtin_names() == ("default", "wide")
    default = langsift.Model.builtin("default")
    assert default.is_builtin and default.checksum == langsift.Model.builtin().checksum
    wide = langsift.Model.builtin("wide")
    assert wide.is_builtin and len(wide.languages) >= 200 and "fo" in wide.languages
    assert "fo" not in default.languages and set(default.languages) <= set(wide.languages)
    assert langsift.Model.builtin("wide") is wide  # one object, parsed once
    assert wide.checksum == langsift.Model.load(SOURCE_DIR / "models" / "wide.lsm").checksum
    faroese = "Eingin skal liva í trældómi ella trælkan; trældómur og trælahandil av øllum slag skulu verða bannað."
    assert langsift.detect(faroese, model=wide).language == "fo"
    assert langsift.detect(faroese).language != "fo"
    assert langsift.detect(GERMAN, model=wide).language == "de"
    for bad in ("Wide", "", "models/wide.lsm", "builtin:wide"):
        with pytest.raises(ValueError, match="no built-in model named .*default, wide"):
            langsift.Model.builtin(bad)
    with pytest.raises(TypeError):
        langsift.Model.builtin(3)


# ---- WARC --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sample.warc", "sample.warc.gz"])
def test_read_warc_gives_the_lines_and_stats_of_the_command_line_tool(name: str):
    path = WARC_DIR / name
    cli = run_tool("langsift", "warc", path).stdout.decode().splitlines()
    records = list(langsift.read_warc(path))
    assert [r.json for r in records] == cli
    assert [r.to_dict() for r in records] == [json.loads(line) for line in cli]
    cli_all = run_tool("langsift", "warc", "--all", path).stdout.decode().splitlines()
    assert [r.json for r in langsift.read_warc(path, all=True)] == cli_all
    reader = langsift.read_warc(path)
    for _ in reader:
        pass
    assert reader.stats.to_tsv() == run_tool("langsift", "warc", "--stats", path).stdout.decode()
    assert reader.errors == []
    # Records: URL, record id, offset, page result.
    first = records[0]
    assert first.url == "http://bibliothek.example.de/" and first.record_id == "<urn:uuid:fixture-0002>"
    assert first.http_status == 200 and first.language == "de" and first.page.encoding == "utf-8"
    assert first.offset == json.loads(cli[0])["offset"]
    assert first.length == json.loads(cli[0])["length"] and first.length > 0
    assert "WarcRecord(offset=" in repr(first)


def test_read_warc_sources_paths_files_bytes_and_gzip_streams():
    plain = WARC_DIR / "sample.warc"
    expected = [r.json for r in langsift.read_warc(plain)]
    with open(plain, "rb") as f:
        assert [r.json for r in langsift.read_warc(f)] == expected
    assert [r.json for r in langsift.read_warc(plain.read_bytes())] == expected
    assert [r.json for r in langsift.read_warc(io.BytesIO(plain.read_bytes()))] == expected
    # A gzip stream decompressed by Python is a plain WARC (offsets are of the plain stream).
    with gzip.open(WARC_DIR / "sample.warc.gz", "rb") as f:
        assert [r.to_dict()["target_uri"] for r in langsift.read_warc(f)] == [json.loads(j)["target_uri"] for j in expected]
    with langsift.read_warc(str(plain)) as reader:
        assert next(reader).url == "http://bibliothek.example.de/"
    with pytest.raises(FileNotFoundError):
        langsift.read_warc(WARC_DIR / "missing.warc")
    with open(plain, "r", encoding="latin-1") as text_file:
        with pytest.raises(TypeError, match="binary mode"):
            langsift.read_warc(text_file)
    with pytest.raises(TypeError):
        langsift.read_warc(None)
    with pytest.raises(ValueError, match="errors must be"):
        langsift.read_warc(plain, errors="loud")


def wet_record(uri: str, text: str) -> bytes:
    block = text.encode("utf-8")
    head = (f"WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: {uri}\r\n"
            f"WARC-Record-ID: <urn:uuid:{abs(hash(uri)):032x}>\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def test_read_warc_reads_wet_files_plain_and_gzip(tmp_path: Path):
    """WET: conversion records of extracted text, as Common Crawl publishes them."""
    texts = {"http://example.org/de": GERMAN, "http://example.org/en": KNOWN[0], "http://example.org/fr": KNOWN[2]}
    records = [wet_record(u, t) for u, t in texts.items()]
    plain = tmp_path / "x.warc.wet"
    plain.write_bytes(b"".join(records))
    gz = tmp_path / "x.warc.wet.gz"
    gz.write_bytes(b"".join(gzip.compress(r) for r in records))
    for path in (plain, gz):
        got = list(langsift.read_warc(path))
        assert [(r.warc_type, r.url, r.language) for r in got] == [
            ("conversion", u, lang) for u, lang in zip(texts, ("de", "en", "fr"))]
        assert not got[0].page.is_html and got[0].http_status is None
        assert [r.json for r in got] == run_tool("langsift", "warc", path).stdout.decode().splitlines()


def test_read_warc_reports_malformed_input():
    bad = WARC_DIR / "bad.warc.gz"
    cli = run_tool("langsift", "warc", bad, check_status=3)
    cli_errors = [line.split(": offset ")[1] for line in cli.stderr.decode().splitlines()]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = langsift.read_warc(bad)
        lines = [r.json for r in reader]
    assert lines == cli.stdout.decode().splitlines()
    assert [f"{o}: {m}" for o, m in reader.errors] == cli_errors
    assert len(caught) == len(cli_errors) and all(issubclass(w.category, langsift.WarcFormatWarning) for w in caught)
    assert reader.stats.malformed == len(cli_errors)
    assert reader.stats.to_tsv() == run_tool("langsift", "warc", "--stats", bad, check_status=3).stdout.decode()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = langsift.read_warc(bad, errors="ignore")
        assert [r.json for r in quiet] == lines and len(quiet.errors) == len(cli_errors)
    with pytest.raises(langsift.WarcFormatError) as e:
        list(langsift.read_warc(bad, errors="raise"))
    assert e.value.offset == int(cli_errors[0].split(":")[0]) and isinstance(e.value, ValueError)
    # A gzip file cut short: reported, not silently shorter.
    data = (WARC_DIR / "sample.warc.gz").read_bytes()
    cut = langsift.read_warc(data[:-6], errors="ignore")
    assert len(list(cut)) == len(list(langsift.read_warc(data))) and "truncated" in cut.errors[-1][1]


def test_read_warc_propagates_errors_of_the_file_object():
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        list(langsift.read_warc(Failing()))


def test_read_warc_keeps_the_first_100_problems_and_counts_them_all():
    """36 MB of bare `WARC/1.0` lines kept 3 M (offset, message) tuples (604 MB RSS): now the
    first 100, a count, and with errors='warn' 100 warnings and one summary."""
    import tracemalloc

    junk = b"WARC/1.0\r\n\r\n" * 20_000
    tracemalloc.start()
    reader = langsift.read_warc(junk, errors="ignore")
    assert list(reader) == []
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1_000_000, peak  # was 20,000 tuples and messages: ~4 MB
    assert len(reader.errors) == 100 and reader.error_count == 20_000 == reader.stats.malformed
    assert reader.errors[0] == (0, "WARC record without Content-Length") and reader.errors[99][0] == 99 * 12
    assert "errors=20000" in repr(reader)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = langsift.read_warc(junk)
        assert list(reader) == []
    assert len(caught) == 101 and all(w.category is langsift.WarcFormatWarning for w in caught)
    assert str(caught[99].message) == "<bytes>: offset 1188: WARC record without Content-Length"
    assert str(caught[100].message).startswith("<bytes>: ... and 19900 more problems, not warned one by one")
    # Closed before the end: the summary comes at close(), once.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = langsift.read_warc(junk + (WARC_DIR / "sample.warc").read_bytes())
        next(reader)
        reader.close()
        reader.close()
    assert len(caught) == 101 and "19900 more problems" in str(caught[-1].message)
    # errors='raise': the first problem, then reading says it has stopped.
    reader = langsift.read_warc(junk, errors="raise")
    with pytest.raises(langsift.WarcFormatError):
        next(reader)
    assert reader.error_count == 1 and len(reader.errors) == 1
    with pytest.raises(ValueError, match="reading stopped at an earlier error"):
        next(reader)


class Chunks(io.RawIOBase):
    """A stream whose read(n) returns `make(chunk)` for chunks of n * factor bytes (more than asked)."""

    def __init__(self, data: bytes, factor: float, make=bytes):
        self.data, self.pos, self.factor, self.make = data, 0, factor, make

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1):
        k = max(1, int(n * self.factor))
        chunk = self.data[self.pos:self.pos + k]
        self.pos += len(chunk)
        return self.make(chunk)


def test_read_warc_file_objects_may_return_any_bytes_like_object_of_any_length(tmp_path: Path):
    """More than n bytes from read(n) were dropped (988 of 1000 gzip records read, blamed on the
    data); a bytearray raised a confusing TypeError; None ended the stream as if it were the end."""
    records = [wet_record(f"http://example.org/{i}", KNOWN[i % 3]) for i in range(1000)]
    plain = b"".join(records)
    gz = b"".join(gzip.compress(r) for r in records)
    for data in (plain, gz):
        expected = [r.json for r in langsift.read_warc(data)]
        assert len(expected) == 1000
        for factor in (0.3, 1, 1.7, 40):
            for make in (bytes, bytearray, memoryview):
                reader = langsift.read_warc(Chunks(data, factor, make))
                assert [r.json for r in reader] == expected, (factor, make)
                assert reader.errors == [] and reader.input_bytes == len(data)

    class NonBlocking(Chunks):
        def read(self, n: int = -1):
            return None if self.pos > 3000 else super().read(n)

    reader = langsift.read_warc(NonBlocking(plain, 0.01))
    with pytest.raises(BlockingIOError, match="returned None .* needs a blocking stream"):
        list(reader)
    with pytest.raises(ValueError, match="reading stopped at an earlier error \\(BlockingIOError\\)"):
        next(reader)


def test_model_and_frontier_state_that_never_end_are_refused_at_once(tmp_path: Path):
    """Model.load("/dev/zero") reached 7.5 GB and still ran at 120 s: refused at its first bytes."""
    t0 = time.monotonic()
    with pytest.raises(langsift.ModelError) as e:
        langsift.Model.load("/dev/zero")
    assert e.value.status == "corrupt_model" and "/dev/zero" in str(e.value)
    with pytest.raises(langsift.LangsiftError) as e:
        langsift.Frontier().load("/dev/zero")
    assert e.value.status == "corrupt_state" and "/dev/zero" in str(e.value)
    # A FIFO fed zeros without end (another code path than a device: not seekable, no size).
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    for load, error in ((langsift.Model.load, langsift.ModelError), (langsift.Frontier().load, langsift.LangsiftError)):
        feeder = subprocess.Popen(["sh", "-c", f"exec cat /dev/zero > '{fifo}'"], stderr=subprocess.DEVNULL)
        try:
            with pytest.raises(error, match="endless"):
                load(fifo)
        finally:
            feeder.kill()
            feeder.wait()
    assert time.monotonic() - t0 < 10


def test_docstrings_say_what_the_arguments_are():
    assert f"{len(langsift.Model.builtin('wide').languages)} languages" in langsift.Model.builtin.__doc__
    assert "231 languages" in langsift.Model.builtin.__doc__
    doc = " ".join(langsift.read_warc.__doc__.split())
    assert "a path (str, bytes" not in doc and "the WARC itself as bytes" in doc


def test_warc_stats_merge_and_round_trip():
    a = langsift.read_warc(WARC_DIR / "sample.warc")
    b = langsift.read_warc(WARC_DIR / "bad.warc.gz", errors="ignore")
    for _ in a:
        pass
    for _ in b:
        pass
    both = run_tool("langsift", "warc", "--stats", WARC_DIR / "sample.warc", WARC_DIR / "bad.warc.gz", check_status=3)
    total = a.stats + b.stats
    assert total.to_tsv() == both.stdout.decode()
    merged = langsift.WarcStats()
    merged.merge(a.stats)
    merged += b.stats
    assert merged == total
    assert langsift.WarcStats.from_tsv(total.to_tsv()) == total
    assert langsift.WarcStats.from_tsv(a.stats.to_tsv() + b.stats.to_tsv()) == total  # concatenated tables add up
    assert pickle.loads(pickle.dumps(total)) == total
    assert total.records == a.stats.records + b.stats.records
    assert total.languages["de"][0] >= 1 and ("de", "utf-8") in total.language_encodings
    with pytest.raises(ValueError, match="line 1"):
        langsift.WarcStats.from_tsv("language\tde\tmany\t1\n")
    # A sum past 2**64 - 1 is refused with nothing added, as `langsift warc --merge-stats` refuses it.
    big = langsift.WarcStats.from_tsv(f"total\trecords\t{2**64 - 1}\n")
    before = merged.to_tsv()
    for op in (lambda: merged.merge(big), lambda: merged + big):
        with pytest.raises(OverflowError, match="2\\*\\*64"):
            op()
    with pytest.raises(OverflowError):
        merged += big
    assert merged.to_tsv() == before


# ---- filter and frontier -----------------------------------------------------------------------


def test_language_filter():
    mixed = langsift.detect(GERMAN + " " + KNOWN[0] * 2)
    assert {l.code for l in mixed.languages} == {"de", "en"}
    assert langsift.LanguageFilter()(mixed)
    assert langsift.LanguageFilter(labels=["de"]).keep(mixed)
    assert langsift.LanguageFilter(labels="deu").keep(mixed)
    assert not langsift.LanguageFilter(labels=["fr"]).keep(mixed)
    assert not langsift.LanguageFilter(labels=["de"], min_percent=90).keep(mixed)
    assert langsift.LanguageFilter(min_bytes=10, max_bytes=10**6).keep(mixed)
    assert not langsift.LanguageFilter(min_bytes=10**6).keep(mixed)
    f = langsift.LanguageFilter.from_config({
        "filter.lang.enable": "true", "filter.lang.label.enable": "true", "filter.lang.label": "de, nl",
        "filter.lang.minPercentage.limit.enable": "true", "filter.lang.minPercentage.limit": "30"})
    assert f.labels == ["de", "nl"] and f.min_percent == 30 and f.min_bytes is None
    assert not langsift.LanguageFilter.from_config({"filter.lang.label.enable": "true"}).enabled
    with pytest.raises(ValueError, match="must be 0..100"):
        langsift.LanguageFilter(min_percent=101)
    with pytest.raises(ValueError, match="enabled but empty"):
        langsift.language_filter_from_config({"filter.lang.enable": "true", "filter.lang.label.enable": "true"})
    assert repr(f).startswith("LanguageFilter(labels=['de', 'nl']")


def test_codes_code_styles_and_filter_configuration_are_read_by_the_library():
    """#34: Python, the C ABI, Java and the tools each had a copy of these rules, and they drifted. Now
    the library reads them (langsift/options.hpp): a code's case does not matter ("zh-hant" named no
    language here, while Java's filter ignored case), and the filter configuration is the reader the
    C ABI and Java use."""
    zh = langsift.detect("我們是學生，我們喜歡讀書。")
    assert zh.language == "zh-Hant"
    for given in ("zh-hant", "ZH-HANT", "zho-hant"):
        f = langsift.LanguageFilter(labels=given)
        assert f.labels == ["zh-Hant"] and f.keep(zh)
        assert langsift.detect("我們是學生，我們喜歡讀書。", only=[given, "ja"]).language == "zh-Hant"
        assert langsift.to_iso639_1(given) == "zh-Hant" and langsift.to_iso639_3(given) == "zho-Hant"
    assert langsift.LanguageFilter(labels="de\nnl\tfr").labels == ["de", "nl", "fr"]
    # The configuration: any value is read as its str(); a number enabled and missing says so.
    f = langsift.LanguageFilter.from_config({
        "filter.lang.enable": True, "filter.lang.label.enable": "TRUE", "filter.lang.label": "deu\tZH-hant",
        "filter.lang.minPercentage.limit.enable": True, "filter.lang.minPercentage.limit": 30})
    assert f.labels == ["de", "zh-Hant"] and f.min_percent == 30 and f.keep(zh)
    assert langsift.language_filter_from_config(lambda key: None) == langsift.LanguageFilter()
    with pytest.raises(ValueError, match="^filter.lang.minSize.bytes is enabled but not set$"):
        langsift.LanguageFilter.from_config({"filter.lang.enable": "true", "filter.lang.minSize.bytes.enable": "true"})
    with pytest.raises(ValueError, match="^filter.lang.maxSize.bytes: not a number: 'many'$"):
        langsift.LanguageFilter.from_config({"filter.lang.enable": "true", "filter.lang.maxSize.bytes.enable": "true",
                                             "filter.lang.maxSize.bytes": "many"})
    with pytest.raises(KeyError):  # what the configuration raises goes through
        langsift.LanguageFilter.from_config(lambda key: {}[key])
    with pytest.raises(TypeError, match="conf must be a mapping or a function"):
        langsift.LanguageFilter.from_config(3)
    # Code styles by the library's names, everywhere codes= is taken; languages() takes a model's name.
    wide = langsift.Model.builtin("wide")
    assert langsift.languages("wide", codes="639-3") == tuple(langsift.to_iso639_3(c) for c in wide.languages)
    assert langsift.languages(codes="iso639_1") == langsift.Model.builtin().languages
    for bad in ("iso639-2", "ISO639-1", ""):
        with pytest.raises(ValueError, match=f"^codes must be 'iso639-1' or 'iso639-3', not '{bad}'$"):
            langsift.languages(codes=bad)


def test_language_filter_min_probability_keeps_pages_whose_top_language_is_that_probable():
    sure, unsure = langsift.detect(GERMAN), langsift.detect("Dit is een huis")
    f = langsift.LanguageFilter(min_probability=0.9)
    assert f.enabled and f.min_probability == 0.9
    assert f.keep(sure) and not f.keep(unsure)
    assert langsift.LanguageFilter(min_probability=0.5).keep(unsure)
    # Only the top language passes: a secondary one never does.
    mixed = langsift.detect(GERMAN + " " + KNOWN[0] * 2)
    top, second = (l.code for l in mixed.languages)
    assert {top, second} == {"de", "en"}
    assert not langsift.LanguageFilter(labels=[second], min_probability=0.01).keep(mixed)
    assert langsift.LanguageFilter(labels=[second]).keep(mixed)
    assert langsift.LanguageFilter(labels=[top], min_probability=0.01).keep(mixed)
    assert not langsift.LanguageFilter(min_probability=0.0).keep(langsift.detect("12345"))  # und
    assert repr(f).endswith(", min_percent=None, min_probability=0.9)")
    back = pickle.loads(pickle.dumps(f))
    assert back == f and back.min_probability == 0.9 and back.keep(sure) and not back.keep(unsure)
    assert f != langsift.LanguageFilter(min_probability=0.8) and langsift.LanguageFilter().min_probability is None
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(ValueError, match="min_probability must be 0..1"):
            langsift.LanguageFilter(min_probability=bad)
    with pytest.raises(TypeError, match="min_probability must be a number"):
        langsift.LanguageFilter(min_probability="0.9")


def filter_config(labels: str) -> dict:
    return {"filter.lang.enable": "true", "filter.lang.label.enable": "true", "filter.lang.label": labels}


def test_language_codes_are_checked_wherever_they_come_in():
    """A code that names no language was accepted by the filter and the frontier, and then dropped
    every page (or counted nothing): refused as `only` refuses it, with a suggestion."""
    for labels, bad in ((["de-DE"], r"'de-DE' \(did you mean 'de'\?\)"), ("de, ger", r"'ger' \(did you mean 'de'\?\)"),
                        (["und"], r"'und'$"), (["German", "xx"], r"'German' \(did you mean 'de'\?\), 'xx'$")):
        with pytest.raises(ValueError, match="^labels: not a language langsift knows: " + bad):
            langsift.LanguageFilter(labels=labels)
    for labels in ("ger", "german"):
        with pytest.raises(ValueError, match=f"^filter.lang.label: not a language langsift knows: '{labels}' "
                                             r"\(did you mean 'de'\?\)"):
            langsift.LanguageFilter.from_config(filter_config(labels))
    # Known: either ISO form, a script variant, a wide-model language (fo), one a script decides (chr).
    f = langsift.LanguageFilter(labels=["deu", "zho-Hant", "sr-Latn", "fo", "chr"])
    assert f.labels == ["de", "zh-Hant", "sr-Latn", "fo", "chr"]
    assert langsift.LanguageFilter.from_config(filter_config("de fo")).labels == ["de", "fo"]
    frontier = langsift.Frontier()
    for call in (lambda c: frontier.set_quota(c, 10), frontier.quota, frontier.saturated, frontier.count_page,
                 lambda c: frontier.vote("http://example.org/", c)):
        with pytest.raises(ValueError, match=r"^code: not a language langsift knows: 'German' \(did you mean 'de'\?\)"):
            call("German")
        with pytest.raises(ValueError, match="^code: not a language langsift knows: 'und'"):
            call("und")
    assert frontier.quotas() == {} and frontier.votes("http://example.org/") == {}
    frontier.set_quota("fao", 5)  # Faroese, ISO 639-3 form
    assert frontier.quotas() == {"fo": (5, 0)}
    # Hints are codes of the call's model, checked as `only` is; header values are not codes.
    with pytest.raises(ValueError, match=r"^hints: not a language of the model: 'german' \(did you mean 'de'\?\)"):
        langsift.detect("Hallo", hints="german")
    with pytest.raises(ValueError, match=r"^hints: not a language of the model: 'fo'"):  # a wide-model language
        langsift.detect("Hallo", hints={"languages": ["de", "fo"]})
    assert langsift.detect("Hallo", hints="fo", model=langsift.Model.builtin("wide")).status == "ok"
    with pytest.raises(ValueError, match=r"^only: not a language of the model: 'de-DE' \(did you mean 'de'\?\)"):
        langsift.detect("Hallo", only="de-DE")
    assert langsift.detect("Hallo", hints={"content_language": "de-DE, en;q=0.5", "html_lang": "x-klingon"}).language == "de"
    assert langsift.detect("Hallo", hints={"content_language": ["de-DE", "en"], "tld": None}).language == "de"


def test_a_trained_models_codes_are_accepted_when_it_is_given(tmp_path: Path):
    """A code only a trained model knows ("qaa", ISO 639's range for local use) is accepted by the
    filter and the frontier given that model, and refused without it."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "qaa.txt").write_bytes((TEST_DATA / "corpus" / "de.txt").read_bytes())
    (corpus / "en.txt").write_bytes((TEST_DATA / "corpus" / "en.txt").read_bytes())
    run_tool("langsift-train", "-q", "--min-count", "1", corpus, "-o", tmp_path / "qaa.lsm")
    m = langsift.Model.load(tmp_path / "qaa.lsm")
    assert "qaa" in m.languages and langsift.detect(GERMAN, model=m).language == "qaa"
    with pytest.raises(ValueError, match="'qaa'"):
        langsift.LanguageFilter(labels=["qaa"])
    keep = langsift.LanguageFilter(labels=["qaa"], model=m)
    assert keep(langsift.detect(GERMAN, model=m)) and not keep(langsift.detect(GERMAN))
    assert pickle.loads(pickle.dumps(keep)) == keep  # unpickled as it was accepted
    assert langsift.LanguageFilter.from_config(filter_config("qaa"), model=m) == keep
    with pytest.raises(ValueError, match="not a language of the built-in models or of the given model: 'qab'"):
        langsift.LanguageFilter(labels=["qab"], model=m)
    with pytest.raises(ValueError, match="'qaa'"):
        langsift.Frontier().set_quota("qaa", 1)
    f = langsift.Frontier(model=m)
    f.set_quota("qaa", 1)
    assert f.record_fetch("http://example.org/", langsift.detect(GERMAN, model=m)) and f.saturated("qaa")
    with pytest.raises(TypeError, match="model must be a langsift.Model, a built-in model's name .* or None, not int"):
        langsift.LanguageFilter(labels=["de"], model=3)  # a name ("wide") or a path is a model: test_model_names.py


def test_bad_arguments_raise_type_or_value_errors_naming_them():
    """A lone surrogate in a str argument or an int beyond 2**64 raised RuntimeError ("Unable to cast");
    a negative int, a float, None: pybind11's TypeError that names no argument."""
    cases = [
        (lambda: langsift.detect_page(b"x", content_type="\ud800"), ValueError, "content_type: a lone surrogate"),
        (lambda: langsift.detect_page(b"x", url="a\udfffb"), ValueError, r"url: a lone surrogate \(U\+DFFF at index 1\)"),
        (lambda: langsift.classify_url("http://a.de/", country="\ud800"), ValueError, "country: a lone surrogate"),
        (lambda: langsift.LanguageFilter(min_bytes=2**64), ValueError, "min_bytes must be under 2"),
        (lambda: langsift.LanguageFilter(max_bytes=-1), ValueError, "max_bytes must be >= 0, not -1"),
        (lambda: langsift.LanguageFilter(min_percent=50.0), TypeError, "min_percent must be an int or None, not float"),
        (lambda: langsift.detect_many(["x"], threads=-1), ValueError, "threads must be 0..4294967295, not -1"),
        (lambda: langsift.detect("x", max_text_bytes=None), TypeError, "max_text_bytes must be an int, not NoneType"),
        (lambda: langsift.detect("x", max_input_bytes=2.0), TypeError, "max_input_bytes must be an int, not float"),
        (lambda: langsift.detect("x", codes="\ud800"), ValueError, "codes: a lone surrogate"),
        (lambda: langsift.detect("x", model=b"wide"), TypeError, "model must be a langsift.Model, .* or None, not bytes"),
        (lambda: langsift.detect("x", hints={"weight": float("nan")}), ValueError, r"hints\['weight'\] must be 0..100, not nan"),
        (lambda: langsift.detect("x", hints={"weight": "2"}), TypeError, r"hints\['weight'\] must be a number"),
        (lambda: langsift.detect("x", hints={1: "de"}), TypeError, "hints: keys must be str, not int"),
        (lambda: langsift.detect_page(b"x", main_content=None), TypeError, "main_content must be a bool, not NoneType"),
        (lambda: langsift.Frontier(url_weight=float("nan")), ValueError, "url_weight must be 0..1e"),
        (lambda: langsift.Frontier(max_urls=-1), ValueError, "max_urls must be >= 0, not -1"),
        (lambda: langsift.Frontier().set_quota("de", 2**64), ValueError, "target must be under 2"),
        (lambda: langsift.Frontier().decide("http://a/", classify=None), TypeError, "classify must be a bool"),
        (lambda: langsift.Frontier().mark_fetched("http://a/\udc80"), ValueError, "url: a lone surrogate"),
        (lambda: langsift.Frontier().decide_many(["http://a/", "\ud800"]), ValueError, r"decide_many\(\): urls\[1\]: a lone"),
        (lambda: langsift.Model.builtin(None), TypeError, "name must be str, not NoneType"),
        (lambda: langsift.WarcStats.from_tsv("\ud800"), ValueError, "text: a lone surrogate"),
        (lambda: langsift.read_warc(b"", errors="\ud800"), ValueError, "errors: a lone surrogate"),
        (lambda: langsift.read_warc(b"", max_record_bytes=-5), ValueError, "max_record_bytes must be >= 0, not -5"),
        (lambda: langsift.to_iso639_3("\ud800"), ValueError, "code: a lone surrogate"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()
    # The texts to analyse keep their documented behaviour: lone surrogates replaced, and said so.
    assert langsift.classify_url("http://www.spiegel.de/\ud800").status == "invalid_utf8"
    assert langsift.detect("Der Stadtrat hat \udc80 beschlossen").status == "invalid_utf8"
    assert langsift.Frontier(url_weight=2, max_urls=10).decide("http://a/", classify=1).fetch


def test_frontier_votes_quotas_decisions_and_state(tmp_path: Path):
    f = langsift.Frontier()
    f.set_quota("deu", 2)  # ISO 639-3 accepted, kept as "de"
    assert f.quotas() == {"de": (2, 0)}
    page = langsift.detect(GERMAN * 5)  # long enough to vote
    links = [f"http://example.org/{i}" for i in range(5)]
    assert f.add_votes(page, links) == 5
    assert f.votes(links[0]) == {"de": 1}
    d = f.decide(links[0], classify=False)
    assert d.fetch and d.reason == "wanted" and d.language == "de" and d.votes == 1 and 0 < d.priority <= 1
    assert d.guesses[0].code == "de" and "FrontierDecision(action='fetch'" in repr(d)
    short = langsift.detect("Hallo Welt")
    assert short.is_short and f.add_votes(short, links) == 0  # short pages do not vote
    assert f.record_fetch(links[0], page) and f.fetched(links[0])
    assert f.decide(links[0]).reason == "fetched" and not f.decide(links[0]).fetch
    f.record_fetch(links[1], page)
    assert f.saturated("de") and f.all_saturated()
    assert f.decide(links[2], classify=False).reason == "saturated"
    many = f.decide_many(links, classify=False)
    assert [m.reason for m in many] == ["fetched", "fetched", "saturated", "saturated", "saturated"]
    state = tmp_path / "frontier.state"
    f.save(state)
    g = langsift.Frontier()
    g.load(state)
    assert g.quotas() == f.quotas() and g.votes(links[3]) == {"de": 1} and len(g) == len(f)
    assert g.to_bytes() == f.to_bytes()
    state.write_bytes(state.read_bytes()[:-3])
    with pytest.raises(langsift.LangsiftError) as e:
        g.load(state)
    assert e.value.status == "corrupt_state"
    with pytest.raises(OSError):
        g.load(tmp_path / "missing.state")
    with pytest.raises(ValueError, match="min_vote_percent"):
        langsift.Frontier(min_vote_percent=101)
    # A weak URL-classifier answer (a URL that carries no language) is no evidence with min_url_score.
    weak, strong = "http://127.0.0.1:8000/p/3bab6c.html", "http://www.spiegel.de/politik/"
    u = langsift.classify_url(weak)
    assert u.languages and u.languages[0].score < 0.1
    h = langsift.Frontier()
    h.set_quota("de", 10)
    h.add_votes(page, [weak, strong])
    ignored = h.decide(weak, min_url_score=0.3).priority
    assert ignored == h.decide(weak, classify=False).priority > h.decide(weak).priority
    assert h.decide(strong, min_url_score=0.3).priority == h.decide(strong).priority > ignored
    assert [d.priority for d in h.decide_many([weak, strong], min_url_score=0.3)] == [
        ignored, h.decide(strong).priority]
    with pytest.raises(ValueError, match="min_url_score"):
        h.decide(weak, min_url_score=2)
    with pytest.raises(TypeError):
        f.decide(b"http://example.org/")
    with pytest.raises(TypeError, match="urls must be an iterable of str .URLs., not str or bytes"):
        f.add_votes(page, "http://example.org/")


# ---- the package itself ------------------------------------------------------------------------


def test_package_is_typed_and_documented():
    pkg = Path(langsift.__file__).parent
    assert (pkg / "py.typed").is_file()
    stub = (pkg / "_langsift.pyi").read_text()
    import ast

    stub_names = {n.name for n in ast.parse(stub).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    module_names = {n for n in dir(langsift._langsift) if not n.startswith("_")}
    module_names -= {"MAX_INPUT_BYTES"}
    assert stub_names == module_names
    for name in ("detect", "detect_many", "detect_page", "classify_url", "read_warc"):
        doc = getattr(langsift, name).__doc__
        assert doc and len(doc) > 200, name
    assert "max_input_bytes" in langsift.detect.__doc__ and "Iterable[str]" in langsift.detect_many.__doc__
    import inspect

    assert list(inspect.signature(langsift.detect).parameters)[:3] == ["text", "model", "only"]
    import re

    pyproject = (SOURCE_DIR / "pyproject.toml").read_text()
    cmake = (SOURCE_DIR / "CMakeLists.txt").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == langsift.__version__
    assert re.search(r"VERSION (\d+\.\d+\.\d+)", cmake).group(1) == langsift.__version__
    assert set(langsift.__all__) <= set(dir(langsift))
