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
    language_filter_from_config,
    languages,
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

