#!/usr/bin/python3
"""Generates a set of text that is not natural language ("junk"), one file per category.

usage: scripts/make-junk-set.py OUT_DIR [--part dev|test] [--per-category N] [--categories a,b]

Writes OUT_DIR/<category>.txt, N samples per category (default 1000), one sample per line, and
OUT_DIR/MANIFEST.tsv (the source files the code samples were cut from, with their sha256, and each
output file's sha256), for `langsift-eval junk OUT_DIR` (docs/evaluation.md, "langsift-eval junk").

Everything is generated with a fixed seed per part and category, so the same machine state gives
the same bytes. The two parts differ by seed (dev 1, test 2), and the code samples of the two parts
come from disjoint halves of the source files (by a hash of the path): choose rules and thresholds
on `dev`, report figures on `test`.

The code samples are windows of lines of files installed by Debian packages that
scripts/install-deps.sh installs (or that every Debian system has), with comments and docstrings
removed (they are natural language, which a detector may rightly identify), blank lines dropped and
the lines of a window joined by a space (one sample per line). Sources and their licences:
  c           libzstd-dev's examples (BSD), zlib1g-dev's zlib.h (zlib), libicu-dev's unicode/*.h (ICU)
  python      the Python 3 standard library, /usr/lib/python3.*/*.py (PSF)
  javascript  libjs-jquery (MIT), libjs-underscore (MIT), libjs-sphinxdoc (BSD-2-Clause)
  perl        perl-modules' /usr/share/perl/5.*/**/*.pm (GPL-1+ or Artistic), POD removed
  shell       the /bin/sh and bash scripts in /usr/bin and /usr/sbin (each package's licence)
  cmake       cmake-data's Modules/*.cmake (BSD-3-Clause)
  css         python3-dev's Sphinx theme (/usr/share/doc/python3/_static/*.css, BSD-2-Clause) and
              libjs-sphinxdoc's
Every other category is generated from tables in this file: lorem ipsum is the standard passage
(public domain), the rest is random letters, numbers and tokens from small generic vocabularies.
No sample is chosen or dropped by what a detector answers; every sample holds at least one letter
(text without letters is `und` by definition).
"""
import ast
import base64
import glob
import hashlib
import io
import os
import random
import re
import sys
import tokenize
import unicodedata

# ------------------------------------------------------------------------------------------------
# Vocabularies

LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco "
         "laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in "
         "voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat "
         "non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.")
LOREM_WORDS = sorted({w.strip(".,").lower() for w in LOREM.split()})

# Keyboard rows (QWERTY, QWERTZ, AZERTY), for mashing.
KEYBOARDS = [["1234567890", "qwertyuiop", "asdfghjkl;", "zxcvbnm,."],
             ["1234567890", "qwertzuiop", "asdfghjkl", "yxcvbnm,."],
             ["1234567890", "azertyuiop", "qsdfghjklm", "wxcvbn,;:"]]

# English letter frequencies (per mille), for random letters that look more like words.
LETTER_FREQ = {"e": 127, "t": 91, "a": 82, "o": 75, "i": 70, "n": 67, "s": 63, "h": 61, "r": 60, "d": 43,
               "l": 40, "c": 28, "u": 28, "m": 24, "w": 24, "f": 22, "g": 20, "y": 20, "p": 19, "b": 15,
               "v": 10, "k": 8, "j": 2, "x": 2, "q": 1, "z": 1}
LATIN_EXTRA = "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßđłńśźżčšžřěůőűăâîșțğışœ"
CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґўјљњћџ"
ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهوي"
DEVANAGARI = "अआइईउऊएऐओऔकखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसह"

# Several scripts for mixed-script spam: (letters, name).
SCRIPTS = [("abcdefghijklmnopqrstuvwxyz", "Latn"), (CYRILLIC, "Cyrl"), (ARABIC, "Arab"), (DEVANAGARI, "Deva"),
           ("αβγδεζηθικλμνξοπρστυφχψω", "Grek"), ("אבגדהוזחטיכלמנסעפצקרשת", "Hebr"),
           ("กขคงจฉชซญดตถทนบปผพฟภมยรลวศษสหอฮ", "Thai"), ("ანბანიგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ", "Geor"),
           ("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめも", "Hira"),
           ("アイウエオカキクケコサシスセソタチツテトナニヌネノ", "Kana"), ("的一是不了人我在有他这为之大来以个中上们", "Hani"),
           ("가나다라마바사아자차카타파하고노도로모보소오조초", "Hang"), ("աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆ", "Armn"),
           ("অআইঈউঊএঐওঔকখগঘঙচছজঝঞটঠডঢণতথদধনপফবভমযরলশষসহ", "Beng"), ("ሀለሐመሠረሰሸቀበተቸኀነኘአከኸወዐዘዠየደጀገጠጨጰጸፀፈፐ", "Ethi")]

# Look-alikes of Latin letters in Cyrillic and Greek (homoglyph spam).
HOMOGLYPHS = {"a": "аα", "c": "с", "e": "е", "i": "іι", "j": "ј", "o": "оο", "p": "рρ", "s": "ѕ", "x": "хχ",
              "y": "уγ", "k": "κк", "n": "η", "v": "ν", "u": "υ", "h": "һ", "A": "АΑ", "B": "ВΒ", "C": "С",
              "E": "ЕΕ", "H": "НΗ", "K": "КΚ", "M": "МΜ", "O": "ОΟ", "P": "РΡ", "T": "ТΤ", "X": "ХΧ"}
EMOJI = "😀😂🤣😍😎🔥💯✅❌⭐🌟💥💰💸🎉🎁👉👈👇☝️📢📣🚀⚡❤️💙💚👍👎🙏🤑📈📉🔞🆓🆕"

TLDS = ["com", "net", "org", "info", "io", "co", "de", "fr", "ru", "jp", "cn", "br", "uk", "co.uk", "it", "es",
        "nl", "pl", "in", "au", "ca", "se", "ch", "be", "at", "cz", "tr", "ir", "kr", "vn", "id", "mx", "ar", "gr",
        "xyz", "top", "online", "site", "shop", "app", "dev", "tv", "me", "biz", "us", "eu", "edu", "gov"]
# Path and parameter tokens of web addresses and identifiers of data (generic, English-looking as
# most of them are on the web).
WEB_TOKENS = ["index", "html", "php", "asp", "aspx", "jsp", "cgi", "bin", "static", "assets", "img", "images",
              "css", "js", "api", "v1", "v2", "v3", "wp", "content", "uploads", "wp-content", "tag", "tags",
              "category", "cat", "page", "p", "id", "item", "product", "products", "post", "posts", "search",
              "q", "s", "ref", "utm_source", "utm_medium", "utm_campaign", "sid", "lang", "amp", "rss", "feed",
              "cdn", "media", "download", "files", "docs", "user", "users", "u", "profile", "en", "de", "fr",
              "login", "auth", "token", "session", "cart", "checkout", "thumb", "thumbnail", "large", "small",
              "min", "max", "sort", "order", "dir", "ajax", "json", "xml", "view", "show", "list", "detail"]
FIELDS = ["id", "uid", "user_id", "name", "title", "sku", "price", "qty", "amount", "total", "currency", "status",
          "created_at", "updated_at", "date", "time", "timestamp", "email", "phone", "url", "lat", "lon", "lng",
          "zip", "code", "type", "kind", "category", "tags", "count", "score", "rating", "weight", "width",
          "height", "color", "size", "level", "region", "country", "city", "active", "enabled", "value", "key",
          "hash", "version", "parent_id", "order_id", "session", "ip", "ua", "ref", "source", "channel"]
LOG_LEVELS = ["INFO", "WARN", "WARNING", "ERROR", "DEBUG", "TRACE", "FATAL", "NOTICE", "info", "warn", "error", "debug"]
LOG_WORDS = ["started", "stopped", "connected", "disconnected", "failed", "retrying", "timeout", "ok", "done",
             "loaded", "saved", "sent", "received", "request", "response", "GET", "POST", "PUT", "DELETE",
             "HTTP/1.1", "HTTP/2", "worker", "thread", "pool", "cache", "hit", "miss", "queue", "job", "task",
             "pid", "uid", "port", "conn", "db", "query", "ms", "bytes", "status", "exit", "code", "signal"]
DAEMONS = ["sshd", "kernel", "systemd", "cron", "nginx", "httpd", "postfix/smtpd", "dhclient", "dockerd",
           "containerd", "kubelet", "mysqld", "php-fpm", "named", "ntpd", "rsyslogd", "sudo", "CRON"]
BRANDS = ["Facebook", "Twitter", "X", "Instagram", "YouTube", "LinkedIn", "Pinterest", "WhatsApp", "Telegram",
          "TikTok", "Reddit", "VK", "Tumblr", "Flickr", "Vimeo", "RSS", "Email", "Google+", "Skype", "Viber",
          "Snapchat", "Threads", "Mastodon", "Discord", "GitHub", "PayPal", "Visa", "Mastercard", "Amex",
          "Apple Pay", "Google Pay", "iOS", "Android", "PDF", "DOC", "XLS", "JPG", "PNG", "MP3", "MP4", "ZIP",
          "FAQ", "OK", "GPS", "USB", "HD", "4K", "Wi-Fi", "SMS", "QR", "API", "SEO", "CEO", "GmbH", "Ltd.",
          "Inc.", "S.A.", "LLC", "AG", "SRL", "B.V.", "Oy", "AB", "s.r.o."]
NAV_SYMBOLS = ["|", "·", "•", "»", "«", "›", "‹", "→", "←", "↑", "▲", "▼", "►", "◄", "/", "-", "–", "—",
               "::", "★", "☆", "♥", "✓", "✕", "×", "…", "≡", "☰", "⌂", "🔍", "⇧", "▸"]
UNITS = ["kg", "g", "mg", "lb", "oz", "km", "m", "cm", "mm", "mi", "ft", "in", "l", "ml", "px", "pt", "em",
         "rem", "Hz", "kHz", "MHz", "GHz", "kB", "KB", "MB", "GB", "TB", "W", "kW", "V", "mAh", "°C", "°F", "h",
         "min", "s", "ms", "x", "pcs", "mph", "km/h", "rpm"]
CURRENCIES = ["$", "€", "£", "¥", "₹", "₽", "₩", "USD", "EUR", "GBP", "JPY", "CHF", "RUB", "CNY", "BRL", "PLN"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

# Mathematical Alphanumeric Symbols: offsets of the styles' capital A (and small a = +26).
MATH_STYLES = [0x1D400, 0x1D434, 0x1D468, 0x1D4D0, 0x1D56C, 0x1D5A0, 0x1D5D4, 0x1D608, 0x1D63C, 0x1D670]

# ------------------------------------------------------------------------------------------------
# Small helpers


def log_length(rng, lo, hi):
    """A length drawn log-uniformly from [lo, hi]."""
    return int(round(lo * (hi / lo) ** rng.random()))


def freq_letter(rng):
    return rng.choices(list(LETTER_FREQ), weights=list(LETTER_FREQ.values()))[0]


def random_word(rng, lo=1, hi=10, weighted=None, alphabet=None):
    n = rng.randint(lo, hi)
    if alphabet is not None:
        return "".join(rng.choice(alphabet) for _ in range(n))
    if weighted is None:
        weighted = rng.random() < 0.5
    return "".join(freq_letter(rng) if weighted else rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))


def casing(rng, w):
    r = rng.random()
    if r < 0.15:
        return w.upper()
    if r < 0.35:
        return w[:1].upper() + w[1:]
    return w


def syllable_name(rng, lo=2, hi=4):
    cons, vow = "bcdfghjklmnprstvwz", "aeiou"
    return "".join(rng.choice(cons) + rng.choice(vow) for _ in range(rng.randint(lo, hi)))


def number(rng):
    r = rng.random()
    if r < 0.35:
        return str(rng.randint(0, 9999))
    if r < 0.6:
        return f"{rng.uniform(0, 1000):.{rng.randint(1, 3)}f}"
    if r < 0.75:
        return f"{rng.randint(1000, 9999999):,}".replace(",", rng.choice([",", ".", " ", "\u00a0", "'"]))
    if r < 0.85:
        return "-" + str(rng.randint(1, 999))
    return f"{rng.uniform(0, 100):.1f}%"


def date(rng):
    y, mo, d = rng.randint(1990, 2030), rng.randint(1, 12), rng.randint(1, 28)
    h, mi, s = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    return rng.choice([f"{y}-{mo:02d}-{d:02d}", f"{d:02d}.{mo:02d}.{y}", f"{mo}/{d}/{y}", f"{d} {MONTHS[mo - 1]} {y}",
                       f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z", f"{h:02d}:{mi:02d}", f"{y}"])


def fill(rng, make, lo, hi, sep=" "):
    """Pieces from make() joined by sep until a length drawn in [lo, hi] is reached."""
    target = log_length(rng, lo, hi)
    out = make()
    while len(out) < target:
        out += (sep() if callable(sep) else sep) + make()
    return out


def has_letter(s):
    return any(unicodedata.category(c).startswith("L") for c in s)


def clean(s):
    """One line: line and paragraph separators become spaces, runs of spaces one."""
    s = re.sub(r"[\r\n\u0085\u2028\u2029\t\v\f]+", " ", s)
    return re.sub(r" {2,}", " ", s).strip()

# ------------------------------------------------------------------------------------------------
# Generators: each returns one sample


def gen_repeated_token(rng):
    r = rng.random()
    if r < 0.6:  # one token
        unit = [casing(rng, random_word(rng, 1, 8))]
    elif r < 0.85:  # two or three tokens repeated in turn
        unit = [casing(rng, random_word(rng, 1, 6)) for _ in range(rng.randint(2, 3))]
    else:  # a syllable repeated without spaces: "hahaha", "lololol"
        syl = random_word(rng, 1, 3)
        return casing(rng, syl * rng.randint(3, 40))
    if rng.random() < 0.15:
        unit = [u + str(rng.randint(0, 99)) for u in unit]
    sep = rng.choice([" ", " ", " ", ", ", "-", " | ", "! ", ". ", "", " / ", "\u00a0"])
    n = rng.randint(2, 40)
    return sep.join(unit[i % len(unit)] for i in range(n * len(unit)))


def gen_keyboard_mash(rng):
    rows = rng.choice(KEYBOARDS)

    def chunk():
        row = rng.choice([1, 1, 2, 2, 2, 3])
        x = rng.randrange(len(rows[row]))
        out = []
        for _ in range(rng.randint(2, 12)):
            out.append(rows[row][x])
            r = rng.random()
            if r < 0.15 and row > 1:
                row -= 1
            elif r < 0.3 and row < 3:
                row += 1
            x = max(0, min(len(rows[row]) - 1, x + rng.choice([-2, -1, -1, 1, 1, 1, 2, 0])))
        s = "".join(out)
        if rng.random() < 0.2:
            s = s * rng.randint(2, 4)
        return casing(rng, s) if rng.random() < 0.3 else s

    return fill(rng, chunk, 3, 200, sep=lambda: rng.choice([" ", " ", " ", "", "  ", "\u00a0"]))


def gen_random_letters(rng):
    r = rng.random()
    if r < 0.45:
        make = lambda: casing(rng, random_word(rng, 1, 12, weighted=False))
    elif r < 0.75:
        make = lambda: casing(rng, random_word(rng, 1, 12, weighted=True))
    elif r < 0.85:
        make = lambda: random_word(rng, 1, 12, alphabet="abcdefghijklmnopqrstuvwxyz" + LATIN_EXTRA)
    elif r < 0.95:
        make = lambda: random_word(rng, 1, 12, alphabet=CYRILLIC)
    else:
        make = lambda: random_word(rng, 1, 10, alphabet=rng.choice([ARABIC, DEVANAGARI]))
    return fill(rng, make, 3, 600)


def gen_base64(rng):
    def one():
        n = log_length(rng, 6, 450)
        raw = bytes(rng.randrange(256) for _ in range(n))
        s = (base64.urlsafe_b64encode if rng.random() < 0.25 else base64.b64encode)(raw).decode()
        if rng.random() < 0.3:
            s = s.rstrip("=")
        if rng.random() < 0.15:
            s = f"data:{rng.choice(['image/png', 'image/jpeg', 'image/gif', 'font/woff2', 'application/octet-stream'])};base64," + s
        if len(s) > 76 and rng.random() < 0.3:  # MIME lines (joined by spaces here)
            s = " ".join(s[i:i + 76] for i in range(0, len(s), 76))
        return s

    return fill(rng, one, 8, 600)


def gen_hex(rng):
    def one():
        r = rng.random()
        hexd = "0123456789abcdef" if rng.random() < 0.7 else "0123456789ABCDEF"
        h = lambda n: "".join(rng.choice(hexd) for _ in range(n))
        if r < 0.3:
            return h(rng.choice([8, 16, 32, 40, 56, 64, 128]))
        if r < 0.45:
            return f"{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}"
        if r < 0.6:
            return " ".join(("0x" if rng.random() < 0.5 else "") + h(2) for _ in range(rng.randint(2, 24)))
        if r < 0.7:
            return "#" + h(rng.choice([3, 6, 8]))
        if r < 0.8:
            return ":".join(h(2) for _ in range(6))
        if r < 0.9:
            return ":".join(h(4) for _ in range(8))
        return f"{rng.randrange(0, 1 << 20) * 16:08x}: " + " ".join(h(4) for _ in range(8))

    return fill(rng, one, 6, 600, sep=lambda: rng.choice([" ", ", ", "\t", " | "]))


def gen_numbers(rng):
    def one():
        r = rng.random()
        if r < 0.3:
            return number(rng) + rng.choice(["", " ", " "]) + rng.choice(UNITS)
        if r < 0.45:
            c, n = rng.choice(CURRENCIES), f"{rng.uniform(0, 5000):.2f}"
            return c + n if len(c) == 1 and rng.random() < 0.5 else n + " " + c
        if r < 0.6:
            return date(rng)
        if r < 0.7:
            return "+" + str(rng.randint(1, 99)) + " " + " ".join(str(rng.randint(10, 9999)) for _ in range(3))
        if r < 0.8:
            return f"{rng.randint(0, 30)}.{rng.randint(0, 30)}.{rng.randint(0, 300)}"
        if r < 0.88:
            return f"{rng.uniform(-90, 90):.5f}, {rng.uniform(-180, 180):.5f}"
        if r < 0.94:
            return f"{number(rng)} x {number(rng)} {rng.choice(UNITS)}"
        return number(rng)

    while True:
        s = fill(rng, one, 4, 500, sep=lambda: rng.choice([" ", ", ", "; ", " | ", " · ", " - ", "\t", " / "]))
        if has_letter(s):
            return s


def host(rng):
    parts = [rng.choice([syllable_name(rng), random_word(rng, 3, 10), rng.choice(WEB_TOKENS) + str(rng.randint(1, 99))])
             for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.4:
        parts.insert(0, rng.choice(["www", "m", "cdn", "api", "blog", "shop", "static", "img", "mail"]))
    return ".".join(parts) + "." + rng.choice(TLDS)


def url(rng):
    path = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.4:
            path.append(rng.choice(WEB_TOKENS))
        elif r < 0.6:
            path.append(str(rng.randint(1, 99999)))
        elif r < 0.8:
            path.append("-".join(random_word(rng, 2, 9) for _ in range(rng.randint(1, 5))))
        else:
            path.append(random_word(rng, 4, 20, alphabet="abcdefghijklmnopqrstuvwxyz0123456789"))
    s = rng.choice(["https://", "http://", "", "//"]) + host(rng) + ("/" + "/".join(path) if path else "")
    if path and rng.random() < 0.4:
        s += "." + rng.choice(["html", "php", "htm", "jpg", "png", "pdf", "aspx", "js", "css"])
    if rng.random() < 0.35:
        s += "?" + "&".join(f"{rng.choice(WEB_TOKENS)}={rng.choice([str(rng.randint(0, 9999)), random_word(rng, 2, 12)])}"
                            for _ in range(rng.randint(1, 4)))
    return s


def gen_urls(rng):
    def one():
        r = rng.random()
        if r < 0.7:
            return url(rng)
        if r < 0.85:
            return f"{random_word(rng, 3, 10)}{rng.choice(['', '.', '_'])}{rng.choice(['', random_word(rng, 2, 8)])}@{host(rng)}"
        if r < 0.93:
            return "/" + "/".join(rng.choice(WEB_TOKENS + ["usr", "lib", "var", "etc", "home", "tmp", "opt", "share"])
                                  for _ in range(rng.randint(1, 6)))
        return "C:\\" + "\\".join(rng.choice(["Users", "Windows", "Program Files", "AppData", "Local", "Temp"] + WEB_TOKENS)
                                  for _ in range(rng.randint(1, 5)))

    return fill(rng, one, 10, 700, sep=lambda: rng.choice([" ", " ", ", ", " | ", " · "]))


def gen_lorem_ipsum(rng):
    if rng.random() < 0.4:  # the standard passage from its start, cut at a word
        words = LOREM.split()
        return " ".join(words[:rng.randint(2, len(words))])

    def sentence():  # as lorem ipsum generators make them: random words of the passage
        ws = [rng.choice(LOREM_WORDS) for _ in range(rng.randint(4, 14))]
        for i in range(1, len(ws) - 1):
            if rng.random() < 0.1:
                ws[i] += ","
        return ws[0].capitalize() + " " + " ".join(ws[1:]) + "."

    s = fill(rng, sentence, 15, 900)
    return "Lorem ipsum " + s[0].lower() + s[1:] if rng.random() < 0.3 else s


def letter_scripts(s):
    """The scripts of the letters of s, by the first word of their Unicode names (LATIN, CYRILLIC,
    MATHEMATICAL, FULLWIDTH...)."""
    return {unicodedata.name(c, "?").split()[0] for c in s if unicodedata.category(c).startswith("L")}


def gen_mixed_script(rng):
    """Letters of at least two scripts (or styles): a sample of one script is not mixed."""
    while True:
        s = mixed_script_candidate(rng)
        if len(letter_scripts(s)) >= 2:
            return s


def mixed_script_candidate(rng):
    r = rng.random()
    if r < 0.3:  # homoglyph spam: Latin-looking words with Cyrillic or Greek letters inside
        def word():
            w = casing(rng, random_word(rng, 2, 10, weighted=True))
            return "".join(rng.choice(HOMOGLYPHS[c]) if c in HOMOGLYPHS and rng.random() < 0.35 else c for c in w)
        return fill(rng, word, 6, 300)
    if r < 0.5:  # "fancy" letters: mathematical alphanumerics, fullwidth, circled, with emoji
        def word():
            w = random_word(rng, 2, 10, weighted=True)
            style = rng.random()
            if style < 0.5:
                base = rng.choice(MATH_STYLES)
                return "".join(chr(base + 26 + ord(c) - 97) for c in w)
            if style < 0.75:
                return "".join(chr(0xFF41 + ord(c) - 97) for c in w)
            return "".join(chr(0x24D0 + ord(c) - 97) for c in w)
        s = fill(rng, word, 6, 300, sep=lambda: rng.choice([" ", " ", " " + rng.choice(EMOJI) + " "]))
        return s + " " + casing(rng, random_word(rng, 1, 6))  # a plain letter, so that it has one
    if r < 0.8:  # tokens of random letters, each in a script of its own
        def word():
            letters, _ = rng.choice(SCRIPTS)
            return random_word(rng, 1, 8, alphabet=letters)
        return fill(rng, word, 4, 400)
    # emoji and symbol spam around a few letters
    def piece():
        if rng.random() < 0.5:
            return "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 6)))
        letters, _ = rng.choice(SCRIPTS)
        return casing(rng, random_word(rng, 1, 8, alphabet=letters)) if letters[0] == "a" else random_word(rng, 1, 8, alphabet=letters)
    while True:
        s = fill(rng, piece, 4, 300)
        if has_letter(s):
            return s


def gen_nav_debris(rng):
    def one():
        r = rng.random()
        if r < 0.3:
            return rng.choice(BRANDS)
        if r < 0.45:
            return rng.choice(NAV_SYMBOLS)
        if r < 0.6:  # pagination
            a = rng.randint(1, 50)
            return " ".join(str(i) for i in range(a, a + rng.randint(2, 8))) + rng.choice(["", " …", " ... " + str(a + 40)])
        if r < 0.7:
            return f"© {rng.randint(1998, 2025)}{rng.choice(['', '–' + str(rng.randint(2015, 2026))])} {syllable_name(rng).capitalize()} {rng.choice(BRANDS[-12:])}"
        if r < 0.8:
            return f"{number(rng)} {rng.choice(['★★★★☆', '★★★★★', '★★★☆☆', '👍', '♥', '💬', '👁'])}"
        if r < 0.9:
            return f"{rng.choice(BRANDS[34:40])} {rng.uniform(0.1, 50):.1f} {rng.choice(['MB', 'KB', 'GB'])}"
        return date(rng)

    return fill(rng, one, 4, 400, sep=lambda: rng.choice([" ", " | ", " · ", " » ", " / ", "  ", " • "]))


def value(rng):
    r = rng.random()
    if r < 0.3:
        return number(rng)
    if r < 0.45:
        return random_word(rng, 2, 3, alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "-" + str(rng.randint(10, 99999))
    if r < 0.55:
        return date(rng)
    if r < 0.65:
        return rng.choice(["true", "false", "TRUE", "FALSE", "NULL", "null", "NaN", "N/A", "", "-", "yes", "no", "0", "1"])
    if r < 0.75:
        return syllable_name(rng).capitalize() + " " + syllable_name(rng).capitalize()
    if r < 0.85:
        return random_word(rng, 4, 24, alphabet="abcdefghijklmnopqrstuvwxyz0123456789")
    if r < 0.92:
        return f"{random_word(rng, 3, 8)}@{host(rng)}"
    return rng.choice(CURRENCIES[7:]) if rng.random() < 0.5 else rng.choice(["de", "en", "fr", "US", "GB", "DE", "CN"])


def gen_csv(rng):
    sep = rng.choice([",", ",", ";", "\t", "|"])
    quote = rng.random() < 0.3
    cols = rng.randint(2, 10)
    rows = []
    if rng.random() < 0.35:
        rows.append(sep.join(rng.sample(FIELDS, cols)))
    for _ in range(rng.randint(1, 6)):
        rows.append(sep.join(f'"{v}"' if quote else v for v in (value(rng) for _ in range(cols))))
    return " ".join(rows)


def gen_json(rng):
    def obj(depth):
        parts = []
        for k in rng.sample(FIELDS, rng.randint(1, 6)):
            r = rng.random()
            if r < 0.15 and depth < 2:
                v = obj(depth + 1)
            elif r < 0.25:
                v = "[" + ", ".join(f'"{value(rng)}"' for _ in range(rng.randint(0, 4))) + "]"
            elif r < 0.6:
                v = f'"{value(rng)}"'
            else:
                v = rng.choice([str(rng.randint(0, 99999)), f"{rng.uniform(0, 999):.3f}", "true", "false", "null"])
            parts.append(f'"{k}": {v}' if rng.random() < 0.8 else f'"{k}":{v}')
        return "{" + ", ".join(parts) + "}"

    while True:
        s = obj(0) if rng.random() < 0.7 else "[" + ", ".join(obj(1) for _ in range(rng.randint(1, 3))) + "]"
        if has_letter(s):
            return s


def gen_log_lines(rng):
    def msg():
        out = []
        for _ in range(rng.randint(1, 6)):
            r = rng.random()
            if r < 0.35:
                out.append(rng.choice(LOG_WORDS))
            elif r < 0.65:
                out.append(f"{rng.choice(FIELDS)}={rng.choice([str(rng.randint(0, 99999)), random_word(rng, 3, 12), '/' + rng.choice(WEB_TOKENS)])}")
            elif r < 0.8:
                out.append(str(rng.randint(0, 65535)))
            else:
                out.append(random_word(rng, 3, 10) + rng.choice([".", "::", "_", "-"]) + random_word(rng, 3, 10))
        return " ".join(out)

    def ip():
        return ".".join(str(rng.randint(1, 254)) for _ in range(4))

    def line():
        r = rng.random()
        y, mo, d, h, mi, s = (rng.randint(2015, 2026), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                              rng.randint(0, 59), rng.randint(0, 59))
        if r < 0.3:
            return f"{ip()} - - [{d:02d}/{MONTHS[mo - 1]}/{y}:{h:02d}:{mi:02d}:{s:02d} +0000] \"{rng.choice(['GET', 'POST', 'HEAD'])} {url(rng).split('//', 1)[-1].partition('/')[2] or '/'} HTTP/1.1\" {rng.choice([200, 200, 301, 302, 304, 403, 404, 500])} {rng.randint(0, 99999)} \"-\" \"Mozilla/5.0 ({rng.choice(['X11; Linux x86_64', 'Windows NT 10.0; Win64; x64', 'Macintosh; Intel Mac OS X 10_15_7', 'iPhone; CPU iPhone OS 17_0 like Mac OS X'])})\""
        if r < 0.55:
            return f"{MONTHS[mo - 1]} {d:2d} {h:02d}:{mi:02d}:{s:02d} {syllable_name(rng)} {rng.choice(DAEMONS)}[{rng.randint(1, 99999)}]: {msg()}"
        if r < 0.8:
            return f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d},{rng.randint(0, 999):03d} {rng.choice(LOG_LEVELS)} [{random_word(rng, 3, 10)}] {random_word(rng, 1, 3)}.{random_word(rng, 1, 3)}.{casing(rng, random_word(rng, 4, 12))} - {msg()}"
        return f"ts={y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z level={rng.choice(LOG_LEVELS).lower()} msg=\"{msg()}\" " + " ".join(
            f"{k}={rng.randint(0, 9999)}" for k in rng.sample(FIELDS, rng.randint(0, 3)))

    return " ".join(line() for _ in range(rng.randint(1, 3)))


def gen_sql(rng):
    ident = lambda: rng.choice([rng.choice(FIELDS), random_word(rng, 2, 8) + "_" + rng.choice(FIELDS), "t" + str(rng.randint(1, 9))])
    table = lambda: rng.choice(["", "public.", "dbo."]) + random_word(rng, 3, 9) + rng.choice(["", "s", "_" + rng.choice(FIELDS)])
    lit = lambda: rng.choice([str(rng.randint(0, 9999)), f"'{value(rng)}'", "NULL", "TRUE", f"'{date(rng)}'"])
    kw = (lambda k: k.lower()) if rng.random() < 0.3 else (lambda k: k)

    def cond():
        return " AND ".join(f"{ident()} {rng.choice(['=', '<', '>', '<=', '>=', '<>', kw('LIKE'), kw('IS NOT')])} {lit()}"
                            for _ in range(rng.randint(1, 3)))

    def stmt():
        r = rng.random()
        if r < 0.45:
            s = f"{kw('SELECT')} {', '.join(ident() for _ in range(rng.randint(1, 5)))} {kw('FROM')} {table()}"
            if rng.random() < 0.4:
                s += f" {kw('JOIN')} {table()} {kw('ON')} {ident()} = {ident()}"
            if rng.random() < 0.7:
                s += f" {kw('WHERE')} {cond()}"
            if rng.random() < 0.3:
                s += f" {kw('ORDER BY')} {ident()} {kw(rng.choice(['ASC', 'DESC']))} {kw('LIMIT')} {rng.randint(1, 100)}"
            return s + ";"
        if r < 0.65:
            cols = [ident() for _ in range(rng.randint(1, 5))]
            return f"{kw('INSERT INTO')} {table()} ({', '.join(cols)}) {kw('VALUES')} ({', '.join(lit() for _ in cols)});"
        if r < 0.8:
            return f"{kw('UPDATE')} {table()} {kw('SET')} {ident()} = {lit()} {kw('WHERE')} {cond()};"
        types = ["INTEGER", "BIGINT", "TEXT", "VARCHAR(255)", "BOOLEAN", "TIMESTAMP", "NUMERIC(10,2)", "SERIAL PRIMARY KEY"]
        return f"{kw('CREATE TABLE')} {table()} ({', '.join(ident() + ' ' + kw(rng.choice(types)) for _ in range(rng.randint(1, 6)))});"

    return fill(rng, stmt, 10, 800)

# ------------------------------------------------------------------------------------------------
# Source code: files, comment removal, windows


def strip_c_like(text, line_comment="//", block=("/*", "*/"), quotes="\"'`"):
    """Removes comments, keeping strings (a small scanner: enough for C, C++, JavaScript, CSS, SQL)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if block and text.startswith(block[0], i):
            j = text.find(block[1], i + len(block[0]))
            j = n if j < 0 else j + len(block[1])
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif line_comment and text.startswith(line_comment, i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in quotes:
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def strip_python(text):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    drop = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            drop.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = text.split("\n")
    comments = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    out = []
    for k, line in enumerate(lines, 1):
        if k in drop:
            continue
        out.append(line[:comments[k]] if k in comments else line)
    return "\n".join(out)


def strip_hash_comments(text, pod=False):
    """Whole-line # comments (and Perl's POD blocks, and what follows __END__ / __DATA__)."""
    out, in_pod = [], False
    for line in text.split("\n"):
        if pod:
            if line.startswith("__END__") or line.startswith("__DATA__"):
                break
            if re.match(r"^=[a-zA-Z]", line):
                in_pod = not line.startswith("=cut")
                continue
            if in_pod:
                continue
        if line.lstrip().startswith("#"):
            continue
        out.append(line)
    return "\n".join(out)


def shell_scripts():
    found = []
    for d in ("/usr/bin", "/usr/sbin"):
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as f:
                    head = f.readline(64)
            except OSError:
                continue
            if re.match(rb"#! ?(/usr)?/bin/(ba|da)?sh\b", head):
                found.append(p)
    return found


CODE_SOURCES = {
    "c": (lambda: sorted(glob.glob("/usr/share/doc/libzstd-dev/examples/*.c") + ["/usr/include/zlib.h"] +
                         glob.glob("/usr/include/unicode/*.h")), strip_c_like),
    "python": (lambda: sorted(glob.glob("/usr/lib/python3.*/*.py")), strip_python),
    "javascript": (lambda: sorted(["/usr/share/javascript/jquery/jquery.js", "/usr/share/javascript/underscore/underscore.js"] +
                                  glob.glob("/usr/share/javascript/sphinxdoc/1.0/*.js")), strip_c_like),
    "perl": (lambda: sorted(glob.glob("/usr/share/perl/5.*/**/*.pm", recursive=True)), lambda t: strip_hash_comments(t, pod=True)),
    "shell": (shell_scripts, strip_hash_comments),
    "cmake": (lambda: sorted(glob.glob("/usr/share/cmake-3.*/Modules/*.cmake")),
              lambda t: strip_hash_comments(re.sub(r"#\[(=*)\[.*?\]\1\]", "", t, flags=re.S))),
    "css": (lambda: sorted(glob.glob("/usr/share/doc/python3/_static/*.css") + glob.glob("/usr/share/javascript/sphinxdoc/1.0/*.css") +
                           glob.glob("/usr/share/javascript/sphinxdoc/1.0/*/*.css")),
            lambda t: strip_c_like(t, line_comment=None, quotes="\"'")),
}


def file_half(path):
    """0 or 1: which part's half of the source files `path` belongs to."""
    return hashlib.sha256(os.path.realpath(path).encode()).digest()[0] & 1


class CodeWindows:
    def __init__(self, lang, part, manifest):
        lister, strip = CODE_SOURCES[lang]
        files = [p for p in lister() if os.path.isfile(p)]
        if not files:
            sys.exit(f"make-junk-set: no source files for code-{lang} (see the sources in --help)")
        half = 0 if part == "dev" else 1
        self.files = []
        for p in files:
            if file_half(p) != half:
                continue
            with open(p, "rb") as f:
                raw = f.read()
            text = strip(raw.decode("utf-8", errors="replace").replace("\r\n", "\n"))
            if text is None:
                continue
            lines = [clean(l) for l in text.split("\n")]
            lines = [l for l in lines if l]
            if lines:
                self.files.append((p, lines))
                manifest.append(f"source\tcode-{lang}\t{p}\t{hashlib.sha256(raw).hexdigest()}")
        if not self.files:
            sys.exit(f"make-junk-set: no usable source files for code-{lang} in this part")
        self.weights = [len(l) for _, l in self.files]

    def __call__(self, rng):
        _, lines = rng.choices(self.files, weights=self.weights)[0]
        target = log_length(rng, 10, 1500)
        i = rng.randrange(len(lines))
        out = lines[i]
        while len(out) < target and i + 1 < len(lines):
            i += 1
            out += " " + lines[i]
        return out

# ------------------------------------------------------------------------------------------------
# Natural text with web debris (--web-text): what must stay language


BRAND_WORDS = ["iPhone", "YouTube", "WiFi", "PowerPoint", "eBay", "LinkedIn", "PlayStation", "JavaScript", "McDonald's",
               "WhatsApp", "PayPal", "iTunes", "GitHub", "TripAdvisor", "MasterCard", "BlackBerry", "FedEx", "PhD",
               "COVID-19", "H1N1", "MP3", "4K", "Windows 10", "Galaxy S21", "A4", "B2B", "CO2", "Wi-Fi", "e-mail"]


def web_debris(rng, words):
    """Adds one piece of web debris to the words of a natural line, in place."""
    r = rng.random()
    at = rng.randint(0, len(words))
    if r < 0.15:
        words.insert(at, rng.choice(["", "(", "see ", "www: "]) + url(rng) + rng.choice(["", ")", ",", "."]))
    elif r < 0.25:
        words.insert(at, f"{random_word(rng, 3, 10)}{rng.choice(['', '.', '_'])}{random_word(rng, 2, 8)}@{host(rng)}")
    elif r < 0.4:  # an HTML entity for a letter or punctuation (text taken from a page's source)
        i = rng.randrange(len(words))
        chars = [c for c in words[i] if not c.isascii() or c in "'\""]
        if chars:
            c = rng.choice(chars)
            ent = rng.choice([f"&#{ord(c)};", f"&#x{ord(c):X};"]) if rng.random() < 0.8 else "&amp;"
            words[i] = words[i].replace(c, ent, 1)
        else:
            words.insert(at, rng.choice(["&amp;", "&nbsp;", "&#160;", "&raquo;", "&copy;", "&#8217;"]))
    elif r < 0.5:
        words.insert(at, "&")
    elif r < 0.65:
        words.insert(at, rng.choice(BRAND_WORDS))
    elif r < 0.75:
        words.insert(at, rng.choice([f"${rng.randint(1, 999)}", f"{rng.randint(1, 999)},{rng.randint(0, 99):02d} €",
                                     f"{rng.randint(1, 99)}{rng.choice(UNITS)}", f"({rng.randint(1, 99)}%)",
                                     f"{rng.randint(1, 99)}%", date(rng)]))
    elif r < 0.85:  # a label or breadcrumb before the text
        words[0:0] = [rng.choice([f"Email: {random_word(rng, 3, 8)}@{host(rng)}", f"Tel: +{rng.randint(1, 99)} {rng.randint(10, 999)} {rng.randint(1000, 99999)}",
                                  f"URL: {url(rng)}", f"{syllable_name(rng).capitalize()} > {syllable_name(rng).capitalize()} >",
                                  f"Posted by {random_word(rng, 4, 9)}{rng.randint(1, 99)} on {date(rng)}"])]
    elif r < 0.92:
        words.insert(at, rng.choice(["#", "@"]) + random_word(rng, 3, 12) + rng.choice(["", str(rng.randint(1, 99))]))
    else:  # a product code or model number
        words.insert(at, rng.choice([f"{random_word(rng, 1, 3, alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZ')}{rng.randint(1, 999)}",
                                     f"{rng.randint(100, 9999)}/{rng.randint(100, 9999)}",
                                     f"{random_word(rng, 2, 4, alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZ')}-{rng.randint(10, 999)}"]))


def make_web_text(src, out, part, per_language):
    """Lines of src/<code>.txt (held-out training text) with one or two pieces of web debris each."""
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".txt"):
            continue
        rng = random.Random(f"{SEEDS[part]}:web-text:{name}")
        with open(os.path.join(src, name), encoding="utf-8", errors="replace", newline="\n") as f:
            lines = [clean(l) for l in f.read().split("\n")]
        lines = [l for l in lines if len(l) >= 20 and len(l.split()) >= 3]
        if not lines:
            continue
        rows = []
        for line in rng.sample(lines, min(per_language, len(lines))):
            words = line.split()
            for _ in range(rng.randint(1, 2)):
                web_debris(rng, words)
            rows.append(clean(" ".join(w for w in words if w)))
        path = os.path.join(out, name)
        with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(r + "\n" for r in rows))
        os.replace(path + ".tmp", path)

# ------------------------------------------------------------------------------------------------

GENERATED = {
    "repeated-token": gen_repeated_token, "keyboard-mash": gen_keyboard_mash, "random-letters": gen_random_letters,
    "base64": gen_base64, "hex": gen_hex, "numbers": gen_numbers, "urls": gen_urls, "lorem-ipsum": gen_lorem_ipsum,
    "mixed-script": gen_mixed_script, "nav-debris": gen_nav_debris, "csv": gen_csv, "json": gen_json,
    "log-lines": gen_log_lines, "code-sql": gen_sql,
}
CATEGORIES = sorted(list(GENERATED) + ["code-" + k for k in CODE_SOURCES])
SEEDS = {"dev": 1, "test": 2}


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="make-junk-set.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog="\n\n".join(__doc__.split("\n\n")[2:]))
    ap.add_argument("out_dir")
    ap.add_argument("--part", choices=sorted(SEEDS), default="dev")
    ap.add_argument("--per-category", type=int, default=1000, metavar="N")
    ap.add_argument("--categories", default=",".join(CATEGORIES), metavar="a,b")
    ap.add_argument("--web-text", metavar="HELDOUT_DIR",
                    help="instead: natural lines of HELDOUT_DIR/<code>.txt with web debris added (URLs, e-mail "
                         "addresses, HTML entities, brand names, prices, labels, hashtags, product codes), "
                         "--per-category lines per language, as OUT_DIR/<code>.txt: text that must stay language")
    a = ap.parse_args(argv[1:])
    if a.web_text:
        if not os.path.isdir(a.web_text):
            ap.error(f"{a.web_text}: not a directory")
        make_web_text(a.web_text, a.out_dir, a.part, a.per_category)
        return 0
    cats = [c for c in a.categories.split(",") if c]
    for c in cats:
        if c not in CATEGORIES:
            ap.error(f"unknown category {c!r} (known: {', '.join(CATEGORIES)})")
    if a.per_category < 1:
        ap.error("--per-category must be at least 1")
    os.makedirs(a.out_dir, exist_ok=True)
    header = f"# make-junk-set.py --part {a.part} --per-category {a.per_category}"
    manifest = [header]
    for c in cats:
        gen = GENERATED.get(c) or CodeWindows(c[len("code-"):], a.part, manifest)
        rng = random.Random(f"{SEEDS[a.part]}:{c}")
        rows = []
        while len(rows) < a.per_category:
            s = clean(gen(rng))
            if s and has_letter(s):
                rows.append(s)
        data = "".join(r + "\n" for r in rows).encode("utf-8")
        path = os.path.join(a.out_dir, c + ".txt")
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        manifest.append(f"output\t{c}\t{c}.txt\t{hashlib.sha256(data).hexdigest()}")
    path = os.path.join(a.out_dir, "MANIFEST.tsv")
    # A run of some categories keeps the other categories' lines of the same part and size.
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read().split("\n")
        if old[0] == header:
            manifest[1:1] = [l for l in old[1:] if l and l.split("\t")[1] not in cats]
    except (OSError, IndexError):
        pass
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(manifest) + "\n")
    os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
