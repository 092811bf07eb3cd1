#!/usr/bin/python3
"""Leave-one-source-out accuracy of the wide model (langsift issue #24, "Coverage").

For each source S of the training corpus (MANIFEST.tsv lists each language's sources in file order
with their bytes), every language of the model that has S and at least one other licence-cleared
source is retrained without S (one retrain per source: `--exclude-sources ...,CODE:S,...` added to
the wide recipe of models/README.md), and S's lines of each such language (cut from its file by the
manifest's byte ranges; at most --lines of them, spread evenly over the range) are scored with
`langsift-eval lang` against that model. Languages with a single cleared source have no text of
another source to be scored on and are listed apart.

    scripts/loso-eval.py [--build build] [--corpus ../shared/data/train] [--langs models/wide.langs]
                         [--work /tmp/loso] [--lines 300] [--sources ntrex,udhr,...] [--calibration A,B]
                         [-o models/reports/wide-loso.md]

Writes the markdown report (-o) and, beside it, the per-language rows as TSV (same name, .tsv).
Needs build/langsift-train, build/langsift and build/langsift-eval. Takes about a minute per
source on 2 cores (10 sources with a second source among the wide model's languages).
"""

import argparse
import os
import shlex
import subprocess
import sys

# The wide recipe of models/README.md (step 2), without the languages, exclusions, name and output:
# keep the two in step.
WORD_LISTS = "../shared/data/wordfreq"  # as in the recipe (relative to the repository root)
RECIPE = ["--unaccented-every", "4", "--weights", "0,0,0,4,0,8", "--script-weights", "Hani:0,0,2,4,0,8",
          "--min-count", "1", "--top-k", "200000", "--floor", "6", "--floor-rank", "50000",
          "--word-lists", WORD_LISTS, "--word-list-weight", "0.5", "--calibration", "0.026066,-0.4031"]
# Licence exclusions of the recipe: a source for every language, or CODE:SOURCE.
EXCLUDED = ["wesnoth", "fortunes", "lij:ud"]


def fail(msg, code=1):
    print("loso-eval: " + msg, file=sys.stderr)
    sys.exit(code)


def read_langs(path):
    codes = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0]
            codes.extend(line.split())
    return codes


def excluded(code, source):
    for e in EXCLUDED:
        if ":" in e:
            c, s = e.split(":", 1)
            if c == code and s == source:
                return True
        elif e == source:
            return True
    return False


def read_manifest(path):
    """code -> list of (source, offset, length) in file order, every source (excluded ones too)."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline()
        if not header.startswith("code\t"):
            fail(path + ": not a MANIFEST.tsv (no header)")
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                fail(path + ": a row with fewer than 5 fields: " + line.strip())
            off = 0
            parts = []
            for item in fields[4].split():
                name, _, n = item.rpartition(":")
                parts.append((name, off, int(n)))
                off += int(n)
            if off != int(fields[1]):
                fail(f"{path}: {fields[0]}: the sources add up to {off} bytes, not {fields[1]}")
            rows[fields[0]] = parts
    return rows


def source_lines(path, offset, length, cap):
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(length)
    lines = [l for l in data.decode("utf-8", errors="replace").split("\n") if l.strip()]
    if len(lines) > cap:  # spread evenly over the source's range (not its first chapter only)
        lines = [lines[i * len(lines) // cap] for i in range(cap)]
    return lines


def run(cmd, log):
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        out.flush()
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        fail(f"command failed ({r.returncode}), see {log}: {' '.join(cmd[:3])} ...")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--corpus", default="../shared/data/train")
    ap.add_argument("--langs", default="models/wide.langs")
    ap.add_argument("--work", default="/tmp/langsift-loso")
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--sources", default="", help="only these sources (comma-separated)")
    ap.add_argument("--calibration", default="",
                    help="the recipe's --calibration A,B (default the wide model's; the default model's is "
                         "0.034724,-0.6025): early exit reads as the shipped model does")
    ap.add_argument("-j", "--threads", default="2")
    ap.add_argument("-o", "--output", default="models/reports/wide-loso.md")
    a = ap.parse_args()
    if a.lines < 1:
        fail("--lines needs a positive number", 2)
    recipe = list(RECIPE)
    if a.calibration:
        recipe[recipe.index("--calibration") + 1] = a.calibration
    for tool in ("langsift-train", "langsift", "langsift-eval"):
        if not os.access(os.path.join(a.build, tool), os.X_OK):
            fail(f"{a.build}/{tool} not found: build first", 2)
    manifest = os.path.join(a.corpus, "MANIFEST.tsv")
    rows = read_manifest(manifest)
    codes = read_langs(a.langs)
    missing = [c for c in codes if c not in rows]
    if missing:
        fail("not in the manifest: " + " ".join(missing), 2)

    cleared = {c: [p for p in rows[c] if not excluded(c, p[0])] for c in codes}
    sources = []
    for c in codes:
        for s, _, _ in cleared[c]:
            if s not in sources:
                sources.append(s)
    if a.sources:
        wanted = a.sources.split(",")
        unknown = [s for s in wanted if s not in sources]
        if unknown:
            fail("no such source among the model's languages: " + ",".join(unknown), 2)
        sources = [s for s in sources if s in wanted]

    os.makedirs(a.work, exist_ok=True)
    log = os.path.join(a.work, "log.txt")
    results = []  # (code, source, other sources, lines, correct, accuracy, top_wrong, count)
    for s in sources:
        held = [c for c in codes if any(p[0] == s for p in cleared[c]) and len(cleared[c]) >= 2]
        if not held:
            continue
        d = os.path.join(a.work, s)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            if old.endswith(".txt"):
                os.remove(os.path.join(d, old))
        for c in held:
            _, off, n = next(p for p in cleared[c] if p[0] == s)
            lines = source_lines(os.path.join(a.corpus, c + ".txt"), off, n, a.lines)
            if lines:
                with open(os.path.join(d, c + ".txt"), "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
        model = os.path.join(a.work, s + ".lsm")
        excl = ",".join(EXCLUDED + [f"{c}:{s}" for c in held])
        print(f"loso-eval: {s}: retraining without it for {len(held)} languages", file=sys.stderr)
        run([os.path.join(a.build, "langsift-train"), a.corpus, "--langs", "@" + a.langs, "--manifest", manifest,
             "--exclude-sources", excl] + recipe + ["--name", "loso-" + s, "-j", a.threads, "-q", "-o", model], log)
        tsv = os.path.join(a.work, s + ".tsv")
        det = shlex.quote(os.path.abspath(os.path.join(a.build, "langsift"))) + " detect --lines --model " + \
            shlex.quote(os.path.abspath(model))
        run([os.path.join(a.build, "langsift-eval"), "lang", "--no-langsift", "--detector", "loso=" + det,
             "--tsv", tsv, "--markdown", os.path.join(a.work, s + ".md"), d], log)
        with open(tsv, encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(header, line.rstrip("\n").split("\t")))
                c = r["language"]
                others = " ".join(p[0] for p in cleared[c] if p[0] != s)
                results.append((c, s, others, int(r["samples"]), int(r["correct"]), float(r["accuracy_pct"]),
                                r.get("top_wrong", ""), r.get("top_wrong_count", ""), int(r["no_answer"])))

    single = [c for c in codes if len(cleared[c]) < 2]
    write_report(a, results, single, cleared, sources)


def write_report(a, results, single, cleared, sources):
    results.sort(key=lambda r: (r[0], r[1]))
    base = os.path.splitext(a.output)[0]
    tmp = base + ".tsv.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("language\theld_out_source\ttrained_on\tlines\tcorrect\taccuracy_pct\ttop_wrong\ttop_wrong_count\tno_answer\n")
        for r in results:
            f.write("\t".join(str(x) for x in r) + "\n")
    os.replace(tmp, base + ".tsv")

    by_lang = {}
    for r in results:
        by_lang.setdefault(r[0], []).append(r)
    total_lines = sum(r[3] for r in results)
    total_correct = sum(r[4] for r in results)
    macro = sum(r[5] for r in results) / len(results) if results else 0.0
    weak = sorted((r for r in results if r[5] < 80.0), key=lambda r: r[5])
    out = []
    out.append("# Wide model: leave-one-source-out accuracy\n")
    out.append("Generated by `scripts/loso-eval.py --lines %d` (see its header): for each source, the wide "
               "recipe of models/README.md is retrained without that source for every language that has "
               "it and another licence-cleared source, and that source's lines of those languages (at most "
               "%d per language, spread evenly) are detected with `langsift detect --lines` and scored with "
               "`langsift-eval lang` (a language's accuracy: share of its lines answered with its code; "
               "zh-Hant counts as zh).\n" % (a.lines, a.lines))
    out.append(f"- {len(results)} (language, held-out source) pairs over {len(by_lang)} languages, "
               f"{total_lines} lines: {100.0 * total_correct / max(total_lines, 1):.2f} % of lines right, "
               f"macro mean over pairs {macro:.2f} %.")
    out.append(f"- {len(single)} languages of the model have one licence-cleared source only and cannot be "
               f"scored this way: {' '.join(single)}.")
    out.append(f"- Sources held out: {', '.join(sources)}.")
    out.append("- Why the weak languages are weak: docs/detection.md, \"Accuracy on a source the model was "
               "not trained on\".\n")
    def table(title, rows):
        out.append(title)
        out.append("| language | held out | trained on | lines | accuracy | no answer | most frequent wrong answer |")
        out.append("| --- | --- | --- | ---: | ---: | ---: | --- |")
        for r in rows:
            wrong = f"{r[6]} ({r[7]})" if r[6] else ""
            out.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[5]:.1f} % | {r[8]} | {wrong} |")

    table("## Pairs under 80 %\n", weak)
    table("\n## Every language\n", results)
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, a.output)
    print(f"loso-eval: wrote {a.output} and {base}.tsv", file=sys.stderr)


if __name__ == "__main__":
    main()
