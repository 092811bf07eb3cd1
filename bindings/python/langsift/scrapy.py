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

try:
    from itemadapter import ItemAdapter, is_item
    from scrapy import Request, Spider, signals
    from scrapy.core.scheduler import Scheduler
    from scrapy.exceptions import NotConfigured
    from scrapy.http import Response, TextResponse
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "langsift.scrapy needs Scrapy (pip install scrapy; Debian: apt install python3-scrapy)") from e

# The package's parts, one subject each; this module gathers the public names (and the private
# ones the tests reach).
from ._scrapy_middleware import LanguageFocusMiddleware, _Page
from ._scrapy_scheduler import FrontierScheduler
from ._scrapy_settings import KNOWN_SETTINGS, UNLIMITED, LangsiftSettings
from ._scrapy_state import (CLOSE_REASON, META_LINK, META_PAGE, META_SKIP, STATE_FILE, SettingsError, get_frontier,
                            logger, page_language)

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
