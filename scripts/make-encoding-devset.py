#!/usr/bin/python3
"""Synthetic development set for legacy-encoding detection (langsift issue #24).

Text of each language of ../shared/data/train is encoded with glibc iconv (the converter behind the
`iconv` command, called in-process through ctypes) into that language's legacy code pages as the web
used them, cut at 64, 128, 256, 512 and 2048 bytes on a character boundary of the encoded text, and
written plain and inside a minimal HTML page without any charset declaration (the text is cut first,
then wrapped). The same texts are also written as UTF-8, UTF-16LE and UTF-16BE without BOM, for the
"no loss on UTF-8 and UTF-16" check.

Layout, scored by `langsift-eval encoding DIR --breakdown`:

    DIR/<lang>/<charset>[.le|.be].<plain|html>.n<len>.<index>.txt

The true charset is the file name up to its first '.' (plus the byte order for utf-16), as
langsift-eval expects. The texts are drawn from the TRAINING text (deterministic: starts chosen by a
random generator seeded with the language code, consecutive lines joined by newlines) of the last
30 % of the lines of each file: the letter tables of the detector (src/encoding/gen_letter_tables.py)
are counted on the first 70 %. Lines holding
U+FFFD (cut sources) are skipped, and so are lines a code page cannot encode (no transliteration:
a real page in that code page could not contain them). A cut legacy sample that is all 7-bit (no
byte >= 0x80 and, for ISO-2022-JP, no ESC) is no test of a legacy encoding and is not written; the
counts of such skips are printed.

usage: scripts/make-encoding-devset.py [--train DIR] [--per N] [--langs a,b,c] [--seed S] OUT_DIR

/tmp/encdev (the default draw) is the development set the detector's few weights were chosen on;
--seed 2 draws other texts of the same lines, a check that the figures are not an artefact of
that draw.
"""

import argparse
import ctypes
import ctypes.util
import os
import random
import shutil
import sys

# language -> the legacy code pages its pages on the web used (canonical langsift/WHATWG name).
# Kept apart from the detector's own table (WEB_PAGES in src/encoding/gen_letter_tables.py) on
# purpose: the set says which pages to test, the detector which to prefer; sharing one table
# would make the set test exactly the detector's preferences (the detector's lists are wider:
# et, lt, lv, ga, gd, sq name more pages there).
# iso-8859-1 is not listed beside windows-1252: WHATWG (and langsift) decode it as windows-1252.
LEGACY = {
    # Western European
    "en": ["windows-1252"],
    "de": ["windows-1252", "iso-8859-15"],
    "fr": ["windows-1252", "iso-8859-15"],
    "es": ["windows-1252"],
    "it": ["windows-1252"],
    "pt": ["windows-1252"],
    "nl": ["windows-1252"],
    "ca": ["windows-1252"],
    "gl": ["windows-1252"],
    "eu": ["windows-1252"],
    "da": ["windows-1252"],
    "sv": ["windows-1252"],
    "nb": ["windows-1252"],
    "nn": ["windows-1252"],
    "fi": ["windows-1252", "iso-8859-15"],
    "is": ["windows-1252"],
    "fo": ["windows-1252"],
    "af": ["windows-1252"],
    "ga": ["windows-1252"],
    "gd": ["windows-1252"],
    "br": ["windows-1252"],
    "oc": ["windows-1252"],
    "lb": ["windows-1252"],
    "fy": ["windows-1252"],
    "id": ["windows-1252"],
    "ms": ["windows-1252"],
    "sw": ["windows-1252"],
    "sq": ["windows-1252"],
    "la": ["windows-1252"],
    "ast": ["windows-1252"],
    "cy": ["windows-1252", "iso-8859-14"],
    # South European (Latin-3)
    "mt": ["iso-8859-3"],
    "eo": ["iso-8859-3"],
    # Central European
    "pl": ["windows-1250", "iso-8859-2"],
    "cs": ["windows-1250", "iso-8859-2"],
    "sk": ["windows-1250", "iso-8859-2"],
    "hu": ["windows-1250", "iso-8859-2"],
    "sl": ["windows-1250", "iso-8859-2"],
    "hr": ["windows-1250", "iso-8859-2"],
    "bs": ["windows-1250", "iso-8859-2"],
    "sr-Latn": ["windows-1250", "iso-8859-2"],
    "ro": ["windows-1250", "iso-8859-2"],
    "hsb": ["windows-1250", "iso-8859-2"],
    "dsb": ["windows-1250", "iso-8859-2"],
    # Baltic
    "et": ["windows-1257", "windows-1252", "iso-8859-15"],
    "lt": ["windows-1257", "iso-8859-13"],
    "lv": ["windows-1257", "iso-8859-13"],
    # Cyrillic
    "ru": ["windows-1251", "koi8-r", "iso-8859-5", "ibm866"],
    "uk": ["windows-1251", "koi8-u"],
    "be": ["windows-1251"],
    "bg": ["windows-1251"],
    "mk": ["windows-1251"],
    "sr": ["windows-1251"],
    # Greek, Turkish, Hebrew, Arabic script, Thai, Vietnamese
    "el": ["windows-1253", "iso-8859-7"],
    "tr": ["windows-1254", "iso-8859-9"],
    "he": ["windows-1255", "iso-8859-8"],
    "yi": ["windows-1255"],
    "ar": ["windows-1256", "iso-8859-6"],
    "fa": ["windows-1256"],
    "ur": ["windows-1256"],
    "th": ["windows-874"],
    "vi": ["windows-1258", "viscii"],
    # CJK
    "ja": ["shift_jis", "euc-jp", "iso-2022-jp"],
    "zh": ["gbk"],
    "zh-Hant": ["big5"],
    "ko": ["euc-kr"],
}

UNICODE = ["utf-8", "utf-16.le", "utf-16.be"]

# Our names -> glibc iconv names. shift_jis is WHATWG's windows-31j (ASCII bytes are ASCII), so
# CP932, not glibc's SJIS (which maps 0x5C and 0x7E to YEN SIGN and OVERLINE).
ICONV_NAME = {
    "shift_jis": "CP932",
    "viscii": "VISCII",
    "windows-874": "CP874",
    "iso-8859-9": "ISO-8859-9",
    "euc-kr": "EUC-KR",
    "utf-8": "UTF-8",
    "utf-16.le": "UTF-16LE",
    "utf-16.be": "UTF-16BE",
}

# Before encoding into a code page that lacks them, the letters a legacy text of that language used
# instead (Romanian s/t with comma below were typed with the cedilla forms of windows-1250/8859-2).
SUBSTITUTE = {
    ("ro", "windows-1250"): {"ș": "ş", "ț": "ţ", "Ș": "Ş", "Ț": "Ţ"},
    ("ro", "iso-8859-2"): {"ș": "ş", "ț": "ţ", "Ș": "Ş", "Ț": "Ţ"},
    # Persian and Urdu in windows-1256: the Arabic yeh for the Farsi yeh, the full stop for the
    # Urdu one, ASCII digits for the Extended Arabic-Indic ones (none of them is in the code page)
    ("fa", "windows-1256"): {"\u06cc": "\u064a", **{chr(0x6F0 + d): str(d) for d in range(10)}},
    ("ur", "windows-1256"): {"\u06cc": "\u064a", "\u06d4": ".", **{chr(0x6F0 + d): str(d) for d in range(10)}},
}

LENGTHS = [64, 128, 256, 512, 2048]

HTML_HEAD = "<!DOCTYPE html>\n<html>\n<head>\n<title>Page</title>\n</head>\n<body>\n<p>"
HTML_TAIL = "</p>\n</body>\n</html>\n"


class Iconv:
    """glibc iconv_open/iconv through ctypes: encode() returns bytes, or None when the text has a
    character the code page lacks."""

    _libc = None

    def __init__(self, to_code):
        if Iconv._libc is None:
            Iconv._libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            Iconv._libc.iconv_open.restype = ctypes.c_void_p
            Iconv._libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
            Iconv._libc.iconv.restype = ctypes.c_size_t
            Iconv._libc.iconv.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 4
        self.cd = Iconv._libc.iconv_open(to_code.encode(), b"UTF-8")
        if self.cd in (None, ctypes.c_void_p(-1).value):
            raise SystemExit(f"make-encoding-devset: iconv cannot convert to {to_code}")

    def encode(self, text):
        lib = Iconv._libc
        src = text.encode("utf-8")
        cap = 4 * len(src) + 16
        out = ctypes.create_string_buffer(cap)
        inbuf = ctypes.c_char_p(src)
        inptr = ctypes.c_void_p(ctypes.cast(inbuf, ctypes.c_void_p).value)
        inleft = ctypes.c_size_t(len(src))
        outptr = ctypes.c_void_p(ctypes.addressof(out))
        outleft = ctypes.c_size_t(cap)
        lib.iconv(self.cd, None, None, None, None)  # initial state
        r = lib.iconv(self.cd, ctypes.byref(inptr), ctypes.byref(inleft), ctypes.byref(outptr), ctypes.byref(outleft))
        if r == ctypes.c_size_t(-1).value or inleft.value:
            return None
        # the shift sequence back to the initial state (ISO-2022-JP)
        r = lib.iconv(self.cd, None, None, ctypes.byref(outptr), ctypes.byref(outleft))
        if r == ctypes.c_size_t(-1).value:
            return None
        return out.raw[: cap - outleft.value]


def iconv_name(cs):
    return ICONV_NAME.get(cs, cs.upper())


def cut(enc, text, limit):
    """The longest prefix of text whose encoding is at most `limit` bytes (a character boundary of
    the encoded text; for ISO-2022-JP it ends back in ASCII), and its bytes."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        b = enc.encode(text[:mid])
        if b is not None and len(b) <= limit:
            lo = mid
        else:
            hi = mid - 1
    # a UTF-16 surrogate pair is one Python character, so no cut falls between its halves
    return enc.encode(text[:lo])


def legacy_signal(b, cs):
    if cs == "iso-2022-jp":
        return b"\x1b" in b
    return any(x >= 0x80 for x in b)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output directory (replaced)")
    ap.add_argument("--train", default=os.path.join(here, "..", "..", "shared", "data", "train"))
    ap.add_argument("--per", type=int, default=10, help="samples per language, charset, length and form")
    ap.add_argument("--langs", default="", help="comma-separated subset of languages")
    ap.add_argument("--no-unicode", action="store_true", help="legacy code pages only")
    ap.add_argument("--seed", default="", help="another draw of texts (default: the language code alone seeds)")
    ap.add_argument("--lengths", default=",".join(map(str, LENGTHS)),
                    help="comma-separated cut lengths in bytes (default %(default)s; long pages: e.g. 8192,32768)")
    a = ap.parse_args()
    lengths = [int(x) for x in a.lengths.split(",") if x]

    langs = [l for l in a.langs.split(",") if l] or sorted(LEGACY)
    for l in langs:
        if l not in LEGACY:
            raise SystemExit(f"make-encoding-devset: no code page table for '{l}'")
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)

    written = skipped_ascii = 0
    missing = []
    for lang in langs:
        path = os.path.join(a.train, lang + ".txt")
        if not os.path.exists(path):
            missing.append(lang)
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f]
        # the last 30 % of the lines: src/encoding/gen_letter_tables.py counts letters on the rest
        lines = lines[int(len(lines) * 0.7):]
        lines = [l for l in lines if l and "\ufffd" not in l]
        os.makedirs(os.path.join(a.out, lang))
        charsets = LEGACY[lang] + ([] if a.no_unicode else UNICODE)
        for cs in charsets:
            enc = Iconv(iconv_name(cs))
            subst = SUBSTITUTE.get((lang, cs), {})
            rng = random.Random(f"{a.seed}:{lang}" if a.seed else lang)  # the same starts for every charset
            counts = {n: 0 for n in lengths}
            tries = 0
            while min(counts.values()) < a.per and tries < 200 * a.per * len(lengths):
                tries += 1
                n = lengths[tries % len(lengths)]
                if counts[n] >= a.per:
                    continue
                # consecutive lines from a random start, until the text is long enough
                i = rng.randrange(len(lines))
                parts, size = [], 0
                while i < len(lines) and size < n + 64:
                    l = lines[i]
                    for k, v in subst.items():
                        l = l.replace(k, v)
                    e = enc.encode(l)
                    if e is None:
                        break  # a line the code page cannot encode ends the text
                    parts.append(l)
                    size += len(e) + 1
                    i += 1
                if size < n + 64:
                    continue
                text = "\n".join(parts)
                b = cut(enc, text, n)
                if b is None or len(b) < n - 8:
                    continue
                if cs not in UNICODE and not legacy_signal(b, cs):
                    skipped_ascii += 1
                    continue
                idx = counts[n]
                counts[n] += 1
                for form in ("plain", "html"):
                    data = b
                    if form == "html":
                        data = enc.encode(HTML_HEAD) + b + enc.encode(HTML_TAIL)
                    name = f"{cs}.{form}.n{n}.{idx:03d}.txt"
                    with open(os.path.join(a.out, lang, name), "wb") as f:
                        f.write(data)
                    written += 1
            if min(counts.values()) < a.per:
                print(f"make-encoding-devset: {lang} {cs}: only {counts} samples", file=sys.stderr)
    print(f"{written} files in {a.out}; {skipped_ascii} all-7-bit legacy cuts not written"
          + (f"; no training text for {','.join(missing)}" if missing else ""))


if __name__ == "__main__":
    main()
