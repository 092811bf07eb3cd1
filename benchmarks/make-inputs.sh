#!/usr/bin/env bash
# Builds the inputs of langsift-bench from the lingua-dev sentences (evaluation data: used here
# only to measure speed; nothing is trained on it). Deterministic: the same EVAL_DIR gives the
# same bytes. The outputs derive from the evaluation data and are not committed.
#
#   benchmarks/make-inputs.sh [EVAL_DIR] [OUT_DIR]
#     EVAL_DIR  default ../shared/data/eval/lingua-dev/sentences (one <code>.txt per language)
#     OUT_DIR   default build-bench/inputs
#
# Writes to OUT_DIR:
#   sentences.txt  every sentence, one per line (~145 bytes on average), languages interleaved
#                  (the first sentence of each language, then the second of each...), so that any
#                  prefix or even sample is a mix of all languages
#   docs-2k.txt    ~2 KB plain-text documents, one per line: consecutive sentences of one language
#                  joined by spaces until >= 2000 bytes (a shorter tail is dropped); all languages,
#                  interleaved the same way
#   pages/         ~30 KB HTML pages, 2 per language: a news-article template (navigation, search
#                  form, inline <style> and <script>, JSON-LD, related links, footer) around 20-24 KB
#                  of paragraphs of one language's sentences (wrapping around to the first sentence
#                  when a language has too few). UTF-8 with <meta charset="utf-8">, except 12 pages in
#                  legacy encodings (iconv -c: characters the encoding lacks are dropped), half of them
#                  declaring their charset in <meta>, half not (left to encoding detection):
#                  ru, uk, bg windows-1251; ja Shift_JIS; zh GB18030; ko EUC-KR; de, fr ISO-8859-1;
#                  pl ISO-8859-2; el ISO-8859-7; tr ISO-8859-9; ar windows-1256.
#                  The file name says which: ru-2.windows-1251.meta.html, ja-2.shift_jis.html.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
eval_dir=${1:-$root/../shared/data/eval/lingua-dev/sentences}
out=${2:-$root/build-bench/inputs}

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
[ $# -le 2 ] || { echo "usage: benchmarks/make-inputs.sh [EVAL_DIR] [OUT_DIR]" >&2; exit 2; }
[ -d "$eval_dir" ] || { echo "make-inputs: $eval_dir: no such directory" >&2; exit 1; }
shopt -s nullglob
files=("$eval_dir"/*.txt)
[ ${#files[@]} -gt 0 ] || { echo "make-inputs: no <code>.txt files in $eval_dir" >&2; exit 1; }
command -v iconv >/dev/null || { echo "make-inputs: iconv is not installed" >&2; exit 1; }
# Sorted by code, independent of the locale.
mapfile -t files < <(printf '%s\n' "${files[@]}" | LC_ALL=C sort)

mkdir -p "$out"
rm -rf "$out/pages" "$out/sentences.txt" "$out/docs-2k.txt"
mkdir -p "$out/pages"

export LC_ALL=C  # awk lengths are bytes

# 1. sentences.txt and docs-2k.txt
awk -v sent="$out/sentences.txt" -v docs="$out/docs-2k.txt" '
  FNR == 1 { nf++; ns[nf] = 0; nd[nf] = 0; cur = "" }
  {
    sub(/\r$/, "")
    if ($0 ~ /^[ \t]*$/) next
    s[nf, ++ns[nf]] = $0
    cur = cur == "" ? $0 : cur " " $0
    if (length(cur) >= 2000) { d[nf, ++nd[nf]] = cur; cur = "" }
  }
  END {
    for (i = 1; ; i++) {
      any = 0
      for (f = 1; f <= nf; f++) if (i <= ns[f]) { print s[f, i] > sent; any = 1 }
      if (!any) break
    }
    for (i = 1; ; i++) {
      any = 0
      for (f = 1; f <= nf; f++) if (i <= nd[f]) { print d[f, i] > docs; any = 1 }
      if (!any) break
    }
  }' "${files[@]}"

# 2. pages/ (UTF-8 first)
n_file=0
for f in "${files[@]}"; do
  code=$(basename "$f" .txt)
  n_file=$((n_file + 1))
  awk -v code="$code" -v dir="$out/pages" -v fileno="$n_file" '
    # Cuts s to at most n bytes at a UTF-8 character boundary.
    function cut(s, n,    c) {
      if (length(s) <= n) return s
      while (n > 0) { c = substr(s, n + 1, 1); if (c < "\200" || c >= "\300") break; n-- }
      return substr(s, 1, n)
    }
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
    function word(i,    w) {  # a short label: the first word of sentence i, without punctuation
      w = line[(i - 1) % n + 1]
      sub(/^[ \t]+/, "", w); sub(/[ \t].*$/, "", w); gsub(/[.,;:!?()"]/, "", w)
      return esc(cut(w, 24))
    }
    function next_sentence() { pos = pos % n + 1; return line[pos] }
    { sub(/\r$/, ""); if ($0 !~ /^[ \t]*$/) line[++n] = $0 }
    END {
      pos = 0
      for (page = 1; page <= 2; page++) {
        file = dir "/" code "-" page ".html"
        id = fileno * 10 + page
        title = esc(cut(line[(pos % n) + 1], 90))
        date = sprintf("2023-%02d-%02d", id % 12 + 1, id % 28 + 1)
        langattr = (id % 3 == 0) ? "" : " lang=\"" code "\""
        printf "<!DOCTYPE html>\n<html%s>\n<head>\n<meta charset=\"utf-8\">\n", langattr > file
        printf "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" > file
        printf "<title>%s | Daily %s</title>\n", title, toupper(code) > file
        printf "<link rel=\"stylesheet\" href=\"/static/css/main.%06x.css\">\n", id * 7919 % 16777216 > file
        printf "<link rel=\"canonical\" href=\"https://news.example.%s/%s/article-%d.html\">\n", code, substr(date, 1, 7), id > file
        printf "<style>\n" > file
        printf ":root{--fg:#1b1b1b;--bg:#fff;--accent:#0b5cad;--muted:#6b6b6b;--max:72rem}\n" > file
        printf "*,*::before,*::after{box-sizing:border-box}\nhtml{font-size:100%%;-webkit-text-size-adjust:100%%}\n" > file
        printf "body{margin:0;font:1rem/1.6 Georgia,\"Times New Roman\",serif;color:var(--fg);background:var(--bg)}\n" > file
        printf ".site-header{display:flex;align-items:center;justify-content:space-between;padding:.75rem 1rem;border-bottom:1px solid #e5e5e5}\n" > file
        printf ".main-nav ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}\n" > file
        printf ".main-nav a{color:var(--fg);text-decoration:none;font:600 .875rem/1 system-ui,sans-serif;text-transform:uppercase}\n" > file
        printf ".main-nav a:hover,.main-nav a:focus{color:var(--accent);text-decoration:underline}\n" > file
        printf "article{max-width:42rem;margin:2rem auto;padding:0 1rem}\narticle h1{font-size:2.25rem;line-height:1.2;margin:0 0 .5rem}\n" > file
        printf ".byline{color:var(--muted);font:.875rem system-ui,sans-serif}\n.related{max-width:42rem;margin:2rem auto;padding:1rem;border-top:4px solid var(--accent)}\n" > file
        printf ".site-footer{background:#111;color:#ddd;padding:2rem 1rem;font:.8125rem system-ui,sans-serif}\n.site-footer a{color:#ddd}\n" > file
        printf "@media (max-width:40rem){.main-nav{display:none}article h1{font-size:1.6rem}}\n.consent{position:fixed;bottom:0;left:0;right:0;padding:1rem;background:#222;color:#fff}\n" > file
        printf "</style>\n" > file
        printf "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"NewsArticle\",\"headline\":\"%s\",\"datePublished\":\"%sT08:%02d:00Z\",\"inLanguage\":\"%s\",\"publisher\":{\"@type\":\"Organization\",\"name\":\"Daily %s\"}}</script>\n", title, date, id % 60, code, toupper(code) > file
        printf "<script>\n" > file
        printf "(function(w,d){\"use strict\";var cfg={site:\"daily-%s\",section:\"news\",articleId:%d,ab:[\"hero-v2\",\"nav-compact\"]};\n", code, id > file
        printf "w.dataLayer=w.dataLayer||[];function push(e,p){w.dataLayer.push(Object.assign({event:e,ts:Date.now()},p||{}))}\n" > file
        printf "function cookie(n){var m=d.cookie.match(new RegExp(\"(?:^|; )\"+n+\"=([^;]*)\"));return m?decodeURIComponent(m[1]):null}\n" > file
        printf "function setCookie(n,v,days){var e=new Date();e.setTime(e.getTime()+days*864e5);d.cookie=n+\"=\"+encodeURIComponent(v)+\";expires=\"+e.toUTCString()+\";path=/;SameSite=Lax\"}\n" > file
        printf "function consent(){var b=d.getElementById(\"cookie-banner\");if(!b)return;if(cookie(\"consent\")){b.hidden=true;return}b.hidden=false;\n" > file
        printf "b.querySelector(\"button\").addEventListener(\"click\",function(){setCookie(\"consent\",\"1\",365);b.hidden=true;push(\"consent\",{v:1})})}\n" > file
        printf "function lazy(){if(!(\"IntersectionObserver\" in w))return;var io=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){var i=e.target;i.src=i.dataset.src;io.unobserve(i)}})},{rootMargin:\"200px\"});\n" > file
        printf "d.querySelectorAll(\"img[data-src]\").forEach(function(i){io.observe(i)})}\n" > file
        printf "function readTime(){var a=d.querySelector(\"article\");if(!a)return;var n=a.textContent.split(/\\s+/).length;push(\"read_time\",{minutes:Math.max(1,Math.round(n/220))})}\n" > file
        printf "function scrollDepth(){var marks=[25,50,75,100],hit={};w.addEventListener(\"scroll\",function(){var h=d.documentElement,p=100*(h.scrollTop+w.innerHeight)/h.scrollHeight;\n" > file
        printf "marks.forEach(function(m){if(p>=m&&!hit[m]){hit[m]=1;push(\"scroll\",{depth:m})}})},{passive:true})}\n" > file
        printf "d.addEventListener(\"DOMContentLoaded\",function(){consent();lazy();readTime();scrollDepth();push(\"page_view\",cfg)});\n" > file
        printf "})(window,document);\n</script>\n</head>\n" > file
        printf "<body class=\"article-page section-news\">\n" > file
        printf "<div id=\"cookie-banner\" class=\"consent\" role=\"dialog\" hidden><p>%s %s %s.</p><button type=\"button\">OK</button></div>\n", word(id), word(id + 1), word(id + 2) > file
        printf "<header class=\"site-header\">\n<a class=\"logo\" href=\"/\"><img src=\"/static/img/logo.svg\" alt=\"Daily %s\" width=\"160\" height=\"32\"></a>\n", toupper(code) > file
        printf "<nav class=\"main-nav\" aria-label=\"main\"><ul>\n" > file
        for (k = 0; k < 10; k++) printf "<li><a href=\"/section/%d/\">%s</a></li>\n", k + 1, word(id * 13 + k * 7) > file
        printf "</ul></nav>\n<form class=\"search\" action=\"/search\" method=\"get\"><input type=\"search\" name=\"q\" aria-label=\"%s\"><button type=\"submit\">&#x1F50D;</button></form>\n</header>\n", word(id + 5) > file
        printf "<main id=\"content\">\n<article>\n<h1>%s</h1>\n", title > file
        printf "<p class=\"byline\"><time datetime=\"%s\">%s</time> &middot; <a href=\"/author/%d/\">%s %s</a></p>\n", date, date, id % 97, word(id + 3), word(id + 4) > file
        printf "<figure><img data-src=\"/media/%d/hero.jpg\" alt=\"%s\" width=\"1200\" height=\"675\"><figcaption>%s</figcaption></figure>\n", id, word(id + 6), esc(cut(line[(id * 3) % n + 1], 120)) > file
        body = 0; para = 0
        while (body < 20000 + (id * 211) % 4000) {
          k = 3 + (id + para) % 4
          p = ""
          for (j = 0; j < k; j++) p = p (j ? " " : "") esc(next_sentence())
          if (para > 0 && para % 5 == 0) printf "<h2>%s</h2>\n", esc(cut(next_sentence(), 70)) > file
          printf "<p>%s</p>\n", p > file
          body += length(p); para++
        }
        printf "</article>\n<aside class=\"related\" aria-label=\"related\"><h3>%s</h3><ul>\n", word(id + 8) > file
        for (k = 1; k <= 5; k++) printf "<li><a href=\"/%s/article-%d.html\">%s</a></li>\n", substr(date, 1, 7), id * 10 + k, esc(cut(line[(id * 17 + k * 31) % n + 1], 60)) > file
        printf "</ul></aside>\n</main>\n<footer class=\"site-footer\">\n<ul class=\"footer-links\">\n" > file
        for (k = 1; k <= 6; k++) printf "<li><a href=\"/info/%d\">%s</a></li>\n", k, word(id * 5 + k * 11) > file
        printf "</ul>\n<p>&copy; 2024 Daily %s &middot; <a href=\"mailto:desk@news.example.%s\">desk@news.example.%s</a></p>\n</footer>\n", toupper(code), code, code > file
        printf "<script src=\"/static/js/app.%06x.min.js\" defer></script>\n</body>\n</html>\n", id * 104729 % 16777216 > file
        close(file)
      }
    }' "$f"
done

# 3. Legacy encodings: code:page:iconv-name:meta-label (empty label: no meta charset).
legacy="ru:2:WINDOWS-1251:windows-1251 uk:2:WINDOWS-1251: bg:2:WINDOWS-1251:windows-1251
  ja:2:SHIFT_JIS:Shift_JIS zh:2:GB18030: ko:2:EUC-KR:euc-kr
  de:2:ISO-8859-1:iso-8859-1 fr:2:ISO-8859-1: pl:2:ISO-8859-2:iso-8859-2
  el:2:ISO-8859-7: tr:2:ISO-8859-9:iso-8859-9 ar:2:WINDOWS-1256:"
for spec in $legacy; do
  IFS=: read -r code page enc label <<<"$spec"
  src=$out/pages/$code-$page.html
  [ -f "$src" ] || continue
  name=$(printf '%s' "$enc" | tr 'A-Z' 'a-z')
  if [ -n "$label" ]; then
    dst=$out/pages/$code-$page.$name.meta.html
    sed "s|<meta charset=\"utf-8\">|<meta charset=\"$label\">|" "$src" | iconv -c -f UTF-8 -t "$enc" >"$dst" || true
  else
    dst=$out/pages/$code-$page.$name.html
    grep -v '^<meta charset="utf-8">$' "$src" | iconv -c -f UTF-8 -t "$enc" >"$dst" || true
  fi
  [ -s "$dst" ] || { echo "make-inputs: iconv to $enc failed for $src" >&2; exit 1; }
  rm "$src"
done

# Checks: UTF-8 outputs are valid UTF-8; counts.
for f in "$out/sentences.txt" "$out/docs-2k.txt" "$out"/pages/*.html; do
  [[ $(basename "$f") =~ ^[a-z]+-[0-9]+\.html$ || $f != */pages/* ]] || continue  # legacy-encoded page
  iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || { echo "make-inputs: $f is not valid UTF-8" >&2; exit 1; }
done
pages=("$out"/pages/*.html)
printf 'make-inputs: %s: %d sentences (%d bytes), %d 2 KB documents (%d bytes), %d pages (%d bytes)\n' "$out" \
  "$(wc -l <"$out/sentences.txt")" "$(wc -c <"$out/sentences.txt")" \
  "$(wc -l <"$out/docs-2k.txt")" "$(wc -c <"$out/docs-2k.txt")" \
  "${#pages[@]}" "$(cat "${pages[@]}" | wc -c)" >&2
