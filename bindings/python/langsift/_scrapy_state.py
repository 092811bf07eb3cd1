"""langsift.scrapy's shared parts: the meta keys and names the middleware and the scheduler use,
the crawl's state (one frontier per crawler), settings errors at start-up (one CRITICAL line, no
traceback, no crawl), and a response's page language."""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, Optional

from scrapy.http import Response, TextResponse

from . import Frontier, LangsiftError, Model, PageResult, detect_page
from ._scrapy_settings import LangsiftSettings, _load_model

# Every part logs as langsift.scrapy (the name the messages have always had).
logger = logging.getLogger("langsift.scrapy")

#: response.meta key of the page's `PageResult` (None for a binary response).
META_PAGE = "langsift"
#: request.meta key of the frontier's decision about a link:
#: {"priority", "votes", "language", "reason", "base_priority"}.
META_LINK = "langsift_link"
#: request.meta key: True leaves the request alone (no vote, no priority, never dropped).
META_SKIP = "langsift_ignore"
#: Close reason when every quota is met.
CLOSE_REASON = "langsift_quotas_met"
#: File of the frontier's state under JOBDIR.
STATE_FILE = "langsift-frontier.bin"


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
