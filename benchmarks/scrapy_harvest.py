#!/usr/bin/env python3
"""Harvest rate of language-focused Scrapy crawls (langsift.scrapy) against plain Scrapy.

Generates the multilingual test site of bindings/python/tests/sitegen.py (pages from the
committed NTREX-128 extract, opaque URLs, ~85 % of a page's links to its own language), serves it
on 127.0.0.1, and crawls it with a fixed page budget, each crawl in its own process:

* plain:      Scrapy's defaults (depth-first, LIFO), no langsift;
* plain-bfo:  breadth-first (DEPTH_PRIORITY=1, FIFO queues), no langsift;
* middleware: LanguageFocusMiddleware alone: a link's priority is set once, when it is yielded;
* scheduler:  LanguageFocusMiddleware + FrontierScheduler: held links re-ranked by current votes.

Harvest rate = share of the first BUDGET responses whose true language (the generator's, not
langsift's) is the target. The plain crawls do not depend on the target, so they run once per
seed. Prints Markdown tables.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/scrapy_harvest.py \\
        --languages de,pl,pt --seeds 1,2 --pages 20000 --budget 1000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))

import sitegen  # noqa: E402 (after the path)

PLAIN = ("plain", "plain-bfo")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--languages", default="de,pl,pt", help="target languages (default de,pl,pt)")
    p.add_argument("--seeds", default="1,2", help="site seeds (default 1,2)")
    p.add_argument("--pages", type=int, default=20000, help="HTML pages of the site (default 20000)")
    p.add_argument("--budget", type=int, default=1000, help="responses per crawl (default 1000)")
    p.add_argument("--latency", type=float, default=sitegen.DEFAULT_LATENCY,
                   help=f"seconds the server waits per response (default {sitegen.DEFAULT_LATENCY})")
    p.add_argument("--variants", default=",".join(sitegen.VARIANTS), help="crawl variants (default: all)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a LANGSIFT_* setting for the focused variants, without the prefix (JSON value), "
                        "e.g. --set URL_CLASSIFIER=false")
    p.add_argument("--checkpoints", default="250,500", help="also report harvest after these many responses")
    p.add_argument("--workdir", type=Path, help="keep crawl logs, items and stats here (default: a temporary folder)")
    p.add_argument("--json", type=Path, help="write every crawl's figures here")
    return p.parse_args(argv)


def langsift_settings(pairs: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--set {pair!r}: expected NAME=VALUE")
        try:
            out[name.strip().upper()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip().upper()] = value
    return out


def main(argv: list[str]) -> int:
    a = parse_args(argv)
    languages = [c for c in a.languages.split(",") if c]
    seeds = [int(s) for s in a.seeds.split(",") if s]
    variants = [v for v in a.variants.split(",") if v]
    checkpoints = [int(c) for c in a.checkpoints.split(",") if c and int(c) < a.budget] + [a.budget]
    extra = langsift_settings(a.set)
    unknown = set(variants) - set(sitegen.VARIANTS)
    if unknown:
        raise SystemExit(f"unknown variants {sorted(unknown)}; known: {', '.join(sitegen.VARIANTS)}")
    # The crawl subprocesses import langsift from the build tree unless PYTHONPATH says otherwise.
    build_python = ROOT / "build" / "python"
    if "PYTHONPATH" not in os.environ and build_python.is_dir():
        os.environ["PYTHONPATH"] = str(build_python)

    workdir = a.workdir or Path(tempfile.mkdtemp(prefix="scrapy-harvest-"))
    runs: list[dict] = []
    t_all = time.monotonic()
    for seed in seeds:
        site = sitegen.Site(seed=seed, pages=a.pages)
        print(f"seed {seed}: {len(site.pages)} resources, "
              + ", ".join(f"{c} {site.count(c)}" for c in site.shares), file=sys.stderr, flush=True)
        with sitegen.serve_site(site, latency=a.latency) as base:
            for v in variants:
                targets = [None] if v in PLAIN else languages
                for lang in targets:
                    settings = sitegen.variant_settings(v, [lang] if lang else [], **(extra if lang else {}))
                    name = f"s{seed}-{v}" + (f"-{lang}" if lang else "")
                    crawl = sitegen.run_crawl(base, site.start_paths, settings, budget=a.budget,
                                              workdir=workdir, name=name, seconds=600)
                    for code in (languages if lang is None else [lang]):
                        run = {"seed": seed, "variant": v, "language": code, "responses": len(crawl.items),
                               "finish_reason": crawl.finish_reason, "seconds": round(crawl.seconds, 1),
                               "site_share": site.count(code) / a.pages}
                        for c in checkpoints:
                            run[f"harvest@{c}"] = sitegen.harvest(site, crawl.urls, code, c)
                        runs.append(run)
                    print(f"  {name}: {len(crawl.items)} responses in {crawl.seconds:.1f} s, "
                          + ", ".join(f"{r['language']} {100 * r[f'harvest@{a.budget}']:.1f} %"
                                      for r in runs[-(len(languages) if lang is None else 1):]),
                          file=sys.stderr, flush=True)
    elapsed = time.monotonic() - t_all
    print_tables(runs, variants, languages, seeds, checkpoints, a, extra, elapsed)
    if a.json:
        a.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    return 0


def print_tables(runs: list[dict], variants: list[str], languages: list[str], seeds: list[int],
                 checkpoints: list[int], a: argparse.Namespace, extra: dict, elapsed: float) -> None:
    def get(v: str, lang: str, seed: int, c: int) -> float:
        for r in runs:
            if r["variant"] == v and r["language"] == lang and r["seed"] == seed:
                return r[f"harvest@{c}"]
        raise KeyError((v, lang, seed))

    cols = [(lang, s) for lang in languages for s in seeds]
    print(f"Harvest rate (% of the first {a.budget} responses in the target language); site of {a.pages} pages, "
          f"latency {a.latency * 1000:.0f} ms, CONCURRENT_REQUESTS {sitegen.BASE_SETTINGS['CONCURRENT_REQUESTS']}"
          + (f", focused crawls with {extra}" if extra else "") + ":\n")
    print("| crawl | " + " | ".join(f"{lang} seed {s}" for lang, s in cols) + " | mean |")
    print("|---|" + "---|" * (len(cols) + 1))
    for v in variants:
        vals = [100 * get(v, lang, s, a.budget) for lang, s in cols]
        print(f"| {v} | " + " | ".join(f"{x:.1f}" for x in vals) + f" | {statistics.mean(vals):.1f} |")
    shares = [100 * next(r["site_share"] for r in runs if r["language"] == lang and r["seed"] == s) for lang, s in cols]
    print("| (share of the site) | " + " | ".join(f"{x:.1f}" for x in shares) + f" | {statistics.mean(shares):.1f} |")
    if len(checkpoints) > 1:
        print(f"\nMean harvest rate (%) over {len(cols)} crawls after N responses:\n")
        print("| crawl | " + " | ".join(str(c) for c in checkpoints) + " |")
        print("|---|" + "---|" * len(checkpoints))
        for v in variants:
            print(f"| {v} | " + " | ".join(
                f"{100 * statistics.mean(get(v, lang, s, c) for lang, s in cols):.1f}" for c in checkpoints) + " |")
    secs = {v: statistics.mean(r["seconds"] for r in runs if r["variant"] == v) for v in variants}
    print("\nSeconds per crawl (mean): " + ", ".join(f"{v} {s:.1f}" for v, s in secs.items())
          + f"; all crawls {elapsed:.0f} s")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
