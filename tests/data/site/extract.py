#!/usr/bin/env python3
"""Re-creates the corpus extract of the generated test site (tests/data/site/<code>.txt).

The training corpora (../shared/data/train/<code>.txt) concatenate several sources; their
MANIFEST.tsv gives, per language, the bytes taken from each source in file order
(``ntrex:304150 tatoeba:660272 ...``). This script takes only the NTREX-128 byte range (news text,
CC BY-SA 4.0), and from it the first whole lines up to --bytes bytes per language.

    /usr/bin/python3 tests/data/site/extract.py --train ../shared/data/train

Writes tests/data/site/<code>.txt (beside this script unless --out says otherwise).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

LANGUAGES = ("de", "en", "es", "fr", "it", "nl", "pl", "pt")
SOURCE = "ntrex"


def source_range(manifest: Path, code: str, source: str) -> tuple[int, int]:
    """(first byte, byte count) of `source` inside <code>.txt, from MANIFEST.tsv."""
    for line in manifest.read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split("\t")
        if fields[0] != code:
            continue
        offset = 0
        for part in fields[4].split():
            name, _, size = part.partition(":")
            if name == source:
                return offset, int(size)
            offset += int(size)
        raise SystemExit(f"{manifest}: {code} has no {source} bytes")
    raise SystemExit(f"{manifest}: no line for {code}")


def extract(train: Path, code: str, limit: int) -> bytes:
    """The first whole lines of the NTREX range of <code>.txt, at most `limit` bytes."""
    first, size = source_range(train / "MANIFEST.tsv", code, SOURCE)
    with open(train / f"{code}.txt", "rb") as f:
        f.seek(first)
        data = f.read(min(size, limit + 4096))
    out = bytearray()
    for line in data.splitlines(keepends=True):
        # A line cut by the range's end or by the limit is left out: whole sentences only.
        if not line.endswith(b"\n") or len(out) + len(line) > limit:
            break
        if line.strip():
            out += line
    return bytes(out)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", type=Path, required=True, help="folder of <code>.txt and MANIFEST.tsv")
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    p.add_argument("--bytes", type=int, default=30000, help="bytes per language (default 30000)")
    a = p.parse_args(argv)
    for code in LANGUAGES:
        text = extract(a.train, code, a.bytes)
        (a.out / f"{code}.txt").write_bytes(text)
        lines = text.count(b"\n")
        print(f"{code}: {len(text)} bytes, {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
