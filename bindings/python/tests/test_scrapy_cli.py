"""langsift.scrapy from Scrapy's command line, as docs/scrapy.md shows it: a Scrapy project in a
scratch directory, crawled with ``python -m scrapy crawl`` (the interpreter running the tests:
Debian's /usr/bin/python3, or a venv's python, which is why the docs say ``python -m scrapy`` and
not ``scrapy``) against a local HTTP server that counts the requests it gets.

A bad LANGSIFT_* setting must be one line on stderr naming the setting (no traceback), a non-zero
exit, and no crawl: the server gets no request and the spider is never opened. The control crawl,
with good settings, fetches the page (so a test that "no request was made" can fail).
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Iterator

import pytest

PAGE = ("<html><body>" + "<p>Der schnelle braune Fuchs springt über den faulen Hund, und die Katze schläft "
        "den ganzen Tag auf dem warmen Sofa im Wohnzimmer.</p>" * 8 + "</body></html>").encode()


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[tuple[str, list[str]]]:
    hits: list[str] = []
    handler = type("Handler", (_Counting,), {"hits": hits})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/", hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def _project(root: Path, extra_settings: str) -> Path:
    """A Scrapy project as `scrapy startproject` lays it out, with langsift's middleware and
    scheduler enabled and `extra_settings` appended to settings.py."""
    pkg = root / "proj"
    (pkg / "spiders").mkdir(parents=True)
    (root / "scrapy.cfg").write_text("[settings]\ndefault = proj.settings\n", encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "spiders" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "settings.py").write_text(textwrap.dedent("""\
        BOT_NAME = "proj"
        SPIDER_MODULES = ["proj.spiders"]
        ROBOTSTXT_OBEY = False
        TELNETCONSOLE_ENABLED = False
        RETRY_ENABLED = False
        REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
        SPIDER_MIDDLEWARES = {"langsift.scrapy.LanguageFocusMiddleware": 543}
        SCHEDULER = "langsift.scrapy.FrontierScheduler"
        LANGSIFT_ITEM_FIELD = "language"
        """) + extra_settings, encoding="utf-8")
    (pkg / "spiders" / "page.py").write_text(textwrap.dedent("""\
        import scrapy


        class PageSpider(scrapy.Spider):
            name = "page"

            def __init__(self, start=None, **kwargs):
                super().__init__(**kwargs)
                self.start_urls = [start]

            def parse(self, response):
                yield {"url": response.url}
        """), encoding="utf-8")
    return root


def _crawl(project: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    env = os.environ.copy()
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    return subprocess.run([sys.executable, "-m", "scrapy", "crawl", "page", "-a", f"start={url}",
                           "-O", str(project / "items.jsonl"), *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=120)


def test_good_settings_crawl(tmp_path: Path, server: tuple[str, list[str]]) -> None:
    url, hits = server
    project = _project(tmp_path, 'LANGSIFT_LANGUAGES = ["de"]\n')
    run = _crawl(project, url)
    assert run.returncode == 0, run.stderr[-3000:]
    assert hits == ["/"]
    assert '"language": "de"' in (project / "items.jsonl").read_text(encoding="utf-8")
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("settings_py, args, setting, words", [
    # a misspelt name in settings.py
    ('LANGSIFT_LANGUGES = ["de"]\n', [], "LANGSIFT_LANGUGES", ["did you mean LANGSIFT_LANGUAGES"]),
    # bad values from the command line
    ("", ["-s", "LANGSIFT_MIN_PRIORITY=2"], "LANGSIFT_MIN_PRIORITY", ["must be a number in 0..1"]),
    ("", ["-s", "LANGSIFT_LANGUAGES=german"], "LANGSIFT_LANGUAGES", ["'german'", "not a language"]),
    ("", ["-s", "LANGSIFT_ENABLED=perhaps"], "LANGSIFT_ENABLED", ["must be True or False"]),
    ("", ["-s", "LANGSIFT_MODEL=/nonexistent/model.lsm"], "LANGSIFT_MODEL", ["cannot load"]),
    # the scheduler alone (no middleware) checks the settings too
    ("SPIDER_MIDDLEWARES = {}\n", ["-s", "LANGSIFT_QUOTAS=de=5"], "LANGSIFT_QUOTAS", ["must be a mapping"]),
])
def test_bad_setting_is_one_line_and_no_crawl(tmp_path: Path, server: tuple[str, list[str]], settings_py: str,
                                              args: list[str], setting: str, words: list[str]) -> None:
    url, hits = server
    project = _project(tmp_path, settings_py)
    run = _crawl(project, url, *args)
    assert run.returncode == 1, run.stderr[-3000:]
    assert hits == [], "the spider crawled despite a bad setting"
    # Nothing was opened: the feed (-O) is created when the spider opens. With the middleware the
    # check fails before Scrapy even logs "Spider opened"; the scheduler is made just after that line.
    assert not (project / "items.jsonl").exists()
    if "SPIDER_MIDDLEWARES = {}" not in settings_py:
        assert "Spider opened" not in run.stderr, run.stderr[-3000:]
    assert "Traceback" not in run.stderr and "Unhandled error" not in run.stderr, run.stderr[-5000:]
    lines = [l for l in run.stderr.splitlines() if setting in l]
    assert len(lines) == 1, run.stderr[-3000:]
    assert "CRITICAL" in lines[0] and "the spider does not start" in lines[0], lines[0]
    for w in words:
        assert w in lines[0], lines[0]
    # No line after Scrapy's own start-up lines but the error: every langsift line is that one.
    assert [l for l in run.stderr.splitlines() if "langsift" in l.lower() and "Overridden" not in l
            and "'langsift." not in l and '"langsift.' not in l] == lines, run.stderr[-3000:]
