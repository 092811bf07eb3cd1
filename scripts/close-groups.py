#!/usr/bin/python3
"""Finds a model's close groups from its own confusions on held-out text (docs/detection.md,
"Close languages"; models/README.md).

usage: scripts/close-groups.py MODEL HELDOUT_DIR [-o GROUPS] [--build build] [--min-sum 2.0]
                               [--min-each 0.2] [--max-members 4]

MODEL is a model trained with every Nth line held out (`langsift-train --holdout 10 --holdout-dir
HELDOUT_DIR`), HELDOUT_DIR those lines (<code>.txt). Each file is detected line by line with
`langsift detect --lines --model MODEL`; r(a→b) is the share of a's lines answered b. Two languages
of different bases (zh and zh-Hant, sr and sr-Latn are one base: their choice is a script rule)
are linked when r(a→b) + r(b→a) ≥ --min-sum percent and each direction is at least --min-each
percent (confusion both ways: one language taking another's text one way only — English loans in
Zulu — is not a group); the groups are the connected components (larger than --max-members: an
error). Languages of different scripts are never confused, so a group is within one script.
Writes one group per line (codes space-separated, the first the member with most held-out lines),
with the rates as comments.
"""
import argparse
import os
import subprocess
import sys
from collections import Counter, defaultdict


def base(code):
    return code.split("-")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("heldout")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--build", default="build")
    ap.add_argument("--min-sum", type=float, default=2.0)
    ap.add_argument("--min-each", type=float, default=0.2)
    ap.add_argument("--max-members", type=int, default=4)
    a = ap.parse_args()
    tool = os.path.join(a.build, "langsift")
    if not os.access(tool, os.X_OK):
        print(f"close-groups: {tool} not found: build first", file=sys.stderr)
        return 2
    if not os.path.isdir(a.heldout):
        print(f"close-groups: {a.heldout}: not a directory", file=sys.stderr)
        return 2
    n = Counter()
    conf = Counter()
    for name in sorted(os.listdir(a.heldout)):
        if not name.endswith(".txt"):
            continue
        code = name[:-4]
        with open(os.path.join(a.heldout, name), "rb") as f:
            lines = [l for l in f.read().split(b"\n") if l.strip()]
        if not lines:
            continue
        r = subprocess.run([tool, "detect", "--lines", "--format", "code", "--model", a.model],
                           input=b"\n".join(lines) + b"\n", capture_output=True)
        if r.returncode != 0:
            print(f"close-groups: langsift detect failed on {name}: {r.stderr.decode(errors='replace').strip()}",
                  file=sys.stderr)
            return 1
        answers = r.stdout.decode().split("\n")[:len(lines)]
        n[code] += len(lines)
        for x in answers:
            x = x.split("\t")[0].strip()
            if x and x != code and x != "und":
                conf[(code, x)] += 1
    rate = lambda x, y: 100.0 * conf[(x, y)] / n[x] if n[x] else 0.0
    links = []
    for x, y in sorted({tuple(sorted(k)) for k in conf}):
        if base(x) == base(y) or x not in n or y not in n:
            continue
        if rate(x, y) + rate(y, x) >= a.min_sum and min(rate(x, y), rate(y, x)) >= a.min_each:
            links.append((x, y))
    parent = {}
    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    for x, y in links:
        parent[find(x)] = find(y)
    groups = defaultdict(list)
    for x, y in links:
        for c in (x, y):
            if c not in groups[find(c)]:
                groups[find(c)].append(c)
    out = [f"# close groups of {os.path.basename(a.model)} from its held-out lines ({sum(n.values())} lines, "
           f"{len(n)} languages): linked when r(a->b) + r(b->a) >= {a.min_sum} % and each >= {a.min_each} %",
           "# (scripts/close-groups.py; r = share of a's held-out lines answered b)"]
    for members in sorted(groups.values(), key=lambda g: -max(n[c] for c in g)):
        if len(members) > a.max_members:
            print(f"close-groups: a group of {len(members)} members (more than --max-members): {' '.join(members)}",
                  file=sys.stderr)
            return 1
        members.sort(key=lambda c: (-n[c], c))
        rates = ", ".join(f"{x}->{y} {rate(x, y):.1f} %" for x in members for y in members if x != y and conf[(x, y)])
        out.append(f"{' '.join(members)}  # {rates}")
    text = "\n".join(out) + "\n"
    if a.output == "-":
        sys.stdout.write(text)
    else:
        tmp = a.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
