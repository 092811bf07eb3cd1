"""langsift.scrapy's scheduler, FrontierScheduler: Scrapy's Scheduler plus a frontier-ranked store
of the links LanguageFocusMiddleware decided on, handed out by their current priority."""

from __future__ import annotations

import heapq
import itertools
import logging
import math
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from scrapy import Request, Spider
from scrapy.core.scheduler import Scheduler

from ._scrapy_state import META_LINK, _CrawlState, _state

# Every part logs as langsift.scrapy (the name the messages have always had).
logger = logging.getLogger("langsift.scrapy")


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
