"""model="wide": a built-in model by name wherever a model is accepted, by the one rule of the tools'
--model (the C++ library's langsift::resolve_model): a str that is a built-in model's name selects
it, whether or not a file so named exists; any other str, and any os.PathLike, is a model file.
Model.named() is that rule; the Scrapy setting LANGSIFT_MODEL follows it too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import langsift
from conftest import SOURCE_DIR, TEST_DATA, run_tool

GERMAN = "Der schnelle braune Fuchs springt über den faulen Hund, und die Katze schläft im Garten."


def wide_only_code() -> str:
    """A language the wide model knows and the default model does not."""
    extra = sorted(set(langsift.Model.builtin("wide").languages) - set(langsift.Model.builtin().languages))
    assert extra
    return extra[0]


@pytest.fixture
def trained_model(tmp_path: Path) -> Path:
    """A small model file, trained here from the test corpus."""
    path = tmp_path / "small.lsm"
    run_tool("langsift-train", "-q", TEST_DATA / "corpus", "-o", path)
    return path


def test_a_built_in_name_is_accepted_wherever_a_model_is() -> None:
    wide = langsift.Model.builtin("wide")
    code = wide_only_code()
    assert langsift.detect(GERMAN, model="wide") == langsift.detect(GERMAN, model=wide)
    assert langsift.detect(GERMAN, model="default") == langsift.detect(GERMAN)
    # `only` is checked against the call's model: the wide model's language is accepted by name.
    langsift.detect(GERMAN, model="wide", only=[code, "de"])
    with pytest.raises(ValueError, match="only"):
        langsift.detect(GERMAN, model="default", only=[code, "de"])
    assert langsift.detect_many([GERMAN] * 3, model="wide", only=[code, "de"]) == \
        [langsift.detect(GERMAN, model=wide, only=[code, "de"])] * 3
    body = ("<html><body><p>" + GERMAN + "</p></body></html>").encode()
    assert langsift.detect_page(body, model="wide") == langsift.detect_page(body, model=wide)
    with langsift.read_warc(str(TEST_DATA / "warc" / "sample.warc.gz"), model="wide") as r:
        by_name = [rec.json for rec in r]
    with langsift.read_warc(str(TEST_DATA / "warc" / "sample.warc.gz"), model=wide) as r:
        assert by_name == [rec.json for rec in r] and by_name
    langsift.LanguageFilter(labels=[code], model="wide")
    langsift.Frontier(model="wide").set_quota(code, 10)
    assert langsift.Model.named("wide") is wide
    assert langsift.Model.named("default") is langsift.Model.builtin()


def test_a_name_wins_over_a_file_so_named_and_a_path_loads_the_file(tmp_path: Path, monkeypatch,
                                                                    trained_model: Path) -> None:
    monkeypatch.chdir(tmp_path)
    Path("wide").write_bytes(b"not a model at all")
    assert langsift.Model.named("wide").is_builtin  # the file is not read
    langsift.detect(GERMAN, model="wide")
    with pytest.raises(langsift.ModelError):
        langsift.detect(GERMAN, model="./wide")  # a path: the file, which is no model
    shutil.copy(trained_model, "default")
    assert langsift.Model.named("default") is langsift.Model.builtin()
    m = langsift.Model.named("./default")
    assert not m.is_builtin and m.languages == langsift.Model.load(trained_model).languages
    for given in (str(trained_model), trained_model, os.fsencode(trained_model).decode("utf-8")):
        assert langsift.detect(GERMAN, model=given) == langsift.detect(GERMAN, model=langsift.Model.load(trained_model))
    # A path object is a path, even one called "wide".
    with pytest.raises(langsift.ModelError):
        langsift.Model.named(Path("wide"))
    with pytest.raises(langsift.ModelError, match="^model: missing.lsm: .*not a built-in model's name either"):
        langsift.detect(GERMAN, model="missing.lsm")
    assert langsift.Model.named("") is langsift.Model.builtin()  # as --model "": the default model


def test_a_file_is_read_once_while_it_is_unchanged(tmp_path: Path, trained_model: Path) -> None:
    path = tmp_path / "m.lsm"
    shutil.copy(trained_model, path)
    first = langsift.Model.named(str(path))
    assert langsift.Model.named(str(path)) is first
    assert langsift.Model.named(path) is first
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # changed: read again
    second = langsift.Model.named(str(path))
    assert second is not first and second.checksum == first.checksum


def test_what_is_no_model_is_a_type_error() -> None:
    for bad in (3, 2.5, b"wide", ["wide"], object()):
        with pytest.raises(TypeError, match="built-in model's name"):
            langsift.detect(GERMAN, model=bad)
    with pytest.raises(TypeError, match="Model.named"):
        langsift.Model.named(b"wide")
    for bad in ("wi\0de", "\ud800"):  # a NUL; a surrogate no file name can hold
        with pytest.raises(ValueError, match="^model: not a built-in model's name nor a path"):
            langsift.detect(GERMAN, model=bad)


def test_scrapy_setting_names_a_built_in_model() -> None:
    # LANGSIFT_MODEL="wide" was loaded as a file called "wide" ("cannot load").
    from langsift import scrapy

    code = wide_only_code()
    c = scrapy.LangsiftSettings.from_settings({"LANGSIFT_MODEL": "wide", "LANGSIFT_LANGUAGES": [code]})
    assert c.model == "wide" and c.languages == (code,)
