"""A generated multilingual web site, an HTTP server for it, and Scrapy crawls of it.

Used by test_scrapy.py and benchmarks/scrapy_harvest.py to measure how well a language-focused
Scrapy crawl (langsift.scrapy) harvests pages of a wanted language on a fixed page budget.

The site (deterministic for a seed):

* pages of 8 languages built from consecutive lines of the committed NTREX-128 extract
  (tests/data/site/<code>.txt); English has the largest share, as on the web;
* URLs that carry no language signal: ``/p/7f3a2c.html`` on 127.0.0.1 (no /de/, no TLD);
* language locality: `locality` of a page's links go to pages of its own language, the others to
  other languages; link targets are drawn with a Zipf-like popularity, so some pages collect many
  in-links (and many votes) and most collect few;
* some short pages (under 400 bytes of text: they cannot vote), a few links to PNG images and to
  missing pages (404), and a few start pages ("hubs") that link to every language.

Each crawl runs in its own process (Scrapy's Twisted reactor cannot be restarted in one process):
``python3 sitegen.py crawl CONFIG.json``, started by `run_crawl`. The server runs in a thread of
the calling process (`serve_site`). Ground truth (`Site.truth`) comes from the generator, never
from langsift.

    site = Site(corpus_dir, seed=1)
    with serve_site(site) as base:
        crawl = run_crawl(base, site.start_paths, variant_settings("scheduler", ["de"]), budget=300,
                          workdir=tmp)
    print(harvest(site, crawl.urls, "de", 300))
"""

from __future__ import annotations

import bisect
import contextlib
import http.server
import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Iterator, Mapping, Optional, Sequence

#: Languages of the site, with their share of its pages (English first, as on the web).
DEFAULT_SHARES: dict[str, float] = {
    "en": 0.30, "de": 0.10, "fr": 0.10, "es": 0.10, "it": 0.10, "nl": 0.10, "pl": 0.10, "pt": 0.10,
}

#: The committed corpus extract (tests/data/site), from this file's place in the repository.
CORPUS_DIR = Path(__file__).resolve().parents[3] / "tests" / "data" / "site"

#: A 1x1 PNG: the site's images (binary responses the middleware must pass untouched).
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e527de1c0000000049454e44ae426082"
)


@dataclass
class Page:
    """One resource of the site."""

    path: str
    kind: str  # "html" (a page in `lang`), "hub" (a start page mixing languages), "png"
    lang: Optional[str] = None
    lines: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # paths (relative links)

    @property
    def title(self) -> str:
        return " ".join(self.lines[0].split()[:6]) if self.lines else self.path


class Site:
    """A deterministic multilingual site graph (see the module docstring).

    `pages`: HTML pages in languages (hubs and images come on top); `locality`: share of a page's
    links to its own language; `short_share`: pages with a single short line of text;
    `image_share`/`broken_share`: share of pages with one link to an image / to a missing page;
    `zipf`: exponent of the in-link popularity within a language (0: uniform).
    """

    def __init__(
        self,
        corpus_dir: Path = CORPUS_DIR,
        *,
        seed: int = 1,
        pages: int = 4000,
        shares: Optional[Mapping[str, float]] = None,
        locality: float = 0.85,
        links: tuple[int, int] = (6, 14),
        short_share: float = 0.12,
        image_share: float = 0.03,
        broken_share: float = 0.02,
        hubs: int = 3,
        hub_links: int = 40,
        zipf: float = 0.7,
    ) -> None:
        if not 0 <= locality <= 1:
            raise ValueError("locality must be 0..1")
        self.seed = seed
        self.locality = locality
        self.shares = dict(shares or DEFAULT_SHARES)
        self.corpus = {code: _read_lines(Path(corpus_dir) / f"{code}.txt") for code in self.shares}
        self._rng = random.Random(seed)
        self._used_names: set[str] = set()
        self.pages: dict[str, Page] = {}
        self._by_lang: dict[str, list[str]] = {c: [] for c in self.shares}
        self._make_pages(pages, short_share)
        self._popularity = {c: _cumulative_zipf(len(v), zipf) for c, v in self._by_lang.items()}
        self._make_links(links, image_share, broken_share)
        self.start_paths = self._make_hubs(hubs, hub_links)

    # ---- generation -------------------------------------------------------------------------

    def _name(self, prefix: str, suffix: str) -> str:
        """A fresh path with a random hex name: no language signal in the URL."""
        while True:
            path = f"/{prefix}/{self._rng.getrandbits(24):06x}.{suffix}"
            if path not in self._used_names:
                self._used_names.add(path)
                return path

    def _make_pages(self, n: int, short_share: float) -> None:
        codes = list(self.shares)
        weights = [self.shares[c] for c in codes]
        for _ in range(n):
            code = self._rng.choices(codes, weights)[0]
            lines = self._short_text(code) if self._rng.random() < short_share else self._text(code)
            page = Page(self._name("p", "html"), "html", code, lines)
            self.pages[page.path] = page
            self._by_lang[code].append(page.path)

    def _text(self, code: str) -> list[str]:
        """Consecutive corpus lines, 500..1500 bytes: an article."""
        corpus = self.corpus[code]
        want = self._rng.randint(500, 1500)
        i = self._rng.randrange(len(corpus))
        out: list[str] = []
        size = 0
        while size < want:
            out.append(corpus[i % len(corpus)])
            size += len(corpus[i % len(corpus)].encode())
            i += 1
        return out

    def _short_text(self, code: str) -> list[str]:
        """One line under 160 bytes: a page too short to vote (with its few anchors, < 400 bytes)."""
        short = [l for l in self.corpus[code] if len(l.encode()) < 160]
        return [self._rng.choice(short)]

    def _pick(self, code: str) -> str:
        """A page of `code`, popular pages more often."""
        paths = self._by_lang[code]
        cum = self._popularity[code]
        return paths[bisect.bisect_left(cum, self._rng.random() * cum[-1])]

    def _make_links(self, links: tuple[int, int], image_share: float, broken_share: float) -> None:
        codes = list(self.shares)
        for page in list(self.pages.values()):
            n = self._rng.randint(2, 4) if len(page.lines) == 1 else self._rng.randint(*links)
            others = [c for c in codes if c != page.lang]
            other_w = [self.shares[c] for c in others]
            targets: list[str] = []
            for _ in range(n):
                same = self._rng.random() < self.locality
                code = page.lang if same else self._rng.choices(others, other_w)[0]
                t = self._pick(code)
                if t != page.path and t not in targets:
                    targets.append(t)
            if self._rng.random() < image_share:
                img = Page(self._name("img", "png"), "png")
                self.pages[img.path] = img
                targets.insert(self._rng.randrange(len(targets) + 1), img.path)
            if self._rng.random() < broken_share:
                targets.append(self._name("p", "html"))  # never generated: a 404
            page.links = targets

    def _make_hubs(self, n: int, per_hub: int) -> list[str]:
        codes = list(self.shares)
        weights = [self.shares[c] for c in codes]
        starts = []
        for i in range(n):
            hub = Page(f"/hub/{i + 1}.html", "hub")
            hub.links = list(dict.fromkeys(self._pick(self._rng.choices(codes, weights)[0]) for _ in range(per_hub)))
            self.pages[hub.path] = hub
            starts.append(hub.path)
        return starts

    # ---- queries ----------------------------------------------------------------------------

    def truth(self, path_or_url: str) -> Optional[str]:
        """The language a page was generated in (None for hubs, images and unknown paths)."""
        page = self.pages.get(_path_of(path_or_url))
        return page.lang if page else None

    def count(self, code: str) -> int:
        """Pages of a language."""
        return len(self._by_lang.get(code, ()))

    def render(self, path: str) -> tuple[int, str, bytes]:
        """(HTTP status, Content-Type, body) for a request path."""
        page = self.pages.get(_path_of(path))
        if page is None:
            return 404, "text/html; charset=utf-8", b"<html><body><h1>404 Not Found</h1></body></html>"
        if page.kind == "png":
            return 200, "image/png", PNG_1X1
        return 200, "text/html; charset=utf-8", self._html(page).encode("utf-8")

    def _anchor(self, path: str) -> str:
        """A link's text: the first words of the target's title (in the target's language)."""
        target = self.pages.get(path)
        if target is None or target.kind != "html":
            return "mehr" if target is None else "image"
        return " ".join(target.title.split()[:3])

    def _html(self, page: Page) -> str:
        # No <html lang>, no hreflang: the text is the only language signal on the page.
        title = "Start" if page.kind == "hub" else page.title
        parts = [f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{escape(title)}</title></head><body>"]
        parts += [f"<p>{escape(line)}</p>" for line in page.lines]
        parts.append("<ul>")
        parts += [f'<li><a href="{p}">{escape(self._anchor(p))}</a></li>' for p in page.links]
        parts.append("</ul></body></html>\n")
        return "\n".join(parts)


def _read_lines(path: Path) -> list[str]:
    lines = [l.strip() for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
    if not lines:
        raise ValueError(f"{path}: no text")
    return lines


def _cumulative_zipf(n: int, s: float) -> list[float]:
    """Cumulative weights 1/(rank+1)^s: popularity within a language."""
    out, total = [], 0.0
    for r in range(n):
        total += 1.0 / (r + 1) ** s
        out.append(total)
    return out


def _path_of(path_or_url: str) -> str:
    if "://" in path_or_url:
        path_or_url = "/" + path_or_url.split("://", 1)[1].partition("/")[2]
    return path_or_url.split("?", 1)[0].split("#", 1)[0]


# ---- the HTTP server ------------------------------------------------------------------------------

#: Seconds each response waits. Without any, a local server answers faster than Scrapy parses, so
#: the engine fetches hundreds of pages ahead of the parsing (Scrapy lets up to
#: SCRAPER_SLOT_MAX_ACTIVE_SIZE = 5 MB of responses wait to be parsed) and every crawl order is
#: decided before the votes of the pages fetched come in; on the web, latency keeps parsing ahead.
DEFAULT_LATENCY = 0.05

class _Handler(http.server.BaseHTTPRequestHandler):
    site: Site  # set on a subclass per server
    latency: float = 0.0

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.latency:
            time.sleep(self.latency)
        status, ctype, body = self.site.render(self.path)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass  # quiet: a crawl makes thousands of requests


@contextlib.contextmanager
def serve_site(site: Site, latency: float = DEFAULT_LATENCY) -> Iterator[str]:
    """Serves `site` on 127.0.0.1 (a free port) in a thread; yields the base URL. Each response
    waits `latency` seconds first, as on a real network (see DEFAULT_LATENCY)."""
    handler = type("SiteHandler", (_Handler,), {"site": site, "latency": latency})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="sitegen-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# ---- crawls -------------------------------------------------------------------------------------

#: Settings of every crawl: local and polite enough, no throttling, quiet, reproducible.
BASE_SETTINGS: dict[str, object] = {
    "ROBOTSTXT_OBEY": False,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS": 8,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_DELAY": 0,
    "RETRY_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
    "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    "FEED_EXPORT_ENCODING": "utf-8",
    "COOKIES_ENABLED": False,
}

#: The crawl variants the test and the benchmark compare.
VARIANTS = ("plain", "plain-bfo", "middleware", "scheduler")


def variant_settings(variant: str, languages: Sequence[str], **langsift: object) -> dict[str, object]:
    """Scrapy settings of a variant:

    * ``plain``: Scrapy's defaults (depth-first: LIFO queues), no langsift;
    * ``plain-bfo``: breadth-first (DEPTH_PRIORITY=1, FIFO queues), no langsift;
    * ``middleware``: LanguageFocusMiddleware, priorities set once when a link is yielded, Scrapy's
      own scheduler (and its LIFO queues);
    * ``scheduler``: LanguageFocusMiddleware and FrontierScheduler (held links re-ranked by their
      current votes whenever Scrapy asks for the next request).

    `langsift`: more LANGSIFT_* settings (names without the prefix, e.g. MIN_PRIORITY=0.2).
    """
    s: dict[str, object] = {}
    if variant == "plain-bfo":
        s.update({
            "DEPTH_PRIORITY": 1,
            "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
            "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        })
    elif variant in ("middleware", "scheduler"):
        s["SPIDER_MIDDLEWARES"] = {"langsift.scrapy.LanguageFocusMiddleware": 543}
        s["LANGSIFT_LANGUAGES"] = list(languages)
        s["LANGSIFT_ITEM_FIELD"] = "language"
        if variant == "scheduler":
            s["SCHEDULER"] = "langsift.scrapy.FrontierScheduler"
        for k, v in langsift.items():
            s[f"LANGSIFT_{k}"] = v
    elif variant != "plain":
        raise ValueError(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
    return s


@dataclass
class CrawlResult:
    """What a crawl subprocess left: items in the order pages were parsed, and its stats."""

    items: list[dict]
    stats: dict
    log: str
    seconds: float

    @property
    def urls(self) -> list[str]:
        return [i["url"] for i in self.items]

    @property
    def finish_reason(self) -> Optional[str]:
        return self.stats.get("finish_reason")


def run_crawl(
    base_url: str,
    start_paths: Sequence[str],
    settings: Mapping[str, object],
    *,
    budget: int,
    workdir: Path,
    name: str = "crawl",
    seconds: int = 120,
) -> CrawlResult:
    """Crawls the site at `base_url` in a subprocess (``python3 sitegen.py crawl``) for at most
    `budget` responses (CLOSESPIDER_PAGECOUNT) and `seconds` (CLOSESPIDER_TIMEOUT; the process
    is killed 60 s later). Raises RuntimeError when the process fails."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    files = {k: workdir / f"{name}.{k}" for k in ("items", "stats", "log", "config")}
    for f in files.values():
        f.unlink(missing_ok=True)
    all_settings = dict(BASE_SETTINGS)
    all_settings.update(settings)
    all_settings.update({
        "CLOSESPIDER_PAGECOUNT": budget,
        "CLOSESPIDER_TIMEOUT": seconds,
        "LOG_FILE": str(files["log"]),
        "FEEDS": {str(files["items"]): {"format": "jsonlines"}},
    })
    config = {
        "start_urls": [base_url + p for p in start_paths],
        "settings": all_settings,
        "stats": str(files["stats"]),
    }
    files["config"].write_text(json.dumps(config, indent=1), encoding="utf-8")
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "crawl", str(files["config"])],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=seconds + 60, env=os.environ.copy(),
    )
    elapsed = time.monotonic() - t0
    log = files["log"].read_text(encoding="utf-8", errors="replace") if files["log"].exists() else ""
    if proc.returncode != 0 or not files["stats"].exists():
        raise RuntimeError(
            f"crawl {name} failed (exit {proc.returncode}):\n{proc.stdout.decode(errors='replace')[-3000:]}\n"
            f"log:\n{log[-3000:]}")
    items = []
    if files["items"].exists():
        items = [json.loads(l) for l in files["items"].read_text(encoding="utf-8").splitlines() if l.strip()]
    stats = json.loads(files["stats"].read_text(encoding="utf-8"))
    return CrawlResult(items, stats, log, elapsed)


def harvest(site: Site, urls: Sequence[str], code: str, budget: int) -> float:
    """Share of the first `budget` fetched responses whose true language is `code` (hubs, images
    and 404 pages count as fetched and not in `code`)."""
    fetched = list(urls)[:budget]
    if not fetched:
        return 0.0
    return sum(site.truth(u) == code for u in fetched) / len(fetched)


# ---- the crawl subprocess -------------------------------------------------------------------------

def _crawl_main(config_path: str) -> int:
    """Runs one crawl (in its own process): the spider follows every <a href> of every HTML page
    and yields one item per response."""
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.http import TextResponse

    config = json.loads(Path(config_path).read_text(encoding="utf-8"))

    class SiteSpider(scrapy.Spider):
        name = "site"
        start_urls = config["start_urls"]
        # Record 404 responses too: they cost a fetch like any other.
        custom_settings = {"HTTPERROR_ALLOW_ALL": True}

        def parse(self, response):  # type: ignore[override]
            item = {"url": response.url, "status": response.status}
            link = response.meta.get("langsift_link")
            if link is not None:
                item["link_priority"] = link.get("priority")
            page = response.meta.get("langsift")
            if page is not None:
                item["detected"] = page.detection.language
                item["is_short"] = page.detection.is_short
            yield item
            if isinstance(response, TextResponse) and response.status == 200:
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, self.parse)

    process = CrawlerProcess(settings=config["settings"])
    crawler = process.create_crawler(SiteSpider)
    failures: list = []
    process.crawl(crawler).addErrback(failures.append)  # e.g. a bad setting: the crawl never starts
    process.start()
    if failures:
        print(failures[0].getTraceback(), file=sys.stderr)
        return 1
    # After the crawl, so that every spider_closed handler (and CoreStats' finish_reason) is in.
    stats = dict(crawler.stats.get_stats())
    Path(config["stats"]).write_text(json.dumps(stats, default=str, indent=1), encoding="utf-8")
    return 0


def main(argv: Sequence[str]) -> int:
    if len(argv) == 2 and argv[0] == "crawl":
        return _crawl_main(argv[1])
    if len(argv) >= 1 and argv[0] == "serve":
        site = Site(seed=int(argv[1]) if len(argv) > 1 else 1)
        with serve_site(site) as base:
            print(f"serving {len(site.pages)} resources at {base}; start pages:", flush=True)
            for p in site.start_paths:
                print(f"  {base}{p}", flush=True)
            threading.Event().wait()
        return 0
    print("usage: sitegen.py crawl CONFIG.json | sitegen.py serve [SEED]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
