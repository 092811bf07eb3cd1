"""langsift: language and encoding identification for web crawlers and corpus builders.

    >>> import langsift
    >>> d = langsift.detect("Der schnelle braune Fuchs springt über den faulen Hund.")
    >>> d.language, d.languages[0].percent
    ('de', 100)
    >>> langsift.detect_page(body, content_type="text/html; charset=Shift_JIS").encoding
    'shift_jis'
    >>> langsift.classify_url("https://www.lemonde.fr/politique/").language
    'fr'
    >>> for record in langsift.read_warc("crawl.warc.gz"):
    ...     print(record.url, record.language)

Everything runs in C++ (the `_langsift` extension); long calls release the GIL, and one model is
shared by any number of threads. Codes are ISO 639-1 where one exists, else ISO 639-3
(`codes="iso639-3"`: ISO 639-3 always). Submodules: `langsift.scrapy` (a Scrapy spider
middleware and scheduler steering a crawl towards languages) and `langsift.dask` (WARC/WET
shards over a Dask cluster).
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional

from ._langsift import (
    MAX_INPUT_BYTES,
    Detection,
    Frontier,
    FrontierDecision,
    FrontierGuess,
    LangsiftError,
    Language,
    LanguageFilter,
    Model,
    ModelError,
    PageResult,
    Span,
    UrlLanguage,
    UrlResult,
    WarcFormatError,
    WarcFormatWarning,
    WarcReader,
    WarcRecord,
    WarcStats,
    __version__,
    classify_url,
    detect,
    detect_many,
    detect_page,
    extract_text,
    read_warc,
    to_iso639_1,
    to_iso639_3,
)

__all__ = [
    "MAX_INPUT_BYTES",
    "Detection",
    "Frontier",
    "FrontierDecision",
    "FrontierGuess",
    "LangsiftError",
    "Language",
    "LanguageFilter",
    "Model",
    "ModelError",
    "PageResult",
    "Span",
    "UrlLanguage",
    "UrlResult",
    "WarcFormatError",
    "WarcFormatWarning",
    "WarcReader",
    "WarcRecord",
    "WarcStats",
    "__version__",
    "classify_url",
    "detect",
    "detect_many",
    "detect_page",
    "extract_text",
    "language_filter_from_config",
    "languages",
    "read_warc",
    "to_iso639_1",
    "to_iso639_3",
]


def languages(model: Optional[Model] = None, *, codes: str = "iso639-1") -> tuple:
    """The language codes a model knows (default: the built-in model)."""
    m = model if model is not None else Model.builtin()
    if codes in ("iso639-3", "iso639_3", "639-3"):
        return tuple(to_iso639_3(c) for c in m.languages)
    if codes not in ("iso639-1", "iso639_1", "639-1"):
        raise ValueError(f"codes must be 'iso639-1' or 'iso639-3', not {codes!r}")
    return m.languages


def language_filter_from_config(
    conf: "Mapping[str, object] | Callable[[str], object]", *, model: Optional[Model] = None
) -> LanguageFilter:
    """A LanguageFilter from NCL-Crawl's configuration names (as the Java bridge reads them).

    `conf` is a mapping or a function returning a key's value (None when missing). Everything is
    off unless ``filter.lang.enable`` is true; then each filter is on when its ``.enable`` is true:
    ``filter.lang.label`` (codes separated by commas or spaces), ``filter.lang.minSize.bytes``,
    ``filter.lang.maxSize.bytes``, ``filter.lang.minPercentage.limit``. Raises ValueError naming
    the key for a malformed number, an empty label list or a label that names no language
    (as LanguageFilter checks labels; `model`: a Model whose codes are accepted too).
    """
    get = conf.get if isinstance(conf, Mapping) else conf

    def flag(key: str) -> bool:
        v = get(key)
        return v is True or (isinstance(v, str) and v.strip().lower() == "true")

    def number(key: str) -> int:
        v = get(key)
        try:
            n = int(str(v).strip())
        except (TypeError, ValueError):
            raise ValueError(f"{key}: not a number: {v!r}") from None
        if n < 0:
            raise ValueError(f"{key}: must be >= 0, not {n}")
        return n

    if not flag("filter.lang.enable"):
        return LanguageFilter()
    labels = None
    if flag("filter.lang.label.enable"):
        raw = get("filter.lang.label")
        labels = [s for s in str(raw or "").replace(",", " ").split() if s]
        if not labels:
            raise ValueError("filter.lang.label is enabled but empty")
        try:
            LanguageFilter(labels=labels, model=model)
        except ValueError as e:  # "labels: not a language ...": named by its key
            message = str(e)
            message = message[len("labels: "):] if message.startswith("labels: ") else message
            raise ValueError("filter.lang.label: " + message) from None
    min_bytes = number("filter.lang.minSize.bytes") if flag("filter.lang.minSize.bytes.enable") else None
    max_bytes = number("filter.lang.maxSize.bytes") if flag("filter.lang.maxSize.bytes.enable") else None
    min_percent = None
    if flag("filter.lang.minPercentage.limit.enable"):
        min_percent = number("filter.lang.minPercentage.limit")
        if min_percent > 100:
            raise ValueError("filter.lang.minPercentage.limit must be 0..100")
    return LanguageFilter(labels=labels, min_bytes=min_bytes, max_bytes=max_bytes, min_percent=min_percent, model=model)


LanguageFilter.from_config = staticmethod(language_filter_from_config)  # type: ignore[attr-defined]
