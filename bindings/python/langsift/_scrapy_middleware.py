"""langsift.scrapy's spider middleware, LanguageFocusMiddleware: detects each response's language,
records the fetch in the crawl's frontier, lets the page vote for the links it yields and ranks
or drops them; saves and resumes the frontier under JOBDIR."""

from __future__ import annotations

import itertools
import logging
import os
from typing import Any, AsyncIterable, Iterable, Iterator, Optional

from itemadapter import ItemAdapter, is_item
from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from . import Detection, LangsiftError, PageResult
from ._scrapy_settings import UNLIMITED, _flag
from ._scrapy_state import (CLOSE_REASON, META_LINK, META_PAGE, META_SKIP, STATE_FILE, _detect, _is_web_url, _meta,
                            _refuse, _state)

# Every part logs as langsift.scrapy (the name the messages have always had).
logger = logging.getLogger("langsift.scrapy")


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
