"""Steer a Scrapy crawl towards languages: a spider middleware and a scheduler over langsift's frontier.

Enable the middleware, name the wanted languages, and (recommended) the scheduler::

    # settings.py
    SPIDER_MIDDLEWARES = {"langsift.scrapy.LanguageFocusMiddleware": 543}
    SCHEDULER = "langsift.scrapy.FrontierScheduler"
    LANGSIFT_LANGUAGES = ["de"]
    LANGSIFT_QUOTAS = {"de": 100_000}       # optional: stop wanting German after 100 000 pages
    LANGSIFT_ITEM_FIELD = "language"         # optional: fill items' "language" field

`LanguageFocusMiddleware`, on every response: detects the page's language (`langsift.detect_page`
on the body and the Content-Type, Content-Language and URL), stores the `PageResult` in
``response.meta["langsift"]`` (None for binary responses), records the fetch in the crawl's
`langsift.Frontier` (the page counts toward its language's quota), and lets the page vote for the
language of every Request the spider yields from it (ClueWeb09: pages with 400 bytes of text or
more vote; pages in a language with at least LANGSIFT_MIN_VOTE_PERCENT of their text). Each
yielded Request then gets the frontier's decision: dropped when the frontier says skip (every
guess about it is a language whose quota is met) or its priority is under LANGSIFT_MIN_PRIORITY,
else ``request.priority`` is raised by ``round(priority * LANGSIFT_PRIORITY_SCALE)`` and the
decision is stored in ``request.meta["langsift_link"]``.

`FrontierScheduler` (Scrapy's Scheduler, dupefilter and queues included) holds the Requests the
middleware decided on, and when Scrapy asks for the next request, hands out the one whose
*current* priority is highest: votes that arrive after a link was first seen raise it (Scrapy's
dupefilter would otherwise drop those later sightings), and a language whose quota fills lowers
it. With Scrapy's own scheduler a link's priority is fixed when it is first yielded. Requests
the middleware did not decide on (start requests, other middlewares' requests, retries) go
through Scrapy's queues, and go first.

Settings (all optional; see docs/scrapy.md):

=============================  ==========  =====================================================
LANGSIFT_ENABLED               True        False disables the middleware (NotConfigured)
LANGSIFT_LANGUAGES             []          wanted languages, ISO 639-1 or 639-3 ("de", "deu");
                                           none: pages are annotated, the crawl is not steered
LANGSIFT_QUOTAS                {}          {code: pages}; a language with a quota is wanted until
                                           that many pages were fetched in it (by detection)
LANGSIFT_MIN_PRIORITY          0.0         drop links whose priority (0..1) is lower
LANGSIFT_CLOSE_ON_QUOTAS       True        close the spider when every wanted language's quota
                                           is met (only when every wanted language has one)
LANGSIFT_URL_CLASSIFIER        True        use the URL classifier's scores in the priority
LANGSIFT_MIN_URL_SCORE         0.3         ... only when its top language scores at least this
                                           (on URLs that say nothing it spreads a little
                                           probability over many languages: no evidence)
LANGSIFT_URL_WEIGHT            2.0         the URL classifier counts as this many votes
LANGSIFT_VOTE_PRIOR            1.0         pseudo-votes for "some other language"
LANGSIFT_UNKNOWN_PRIORITY      0.1         priority of a link nothing is known about
LANGSIFT_MIN_VOTE_PERCENT      20          a page's language votes with at least this % of text
LANGSIFT_MIN_URL_GUESS         0.3         URL scores under this are no guess for the skip rule
LANGSIFT_SKIP_UNWANTED         False       also skip links whose every guess is unwanted
LANGSIFT_MAX_URLS              0           bound of the frontier's URL table (0: none)
LANGSIFT_PRIORITY_SCALE        1000        request.priority += round(priority * this)
LANGSIFT_ITEM_FIELD            None        item field filled with the page's language
LANGSIFT_MAIN_CONTENT          False       detect on the page's main content only
LANGSIFT_MODEL                 None        a built-in model's name ("wide") or a model file's path
                                           (default: the built-in model)
=============================  ==========  =====================================================

A setting with a bad value, or an unknown ``LANGSIFT_*`` name (a typo would otherwise go
unnoticed), stops the crawl before the spider opens: one CRITICAL log line naming the setting, and
`SettingsError` (a ValueError) raised from the middleware's or the scheduler's ``from_crawler``
(``python -m scrapy crawl`` then exits with status 1, without Twisted's traceback of it). With JOBDIR set, the
frontier is saved to ``JOBDIR/langsift-frontier.bin`` when the spider closes and loaded when it
opens (a state file that cannot be read is renamed to ``langsift-frontier.bin.corrupt``, or
``.corrupt.1``... beside an earlier one, and the crawl starts with an empty frontier), and the
scheduler's held requests go to Scrapy's disk queues.
"""

from __future__ import annotations

import difflib
import heapq
import itertools
import logging
import math
import os
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, AsyncIterable, Iterable, Iterator, Mapping, Optional

try:
    from itemadapter import ItemAdapter, is_item
    from scrapy import Request, Spider, signals
    from scrapy.core.scheduler import Scheduler
    from scrapy.exceptions import NotConfigured
    from scrapy.http import Response, TextResponse
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "langsift.scrapy needs Scrapy (pip install scrapy; Debian: apt install python3-scrapy)") from e

from . import Detection, Frontier, LangsiftError, Model, PageResult, detect_page, to_iso639_1

__all__ = [
    "META_LINK",
    "META_PAGE",
    "META_SKIP",
    "FrontierScheduler",
    "LangsiftSettings",
    "LanguageFocusMiddleware",
    "SettingsError",
    "get_frontier",
    "page_language",
]

logger = logging.getLogger(__name__)

#: response.meta key of the page's `PageResult` (None for a binary response).
META_PAGE = "langsift"
#: request.meta key of the frontier's decision about a link:
#: {"priority", "votes", "language", "reason", "base_priority"}.
META_LINK = "langsift_link"
#: request.meta key: True leaves the request alone (no vote, no priority, never dropped).
META_SKIP = "langsift_ignore"

#: A wanted language without a quota gets this target: never met.
UNLIMITED = 2**62
#: Close reason when every quota is met.
CLOSE_REASON = "langsift_quotas_met"
#: File of the frontier's state under JOBDIR.
STATE_FILE = "langsift-frontier.bin"


# ================================================================================================
# Settings

@dataclass(frozen=True)
class LangsiftSettings:
    """The LANGSIFT_* settings, checked (see the module docstring for their meaning)."""

    languages: tuple[str, ...] = ()
    quotas: Mapping[str, int] = field(default_factory=dict)
    min_priority: float = 0.0
    close_on_quotas: bool = True
    url_classifier: bool = True
    min_url_score: float = 0.3
    url_weight: float = 2.0
    vote_prior: float = 1.0
    unknown_priority: float = 0.1
    min_vote_percent: int = 20
    min_url_guess: float = 0.3
    skip_unwanted: bool = False
    max_urls: int = 0
    priority_scale: int = 1000
    item_field: Optional[str] = None
    main_content: bool = False
    model: Optional[str] = None

    @property
    def focused(self) -> bool:
        """True when some language is wanted: the crawl is steered (else pages are only annotated)."""
        return bool(self.languages)

    @classmethod
    def from_settings(cls, settings: Any) -> "LangsiftSettings":
        """Reads and checks the LANGSIFT_* settings of a Scrapy `Settings` (or a plain mapping).

        Raises ValueError naming the setting for a bad value or an unknown LANGSIFT_* name."""
        _check_names(settings)
        model = _string(settings, "LANGSIFT_MODEL")
        known = _known_languages(model)
        languages = [_code(c, "LANGSIFT_LANGUAGES", known) for c in _code_list(settings, "LANGSIFT_LANGUAGES")]
        quotas = _quotas(settings, known)
        # A quota implies the language is wanted.
        for code in quotas:
            if code not in languages:
                languages.append(code)
        return cls(
            languages=tuple(dict.fromkeys(languages)),
            quotas=quotas,
            min_priority=_number(settings, "LANGSIFT_MIN_PRIORITY", 0.0, 0.0, 1.0),
            close_on_quotas=_flag(settings, "LANGSIFT_CLOSE_ON_QUOTAS", True),
            url_classifier=_flag(settings, "LANGSIFT_URL_CLASSIFIER", True),
            min_url_score=_number(settings, "LANGSIFT_MIN_URL_SCORE", 0.3, 0.0, 1.0),
            url_weight=_number(settings, "LANGSIFT_URL_WEIGHT", 2.0, 0.0, 1e6),
            vote_prior=_number(settings, "LANGSIFT_VOTE_PRIOR", 1.0, 0.0, 1e6),
            unknown_priority=_number(settings, "LANGSIFT_UNKNOWN_PRIORITY", 0.1, 0.0, 1.0),
            min_vote_percent=_whole(settings, "LANGSIFT_MIN_VOTE_PERCENT", 20, 0, 100),
            min_url_guess=_number(settings, "LANGSIFT_MIN_URL_GUESS", 0.3, 0.0, 1e6),
            skip_unwanted=_flag(settings, "LANGSIFT_SKIP_UNWANTED", False),
            max_urls=_whole(settings, "LANGSIFT_MAX_URLS", 0, 0, 2**62),
            priority_scale=_whole(settings, "LANGSIFT_PRIORITY_SCALE", 1000, 1, 10**9),
            item_field=_string(settings, "LANGSIFT_ITEM_FIELD"),
            main_content=_flag(settings, "LANGSIFT_MAIN_CONTENT", False),
            model=model,
        )

    def new_frontier(self) -> Frontier:
        """A Frontier with these options, a quota for every wanted language."""
        f = Frontier(
            min_vote_percent=self.min_vote_percent, url_weight=self.url_weight, vote_prior=self.vote_prior,
            min_url_guess=self.min_url_guess, unknown_priority=self.unknown_priority, skip_saturated=True,
            skip_unwanted=self.skip_unwanted, max_urls=self.max_urls)
        for code in self.languages:
            f.set_quota(code, self.quotas.get(code, UNLIMITED))
        return f


KNOWN_SETTINGS = frozenset(
    "LANGSIFT_" + n for n in (
        "ENABLED LANGUAGES QUOTAS MIN_PRIORITY CLOSE_ON_QUOTAS URL_CLASSIFIER MIN_URL_SCORE URL_WEIGHT VOTE_PRIOR "
        "UNKNOWN_PRIORITY MIN_VOTE_PERCENT MIN_URL_GUESS SKIP_UNWANTED MAX_URLS PRIORITY_SCALE ITEM_FIELD "
        "MAIN_CONTENT MODEL").split())


def _check_names(settings: Any) -> None:
    for name in list(settings):
        if isinstance(name, str) and name.startswith("LANGSIFT_") and name not in KNOWN_SETTINGS:
            close = difflib.get_close_matches(name, sorted(KNOWN_SETTINGS), n=1)
            hint = (f" (did you mean {close[0]}?)" if close
                    else f"; langsift.scrapy knows {', '.join(sorted(KNOWN_SETTINGS))}")
            raise ValueError(f"unknown setting {name}{hint}")


def _get(settings: Any, name: str) -> Any:
    return settings.get(name)


def _flag(settings: Any, name: str, default: bool) -> bool:
    v = _get(settings, name)
    if v is None:
        return default
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        return v.strip().lower() in ("1", "true", "yes", "on")
    raise ValueError(f"{name} must be True or False, not {v!r}")


def _number(settings: Any, name: str, default: float, lo: float, hi: float) -> float:
    v = _get(settings, name)
    if v is None:
        return default
    try:
        if isinstance(v, bool):
            raise TypeError
        x = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in {lo:g}..{hi:g}, not {v!r}") from None
    if not (math.isfinite(x) and lo <= x <= hi):
        raise ValueError(f"{name} must be a number in {lo:g}..{hi:g}, not {v!r}")
    return x


def _whole(settings: Any, name: str, default: int, lo: int, hi: int) -> int:
    v = _get(settings, name)
    if v is None:
        return default
    n = _whole_value(v)
    if n is None or not lo <= n <= hi:
        raise ValueError(f"{name} must be a whole number in {lo}..{hi}, not {v!r}")
    return n


def _whole_value(v: Any) -> Optional[int]:
    """An int from an int, an integral float or a decimal string; None otherwise."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("+").isdigit():
        return int(v.strip())
    return None


def _string(settings: Any, name: str) -> Optional[str]:
    v = _get(settings, name)
    if v is None or v == "":
        return None
    if not isinstance(v, (str, os.PathLike)):
        raise ValueError(f"{name} must be a string, not {v!r}")
    return os.fspath(v)


def _code_list(settings: Any, name: str) -> list[Any]:
    v = _get(settings, name)
    if v is None:
        return []
    if isinstance(v, str):  # from the command line: -s LANGSIFT_LANGUAGES=de,fr
        return [c for c in v.replace(",", " ").split() if c]
    if isinstance(v, (list, tuple, set, frozenset)):
        return list(v)
    raise ValueError(f"{name} must be a list of language codes such as ['de', 'fr'], not {v!r}")


def _known_languages(model_path: Optional[str]) -> frozenset[str]:
    return frozenset(_load_model(model_path).languages)


_models: dict[Optional[str], Model] = {}


def _load_model(path: Optional[str]) -> Model:
    """The built-in model, or a model file (loaded once per process)."""
    if path not in _models:
        if path is None:
            _models[path] = Model.builtin()
        else:
            try:  # a built-in model's name ("wide") wins over a file so named, as everywhere
                _models[path] = Model.named(path)
            except (OSError, LangsiftError) as e:
                raise ValueError(f"LANGSIFT_MODEL: cannot load {path!r}: {e}") from e
    return _models[path]


def _code(c: Any, name: str, known: frozenset[str]) -> str:
    """A language code as the model writes it (ISO 639-1 where one exists), or ValueError."""
    if not isinstance(c, str) or not c.strip():
        raise ValueError(f"{name}: {c!r} is not a language code (ISO 639-1 or 639-3, e.g. 'de' or 'deu')")
    raw = c.strip()
    for candidate in (raw, raw.replace("_", "-").split("-")[0]):
        code = to_iso639_1(candidate)
        if code in known:
            return code
    raise ValueError(f"{name}: {raw!r} is not a language the model knows (ISO 639-1 or 639-3 codes, "
                     f"e.g. 'de' or 'deu'; langsift.languages() lists them)")


def _quotas(settings: Any, known: frozenset[str]) -> dict[str, int]:
    name = "LANGSIFT_QUOTAS"
    raw = _get(settings, name)
    if raw is None or raw == "" or raw == {}:
        return {}
    if isinstance(raw, str):
        try:
            raw = settings.getdict(name)  # JSON from the command line
        except (ValueError, AttributeError):
            raise ValueError(f'{name} must be a mapping such as {{"de": 1000}}, not {raw!r}') from None
    if not isinstance(raw, Mapping) and not hasattr(raw, "items"):
        raise ValueError(f'{name} must be a mapping such as {{"de": 1000}}, not {raw!r}')
    out: dict[str, int] = {}
    for k, v in dict(raw).items():
        code = _code(k, name, known)
        n = _whole_value(v)
        if n is None or n < 1:
            raise ValueError(f"{name}[{k!r}] must be a whole number of pages >= 1, not {v!r}")
        out[code] = n
    return out


# ================================================================================================
# The crawl's state: one frontier per crawler

class _CrawlState:
    """What the middleware and the scheduler share for one crawler."""

    def __init__(self, config: LangsiftSettings) -> None:
        self.config = config
        self.frontier = config.new_frontier()
        self.model = _load_model(config.model)
        self.middleware = False  # a LanguageFocusMiddleware is attached
        self.closing = False     # close_spider was asked for


_states: "weakref.WeakKeyDictionary[Any, _CrawlState]" = weakref.WeakKeyDictionary()


def _state(crawler: Any) -> _CrawlState:
    """The crawler's state, made from its settings on first use (SettingsError when one is bad)."""
    st = _states.get(crawler)
    if st is None:
        try:
            config = LangsiftSettings.from_settings(crawler.settings)
        except ValueError as e:
            raise _refuse(e) from None
        st = _CrawlState(config)
        _states[crawler] = st
    return st


# ================================================================================================
# Settings errors at start-up: one line, no traceback, no crawl

class SettingsError(ValueError):
    """A LANGSIFT_* setting is wrong; the message names it. Raised by the middleware and the
    scheduler when Scrapy creates them, before any request: Scrapy then does not start the spider
    (``scrapy crawl`` exits with status 1). langsift.scrapy has logged the message as one CRITICAL
    line by then (see `_refuse`)."""


def _refuse(e: ValueError) -> SettingsError:
    """The SettingsError to raise for a bad setting, logged once as one line.

    Scrapy creates the middleware and the scheduler inside the Deferred of `Crawler.crawl`; an
    exception there fails that Deferred, which `scrapy crawl` only inspects for its exit status.
    Twisted then reports it, when the Deferred is garbage-collected, as "Unhandled error in
    Deferred" with ~60 lines of traceback (twice: on stderr and in Scrapy's log). That report of a
    SettingsError is left out (`_QuietReportedErrors`): the line logged here says all of it."""
    err = SettingsError(f"{e}; the spider does not start")
    err._langsift_reported = True  # type: ignore[attr-defined]
    logger.critical("%s", err)
    _quiet_twisted_reports()
    return err


class _QuietReportedErrors:
    """Wraps the observer of the logger with which Twisted reports unhandled Deferred failures
    (`twisted.internet.defer.log`): drops the report of an exception marked `_langsift_reported`,
    that is its "Unhandled error in Deferred:" line and the failure event that Twisted emits right
    after it (the line is held until the next event shows which failure it announces). Every other
    event goes through unchanged, in order."""

    HEADER = "Unhandled error in Deferred:"

    def __init__(self, observer: Any) -> None:
        self.observer = observer
        self._held = threading.local()

    def __call__(self, event: dict) -> None:
        held = getattr(self._held, "event", None)
        self._held.event = None
        if event.get("log_format") == self.HEADER:
            if held is not None:
                self.observer(held)
            self._held.event = event
            return
        failure = event.get("log_failure")
        if failure is not None and getattr(getattr(failure, "value", None), "_langsift_reported", False):
            return  # with the header held for it
        if held is not None:
            self.observer(held)
        self.observer(event)


def _quiet_twisted_reports() -> None:
    """Installs `_QuietReportedErrors` once (only when a settings error happened)."""
    try:
        from twisted.internet import defer
        log = defer.log
        if not isinstance(log.observer, _QuietReportedErrors):
            log.observer = _QuietReportedErrors(log.observer)
    except (ImportError, AttributeError):  # pragma: no cover - another Twisted: the traceback stays
        pass


def get_frontier(crawler: Any) -> Frontier:
    """The `langsift.Frontier` of a crawl (quotas, votes, fetched URLs), e.g. from an extension:
    ``get_frontier(self.crawler).quotas()``."""
    return _state(crawler).frontier


def page_language(response: Response, *, default: str = "und") -> str:
    """The language of a response's page: the middleware's answer when it ran, else detected now
    (`default` for a binary response or one without a language)."""
    page = _meta(response).get(META_PAGE)
    if page is None and META_PAGE not in _meta(response):
        page = _detect(response, None, main_content=False)
    if page is None:
        return default
    lang = page.detection.language
    return default if lang == "und" else lang


def _meta(response: Response) -> dict:
    try:
        return response.meta
    except AttributeError:  # a Response built without a Request has no meta
        return {}


def _header(response: Response, name: str) -> Optional[str]:
    v = response.headers.get(name)
    return v.decode("latin-1") if v else None


def _detect(response: Response, model: Optional[Model], main_content: bool) -> Optional[PageResult]:
    """detect_page on a text response (None for binary ones: Scrapy found no text in them)."""
    if not isinstance(response, TextResponse):
        return None
    try:
        return detect_page(response.body, content_type=_header(response, "Content-Type"),
                           content_language=_header(response, "Content-Language"), url=response.url,
                           main_content=main_content, model=model)
    except (LangsiftError, ValueError, TypeError) as e:
        logger.warning("langsift: cannot detect the language of %s: %s", response.url, e)
        return None


def _is_web_url(url: str) -> bool:
    return url.startswith(("http://", "https://"))


# ================================================================================================
# The spider middleware

class _Page:
    """One response's part in the output: its detection and the links it already voted for."""

    __slots__ = ("detection", "language", "voted")

    def __init__(self, page: Optional[PageResult]) -> None:
        d = page.detection if page is not None else None
        # Short pages and pages without a language cast no vote (the frontier checks it too; this
        # saves a call per link).
        self.detection: Optional[Detection] = d if d is not None and not d.is_short and d.language != "und" else None
        self.language = d.language if d is not None else "und"
        self.voted: set[str] = set()


class LanguageFocusMiddleware:
    """Scrapy spider middleware: language detection, referrer votes, link priorities and skips.

    See the module docstring. Enable with
    ``SPIDER_MIDDLEWARES = {"langsift.scrapy.LanguageFocusMiddleware": 543}``."""

    def __init__(self, crawler: Any) -> None:
        try:
            enabled = _flag(crawler.settings, "LANGSIFT_ENABLED", True)
        except ValueError as e:
            raise _refuse(e) from None
        if not enabled:
            raise NotConfigured("LANGSIFT_ENABLED is False")
        self.crawler = crawler
        self.state = _state(crawler)
        self.state.middleware = True
        self.config = self.state.config
        self.frontier = self.state.frontier
        self.stats = crawler.stats
        self._item_field_warned = False
        self._save_state = True  # False when JOBDIR holds a state that could not be read nor moved
        crawler.signals.connect(self._opened, signal=signals.spider_opened)
        crawler.signals.connect(self._closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "LanguageFocusMiddleware":
        return cls(crawler)

    # ---- signals ------------------------------------------------------------------------------

    def _opened(self, spider: Spider) -> None:
        path = _state_path(self.crawler)
        if path and os.path.lexists(path):
            try:
                self.frontier.load(path)
            except (OSError, LangsiftError) as e:
                # Kept aside, so that the state saved at close does not overwrite what may be the
                # only copy of a long crawl's state (to be repaired or inspected by hand).
                try:
                    aside = _keep_aside(path)
                except OSError as e2:
                    self._save_state = False
                    logger.error("langsift: cannot resume the frontier from %s (%s) and cannot keep it aside (%s): "
                                 "starting with an empty one, which will not be saved over it", path, e, e2)
                else:
                    logger.error("langsift: cannot resume the frontier from %s (%s); kept it as %s, starting with "
                                 "an empty one", path, e, aside)
            else:
                logger.info("langsift: resumed the frontier from %s (%d URLs)", path, len(self.frontier))
            # The saved quotas give way to the settings (the counts stay): they may have changed.
            for code in self.config.languages:
                self.frontier.set_quota(code, self.config.quotas.get(code, UNLIMITED))
        if self.config.focused:
            quotas = ", ".join(f"{c} ({'no quota' if self.config.quotas.get(c) is None else self.config.quotas[c]})"
                               for c in self.config.languages)
            logger.info("langsift: focusing the crawl on %s", quotas)
        else:
            logger.info("langsift: no LANGSIFT_LANGUAGES: pages are annotated, the crawl is not steered")

    def _closed(self, spider: Spider, reason: str) -> None:
        path = _state_path(self.crawler)
        if path and self._save_state:
            self.frontier.save(path)
        elif path:
            logger.error("langsift: the frontier is not saved to %s (an unreadable state is there, see above)", path)
        for code, (target, count) in self.frontier.quotas().items():
            if target:
                self.stats.set_value(f"langsift/quota/{code}", count, spider=spider)

    # ---- responses ----------------------------------------------------------------------------

    def process_spider_input(self, response: Response, spider: Spider) -> None:
        """Detects the page, stores the result in response.meta["langsift"], records the fetch."""
        page = _detect(response, self.state.model, self.config.main_content)
        _meta(response)[META_PAGE] = page
        self._record(response, page, spider)
        return None

    def _record(self, response: Response, page: Optional[PageResult], spider: Spider) -> None:
        """The fetch counts toward the page's language's quota when it is a 2xx page with a
        language; other responses (errors, binary, no text) only mark their URL fetched."""
        ok = 200 <= response.status < 300 and page is not None and page.detection.language != "und"
        if ok:
            self.frontier.record_fetch(response.url, page.detection)
            self.stats.inc_value(f"langsift/pages/{page.detection.language}", spider=spider)
        else:
            self.frontier.mark_fetched(response.url)
            self.stats.inc_value("langsift/pages/binary" if page is None else "langsift/pages/und", spider=spider)
        if page is not None and page.detection.is_short:
            self.stats.inc_value("langsift/pages/short", spider=spider)
        for url in _meta(response).get("redirect_urls", ()):  # the URLs that led here are fetched too
            self.frontier.mark_fetched(url)
        if ok and self.config.close_on_quotas and self.config.quotas and not self.state.closing \
                and self.frontier.all_saturated():
            self.state.closing = True
            logger.info("langsift: every quota is met (%s); closing the spider", self.frontier.quotas())
            self.crawler.engine.close_spider(spider, CLOSE_REASON)

    # ---- spider output ------------------------------------------------------------------------

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Spider) -> Iterator[Any]:
        """Votes for, ranks or drops every Request; fills items' language field."""
        page = _Page(_meta(response).get(META_PAGE))
        for x in result:
            y = self._one(x, page, spider)
            if y is not None:
                yield y

    async def process_spider_output_async(self, response: Response, result: AsyncIterable[Any],
                                          spider: Spider) -> AsyncIterable[Any]:
        """process_spider_output for async callbacks."""
        page = _Page(_meta(response).get(META_PAGE))
        async for x in result:
            y = self._one(x, page, spider)
            if y is not None:
                yield y

    def _one(self, x: Any, page: _Page, spider: Spider) -> Any:
        if isinstance(x, Request):
            return self._request(x, page, spider)
        if self.config.item_field and x is not None:
            self._fill_item(x, page.language)
        return x

    def _request(self, request: Request, page: _Page, spider: Spider) -> Optional[Request]:
        if not self.config.focused or request.meta.get(META_SKIP) or not _is_web_url(request.url):
            return request  # not ours to judge: data:, mailto:, opted out, or nothing wanted
        url = request.url
        if page.detection is not None and url not in page.voted:
            page.voted.add(url)
            n = self.frontier.add_votes(page.detection, [url])
            if n:
                self.stats.inc_value("langsift/votes", n, spider=spider)
        d = self.frontier.decide(url, classify=self.config.url_classifier, min_url_score=self.config.min_url_score)
        self.stats.inc_value("langsift/requests/decided", spider=spider)
        # dont_filter requests are wanted whatever the frontier says (logins, pagination...).
        if not request.dont_filter:
            if not d.fetch:
                self.stats.inc_value(f"langsift/requests/dropped/{d.reason}", spider=spider)
                return None
            if d.priority < self.config.min_priority:
                self.stats.inc_value("langsift/requests/dropped/priority", spider=spider)
                return None
        base = request.priority
        request.meta[META_LINK] = {"priority": float(d.priority), "votes": int(d.votes), "language": d.language,
                                   "reason": d.reason, "base_priority": base}
        request.priority = base + round(d.priority * self.config.priority_scale)
        return request

    def _fill_item(self, item: Any, language: str) -> None:
        """Sets the item's LANGSIFT_ITEM_FIELD to the page's language, unless the spider set it."""
        name = self.config.item_field
        if not is_item(item):
            return
        adapter = ItemAdapter(item)
        try:
            if adapter.get(name) is None:
                adapter[name] = language
        except KeyError:
            # A scrapy.Item (or dataclass) without that field: say so once, never fail the crawl.
            if not self._item_field_warned:
                self._item_field_warned = True
                logger.warning("LANGSIFT_ITEM_FIELD %r is not a field of %s: its items get no language",
                               name, type(item).__name__)


def _state_path(crawler: Any) -> Optional[str]:
    jobdir = crawler.settings.get("JOBDIR")
    return os.path.join(jobdir, STATE_FILE) if jobdir else None


def _keep_aside(path: str) -> str:
    """Renames `path` to the first free name of ``path.corrupt``, ``path.corrupt.1``, ... (an
    earlier corrupt state is never replaced) and returns that name."""
    for n in itertools.count():
        aside = f"{path}.corrupt" + (f".{n}" if n else "")
        if not os.path.lexists(aside):
            os.rename(path, aside)
            return aside
    raise AssertionError("unreachable")


# ================================================================================================
# The scheduler

@dataclass
class _Held:
    seq: int
    score: float
    request: Request


class FrontierScheduler(Scheduler):
    """Scrapy's Scheduler, plus a frontier-ranked store for the links LanguageFocusMiddleware
    decided on.

    Such a request (request.meta["langsift_link"]) is held until Scrapy asks for the next request;
    then the held request with the highest score ``base_priority + priority *
    LANGSIFT_PRIORITY_SCALE`` goes out, its priority asked of the frontier again at that moment
    (a lazy max-heap: a request whose priority fell since it was pushed is pushed back with the
    lower one; one that the frontier now skips, or whose priority is under LANGSIFT_MIN_PRIORITY,
    is dropped). When the spider yields a link that is already held, Scrapy's dupefilter rejects
    the new Request, but its fresher, higher priority (the middleware counted the new vote) is
    given to the held one. Ties go first-in first-out. Other requests use Scrapy's queues (and
    JOBDIR disk queues) as with Scrapy's Scheduler, and go before held ones.

    Enable with ``SCHEDULER = "langsift.scrapy.FrontierScheduler"`` (with the middleware).
    """

    def __init__(self, dupefilter: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(dupefilter, *args, **kwargs)
        self._heap: list[tuple[float, int, Any]] = []
        self._held: dict[Any, _Held] = {}
        self._seq = itertools.count()
        self._state: Optional[_CrawlState] = None

    # ---- life cycle ---------------------------------------------------------------------------

    @classmethod
    def from_crawler(cls, crawler: Any) -> "FrontierScheduler":
        _state(crawler)  # a bad setting stops here, before the spider is opened
        return super().from_crawler(crawler)

    def open(self, spider: Spider) -> Any:
        if self.crawler is None:
            raise ValueError("FrontierScheduler needs a crawler (create it with FrontierScheduler.from_crawler)")
        self._state = _state(self.crawler)
        if not self._state.middleware:
            logger.warning("FrontierScheduler: langsift.scrapy.LanguageFocusMiddleware is not in SPIDER_MIDDLEWARES; "
                           "requests are scheduled as by Scrapy's Scheduler")
        return super().open(spider)

    def close(self, reason: str) -> Any:
        if self.dqs is not None and self._held:
            # JOBDIR: the held requests go to the disk queue with their current score, so a resumed
            # crawl has them (next_request moves them back into the heap).
            for h in self._held.values():
                h.request.priority = math.floor(h.score)
                if not self._dqpush(h.request):
                    logger.warning("FrontierScheduler: could not save %s to JOBDIR", h.request)
            self._held.clear()
            self._heap.clear()
        return super().close(reason)

    def __len__(self) -> int:
        return super().__len__() + len(self._held)

    def has_pending_requests(self) -> bool:
        return len(self) > 0

    # ---- in and out ---------------------------------------------------------------------------

    def enqueue_request(self, request: Request) -> bool:
        link = request.meta.get(META_LINK)
        if not isinstance(link, dict) or self._state is None or not self._state.config.focused:
            return super().enqueue_request(request)
        key = self._key(request)
        if not request.dont_filter and self.df.request_seen(request):
            self._raise(key, request, link)
            self.df.log(request, self.spider)
            return False
        self._push(key, request, self._score(link, float(link.get("priority", 0.0))))
        self.stats.inc_value("scheduler/enqueued/memory", spider=self.spider)
        self.stats.inc_value("scheduler/enqueued", spider=self.spider)
        self.stats.inc_value("langsift/scheduler/held", spider=self.spider)
        return True

    def next_request(self) -> Optional[Request]:
        while True:
            request = super().next_request()
            if request is None:
                return self._pop_held()
            if isinstance(request.meta.get(META_LINK), dict) and self._state is not None and self._state.config.focused:
                # A held request saved to JOBDIR by an earlier run: back into the heap.
                link = request.meta[META_LINK]
                self._push(self._key(request), request, self._score(link, float(link.get("priority", 0.0))))
                continue
            return request

    # ---- the heap -----------------------------------------------------------------------------

    def _key(self, request: Request) -> Any:
        if request.dont_filter:
            return ("unfiltered", next(self._seq))  # never merged with another request
        fp = getattr(self.crawler, "request_fingerprinter", None)
        return fp.fingerprint(request) if fp is not None else request.url

    @staticmethod
    def _base(link: Mapping[str, Any]) -> float:
        b = link.get("base_priority", 0)
        return float(b) if isinstance(b, (int, float)) else 0.0

    def _score(self, link: Mapping[str, Any], priority: float) -> float:
        assert self._state is not None
        return self._base(link) + priority * self._state.config.priority_scale

    def _push(self, key: Any, request: Request, score: float) -> None:
        seq = next(self._seq)
        self._held[key] = _Held(seq, score, request)
        heapq.heappush(self._heap, (-score, seq, key))

    def _raise(self, key: Any, request: Request, link: Mapping[str, Any]) -> None:
        """A held link was yielded again, after a new vote: it takes the fresher score if higher."""
        held = self._held.get(key)
        if held is None:
            return
        # The held request keeps its own base priority (its depth, the spider's priority).
        score = self._score(held.request.meta[META_LINK], float(link.get("priority", 0.0)))
        if score > held.score + 1e-9:
            self._push(key, held.request, score)
            self.stats.inc_value("langsift/scheduler/raised", spider=self.spider)

    def _pop_held(self) -> Optional[Request]:
        assert self._state is not None or not self._held
        while self._heap:
            neg, seq, key = heapq.heappop(self._heap)
            held = self._held.get(key)
            if held is None or held.seq != seq:
                continue  # superseded by a later push
            request = held.request
            d = self._state.frontier.decide(request.url, classify=self._state.config.url_classifier,
                                            min_url_score=self._state.config.min_url_score)
            if not request.dont_filter and (not d.fetch or d.priority < self._state.config.min_priority):
                del self._held[key]
                self.stats.inc_value(f"langsift/scheduler/dropped/{d.reason if not d.fetch else 'priority'}",
                                     spider=self.spider)
                continue
            link = request.meta[META_LINK]
            score = self._score(link, d.priority)
            if score < -neg - 1e-9:
                self._push(key, request, score)  # fell since pushed: back in at its true place
                self.stats.inc_value("langsift/scheduler/lowered", spider=self.spider)
                continue
            del self._held[key]
            link.update(priority=float(d.priority), votes=int(d.votes), language=d.language, reason=d.reason)
            request.priority = math.floor(score)
            self.stats.inc_value("scheduler/dequeued/memory", spider=self.spider)
            self.stats.inc_value("scheduler/dequeued", spider=self.spider)
            return request
        return None
