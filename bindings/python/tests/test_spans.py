"""Language spans from Python: detect(text, spans=True).spans in str indices (astral characters,
lone surrogates, a cut input), the same spans as the command line's bytes, keep= and kept_text,
bad arguments, and Detection and Span as values (equality, hash, pickle, repr, to_dict).

Run by ctest ("python: spans") against the package in <build>/python.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import langsift
from conftest import run_tool

DE = (
    "Der Stadtrat hat am Dienstagabend einen neuen Haushalt für Schulen und öffentliche Bibliotheken beschlossen. "
    "Die Opposition kritisierte, dass die Mittel für den Nahverkehr erneut gekürzt wurden."
)
# Astral characters (4 UTF-8 bytes, one str index each) inside the English paragraph.
EN = (
    "The council approved a new budget 🏫 for schools and public libraries 📚 on Tuesday evening. The opposition "
    "complained that funding for public transport had been cut once again."
)
FR = (
    "Le conseil municipal a adopté mardi soir un nouveau budget pour les écoles et les bibliothèques publiques. "
    "L'opposition a regretté que les crédits des transports en commun soient encore réduits."
)
TEXT = DE + " " + EN + "\n" + FR


def covers(text: str, spans: tuple) -> None:
    assert spans, "no spans"
    assert spans[0].start == 0 and spans[-1].end == len(text)
    for a, b in zip(spans, spans[1:]):
        assert a.end == b.start and a.language != b.language
    assert all(s.start < s.end for s in spans)


def test_spans_are_str_indices_with_known_boundaries():
    d = langsift.detect(TEXT, spans=True)
    covers(TEXT, d.spans)
    assert [s.language for s in d.spans] == ["de", "en", "fr"]
    assert [s.start for s in d.spans] == [0, TEXT.index("The council"), TEXT.index("Le conseil")]
    assert TEXT[d.spans[1].start:d.spans[1].end].strip() == EN
    assert all(type(s) is langsift.Span for s in d.spans)
    # The detection itself is what detect() answers without spans.
    plain = langsift.detect(TEXT)
    assert plain.spans is None and plain.kept_text is None
    assert (d.language, d.languages, d.confidence) == (plain.language, plain.languages, plain.confidence)
    assert [s.language for s in langsift.detect(TEXT, spans=True, codes="iso639-3").spans] == ["deu", "eng", "fra"]


def test_spans_are_the_command_lines_bytes():
    d = langsift.detect(TEXT.replace("\n", " "), spans=True)
    line = TEXT.replace("\n", " ")
    out = run_tool("langsift", "detect", "--lines", "--spans", input=(line + "\n").encode()).stdout
    cli = json.loads(out)["spans"]
    as_bytes = [[len(line[: s.start].encode()), len(line[: s.end].encode()), s.language] for s in d.spans]
    assert as_bytes == cli


def test_lone_surrogates_and_a_cut_input_keep_the_indices_right():
    bad = DE + " \ud800 " + EN  # a lone surrogate: replaced by U+FFFD, one index as before
    d = langsift.detect(bad, spans=True)
    assert d.status == "invalid_utf8"
    covers(bad, d.spans)
    assert [s.language for s in d.spans] == ["de", "en"]
    # The English span starts at what follows the German sentence's end: the replaced surrogate.
    assert d.spans[1].start == bad.index("\ud800") == len(DE) + 1
    # The kept text holds U+FFFD where the surrogate was (the UTF-8 codec's "replace" wrote '?',
    # which the kept text then showed: found by test_properties).
    kept = langsift.detect(DE + " \ud800", keep=["de"]).kept_text
    assert kept == DE + " \ufffd" and "?" not in kept
    # Cut at max_input_bytes: the spans cover the part examined, and the status says so.
    cut = langsift.detect(TEXT, spans=True, max_input_bytes=300)
    assert cut.status == "truncated"
    prefix = TEXT.encode()[:300].decode(errors="ignore")
    assert cut.spans[0].start == 0 and cut.spans[-1].end == len(prefix) < len(TEXT)


def test_no_letters_and_empty_text():
    assert langsift.detect("", spans=True).spans == ()
    d = langsift.detect("12 34 !!", spans=True)
    assert d.status == "empty_input"
    assert [(s.start, s.end, s.language) for s in d.spans] == [(0, 8, "und")]


def test_keep_gives_the_text_of_the_kept_languages():
    assert langsift.detect(TEXT, keep=["en"]).kept_text == EN
    assert langsift.detect(TEXT, keep="de, fra").kept_text == DE + "\n" + FR
    assert langsift.detect(TEXT, keep=("nl",)).kept_text == ""
    d = langsift.detect(TEXT, keep=("en",))
    assert d.spans == langsift.detect(TEXT, spans=True).spans  # keep implies spans
    with pytest.raises(ValueError, match="keep: not a language of the model: 'xx'"):
        langsift.detect(TEXT, keep=["xx"])
    with pytest.raises(ValueError, match="keep is empty"):
        langsift.detect(TEXT, keep=[])
    with pytest.raises(TypeError):
        langsift.detect(TEXT, keep=3)
    with pytest.raises(TypeError):
        langsift.detect(TEXT, spans="yes")


def test_detections_with_spans_and_spans_are_values():
    a, b = langsift.detect(TEXT, keep=["en"]), langsift.detect(TEXT, keep=["en"])
    assert a == b and hash(a) == hash(b)
    assert a != langsift.detect(TEXT, spans=True)  # no kept text
    assert langsift.detect(TEXT, spans=True) != langsift.detect(TEXT)  # no spans
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(a, protocol))
        assert back == a and back.spans == a.spans and back.kept_text == a.kept_text and repr(back) == repr(a)
        s = pickle.loads(pickle.dumps(a.spans[1], protocol))
        assert s == a.spans[1] and hash(s) == hash(a.spans[1]) and repr(s) == repr(a.spans[1])
    assert copy.deepcopy(a) == a
    assert repr(a.spans[0]) == f"Span(start=0, end={a.spans[0].end}, language='de')"
    assert repr(a).endswith(", spans=(" + ", ".join(map(repr, a.spans)) + "))")
    assert a.to_dict()["spans"] == [[s.start, s.end, s.language] for s in a.spans]
    assert a.to_dict()["kept_text"] == EN
    assert "spans" not in langsift.detect(TEXT).to_dict()
    assert len({a.spans[0], b.spans[0], a.spans[1]}) == 2
    with pytest.raises(TypeError):
        langsift.Span()
    with pytest.raises(ValueError, match="not a Span state"):
        langsift._langsift._value_from_state("Span", (5, 2, "de"))
