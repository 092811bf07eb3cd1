#!/usr/bin/python3
"""Builds short-text sample sets from held-out training lines, laid out as lingua-dev is.

usage: scripts/make-heldout-sets.py HELDOUT_DIR OUT_DIR [--per-language N] [--seed S]

HELDOUT_DIR holds <code>.txt files of held-out lines (`langsift-train --holdout 10 --holdout-dir
DIR`). Writes OUT_DIR/{sentences,word-pairs,single-words}/<code>.txt: N lines (default 300),
N pairs of consecutive words of a line, and N single words of at least 5 letters, drawn with a
fixed seed, so that training settings can be chosen on text that is neither trained on nor the
evaluation set (see models/README.md). `langsift-eval lang OUT_DIR` scores them.
"""
import os
import random
import sys


def words_of(line):
    out = []
    for w in line.split():
        w = w.strip(".,;:!?\"'()[]{}«»„“”‘’…-–—/\\*&%$#@0123456789")
        if w:
            out.append(w)
    return out


def main(argv):
    args = [a for a in argv[1:]]
    n, seed = 300, 1
    for opt in ("--per-language", "--seed"):
        if opt in args:
            i = args.index(opt)
            if i + 1 >= len(args):
                print(f"make-heldout-sets: {opt} needs a number", file=sys.stderr)
                return 2
            try:
                v = int(args[i + 1])
            except ValueError:
                print(f"make-heldout-sets: {opt} needs a number", file=sys.stderr)
                return 2
            if opt == "--per-language":
                n = v
            else:
                seed = v
            del args[i:i + 2]
    if len(args) != 2:
        print("usage: make-heldout-sets.py HELDOUT_DIR OUT_DIR [--per-language N] [--seed S]", file=sys.stderr)
        return 2
    src, out = args
    if not os.path.isdir(src):
        print(f"make-heldout-sets: {src}: not a directory", file=sys.stderr)
        return 1
    for s in ("sentences", "word-pairs", "single-words"):
        os.makedirs(os.path.join(out, s), exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".txt"):
            continue
        rng = random.Random(f"{seed}:{name}")
        with open(os.path.join(src, name), encoding="utf-8", errors="replace", newline="\n") as f:
            lines = [l.strip() for l in f.read().split("\n") if len(l.strip()) >= 20]
        if not lines:
            continue
        sents = rng.sample(lines, min(n, len(lines)))
        pairs, singles = [], []
        for _ in range(20 * n):
            if len(pairs) >= n and len(singles) >= n:
                break
            w = words_of(rng.choice(lines))
            if len(w) >= 2 and len(pairs) < n:
                i = rng.randrange(len(w) - 1)
                pairs.append(w[i] + " " + w[i + 1])
            long_words = [x for x in w if len(x) >= 5]
            if long_words and len(singles) < n:
                singles.append(rng.choice(long_words))
        for s, rows in (("sentences", sents), ("word-pairs", pairs), ("single-words", singles)):
            path = os.path.join(out, s, name)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write("".join(r.replace("\n", " ") + "\n" for r in rows))
            os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
