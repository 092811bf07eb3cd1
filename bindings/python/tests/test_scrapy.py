"""langsift.scrapy: the spider middleware, the frontier scheduler, their settings, and real Scrapy
crawls of a generated multilingual site (sitegen.py) served on 127.0.0.1.

Each crawl runs in a subprocess (Scrapy's reactor cannot restart in one process), bounded by
CLOSESPIDER_PAGECOUNT, CLOSESPIDER_TIMEOUT and a subprocess timeout. Harvest rates are computed
from the generator's ground truth, not from langsift's answers.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Optional

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.test import get_crawler

import langsift
import langsift.scrapy as ls
import sitegen

CORPUS = sitegen.CORPUS_DIR
BASE = "http://site.test"


# ---- helpers --------------------------------------------------------------------------------------

def _text(code: str, first: int, lines: int) -> list[str]:
    return CORPUS.joinpath(f"{code}.txt").read_text(encoding="utf-8").splitlines()[first:first + lines]


def _page(url: str, code: str, links: list[str], *, lines: int = 6, first: int = 0) -> HtmlResponse:
    """An HTML response of `lines` corpus lines in `code` with links, as if fetched for `url`."""
    body = "<html><body>" + "".join(f"<p>{l}</p>" for l in _text(code, first, lines))
    body += "".join(f'<a href="{h}">link</a>' for h in links) + "</body></html>"
    return HtmlResponse(url, body=body.encode(), headers={"Content-Type": "text/html; charset=utf-8"},
                        request=Request(url))


def _crawler(scrapy_settings: Optional[dict] = None, **langsift_settings: object):
    settings = dict(scrapy_settings or {})
    settings.update({f"LANGSIFT_{k}": v for k, v in langsift_settings.items()})
    return get_crawler(scrapy.Spider, settings)


def _middleware(**langsift_settings: object) -> tuple[ls.LanguageFocusMiddleware, scrapy.Spider]:
    crawler = _crawler(**langsift_settings)
    crawler.spider = crawler._create_spider("unit")
    return ls.LanguageFocusMiddleware.from_crawler(crawler), crawler.spider


def _run(mw: ls.LanguageFocusMiddleware, response: Response, spider: scrapy.Spider, out: list) -> list:
    """The response through the middleware as Scrapy would: input, then the spider's output."""
    mw.process_spider_input(response, spider)
    return list(mw.process_spider_output(response, iter(out), spider))


# ---- settings ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("settings, message", [
    ({"LANGUAGES": ["german"]}, "LANGSIFT_LANGUAGES: 'german' is not a language the model knows"),
    ({"LANGUAGES": 7}, "LANGSIFT_LANGUAGES must be a list of language codes"),
    ({"LANGUAGES": [""]}, "is not a language code"),
    ({"QUOTAS": {"de": 0}}, r"LANGSIFT_QUOTAS\['de'\] must be a whole number of pages >= 1"),
    ({"QUOTAS": {"de": "many"}}, r"LANGSIFT_QUOTAS\['de'\] must be a whole number"),
    ({"QUOTAS": {"xx": 5}}, "LANGSIFT_QUOTAS: 'xx' is not a language"),
    ({"QUOTAS": "de=5"}, "LANGSIFT_QUOTAS must be a mapping"),
    ({"MIN_PRIORITY": 1.5}, r"LANGSIFT_MIN_PRIORITY must be a number in 0\.\.1"),
    ({"MIN_PRIORITY": "high"}, "LANGSIFT_MIN_PRIORITY must be a number"),
    ({"MIN_PRIORITY": float("nan")}, "LANGSIFT_MIN_PRIORITY must be a number"),
    ({"URL_WEIGHT": -1}, "LANGSIFT_URL_WEIGHT must be a number"),
    ({"MIN_VOTE_PERCENT": 101}, r"LANGSIFT_MIN_VOTE_PERCENT must be a whole number in 0\.\.100"),
    ({"PRIORITY_SCALE": 0}, "LANGSIFT_PRIORITY_SCALE must be a whole number"),
    ({"CLOSE_ON_QUOTAS": "perhaps"}, "LANGSIFT_CLOSE_ON_QUOTAS must be True or False"),
    ({"ITEM_FIELD": 3}, "LANGSIFT_ITEM_FIELD must be a string"),
    ({"LANGUGES": ["de"]}, "unknown setting LANGSIFT_LANGUGES .did you mean LANGSIFT_LANGUAGES"),
    ({"MODEL": "/nonexistent/model.bin"}, "LANGSIFT_MODEL: cannot load"),
])
def test_bad_settings_raise_value_error_naming_the_setting(settings: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ls.LanguageFocusMiddleware.from_crawler(_crawler(**settings))


def test_disabled_middleware_is_not_configured() -> None:
    with pytest.raises(NotConfigured, match="LANGSIFT_ENABLED"):
        ls.LanguageFocusMiddleware.from_crawler(_crawler(ENABLED=False, LANGUAGES=["de"]))


def test_command_line_strings_are_parsed() -> None:
    # `scrapy crawl -s LANGSIFT_LANGUAGES=deu,fr -s 'LANGSIFT_QUOTAS={"pl": 10}'` gives strings.
    c = ls.LangsiftSettings.from_settings(_crawler(
        LANGUAGES="deu, fr", QUOTAS='{"pol": "10"}', MIN_PRIORITY="0.25", CLOSE_ON_QUOTAS="false").settings)
    assert c.languages == ("de", "fr", "pl")  # a quota makes its language wanted
    assert dict(c.quotas) == {"pl": 10}
    assert c.min_priority == 0.25 and c.close_on_quotas is False and c.focused
    f = c.new_frontier()
    assert f.quota("pl") == (10, 0)
    assert f.quota("de")[0] == ls.UNLIMITED  # wanted without a quota: never met


def test_bad_setting_stops_a_real_crawl(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="LANGSIFT_MIN_PRIORITY must be a number in 0..1"):
        sitegen.run_crawl("http://127.0.0.1:9", ["/"], sitegen.variant_settings("middleware", ["de"], MIN_PRIORITY=2),
                          budget=5, workdir=tmp_path, seconds=20)


# ---- the middleware, one response at a time ---------------------------------------------------------

def test_middleware_detects_records_votes_and_ranks() -> None:
    mw, spider = _middleware(LANGUAGES=["de"], ITEM_FIELD="language", URL_CLASSIFIER=False)
    links = [f"{BASE}/p/{i}.html" for i in range(3)]
    page = _page(f"{BASE}/p/start.html", "de", links)
    item = {"url": page.url}
    out = _run(mw, page, spider, [Request(links[0]), Request(links[0]), item, Request(links[1]),
                                  Request(links[2], priority=5)])

    result = page.meta["langsift"]
    assert isinstance(result, langsift.PageResult)
    assert result.detection.language == "de" and not result.detection.is_short
    assert ls.page_language(page) == "de"
    assert mw.frontier.fetched(page.url) and mw.frontier.quota("de")[1] == 1
    # One vote per link and page, however often the spider yields the link.
    assert mw.frontier.votes(links[0]) == {"de": 1}
    requests = [x for x in out if isinstance(x, Request)]
    assert len(requests) == 4 and item in out and item["language"] == "de"
    # p(de) = 1 vote / (1 vote + 1 prior) plus the prior's mass at unknown_priority 0.1.
    link = requests[0].meta["langsift_link"]
    assert link["language"] == "de" and link["votes"] == 1 and link["reason"] == "wanted"
    assert link["priority"] == pytest.approx(0.55, abs=1e-6)
    assert requests[0].priority == 550
    assert requests[3].priority == 5 + 550 and requests[3].meta["langsift_link"]["base_priority"] == 5

    # A second German page linking to links[1] raises it above links[2].
    second = _page(f"{BASE}/p/second.html", "de", [links[1]], first=20)
    again = _run(mw, second, spider, [Request(links[1])])
    assert again[0].meta["langsift_link"]["votes"] == 2 and again[0].priority == 700
    assert mw.crawler.stats.get_value("langsift/votes") == 4
    assert mw.crawler.stats.get_value("langsift/pages/de") == 2


def test_short_pages_do_not_vote_and_other_languages_rank_low() -> None:
    mw, spider = _middleware(LANGUAGES=["de"], URL_CLASSIFIER=False)
    short = _page(f"{BASE}/p/short.html", "de", [f"{BASE}/p/a.html"], lines=1)
    out = _run(mw, short, spider, [Request(f"{BASE}/p/a.html")])
    assert short.meta["langsift"].detection.is_short
    assert mw.frontier.votes(f"{BASE}/p/a.html") == {}
    assert out[0].meta["langsift_link"]["reason"] == "unknown" and out[0].priority == 100  # unknown_priority
    french = _page(f"{BASE}/p/fr.html", "fr", [f"{BASE}/p/b.html"])
    out = _run(mw, french, spider, [Request(f"{BASE}/p/b.html")])
    assert mw.frontier.votes(f"{BASE}/p/b.html") == {"fr": 1}
    assert out[0].meta["langsift_link"]["reason"] == "unwanted" and out[0].priority < 100


def test_saturated_languages_and_low_priorities_are_dropped() -> None:
    mw, spider = _middleware(LANGUAGES=["de"], QUOTAS={"fr": 1}, MIN_PRIORITY=0.3, URL_CLASSIFIER=False,
                             CLOSE_ON_QUOTAS=False)
    stats = mw.crawler.stats
    # The French quota is met by this page; its links then have only a saturated language's vote.
    french = _page(f"{BASE}/p/fr.html", "fr", [])
    wanted_anyway = Request(f"{BASE}/p/f3.html", dont_filter=True)
    ignored = Request(f"{BASE}/p/f4.html", meta={"langsift_ignore": True}, priority=-3)
    out = _run(mw, french, spider, [Request(f"{BASE}/p/f1.html"), Request(f"{BASE}/p/f2.html"), wanted_anyway,
                                    ignored, Request("ftp://example.org/f.txt"), Request("data:,x")])
    assert mw.frontier.saturated("fr")
    assert stats.get_value("langsift/requests/dropped/saturated") == 2
    assert [r.url for r in out] == [wanted_anyway.url, ignored.url, "ftp://example.org/f.txt", "data:,x"]
    assert ignored.priority == -3 and "langsift_link" not in ignored.meta  # left alone
    # Nothing known: priority 0.1 < LANGSIFT_MIN_PRIORITY 0.3.
    german = _page(f"{BASE}/p/de.html", "de", [])
    out = _run(mw, german, spider, [Request(f"{BASE}/p/g1.html")])
    assert [r.url for r in out] == [f"{BASE}/p/g1.html"]  # one German vote: 0.55
    short = _page(f"{BASE}/p/short.html", "de", [], lines=1)
    assert _run(mw, short, spider, [Request(f"{BASE}/p/g2.html")]) == []
    assert stats.get_value("langsift/requests/dropped/priority") == 1
    # A link to a page fetched already is dropped too (Scrapy's dupefilter would drop it later).
    assert _run(mw, german, spider, [Request(french.url)]) == []
    assert stats.get_value("langsift/requests/dropped/fetched") == 1


def test_binary_and_odd_responses_do_not_break_anything(caplog: pytest.LogCaptureFixture) -> None:
    mw, spider = _middleware(LANGUAGES=["de"], ITEM_FIELD="language", URL_CLASSIFIER=False)
    image = Response(f"{BASE}/img/a.png", body=sitegen.PNG_1X1, headers={"Content-Type": "image/png"},
                     request=Request(f"{BASE}/img/a.png"))
    item = {"url": image.url}
    out = _run(mw, image, spider, [item, Request(f"{BASE}/p/x.html")])
    assert image.meta["langsift"] is None and ls.page_language(image) == "und"
    assert item["language"] == "und" and len(out) == 2
    assert mw.frontier.fetched(image.url) and mw.frontier.votes(f"{BASE}/p/x.html") == {}
    assert mw.crawler.stats.get_value("langsift/pages/binary") == 1
    # A response built without a request (no meta), an empty body, a non-UTF-8 body.
    loose = HtmlResponse(f"{BASE}/loose.html", body=b"<html><body>" + "Größe".encode("latin-1") * 50 + b"</body></html>")
    mw.process_spider_input(loose, spider)
    empty = HtmlResponse(f"{BASE}/empty.html", body=b"", request=Request(f"{BASE}/empty.html"))
    assert _run(mw, empty, spider, [Request(f"{BASE}/p/y.html")])[0].meta["langsift_link"]["reason"] == "unknown"
    assert empty.meta["langsift"].detection.language == "und"
    # An item type without the field: a warning, once, and the item goes on unchanged.

    class Product(scrapy.Item):
        name = scrapy.Field()

    page = _page(f"{BASE}/p/items.html", "de", [])
    with caplog.at_level(logging.WARNING, logger="langsift.scrapy"):
        out = _run(mw, page, spider, [Product(name="a"), Product(name="b"), {"language": "fr"}])
    assert [dict(x) for x in out] == [{"name": "a"}, {"name": "b"}, {"language": "fr"}]  # the spider's value stays
    assert sum("is not a field of Product" in r.getMessage() for r in caplog.records) == 1


def test_async_callbacks_get_the_same_treatment() -> None:
    mw, spider = _middleware(LANGUAGES=["de"], ITEM_FIELD="language", URL_CLASSIFIER=False)
    page = _page(f"{BASE}/p/async.html", "de", [])
    mw.process_spider_input(page, spider)

    async def callback():
        yield Request(f"{BASE}/p/q.html")
        yield {"url": page.url}

    async def collect() -> list:
        return [x async for x in mw.process_spider_output_async(page, callback(), spider)]

    out = asyncio.run(collect())
    assert out[0].priority == 550 and out[1] == {"url": page.url, "language": "de"}
    assert mw.frontier.votes(f"{BASE}/p/q.html") == {"de": 1}


def test_page_language_without_the_middleware() -> None:
    page = _page(f"{BASE}/p/pl.html", "pl", [])
    assert ls.page_language(page) == "pl"


def test_unfocused_middleware_only_annotates() -> None:
    mw, spider = _middleware(ITEM_FIELD="lang")
    page = _page(f"{BASE}/p/nl.html", "nl", [])
    r = Request(f"{BASE}/p/z.html", priority=2)
    out = _run(mw, page, spider, [r, {}])
    assert page.meta["langsift"].detection.language == "nl" and out[1] == {"lang": "nl"}
    assert out[0] is r and r.priority == 2 and "langsift_link" not in r.meta


# ---- the scheduler ----------------------------------------------------------------------------------

def test_scheduler_reranks_held_requests_by_current_votes() -> None:
    crawler = _crawler(LANGUAGES=["de"], QUOTAS={"de": 3}, URL_CLASSIFIER=False, CLOSE_ON_QUOTAS=False)
    crawler.spider = spider = crawler._create_spider("unit")
    mw = ls.LanguageFocusMiddleware.from_crawler(crawler)
    sched = ls.FrontierScheduler.from_crawler(crawler)
    sched.open(spider)
    stats = crawler.stats

    def feed(response: Response, links: list[str]) -> None:
        for r in _run(mw, response, spider, [Request(u) for u in links]):
            sched.enqueue_request(r)

    x, y, z = (f"{BASE}/p/{n}.html" for n in "xyz")
    assert sched.enqueue_request(Request(f"{BASE}/start.html"))  # not the middleware's: Scrapy's queue
    feed(_page(f"{BASE}/p/a.html", "de", []), [x, y])         # x, y: one German vote each (0.55)
    feed(_page(f"{BASE}/p/b.html", "es", []), [z])            # z: a Spanish vote (0.05)
    feed(_page(f"{BASE}/p/c.html", "de", [], first=30), [y])  # y again: two votes (0.7), a duplicate
    assert len(sched) == 4 and stats.get_value("langsift/scheduler/raised") == 1
    assert stats.get_value("dupefilter/filtered") == 1

    assert sched.next_request().url == f"{BASE}/start.html"  # Scrapy's queue first
    nxt = sched.next_request()
    assert nxt.url == y and nxt.meta["langsift_link"]["votes"] == 2 and nxt.priority == 700
    # A third German page meets the German quota: x (only German votes) is skipped when its turn
    # comes, although it was queued with 0.55; z (Spanish, not saturated) still goes.
    _run(mw, _page(f"{BASE}/p/d.html", "de", [], first=60), spider, [])
    assert mw.frontier.saturated("de")
    assert sched.next_request().url == z
    assert sched.next_request() is None and len(sched) == 0 and not sched.has_pending_requests()
    assert stats.get_value("langsift/scheduler/dropped/saturated") == 1

    # A held request whose priority fell since it was queued waits behind the others.
    crawler2 = _crawler(LANGUAGES=["de"], QUOTAS={"de": 1}, URL_CLASSIFIER=False, CLOSE_ON_QUOTAS=False)
    crawler2.spider = spider2 = crawler2._create_spider("unit")
    mw2 = ls.LanguageFocusMiddleware.from_crawler(crawler2)
    sched2 = ls.FrontierScheduler.from_crawler(crawler2)
    sched2.open(spider2)
    english = _page(f"{BASE}/p/e.html", "en", [], first=40)
    for r in _run(mw2, english, spider2, [Request(x), Request(y)]):  # one English vote each: 0.05
        sched2.enqueue_request(r)
    mw2.frontier.vote(x, "de")  # x: English and German votes (0.37)
    r = mw2._request(Request(x), ls._Page(None), spider2)
    assert r.meta["langsift_link"]["priority"] == pytest.approx(0.1 / 3 + 1 / 3, abs=1e-6)
    assert not sched2.enqueue_request(r)  # a duplicate with a higher priority: x goes up
    mw2.frontier.count_page("de")  # German is met: x's German vote counts no more (0.033)
    assert [sched2.next_request().url for _ in range(2)] == [y, x]
    assert crawler2.stats.get_value("langsift/scheduler/lowered") == 1


def test_scheduler_without_the_middleware_is_scrapys() -> None:
    crawler = _crawler(LANGUAGES=["de"])
    crawler.spider = spider = crawler._create_spider("unit")
    sched = ls.FrontierScheduler.from_crawler(crawler)
    sched.open(spider)
    for i, p in enumerate([0, 5, 1]):
        assert sched.enqueue_request(Request(f"{BASE}/{i}.html", priority=p))
    assert not sched.enqueue_request(Request(f"{BASE}/0.html"))
    assert [sched.next_request().url for _ in range(3)] == [f"{BASE}/1.html", f"{BASE}/2.html", f"{BASE}/0.html"]
    assert not sched.has_pending_requests()


def test_jobdir_keeps_the_frontier_and_the_held_requests(tmp_path: Path) -> None:
    def start() -> tuple:
        crawler = _crawler({"JOBDIR": str(tmp_path)}, LANGUAGES=["de"], URL_CLASSIFIER=False)
        crawler.spider = spider = crawler._create_spider("unit")
        mw = ls.LanguageFocusMiddleware.from_crawler(crawler)
        sched = ls.FrontierScheduler.from_crawler(crawler)
        mw._opened(spider)  # what the spider_opened signal calls
        sched.open(spider)
        return mw, sched, spider

    x, y = f"{BASE}/p/x.html", f"{BASE}/p/y.html"
    mw, sched, spider = start()
    for page, links in ((_page(f"{BASE}/p/a.html", "de", []), [x, y]), (_page(f"{BASE}/p/b.html", "de", [], first=9), [y])):
        for r in _run(mw, page, spider, [Request(u) for u in links]):
            sched.enqueue_request(r)
    sched.close("shutdown")
    mw._closed(spider, "shutdown")
    assert (tmp_path / ls.STATE_FILE).exists()

    mw, sched, spider = start()  # the crawl resumed
    assert mw.frontier.votes(y) == {"de": 2} and mw.frontier.fetched(f"{BASE}/p/a.html")
    assert mw.frontier.quota("de")[1] == 2
    assert len(sched) == 2
    assert [sched.next_request().url for _ in range(2)] == [y, x]
    assert sched.next_request() is None


def test_jobdir_corrupt_state_is_kept_aside_beside_earlier_ones(tmp_path: Path) -> None:
    """A second corrupt state goes to <name>.corrupt.1: an earlier <name>.corrupt is not replaced."""
    (tmp_path / (ls.STATE_FILE + ".corrupt")).write_bytes(b"the first one")
    (tmp_path / ls.STATE_FILE).write_bytes(b"the second one")
    crawler = _crawler({"JOBDIR": str(tmp_path)}, LANGUAGES=["de"])
    crawler.spider = spider = crawler._create_spider("unit")
    mw = ls.LanguageFocusMiddleware.from_crawler(crawler)
    mw._opened(spider)
    assert (tmp_path / (ls.STATE_FILE + ".corrupt")).read_bytes() == b"the first one"
    assert (tmp_path / (ls.STATE_FILE + ".corrupt.1")).read_bytes() == b"the second one"
    assert not (tmp_path / ls.STATE_FILE).exists()
    mw._closed(spider, "finished")
    langsift.Frontier().load(tmp_path / ls.STATE_FILE)  # the new state, whole


# ---- real crawls of the generated site -------------------------------------------------------------

BUDGET = 300


@pytest.fixture(scope="module")
def site() -> sitegen.Site:
    return sitegen.Site(seed=3, pages=8000)


@pytest.fixture(scope="module")
def base_url(site: sitegen.Site):
    with sitegen.serve_site(site) as base:
        yield base


@pytest.fixture(scope="module")
def crawls(site: sitegen.Site, base_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The same site and page budget crawled four ways, for German."""
    work = tmp_path_factory.mktemp("crawls")
    # At most ~6 of these pages (16 KB) wait to be parsed, in every variant: CI runs two test jobs at
    # once, parsing then falls behind the server's 50 ms latency, and with Scrapy's default backlog
    # (5 MB, ~2000 pages) the scheduler picked links before the pages voting on them were parsed
    # (scheduler 80-87 % at a load of 3-7 on 2 cores; 92 % with this setting; docs/scrapy.md).
    return {v: sitegen.run_crawl(base_url, site.start_paths,
                                 {**sitegen.variant_settings(v, ["de"]), "SCRAPER_SLOT_MAX_ACTIVE_SIZE": 16_000},
                                 budget=BUDGET, workdir=work, name=v, seconds=90)
            for v in ("plain", "plain-bfo", "middleware", "scheduler")}


def _clean(crawl: sitegen.CrawlResult) -> None:
    assert "Traceback" not in crawl.log and " ERROR: " not in crawl.log, crawl.log[-3000:]
    assert not any(k.startswith("spider_exceptions") for k in crawl.stats), crawl.stats


def test_focused_crawl_harvests_far_more_of_the_language(site: sitegen.Site, crawls: dict) -> None:
    rate = {v: sitegen.harvest(site, c.urls, "de", BUDGET) for v, c in crawls.items()}
    print("harvest of de on", BUDGET, "pages:", rate)
    for c in crawls.values():
        assert c.finish_reason == "closespider_pagecount" and len(c.items) >= BUDGET
        _clean(c)
    share = site.count("de") / sum(site.count(c) for c in site.shares)
    # Scrapy alone: breadth-first gets about the site's share (10 %); depth-first follows the
    # language locality wherever it first lands, so it varies more (2-21 % in runs here).
    assert rate["plain-bfo"] < 2 * share and rate["plain"] < 0.45
    assert rate["middleware"] > 0.5
    assert rate["scheduler"] > 0.8
    assert rate["scheduler"] > max(rate["plain"], rate["plain-bfo"]) + 0.35
    # Re-ranking held links by their current votes is what the scheduler is for.
    assert rate["scheduler"] > rate["middleware"] + 0.1
    assert crawls["scheduler"].stats["langsift/scheduler/raised"] > 50


def test_crawled_pages_and_items_carry_languages(site: sitegen.Site, crawls: dict) -> None:
    for v in ("middleware", "scheduler"):
        c = crawls[v]
        pages = [i for i in c.items if site.truth(i["url"])]
        assert len(pages) > 0.9 * len(c.items)
        # response.meta["langsift"] was there for the spider, and the item field was filled.
        assert sum(i["detected"] == site.truth(i["url"]) for i in pages) >= 0.98 * len(pages)
        assert sum(i["language"] == site.truth(i["url"]) for i in pages) >= 0.98 * len(pages)
        assert all("link_priority" in i for i in pages), "every followed link had a frontier decision"
        images = [i for i in c.items if "/img/" in i["url"]]
        assert all(i["language"] == "und" and "detected" not in i for i in images)
        assert c.stats.get("langsift/pages/binary", 0) == len(images)
        assert c.stats["langsift/votes"] > len(pages)
    assert not any("language" in i or "detected" in i for i in crawls["plain"].items)


def test_quota_met_closes_the_crawl(site: sitegen.Site, base_url: str, tmp_path: Path) -> None:
    c = sitegen.run_crawl(base_url, site.start_paths, sitegen.variant_settings("scheduler", ["de"], QUOTAS={"de": 25}),
                          budget=BUDGET, workdir=tmp_path, seconds=90)
    _clean(c)
    assert c.finish_reason == "langsift_quotas_met"
    assert c.stats["langsift/pages/de"] >= 25 and c.stats["langsift/quota/de"] >= 25
    assert len(c.items) < 150


def test_min_priority_drops_weak_links(site: sitegen.Site, base_url: str, tmp_path: Path) -> None:
    # Start from German pages: from the mixed start pages every link is below 0.3.
    starts = site._by_lang["de"][:3]
    c = sitegen.run_crawl(base_url, starts, sitegen.variant_settings("middleware", ["de"], MIN_PRIORITY=0.3),
                          budget=150, workdir=tmp_path, seconds=90)
    _clean(c)
    followed = [i for i in c.items if i["url"] not in {base_url + s for s in starts}]
    assert len(followed) > 100
    assert all(i["link_priority"] >= 0.3 for i in followed)
    assert c.stats["langsift/requests/dropped/priority"] > 100
    # What the threshold buys is the drops above; the harvest must not suffer from them. It is at
    # least the middleware's own (64-69 % in the crawls above), with room for the crawl order's
    # dependence on timing (0.747 in one CI run under load, 0.76-0.80 usually).
    assert sitegen.harvest(site, c.urls, "de", 150) > 0.6


def test_sitegen_site_has_the_promised_shape(site: sitegen.Site) -> None:
    """The test site itself: language locality, opaque URLs, short pages, mixed start pages."""
    html = [p for p in site.pages.values() if p.kind == "html"]
    same = sum(site.truth(l) == p.lang for p in html for l in p.links)
    total = sum(site.truth(l) is not None for p in html for l in p.links)
    assert 0.8 < same / total < 0.9
    assert all(p.path.startswith("/p/") and len(p.path) == len("/p/7f3a2c.html") for p in html)
    assert 0.05 < sum(len(p.lines) == 1 for p in html) / len(html) < 0.2
    for hub in site.start_paths:
        assert len({site.truth(l) for l in site.pages[hub].links}) >= 5


def test_a_corrupt_frontier_state_is_kept_aside_not_overwritten(site: sitegen.Site, base_url: str,
                                                                 tmp_path: Path) -> None:
    """A real crawl with JOBDIR whose frontier state is corrupt: the crawl starts with an empty
    frontier, the corrupt file is renamed to <name>.corrupt (and the log says so) before the
    crawl's own state is saved at close."""
    job = tmp_path / "job"
    job.mkdir()
    state, aside = job / ls.STATE_FILE, job / (ls.STATE_FILE + ".corrupt")
    corrupt = b"not a langsift frontier state " * 40
    state.write_bytes(corrupt)
    settings = dict(sitegen.variant_settings("scheduler", ["de"]), JOBDIR=str(job))
    c = sitegen.run_crawl(base_url, site.start_paths, settings, budget=30, workdir=tmp_path, seconds=60)
    assert c.finish_reason == "closespider_pagecount" and "Traceback" not in c.log, c.log[-3000:]
    errors = [line for line in c.log.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and f"cannot resume the frontier from {state}" in errors[0], errors
    assert f"kept it as {aside}" in errors[0], errors
    assert aside.read_bytes() == corrupt  # what the user had, untouched
    resumed = langsift.Frontier()
    resumed.load(state)  # the crawl's own state, saved at close
    assert len(resumed) > 0 and resumed.quota("de")[1] == c.stats["langsift/pages/de"]
