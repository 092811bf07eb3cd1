#!/usr/bin/python3
"""Generates letter_tables.inc: for each language written in a single-byte legacy code page, the
code pages its web pages used (most used first) and the frequencies of its letters, counted on the
FIRST 70 % of the lines of its training text (scripts/make-encoding-devset.py draws its samples from
the last 30 %).

    /usr/bin/python3 src/encoding/gen_letter_tables.py ../shared/data/train > src/encoding/letter_tables.inc

Letters are counted lowercased (Python str.lower), s and t with comma below as the cedilla forms, and, for precomposed letters, the combining marks
of their canonical decomposition are counted too (windows-1258 decodes Vietnamese to base letters
plus combining marks). Each entry is log(p) of a letter or mark among the language's letters and
marks; detection gives a letter outside the table a floor (see detect.cpp). For the letters beyond
ASCII, the pointwise mutual information of the pairs they form with their neighbours (a letter or
a word boundary) is written too (pair_pmi)."""
import math
import os
import sys
import unicodedata

# language -> the single-byte code pages its pages on the web used, most used first (canonical
# langsift names; iso-8859-1 is windows-1252 and iso-8859-9 windows-1254, as WHATWG decodes them).
WEB_PAGES = {
    "en": ["windows-1252"],
    "de": ["windows-1252", "iso-8859-15"],
    "fr": ["windows-1252", "iso-8859-15"],
    "es": ["windows-1252", "iso-8859-15"],
    "it": ["windows-1252", "iso-8859-15"],
    "pt": ["windows-1252", "iso-8859-15"],
    "nl": ["windows-1252", "iso-8859-15"],
    "ca": ["windows-1252", "iso-8859-15"],
    "gl": ["windows-1252"],
    "eu": ["windows-1252"],
    "da": ["windows-1252", "iso-8859-15"],
    "sv": ["windows-1252", "iso-8859-15"],
    "nb": ["windows-1252", "iso-8859-15"],
    "nn": ["windows-1252", "iso-8859-15"],
    "fi": ["windows-1252", "iso-8859-15"],
    "is": ["windows-1252"],
    "fo": ["windows-1252"],
    "af": ["windows-1252"],
    "ga": ["windows-1252", "iso-8859-14"],
    "gd": ["windows-1252", "iso-8859-14"],
    "br": ["windows-1252"],
    "oc": ["windows-1252"],
    "lb": ["windows-1252"],
    "fy": ["windows-1252"],
    "id": ["windows-1252"],
    "ms": ["windows-1252"],
    "sw": ["windows-1252"],
    "sq": ["windows-1252", "windows-1250"],
    "la": ["windows-1252"],
    "ast": ["windows-1252"],
    "cy": ["windows-1252", "iso-8859-14"],
    "mt": ["iso-8859-3"],
    "eo": ["iso-8859-3"],
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
    "et": ["windows-1257", "windows-1252", "iso-8859-15", "iso-8859-13", "iso-8859-4"],
    "lt": ["windows-1257", "iso-8859-13", "iso-8859-4", "iso-8859-10"],
    "lv": ["windows-1257", "iso-8859-13", "iso-8859-4", "iso-8859-10"],
    "tr": ["windows-1254"],
    "ru": ["windows-1251", "koi8-r", "iso-8859-5", "ibm866"],
    "uk": ["windows-1251", "koi8-u"],
    "be": ["windows-1251"],
    "bg": ["windows-1251"],
    "mk": ["windows-1251"],
    "sr": ["windows-1251"],
    "el": ["windows-1253", "iso-8859-7"],
    "he": ["windows-1255", "iso-8859-8"],
    "yi": ["windows-1255"],
    "ar": ["windows-1256", "iso-8859-6"],
    "fa": ["windows-1256"],
    "ur": ["windows-1256"],
    "vi": ["windows-1258", "viscii"],
}

MIN_P = 1e-6  # letters rarer than this are left out (they get the floor)


# one letter for Romanian readers; the legacy code pages had only the cedilla forms
FOLD = str.maketrans({"ș": "ş", "ț": "ţ"})


def letters(text):
    for ch in text.lower().translate(FOLD):
        if ch.isalpha():
            yield ch
            d = unicodedata.normalize("NFD", ch)
            for m in d[1:]:
                if unicodedata.combining(m):
                    yield m
        elif unicodedata.combining(ch):
            yield ch


def pair_pmi(lines):
    """Pointwise mutual information, in eighths of a nat clamped to [-32, 32], of the adjacent
    pairs of the letter stream (letters lowercased and folded, every run of non-letters one
    boundary ' ') that hold a letter beyond ASCII, seen at least twice: key (x << 16) | y."""
    uni, big, n_uni, n_big = {}, {}, 0, 0
    for line in lines:
        prev = " "
        for ch in line.lower().translate(FOLD) + " ":
            c = ch if ch.isalpha() and ord(ch) <= 0xFFFF else " "
            if c == " " and prev == " ":
                continue
            uni[c] = uni.get(c, 0) + 1
            n_uni += 1
            big[(prev, c)] = big.get((prev, c), 0) + 1
            n_big += 1
            prev = c
    out = []
    for (x, y), n in big.items():
        if n < 2 or (ord(x) < 0x80 and ord(y) < 0x80):
            continue
        pmi = math.log(n / n_big) - math.log(uni.get(x, 1) / n_uni) - math.log(uni[y] / n_uni)
        out.append(((ord(x) << 16) | ord(y), max(-32, min(32, round(pmi * 8)))))
    return sorted(out)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: gen_letter_tables.py TRAIN_DIR > letter_tables.inc")
    train = sys.argv[1]
    out = sys.stdout
    out.write("// Generated by src/encoding/gen_letter_tables.py from the first 70 % of the lines of\n"
              "// ../shared/data/train/<lang>.txt; do not edit.\n")
    entries, langs, pairs = [], [], []
    for lang in WEB_PAGES:
        with open(os.path.join(train, lang + ".txt"), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        counts, total = {}, 0
        for line in lines[: int(len(lines) * 0.7)]:
            for ch in letters(line):
                if ord(ch) > 0xFFFF:
                    continue
                counts[ch] = counts.get(ch, 0) + 1
                total += 1
        table = sorted((ord(c), math.log(n / total)) for c, n in counts.items() if n / total >= MIN_P)
        bigrams = pair_pmi(lines[: int(len(lines) * 0.7)])
        langs.append((lang, ",".join(WEB_PAGES[lang]), len(entries), len(table), len(pairs), len(bigrams)))
        entries.extend(table)
        pairs.extend(bigrams)
    out.write("constexpr letter_logp k_letter_logp[] = {\n")
    for cp, lp in entries:
        out.write(f"    {{0x{cp:04X}, {lp:.3f}f}},\n")
    out.write("};\n")
    out.write("constexpr std::uint32_t k_pair_keys[] = {\n")
    for i in range(0, len(pairs), 8):
        out.write("    " + " ".join(f"0x{k:08X}," for k, _ in pairs[i:i + 8]) + "\n")
    out.write("};\n")
    out.write("constexpr std::int8_t k_pair_pmi[] = {\n")
    for i in range(0, len(pairs), 20):
        out.write("    " + " ".join(f"{v}," for _, v in pairs[i:i + 20]) + "\n")
    out.write("};\n")
    out.write("constexpr language_letters k_language_letters[] = {\n")
    for lang, pages, off, n, poff, pn in langs:
        out.write(f'    {{"{lang}", "{pages}", {off}, {n}, {poff}, {pn}}},\n')
    out.write("};\n")


if __name__ == "__main__":
    main()
