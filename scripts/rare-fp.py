#!/usr/bin/python3
"""False positives of the wide model's added languages on pages of the major languages.

usage: scripts/rare-fp.py --set NAME=DIR[@N] [--set ...] [--langsift PATH] [--bytes N]
                          [--max-docs N] [--web-prior CSV] [--detect-arg ARG ...]
                          [--markdown FILE] [--tsv FILE]

The "added" languages are those `langsift detect --model wide --list-languages` names and the
default model's list does not, less a code whose language subtag the default model has (`sr-Latn`:
an answer sr-Latn is Serbian, right for sr and no false positive). The "major" languages of a set are the <code>.txt files of DIR
whose code the default model has. Per language, consecutive lines are joined by a space until the
document has at least N bytes (default 400), each line used once, the tail dropped: the rule of
`langsift-eval docs`; `--set NAME=DIR@N` sets N for that set (`@1`: each line is a document, for
short-text sets such as lingua-dev/single-words). `--max-docs N` keeps N documents per language, evenly spaced over the file
(the held-out files run source after source). Every document of every set is detected in one
`langsift detect --lines` run per model (wide and default).

Per added language A and set: the documents it claims, and false positives per million pages:
**macro** = 10^6 x the mean over the major languages L of (documents of L answered A) / (documents
of L); **web-weighted** = the same mean weighted by each L's share of the web's pages (Common
Crawl's languages.csv, `--web-prior`, default ../shared/data/web-prior/cc-main-2024-42-languages.csv),
normalised over the set's languages that have a share. Also per set: each model's accuracy on the
major languages' documents (macro and web-weighted errors per million pages).

`--tsv FILE`: rows `set language documents per_million_macro per_million_web taken_from` per added
language that took any (taken_from = true:count,...), `all` for them together, and per model a row
`accuracy:MODEL` whose fields are: samples right, macro accuracy %, web-weighted errors per million.

`--detect-arg ARG` (repeatable) is passed to both detect runs (e.g. --detect-arg=--no-web-prior).
Exit status: 0, 1 on an error (a missing file, a detector failing), 2 on a usage error.
"""
import os
import subprocess
import sys
import tempfile

PROG = "rare-fp"
DEFAULT_PRIOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data",
                             "web-prior", "cc-main-2024-42-languages.csv")
MACRO_OF = {"nob": "nor", "zsm": "msa"}  # as langsift-train close's web_share()


class Error(Exception):
    pass


def usage(msg):
    print(f"{PROG}: {msg}", file=sys.stderr)
    print("usage: rare-fp.py --set NAME=DIR[@N] [--set ...] [--langsift PATH] [--bytes N] [--max-docs N] "
          "[--web-prior CSV] [--detect-arg ARG] [--markdown FILE] [--tsv FILE]", file=sys.stderr)
    return 2


def run(cmd, stdin_bytes=None):
    try:
        p = subprocess.run(cmd, input=stdin_bytes, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise Error(f"{cmd[0]}: {e.strerror}")
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise Error(f"{' '.join(cmd[:4])}...: exit status {p.returncode}: {err[-1] if err else ''}")
    return p.stdout.decode("utf-8", "replace")


def list_languages(langsift, model, codes):
    out = run([langsift, "detect", "--model", model, "--list-languages", "--codes", codes])
    return [l.strip() for l in out.split("\n") if l.strip()]


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", "replace")
    out = []
    for l in data.split("\n"):
        if l.endswith("\r"):
            l = l[:-1]
        if l:
            out.append(l.replace("\t", " "))
    return out


def build_documents(lines, min_bytes):
    docs, cur = [], ""
    for s in lines:
        if cur:
            cur += " "
        cur += s
        if len(cur.encode("utf-8")) >= min_bytes:
            docs.append(cur)
            cur = ""
    return docs


def spread(docs, n):
    if n <= 0 or len(docs) <= n:
        return docs
    return [docs[i * len(docs) // n] for i in range(n)]


def read_prior(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            x = line.rstrip("\n").split(",")
            if len(x) < 5 or x[0] == "crawl":
                continue
            try:
                out[x[1]] = float(x[4]) / 100.0
            except ValueError:
                raise Error(f"{path}: bad share '{x[4]}'")
    if not out:
        raise Error(f"{path}: no rows")
    return out


def share(prior, three):
    three = three.split("-")[0]
    if three in prior:
        return prior[three]
    return prior.get(MACRO_OF.get(three, ""), 0.0)


def detect(langsift, model, docs, extra):
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write("".join(d + "\n" for d in docs).encode("utf-8"))
        path = f.name
    try:
        with open(path, "rb") as f:
            out = run([langsift, "detect", "--lines", "--model", model] + extra, f.read())
    finally:
        os.unlink(path)
    answers = out.split("\n")
    if answers and answers[-1] == "":
        answers.pop()
    if len(answers) != len(docs):
        raise Error(f"langsift detect --model {model}: {len(answers)} answers for {len(docs)} documents")
    return [a.split("\t")[0].split("-")[0] for a in answers]


def fmt(x):
    return f"{x:,.0f}"


def main(argv):
    sets, langsift, min_bytes, max_docs = [], None, 400, 0
    prior_path, markdown, tsv, extra = DEFAULT_PRIOR, None, None, []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if "=" in a and a.startswith("--") and a.split("=", 1)[0] in ("--detect-arg",):
            extra.append(a.split("=", 1)[1])
            i += 1
            continue
        if a not in ("--set", "--langsift", "--bytes", "--max-docs", "--web-prior", "--markdown", "--tsv",
                     "--detect-arg"):
            return usage(f"unknown argument '{a}'")
        if i + 1 >= len(args):
            return usage(f"{a} needs a value")
        v = args[i + 1]
        i += 2
        if a == "--set":
            if "=" not in v:
                return usage("--set takes NAME=DIR[@N]")
            name, d = v.split("=", 1)
            n = None
            if "@" in d:
                d, nb = d.rsplit("@", 1)
                if not nb.isdigit() or int(nb) < 1:
                    return usage(f"--set {v}: @N needs a positive size")
                n = int(nb)
            sets.append((name, d, n))
        elif a in ("--bytes", "--max-docs"):
            try:
                n = int(v)
            except ValueError:
                return usage(f"{a} needs a number")
            if n < (1 if a == "--bytes" else 0):
                return usage(f"{a}: {v} is out of range")
            if a == "--bytes":
                min_bytes = n
            else:
                max_docs = n
        elif a == "--langsift":
            langsift = v
        elif a == "--web-prior":
            prior_path = v
        elif a == "--markdown":
            markdown = v
        elif a == "--tsv":
            tsv = v
        else:
            extra.append(v)
    if not sets:
        return usage("no --set given")
    if langsift is None:
        langsift = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "langsift")
    try:
        return report(sets, langsift, min_bytes, max_docs, prior_path, markdown, tsv, extra)
    except Error as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{PROG}: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 1


def base(code):
    """The language subtag of a code (sr-Latn -> sr)."""
    return code.split("-")[0]


def model_languages(langsift):
    """The wide model's codes, their ISO 639-3 codes, the default model's codes, and the added ones."""
    wide = list_languages(langsift, "wide", "iso639-1")
    wide3 = list_languages(langsift, "wide", "iso639-3")
    default = set(list_languages(langsift, "default", "iso639-1"))
    if len(wide) != len(wide3):
        raise Error("--list-languages gave lists of different lengths")
    three = dict(zip(wide, wide3))
    default_base = {base(c) for c in default}
    added = [c for c in wide if c not in default]
    added_base = {base(c) for c in added if base(c) not in default_base}
    return three, default, added, added_base


def read_sets(sets, default, min_bytes, max_docs):
    """Every set's documents in one list, where each came from, and per set (name, dir, bytes, languages, counts)."""
    all_docs, where = [], []  # where[k] = (set index, true language)
    per_set = []
    for si, (name, d, nb) in enumerate(sets):
        nb = nb or min_bytes
        if not os.path.isdir(d):
            raise Error(f"{d}: not a directory")
        langs = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".txt") and f[:-4] in default)
        if not langs:
            raise Error(f"{d}: no <code>.txt file of a language of the default model")
        counts = {}
        for l in langs:
            docs = spread(build_documents(read_lines(os.path.join(d, l + ".txt")), nb), max_docs)
            counts[l] = len(docs)
            for doc in docs:
                all_docs.append(doc)
                where.append((si, l))
        per_set.append((name, d, nb, langs, counts))
    return all_docs, where, per_set


def web_weights(prior, three, langs):
    """Each language's normalised web share in the set, and the languages without a share."""
    # a code of the prior shared by several of the set's languages (zh, zh-Hant) is split evenly
    n3 = {}
    for l in langs:
        k = three.get(l, l).split("-")[0]
        n3[k] = n3.get(k, 0) + 1
    shares = {l: share(prior, three.get(l, l)) / n3[three.get(l, l).split("-")[0]] for l in langs}
    total_share = sum(shares.values())
    weight = {l: shares[l] / total_share if total_share > 0 else 0.0 for l in langs}
    no_share = [l for l in langs if shares[l] == 0.0]
    return weight, no_share


def tally(ans, where, si, langs, added_base):
    """Of set si's documents: per added language, the true languages it claimed (counts); per model, those right."""
    claims = {}  # added -> true -> n
    right = {m: {l: 0 for l in langs} for m in ans}
    for k, (s, l) in enumerate(where):
        if s != si:
            continue
        for m in ans:
            if base(ans[m][k]) == base(l):
                right[m][l] += 1
        a = base(ans["wide"][k])
        if a in added_base:
            claims.setdefault(a, {}).setdefault(l, 0)
            claims[a][l] += 1
    return claims, right


def set_section(entry, claims, right, weight, no_share, md, rows):
    """Appends one set's markdown section and TSV rows; returns its summary table line."""
    name, d, nb, langs, counts = entry
    ndocs = sum(counts.values())
    langs_with_docs = [l for l in langs if counts[l] > 0]
    if not langs_with_docs:
        raise Error(f"{d}: no language has text for one document of {nb} bytes")

    def rates(by_true):
        macro = sum(by_true.get(l, 0) / counts[l] for l in langs_with_docs) / len(langs_with_docs) * 1e6
        web = sum(weight[l] * by_true.get(l, 0) / counts[l] for l in langs_with_docs) * 1e6
        return macro, web

    lines = []
    for a in sorted(claims, key=lambda a: (-sum(claims[a].values()), a)):
        n = sum(claims[a].values())
        macro, web = rates(claims[a])
        victims = sorted(claims[a].items(), key=lambda x: (-x[1], x[0]))
        lines.append((a, n, macro, web, victims))
        rows.append(f"{name}\t{a}\t{n}\t{macro:.1f}\t{web:.1f}\t"
                    + ",".join(f"{l}:{c}" for l, c in victims) + "\n")
    allc = {}
    for a in claims:
        for l, c in claims[a].items():
            allc[l] = allc.get(l, 0) + c
    tm, tw = rates(allc)
    rows.append(f"{name}\tall\t{sum(allc.values())}\t{tm:.1f}\t{tw:.1f}\t\n")
    what = "lines" if nb == 1 else f"documents of at least {nb} bytes"
    md.append(f"## {name}: {fmt(ndocs)} {what}, {len(langs_with_docs)} languages (`{d}`)\n")
    md.append("| added language | samples claimed | per million pages (macro) | per million pages "
              "(web-weighted) | taken from |\n| --- | ---: | ---: | ---: | --- |")
    for a, n, macro, web, victims in lines:
        md.append(f"| {a} | {n} | {fmt(macro)} | {fmt(web)} | "
                  + ", ".join(f"{l} {c}" for l, c in victims[:6]) + (" ..." if len(victims) > 6 else "") + " |")
    md.append(f"| **all {len(lines)}** | **{sum(allc.values())}** | **{fmt(tm)}** | **{fmt(tw)}** | |\n")
    acc, accs = [], []
    for m in ("default", "wide"):
        macro_acc = sum(right[m][l] / counts[l] for l in langs_with_docs) / len(langs_with_docs) * 100
        web_err = sum(weight[l] * (1 - right[m][l] / counts[l]) for l in langs_with_docs) * 1e6
        acc.append(f"{m} {macro_acc:.2f} % macro, {fmt(web_err)} web-weighted errors per million pages")
        accs.append((macro_acc, web_err))
        rows.append(f"{name}\taccuracy:{m}\t{sum(right[m].values())}\t{macro_acc:.3f}\t{web_err:.1f}\t\n")
    md.append("Accuracy on these documents: " + "; ".join(acc) + "."
              + (f" Without a web share (weight 0): {' '.join(no_share)}." if no_share else "") + "\n")
    return (f"| {name} | {fmt(ndocs)} | {sum(allc.values())} | {fmt(tm)} | {fmt(tw)} | {accs[0][0]:.2f} | "
            f"{accs[1][0]:.2f} | {fmt(accs[0][1])} | {fmt(accs[1][1])} |")


def report(sets, langsift, min_bytes, max_docs, prior_path, markdown, tsv, extra):
    """Detects every set's documents with both models and writes the markdown report (and the TSV)."""
    prior = read_prior(prior_path)
    three, default, added, added_base = model_languages(langsift)
    all_docs, where, per_set = read_sets(sets, default, min_bytes, max_docs)
    ans = {m: detect(langsift, m, all_docs, extra) for m in ("wide", "default")}

    rows, md = [], []
    md.append("# False positives of the wide model's added languages\n")
    same = sorted(c for c in added if base(c) not in added_base)
    md.append(f"{len(added)} codes of `wide` are not in `default`; {len(added_base)} of them are other languages"
              + (f" ({', '.join(same)}: the default model has the language, scored as it)" if same else "")
              + f". Detector: `{langsift} detect --lines "
              f"--model wide{''.join(' ' + e for e in extra)}`. Web prior: `{prior_path}`.\n")
    summary = []
    for si, entry in enumerate(per_set):
        weight, no_share = web_weights(prior, three, entry[3])
        claims, right = tally(ans, where, si, entry[3], added_base)
        summary.append(set_section(entry, claims, right, weight, no_share, md, rows))
    md[2:2] = ["## Summary\n",
               "| set | samples | claimed by an added language | per million (macro) | per million (web-weighted) "
               "| default: macro % | wide: macro % | default: web-weighted errors per million | wide: web-weighted "
               "errors per million |",
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"] + summary + [""]
    text = "\n".join(md)
    if markdown:
        write_atomic(markdown, text)
    else:
        sys.stdout.write(text)
    if tsv:
        write_atomic(tsv, "set\tlanguage\tdocuments\tper_million_macro\tper_million_web\ttaken_from\n"
                     + "".join(rows))
    return 0


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
