"""Property tests of the Python layer (Debian's python3-hypothesis): arbitrary text, bytes, URLs,
codes and argument values against every function and constructor of the package.

Whatever the input, a call returns a result that keeps the invariants below, or raises one of the
documented exceptions (TypeError, ValueError and langsift's own, with the argument's name): never
a crash, a RuntimeError or a SystemError. Examples are random (no database is written); a failure
prints the example that falsified it. The whole file runs in well under a minute on 2 cores.

Run by ctest ("python: properties").
"""

from __future__ import annotations

import copy
import functools
import os
import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import langsift

# conftest.py's profile (no database; cache in the build; derandomized unless exploring), with more
# examples. A longer random search, by hand: LANGSIFT_HYPOTHESIS_PROFILE=long (about 20 minutes).
settings.register_profile(
    "properties", parent=settings.get_profile("langsift"), max_examples=250,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("long", parent=settings.get_profile("properties"), max_examples=10_000)
settings.load_profile("long" if os.environ.get("LANGSIFT_HYPOTHESIS_PROFILE") == "long" else "properties")
ARG_EXAMPLES = 30 if settings.default.max_examples < 1000 else 1000

STATUSES = {"ok", "empty_input", "truncated", "invalid_utf8", "binary_input"}
DOCUMENTED = (TypeError, ValueError, langsift.LangsiftError)  # ModelError is a LangsiftError (and an OSError)

# ---- strategies ------------------------------------------------------------------------------

# Any code point, lone surrogates and NUL included; and words of real languages, so that texts
# also have languages (random code points are mostly 'und').
WORDS = ["Der", "Stadtrat", "hat", "beschlossen", "the", "council", "approved", "budget", "le", "conseil", "a",
         "approuvé", "Москва", "город", "東京は日本の首都です", "서울", "ᏣᎳᎩ", "ภาษาไทย", "مرحبا", "שלום", "1234", "!!"]
any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF)  # surrogates included
texts = st.one_of(
    st.text(any_char, max_size=200),
    st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join),
    st.tuples(st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join), st.text(any_char, max_size=20),
              st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join)).map("".join),
    # Huge repeats: up to ~2 MB of the same few characters.
    st.tuples(st.text(any_char, min_size=1, max_size=8), st.integers(1000, 250_000)).map(lambda t: t[0] * t[1]),
)
page_bodies = st.one_of(
    st.binary(max_size=400),
    texts.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.tuples(st.sampled_from([b"<html><body><p>", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00" * 600, b""]),
              texts.map(lambda t: t.encode("utf-16-le", "surrogatepass")[:2000]),
              st.binary(max_size=50)).map(b"".join),
)
header_values = st.one_of(st.none(), st.text(any_char, max_size=40),
                          st.sampled_from(["text/html; charset=utf-8", "text/plain; charset=Shift_JIS", "de-DE, en;q=0.5",
                                           "application/pdf", "text/html; charset=", "http://www.spiegel.de/x"]))
urls = st.one_of(
    st.text(any_char, max_size=120),
    st.builds(lambda host, path: f"http://{host}/{path}",
              st.sampled_from(["www.lemonde.fr", "spiegel.de", "example.com", "xn--bcher-kva.de", "[::1]", "a..b", ""]),
              st.text(any_char, max_size=40)),
)
# Arbitrary argument values: wrong types, extreme ints, NaN and infinities, lone surrogates.
any_value = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70), st.sampled_from([0, 1, 255, 256, 2**63, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(any_char, max_size=10), st.binary(max_size=10),
    st.lists(st.text(any_char, max_size=6), max_size=3),
    st.dictionaries(st.text(any_char, max_size=16), st.one_of(st.none(), st.text(any_char, max_size=6), st.floats()),
                    max_size=3),
    st.sampled_from(["de", "deu", "de-DE", "German", "und", "zh", "iso639-3", "html", "ignore", "wide", "sr-Latn",
                     float("nan"), object(), langsift.Model.builtin(), b"de", bytearray(b"x"), (), {"weight": 2}]),
)


# ---- invariants ------------------------------------------------------------------------------


def known_code(code: str) -> bool:
    """The check langsift applies to filter labels: a code it can answer."""
    try:
        langsift.LanguageFilter(labels=[code])
        return True
    except ValueError:
        return False


def check_value(v: object) -> None:
    """A result is equal to itself and to its pickled, copied and deep-copied forms, with one hash."""
    assert v == v and not (v != v)
    for other in (pickle.loads(pickle.dumps(v)), pickle.loads(pickle.dumps(v, 0)), copy.copy(v), copy.deepcopy(v)):
        assert other == v and hash(other) == hash(v) and repr(other) == repr(v)
    if hasattr(v, "to_dict"):
        assert pickle.loads(pickle.dumps(v)).to_dict() == v.to_dict()


def check_detection(d: langsift.Detection, input_bytes: int | None) -> None:
    assert d.status in STATUSES
    assert 0 <= d.confidence <= 1 and d.margin >= 0  # margin: infinity when the script decided (no NaN)
    assert len(d.languages) <= 3 and sum(l.percent for l in d.languages) <= 100
    assert all(0 <= l.percent <= 100 and 0 <= l.bytes <= d.text_bytes for l in d.languages)
    assert sum(l.bytes for l in d.languages) <= d.text_bytes
    if input_bytes is not None:
        assert d.text_bytes <= input_bytes and d.examined_bytes <= input_bytes
    assert d.language == (d.languages[0].code if d.languages else "und")
    assert [l.bytes for l in d.languages] == sorted((l.bytes for l in d.languages), reverse=True)
    for l in d.languages:  # every answer is a code the checks accept, in either form
        assert known_code(l.code) and known_code(langsift.to_iso639_3(l.code)), l.code
    # Probabilities (k): descending, in (0, 1], summing to at most 1, distinct known codes; none for und.
    ps = [p for _, p in d.probabilities]
    assert ps == sorted(ps, reverse=True) and all(0 < p <= 1 for p in ps) and sum(ps) <= 1
    assert len({c for c, _ in d.probabilities}) == len(ps) and all(known_code(c) for c, _ in d.probabilities)
    if not d.languages:
        assert d.probabilities == () and d.confidence == 0
    if d.languages:
        assert langsift.LanguageFilter(labels=[d.language])(d)
    x = d.to_dict()
    assert x["language"] == d.language and x["text_bytes"] == d.text_bytes and len(x["languages"]) == len(d.languages)
    check_value(d)
    for l in d.languages:
        check_value(l)


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))  # a lone surrogate is replaced by U+FFFD: 3 bytes too


# ---- text --------------------------------------------------------------------------------------


@given(texts)
def test_detect_on_any_text(text: str):
    d = langsift.detect(text)
    check_detection(d, utf8_size(text))
    has_surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    if has_surrogate:
        assert d.status != "ok"  # replaced, and said so (or empty, or cut)
    assert langsift.detect(text) == d
    assert langsift.detect_many([text]) == [d] and langsift.detect_many([text, text], threads=2) == [d, d]
    d3 = langsift.detect(text, codes="iso639-3")
    assert [langsift.to_iso639_1(l.code) for l in d3.languages] == [l.code for l in d.languages]
    if d.languages:  # a restriction to its own answer gives that answer
        assert langsift.detect(text, only=[d.language]).language == d.language
    dk = langsift.detect(text, k=16)  # the probabilities change nothing else
    check_detection(dk, utf8_size(text))
    check_value(dk)
    assert dk.confidence == d.confidence and dk.languages == d.languages and len(dk.probabilities) <= 16
    if dk.probabilities and dk.probabilities[0][0] == d.language:
        assert dk.probabilities[0][1] == d.confidence


@given(texts, st.integers(0, 5000), st.integers(256, 100_000))
def test_detect_with_small_caps(text: str, max_input_bytes: int, max_text_bytes: int):
    d = langsift.detect(text, max_input_bytes=max_input_bytes, max_text_bytes=max_text_bytes)
    check_detection(d, min(utf8_size(text), max_input_bytes))
    if utf8_size(text) > max_input_bytes and d.status != "empty_input":
        assert d.status == "truncated"
    assert langsift.detect_many([text], max_input_bytes=max_input_bytes, max_text_bytes=max_text_bytes) == [d]


@given(texts)
def test_spans_on_any_text(text: str):
    d = langsift.detect(text, spans=True)
    check_detection(d, utf8_size(text))
    plain = langsift.detect(text)
    assert (d.language, d.languages, d.status) == (plain.language, plain.languages, plain.status)
    spans = d.spans
    if not text:
        assert spans == ()
        return
    assert spans[0].start == 0 and spans[-1].end == len(text)  # the texts are under max_input_bytes
    for a, b in zip(spans, spans[1:]):
        assert a.end == b.start and a.language != b.language
    for s in spans:
        assert s.start < s.end and (s.language == "und" or known_code(s.language)), s
        check_value(s)
    if spans[0].language != "und":
        k = langsift.detect(text, keep=[spans[0].language])
        assert k.spans == spans
        if len(spans) == 1:  # the whole text, lone surrogates replaced, without its outer whitespace
            fixed = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
            assert k.kept_text == fixed.strip(" \t\n\r\f\v")


# ---- pages -------------------------------------------------------------------------------------


@given(page_bodies, header_values, header_values, header_values, st.sampled_from(["sniff", "html", "text"]),
       st.booleans())
def test_detect_page_on_any_bytes_and_headers(body: bytes, content_type, content_language, url, kind: str,
                                              main_content: bool):
    try:
        p = langsift.detect_page(body, content_type=content_type, content_language=content_language, url=url, kind=kind,
                                 main_content=main_content)
    except ValueError as e:  # only a lone surrogate in a header
        assert "lone surrogate" in str(e) and str(e).split(":")[0] in ("content_type", "content_language", "url")
        return
    check_detection(p.detection, None)
    assert p.encoding and p.encoding_source in {"bom", "http", "meta", "detected", "default"}
    assert 0 <= p.replaced_bytes <= len(body) and 0 <= p.encoding_confidence <= 1
    assert p.language == p.detection.language
    assert isinstance(p.declared_encoding, str) and isinstance(p.html_lang, str)
    check_value(p)
    assert langsift.detect_page(body, content_type=content_type, content_language=content_language, url=url,
                                kind=kind, main_content=main_content) == p
    # The text it examined: what extract_text() gives (issue 30), valid text whatever the bytes.
    assert isinstance(p.text, str)
    if kind == "sniff":
        assert langsift.extract_text(body, content_type=content_type, main=main_content) == p.text


# ---- URLs --------------------------------------------------------------------------------------


@given(urls, st.one_of(st.none(), st.sampled_from(["DE", "fr", "jp", "QQ"])))
def test_classify_url_on_any_string(url: str, country):
    u = langsift.classify_url(url, country=country)
    assert u.status in STATUSES | {"invalid_argument"}  # not a URL with a host (docs/url.md)
    assert u.decision in {"none", "model", "pattern", "country"}
    assert len(u.languages) <= 3 and all(0 <= l.score <= 1 for l in u.languages)
    assert [l.score for l in u.languages] == sorted((l.score for l in u.languages), reverse=True)
    assert u.language == (u.languages[0].code if u.languages else "und")
    assert all(known_code(l.code) for l in u.languages)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in url):
        assert u.status != "ok"
    check_value(u)
    for l in u.languages:
        check_value(l)
    assert langsift.classify_url(url, country=country) == u


# ---- codes, the filter and the frontier -------------------------------------------------------


codes = st.one_of(st.sampled_from(["de", "deu", "fo", "fao", "chr", "zh-Hant", "zho-Hant", "sr", "und", "de-DE", "ger",
                                   "German", "xx", "", "DE", "zh_Hant", "qaa"]),
                  st.text(any_char, max_size=12))


@given(st.lists(codes, max_size=4), st.one_of(st.none(), st.integers(-5, 10**6)), st.one_of(st.none(), st.integers(0, 200)),
       texts)
def test_language_filter_on_any_labels(labels: list, min_bytes, min_percent, text: str):
    try:
        f = langsift.LanguageFilter(labels=labels or None, min_bytes=min_bytes, min_percent=min_percent)
    except ValueError as e:
        message = str(e)
        assert message.startswith(("labels", "min_bytes", "min_percent")), message
        if message.startswith("labels:") and "lone surrogate" not in message:
            # The message names the codes, controls escaped (a NUL ended the message), at most 40 characters.
            # Codes are split at commas and ASCII white space (langsift::split_code_list).
            shown = ["".join(f"\\x{ord(x):02x}" if ord(x) < 32 or ord(x) == 127 else x for x in c[:40])
                     for c in labels if c and not any(x in c for x in " ,\t\n\r\v\f") and not known_code(c)]
            assert not shown or any(f"'{c}" in message for c in shown), message
        return
    assert f.labels is None or all(known_code(c) for c in f.labels)
    check_value(f)
    d = langsift.detect(text)
    assert f(d) == f.keep(d) == pickle.loads(pickle.dumps(f))(d)
    if not f.enabled:
        assert f(d)


@given(st.lists(st.tuples(st.sampled_from(["quota", "vote", "votes", "fetch", "decide", "count"]), urls, codes,
                          st.integers(0, 5)), max_size=25),
       texts)
def test_frontier_on_any_calls(calls: list, text: str):
    f = langsift.Frontier()
    page = langsift.detect(text)
    for op, url, code, n in calls:
        try:
            if op == "quota":
                f.set_quota(code, n)
                assert f.quota(code)[0] == n
            elif op == "vote":
                f.vote(url, code)
            elif op == "votes":
                assert all(isinstance(v, int) and v >= 0 for v in f.votes(url).values())
            elif op == "fetch":
                f.record_fetch(url, page)
                assert f.fetched(url) and f.decide(url, classify=False).reason in ("fetched", "invalid")
            elif op == "decide":
                for d in [f.decide(url)] + f.decide_many([url, url], classify=False):
                    assert 0 <= d.priority <= 1 and d.action in ("fetch", "skip") and d.fetch == (d.action == "fetch")
                    assert d.reason in {"wanted", "unknown", "unwanted", "saturated", "fetched", "invalid"}
                    check_value(d)
            else:
                f.count_page(code, n)
        except ValueError as e:
            message = str(e)
            assert message.startswith(("code:", "url:", "decide_many(): urls[")), message
            assert ("lone surrogate" in message) or message.startswith("code: not a language langsift knows")
    f.add_votes(page, [u for _, u, _, _ in calls if not any(0xD800 <= ord(c) <= 0xDFFF for c in u)])
    g = langsift.Frontier()
    g.from_bytes(f.to_bytes())
    assert g.to_bytes() == f.to_bytes() and g.quotas() == f.quotas() and len(g) == len(f)


@given(st.binary(max_size=300))
def test_state_and_model_bytes_are_checked(data: bytes):
    with pytest.raises(langsift.LangsiftError):
        langsift.Frontier().from_bytes(data)
    with pytest.raises(langsift.ModelError):
        langsift.Model.load(data)


@given(st.text(any_char, max_size=300))
def test_warc_stats_from_any_text(text: str):
    try:
        s = langsift.WarcStats.from_tsv(text)
    except ValueError:
        return
    assert langsift.WarcStats.from_tsv(s.to_tsv()) == s and pickle.loads(pickle.dumps(s, 0)) == s


# ---- every argument of every function and constructor ------------------------------------------


def frontier() -> langsift.Frontier:
    return langsift.Frontier()


# Each callable with the keyword arguments it takes (positional ones given good values), and for
# each the names a message about it may carry.
CALLS = {
    "detect": (lambda **kw: langsift.detect("Der Stadtrat hat beschlossen.", **kw),
               ["model", "only", "hints", "codes", "max_text_bytes", "short_text_bytes", "max_input_bytes", "spans",
                "keep"]),
    "detect_many": (lambda **kw: langsift.detect_many(["Der Stadtrat", "the council"], **kw),
                    ["threads", "model", "only", "hints", "codes", "max_text_bytes", "short_text_bytes",
                     "max_input_bytes"]),
    "detect_page": (lambda **kw: langsift.detect_page(b"<p>Der Stadtrat hat beschlossen.</p>", **kw),
                    ["content_type", "content_language", "url", "encoding", "kind", "main_content", "model", "only",
                     "hints", "codes", "max_text_bytes", "short_text_bytes", "max_input_bytes"]),
    "classify_url": (lambda **kw: langsift.classify_url("http://www.spiegel.de/", **kw), ["country", "codes"]),
    "read_warc": (lambda **kw: list(langsift.read_warc(b"", **kw)),
                  ["model", "all", "any_type", "main_content", "max_record_bytes", "codes", "errors", "max_text_bytes",
                   "short_text_bytes", "text", "schema", "languages", "min_probability"]),
    "extract_text": (lambda **kw: langsift.extract_text(b"<p>Der Stadtrat hat beschlossen.</p>", **kw),
                     ["content_type", "main"]),
    "LanguageFilter": (langsift.LanguageFilter, ["labels", "min_bytes", "max_bytes", "min_percent", "model"]),
    "Frontier": (langsift.Frontier, ["min_vote_percent", "url_weight", "vote_prior", "min_url_guess",
                                     "unknown_priority", "skip_saturated", "skip_unwanted", "max_urls", "model"]),
    "Frontier.decide": (lambda **kw: frontier().decide("http://www.spiegel.de/", **kw),
                        ["classify", "country", "min_url_score"]),
    "Frontier.decide_many": (lambda **kw: frontier().decide_many(["http://www.spiegel.de/"], **kw),
                             ["classify", "country", "min_url_score"]),
    "Frontier.set_quota": (lambda **kw: frontier().set_quota(**{"code": "de", "target": 1, **kw}), ["code", "target"]),
    "Frontier.count_page": (lambda **kw: frontier().count_page(**{"code": "de", **kw}), ["code", "pages"]),
    "Frontier.vote": (lambda **kw: frontier().vote(**{"url": "http://a.de/", "code": "de", **kw}), ["url", "code"]),
    "Frontier.mark_fetched": (lambda **kw: frontier().mark_fetched(**kw), ["url"]),
    "Frontier.votes": (lambda **kw: frontier().votes(**kw), ["url"]),
    "Frontier.quota": (lambda **kw: frontier().quota(**kw), ["code"]),
    "Frontier.saturated": (lambda **kw: frontier().saturated(**kw), ["code"]),
    "Frontier.fetched": (lambda **kw: frontier().fetched(**kw), ["url"]),
    "Frontier.record_fetch": (lambda **kw: frontier().record_fetch(detection=langsift.detect("x"), **kw), ["url"]),
    "Frontier.add_votes": (lambda **kw: frontier().add_votes(langsift.detect("Der Stadtrat " * 50), **kw), ["urls"]),
    "Model.builtin": (langsift.Model.builtin, ["name"]),
    "WarcStats.from_tsv": (langsift.WarcStats.from_tsv, ["text"]),
    "to_iso639_3": (langsift.to_iso639_3, ["code"]),
    "to_iso639_1": (langsift.to_iso639_1, ["code"]),
}
# The texts to analyse, positional: a message names the function ("detect() takes str, not int").
CALLS.update({
    "detect()": (lambda text: langsift.detect(text), ["text"]),
    "detect_many()": (lambda texts: langsift.detect_many(texts), ["texts"]),
    "detect_page()": (lambda body: langsift.detect_page(body), ["body"]),
    "extract_text()": (lambda body: langsift.extract_text(body), ["body"]),
    "classify_url()": (lambda url: langsift.classify_url(url), ["url"]),
})
ARGUMENTS = [(name, arg) for name, (_, args) in CALLS.items() for arg in args]


@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=[f"{n}:{a}" for n, a in ARGUMENTS])
@settings(max_examples=ARG_EXAMPLES)
@given(value=any_value)
def test_any_value_for_any_argument(name: str, arg: str, value):
    """Any value of any argument gives a result or TypeError / ValueError naming the argument."""
    call, _ = CALLS[name]
    try:
        call(**{arg: value})
    except DOCUMENTED as e:
        message = str(e)
        named = (arg in message or (arg == "model" and "Model" in message) or (name.endswith("()") and name in message)
                 or (name in ("WarcStats.from_tsv", "Model.builtin") and name.split(".")[1] in message))
        assert named, f"{name}({arg}={value!r}): {type(e).__name__}: {message}"


def real_values() -> list:
    """One value of each type, to take the pickled states of."""
    f = langsift.Frontier()
    f.add_votes(langsift.detect("Der Stadtrat hat einen neuen Haushalt beschlossen. " * 10), ["http://a.de/"])
    d = f.decide("http://a.de/")
    page = langsift.detect_page(b"<p>Der Stadtrat hat einen neuen Haushalt beschlossen.</p>")
    spans = langsift.detect("Der Stadtrat hat beschlossen. The council approved a new budget for the schools.",
                            keep=["en"])
    return [page.detection, page.detection.languages[0], spans, spans.spans[0], page,
            langsift.classify_url("http://www.spiegel.de/"), d,
            d.guesses[0], langsift.LanguageFilter(labels=["de"], min_bytes=3), langsift.WarcStats()]


@functools.lru_cache(maxsize=None)
def real_states() -> list:
    return [(type(v), v.__reduce_ex__(2)) for v in real_values()]


@given(st.data())
def test_unpickling_a_changed_state(data):
    """A state changed anywhere (pickle data from another process or a file) gives a value or a
    TypeError / ValueError, never a crash."""
    kind, (unpickler, args) = data.draw(st.sampled_from(real_states()))
    state = list(args[-1])
    target = state  # or a tuple nested in it, now and then
    while target and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(target) - 1))
        if not isinstance(target[i], (tuple, list)) or not target[i]:
            break
        target[i] = list(target[i])
        target = target[i]
    if target:
        target[data.draw(st.integers(0, len(target) - 1))] = data.draw(any_value)
    else:
        target.append(data.draw(any_value))

    def freeze(x):
        return tuple(freeze(y) for y in x) if isinstance(x, list) else x

    try:
        v = unpickler(*args[:-1], freeze(state))
    except (TypeError, ValueError) as e:
        assert "state" in str(e) or "lone surrogate" in str(e), str(e)
        return
    assert type(v) is kind and repr(v)
