#!/usr/bin/env python3
"""Writes the WARC fixtures of tests/tools/test_warc.cpp, independently of langsift's own writer
(tools/warcgen): python3 tests/data/warc/make_fixtures.py [OUT_DIR]  (default: this directory).

sample.warc     WARC/1.0, uncompressed: warcinfo, request, 8 responses/resources/conversions in
                several encodings and HTTP codings, metadata, revisit (known answers in the test)
sample.warc.gz  the same records as WARC/1.1, one gzip member each
bad.warc.gz     malformed: a Content-Length 7 too small, a truncated gzip member, bytes that are
                not gzip between members, a record without Content-Length, a response without
                HTTP headers; each followed by a good record
The texts were written for these tests. Output is deterministic (gzip mtime 0).
"""
import gzip
import os
import sys
import zlib

DE = ("Die Stadtbibliothek bleibt in den Sommerferien an allen Werktagen ge\u00f6ffnet. "
      "Neben B\u00fcchern und Zeitschriften k\u00f6nnen Besucherinnen und Besucher auch Spiele, "
      "Filme und Noten ausleihen. F\u00fcr Kinder gibt es jeden Mittwoch eine Vorlesestunde, "
      "und die Jugendabteilung l\u00e4dt zu einem Schreibwettbewerb ein.")
ES = ("El ayuntamiento ha anunciado que las obras de la plaza mayor terminar\u00e1n antes del "
      "oto\u00f1o. Durante los pr\u00f3ximos meses, los vecinos podr\u00e1n consultar el calendario de "
      "cortes de tr\u00e1fico en la p\u00e1gina municipal y en los tablones de anuncios del barrio.")
RU = ("\u0412 \u044d\u0442\u043e\u043c \u0433\u043e\u0434\u0443 \u0433\u043e\u0440\u043e\u0434\u0441\u043a\u0430\u044f "
      "\u0431\u0438\u0431\u043b\u0438\u043e\u0442\u0435\u043a\u0430 \u043e\u0442\u043a\u0440\u044b\u043b\u0430 "
      "\u043d\u043e\u0432\u044b\u0439 \u0447\u0438\u0442\u0430\u043b\u044c\u043d\u044b\u0439 \u0437\u0430\u043b "
      "\u0434\u043b\u044f \u0441\u0442\u0443\u0434\u0435\u043d\u0442\u043e\u0432. \u0417\u0434\u0435\u0441\u044c "
      "\u043c\u043e\u0436\u043d\u043e \u0440\u0430\u0431\u043e\u0442\u0430\u0442\u044c \u0441 "
      "\u0440\u0435\u0434\u043a\u0438\u043c\u0438 \u043a\u043d\u0438\u0433\u0430\u043c\u0438, "
      "\u0441\u0442\u0430\u0440\u044b\u043c\u0438 \u0433\u0430\u0437\u0435\u0442\u0430\u043c\u0438 \u0438 "
      "\u043a\u0430\u0440\u0442\u0430\u043c\u0438 \u0433\u043e\u0440\u043e\u0434\u0430, \u0430 "
      "\u043f\u043e \u0432\u0435\u0447\u0435\u0440\u0430\u043c \u043f\u0440\u043e\u0445\u043e\u0434\u044f\u0442 "
      "\u043b\u0435\u043a\u0446\u0438\u0438 \u043e\u0431 \u0438\u0441\u0442\u043e\u0440\u0438\u0438 "
      "\u043a\u0440\u0430\u044f.")
FR = ("La page que vous cherchez n'existe plus ou a \u00e9t\u00e9 d\u00e9plac\u00e9e. Vous pouvez "
      "revenir \u00e0 l'accueil du site, consulter le plan du site ou utiliser le moteur de "
      "recherche pour trouver l'article qui vous int\u00e9resse. Merci de votre compr\u00e9hension.")
EN = ("The museum will be closed on Monday for maintenance of the heating system. Tickets bought "
      "for that day remain valid for any other visit this month, and members can book a guided "
      "tour of the new photography exhibition from Tuesday onwards.")
IT = ("Il mercato contadino si svolge ogni sabato mattina nel cortile della scuola. I produttori "
      "della valle portano formaggi, verdure di stagione, miele e pane cotto nel forno a legna, "
      "e i bambini possono partecipare a un laboratorio di cucina.")
JA = ("\u56f3\u66f8\u9928\u306f\u590f\u4f11\u307f\u306e\u9593\u3082\u5e73\u65e5\u306f\u6bce\u65e5"
      "\u958b\u9928\u3057\u3066\u3044\u307e\u3059\u3002\u5b50\u3069\u3082\u5411\u3051\u306e\u8aad\u307f"
      "\u805e\u304b\u305b\u4f1a\u306f\u6bce\u9031\u6c34\u66dc\u65e5\u306e\u5348\u5f8c\u306b\u884c\u308f"
      "\u308c\u307e\u3059\u3002\u65b0\u3057\u3044\u672c\u306e\u4e88\u7d04\u306f\u30a4\u30f3\u30bf\u30fc"
      "\u30cd\u30c3\u30c8\u304b\u3089\u3082\u3067\u304d\u307e\u3059\u3002")


def html(text, head=""):
    return ("<!DOCTYPE html>\n<html><head>%s<title>t</title><style>p{margin:0}</style></head>\n"
            "<body><nav><a href=\"/\">/</a></nav><p>%s</p></body></html>\n" % (head, text))


def chunked(b, n=50):
    out = b""
    for i in range(0, len(b), n):
        c = b[i:i + n]
        out += b"%x\r\n" % len(c) + c + b"\r\n"
    return out + b"0\r\n\r\n"


def http(status, headers, body):
    out = b"HTTP/1.1 %d %s\r\n" % (status, b"OK" if status == 200 else b"Not Found")
    for k, v in headers:
        out += ("%s: %s\r\n" % (k, v)).encode("ascii")
    return out + b"\r\n" + body


def record(version, n, wtype, block, uri=None, ctype=None, extra=(), cl_delta=0, no_cl=False):
    h = ["WARC-Type: %s" % wtype, "WARC-Record-ID: <urn:uuid:fixture-%04d>" % n,
         "WARC-Date: 2026-11-23T05:00:%02dZ" % n]
    if uri:
        h.append("WARC-Target-URI: %s" % uri)
    if ctype:
        h.append("Content-Type: %s" % ctype)
    h.extend(extra)
    if not no_cl:
        h.append("Content-Length: %d" % (len(block) + cl_delta))
    return (version + "\r\n" + "\r\n".join(h) + "\r\n\r\n").encode("ascii") + block + b"\r\n\r\n"


def sample(version):
    R = []
    R.append(("warcinfo", b"software: make_fixtures.py\r\nformat: WARC File Format\r\n", None, "application/warc-fields"))
    R.append(("request", b"GET /de HTTP/1.1\r\nHost: bibliothek.example.de\r\n\r\n", "http://bibliothek.example.de/", "application/http; msgtype=request"))
    # 1. German, UTF-8 declared in Content-Type, chunked.
    R.append(("response", http(200, [("Content-Type", "text/html; charset=UTF-8"), ("Transfer-Encoding", "chunked")],
                               chunked(html(DE).encode("utf-8"))), "http://bibliothek.example.de/", None))
    # 2. Spanish, ISO-8859-1 declared only in <meta>, gzip Content-Encoding.
    R.append(("response", http(200, [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
                               gzip.compress(html(ES, '<meta charset="iso-8859-1">').encode("latin-1"), mtime=0)),
              "http://www.example.com/obras", None))
    # 3. Russian, windows-1251, declared nowhere.
    R.append(("response", http(200, [("Content-Type", "text/html")], html(RU).encode("cp1251")),
              "http://example.com/ru", None))
    # 4. French 404 with Content-Language.
    R.append(("response", http(404, [("Content-Type", "text/html; charset=utf-8"), ("Content-Language", "fr")],
                               html(FR).encode("utf-8")), "http://exemple.example.fr/ancien", None))
    # 5. An image: not classified.
    R.append(("response", http(200, [("Content-Type", "image/png")], b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
              "http://example.com/logo.png", None))
    # 6. A resource record (no HTTP), English text/plain.
    R.append(("resource", EN.encode("utf-8"), "file:///museum.txt", "text/plain"))
    # 7. Japanese Shift_JIS, deflate (zlib) Content-Encoding, charset in Content-Type.
    R.append(("response", http(200, [("Content-Type", "text/html; charset=Shift_JIS"), ("Content-Encoding", "deflate")],
                               zlib.compress(html(JA).encode("shift_jis"))), "http://example.jp/", None))
    # 8. A conversion record (WET-like text), Italian.
    R.append(("conversion", IT.encode("utf-8"), "http://mercato.example.it/", "text/plain"))
    R.append(("metadata", b"fetchTimeMs: 12\r\n", "http://mercato.example.it/", "application/warc-fields"))
    R.append(("revisit", b"HTTP/1.1 200 OK\r\n\r\n", "http://bibliothek.example.de/", "application/http; msgtype=response"))
    return [record(version, i, t, b, u, c) for i, (t, b, u, c) in enumerate(R)]


def bad():
    v = "WARC/1.1"
    good = lambda n, text, uri: record(v, n, "response", http(200, [("Content-Type", "text/html; charset=utf-8")],
                                                             html(text).encode("utf-8")), uri)
    m = []
    m.append(gzip.compress(good(0, DE, "http://a.example.de/"), mtime=0))
    m.append(gzip.compress(record(v, 1, "response", http(200, [("Content-Type", "text/html; charset=utf-8")],
                                                          html(ES).encode("utf-8")), "http://b.example.es/", cl_delta=-7), mtime=0))
    m.append(gzip.compress(good(2, FR, "http://c.example.fr/"), mtime=0))
    t = gzip.compress(good(3, EN, "http://d.example.com/"), mtime=0)
    m.append(t[:len(t) // 2])  # truncated member
    m.append(gzip.compress(good(4, IT, "http://e.example.it/"), mtime=0))
    m.append(b"this is not gzip\n")
    m.append(gzip.compress(good(5, DE, "http://f.example.de/"), mtime=0))
    m.append(gzip.compress(record(v, 6, "resource", b"no length", "http://g.example/", "text/plain", no_cl=True), mtime=0))
    m.append(gzip.compress(record(v, 7, "response", html(IT).encode("utf-8"), "http://h.example.it/"), mtime=0))
    m.append(gzip.compress(good(8, ES, "http://i.example.es/"), mtime=0))
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(out, "sample.warc"), "wb") as f:
        f.write(b"".join(sample("WARC/1.0")))
    with open(os.path.join(out, "sample.warc.gz"), "wb") as f:
        f.write(b"".join(gzip.compress(r, mtime=0) for r in sample("WARC/1.1")))
    members = bad()
    with open(os.path.join(out, "bad.warc.gz"), "wb") as f:
        f.write(b"".join(members))
    offsets, at = [], 0
    for mm in members:
        offsets.append(at)
        at += len(mm)
    print("bad.warc.gz member offsets:", offsets)


if __name__ == "__main__":
    main()
