// `langsift-eval lang | docs | mixed | spans`: the scoring math on small fixtures with fake detectors
// (tests/data/eval/README.md gives the expected figures), output formats, error paths; the
// peer adapters when they are built or installed (skipped otherwise).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tool_run.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(LANGSIFT_TEST_DATA_DIR) + "/eval/";
using namespace langsift_test;

fs::path scratch() { return langsift_test::scratch("test-eval-scratch"); }

std::string eval_cmd(const std::string& mode) { return q(kBin + "langsift-eval") + " " + mode + " --no-langsift "; }

std::string first_word() { return "--detector " + q("first=sh " + kData + "first-word.sh") + " "; }

std::vector<std::vector<std::string>> tsv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::size_t pos = 0;
    for (;;) {
      std::size_t tab = line.find('\t', pos);
      fields.push_back(line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
      if (tab == std::string::npos) break;
      pos = tab + 1;
    }
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace

TEST_CASE("lang: per-language accuracy, macro means, no-answer and TSV rows") {
  fs::path tsv = scratch() / "lang.tsv";
  outcome o = sh(eval_cmd("lang") + first_word() + "--detector " + q("en=sed s/.*/en/") + " --tsv " +
                 tsv.string() + " " + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  auto rows = tsv_rows(slurp(tsv));
  REQUIRE(rows.size() == 7);
  CHECK(rows[0] == std::vector<std::string>{"set", "detector", "language", "samples", "correct", "no_answer",
                                            "accuracy_pct", "top_wrong", "top_wrong_count"});
  CHECK(rows[1] == std::vector<std::string>{"lang", "first", "en", "5", "2", "1", "40.00", "de", "1"});
  CHECK(rows[2] == std::vector<std::string>{"lang", "first", "fr", "2", "2", "0", "100.00", "", "0"});
  CHECK(rows[3] == std::vector<std::string>{"lang", "first", "zh", "3", "2", "0", "66.67", "ja", "1"});
  CHECK(rows[4] == std::vector<std::string>{"lang", "en", "en", "5", "5", "0", "100.00", "", "0"});
  CHECK(rows[6] == std::vector<std::string>{"lang", "en", "zh", "3", "0", "0", "0.00", "en", "3"});
  // Macro over the 3 languages: (40 + 100 + 66.7) / 3; the always-en detector: 33.3 over all,
  // 100 over the one language it answers.
  CHECK(contains(o.out, "| first | **68.9** | 3 | 68.9 | 60.0 | 10.0 |"));
  CHECK(contains(o.out, "| en | **33.3** | 1 | 100.0 | 50.0 | 0.0 |"));
}

TEST_CASE("lang: subtag matching by default, whole codes with --strict") {
  outcome o = sh(eval_cmd("lang") + first_word() + "--strict --tsv - " + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "lang\tfirst\tfr\t2\t1\t0\t50.00\tfr-CA\t1\n"));
  CHECK(contains(o.out, "lang\tfirst\tzh\t3\t1\t0\t33.33\t"));
  CHECK(contains(o.out, "| first | **41.1** |"));  // (40 + 50 + 33.3) / 3
  CHECK(contains(o.out, "whole codes"));
}

TEST_CASE("lang: confused pairs overall and per detector") {
  outcome o = sh(eval_cmd("lang") + first_word() + "--detector " + q("en=sed s/.*/en/") + " " + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "| zh → en | 3 | 0 | 3 |"));
  CHECK(contains(o.out, "| en → fr | 1 | 1 | 0 |"));
  CHECK(contains(o.out, "| first | en → de 1 · en → fr 1 · zh → ja 1 |"));
  CHECK(contains(o.out, "| en | zh → en 3 · fr → en 2 |"));
  CHECK_FALSE(contains(o.out, "→ und"));  // no answer is not a confusion
  // Only the top N pairs with --top.
  outcome top1 = sh(eval_cmd("lang") + first_word() + "--top 1 " + kData + "lang");
  REQUIRE(top1.status == 0);
  CHECK(contains(top1.out, "| first | en → de 1 |"));
}

TEST_CASE("lang: length buckets count characters, not bytes") {
  outcome o = sh(eval_cmd("lang") + first_word() + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  // 1-10: "en hello", "de short", "fr un", "zh 中文", "ja 日本語です" (8 characters, 18 bytes).
  CHECK(contains(o.out, "| 1–10 | 5 | 60.0 |"));
  // 11-20: "en hello world again" (20), "und nothing here", "fr-CA deux trois", "zh-Hant 中文字".
  CHECK(contains(o.out, "| 11–20 | 4 | 75.0 |"));
  CHECK(contains(o.out, "| 21–50 | 1 | 0.0 |"));
  CHECK_FALSE(contains(o.out, "| 51–100 |"));  // empty buckets are left out
}

TEST_CASE("lang: --only, --limit, --per-language and the SVG chart") {
  fs::path svg = scratch() / "lang.svg";
  outcome o = sh(eval_cmd("lang") + first_word() + "--only zh,en --limit 2 --per-language --svg " + svg.string() +
                 " --tsv - " + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "lang\tfirst\ten\t2\t2\t0\t100.00\t\t0\n"));
  CHECK(contains(o.out, "lang\tfirst\tzh\t2\t2\t0\t100.00\t\t0\n"));
  CHECK_FALSE(contains(o.out, "\tfr\t"));
  CHECK(contains(o.out, "2 languages, 4 samples."));
  CHECK(contains(o.out, "| zh | 2 | 100.0 |"));
  std::string chart = slurp(svg);
  CHECK(chart.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(contains(chart, "</svg>"));
  CHECK(contains(chart, "<title>en · first: 100.0 %</title>"));
  CHECK(contains(chart, "first — macro mean 100.0 %"));
}

TEST_CASE("lang: sample sets in sub-directories, summary, --sets order") {
  outcome o = sh(eval_cmd("lang") + first_word() + "--sets b,a " + kData + "sets");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "## Summary: macro mean of per-language accuracy (%)"));
  CHECK(contains(o.out, "| detector | b | a |"));
  CHECK(contains(o.out, "| first | 0.0 | 100.0 |"));
  CHECK(o.out.find("## b") < o.out.find("## a"));
  // Default order: sorted by name.
  outcome d = sh(eval_cmd("lang") + first_word() + kData + "sets");
  REQUIRE(d.status == 0);
  CHECK(contains(d.out, "| first | 100.0 | 0.0 |"));
  CHECK(sh(eval_cmd("lang") + first_word() + "--sets a,zz " + kData + "sets").status == 1);
}

TEST_CASE("lang: errors name the detector and the file") {
  SECTION("a detector that exits non-zero") {
    outcome o = sh(eval_cmd("lang") + "--detector bad=false " + kData + "lang");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "detector 'bad'"));
    CHECK(contains(o.err, "en.txt"));
    CHECK(contains(o.err, "exited with status 1"));
  }
  SECTION("a detector that prints too few lines (and stops reading)") {
    outcome o = sh(eval_cmd("lang") + "--detector " + q("short=head -n 1") + " " + kData + "lang");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "detector 'short'"));
    CHECK(contains(o.err, "printed 1 line for 5 input lines"));
  }
  SECTION("a detector that prints too many lines") {
    outcome o = sh(eval_cmd("lang") + "--detector " + q("double=sed p") + " " + kData + "lang");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "printed 10 lines for 5 input lines"));
  }
  SECTION("a command that does not exist") {
    outcome o = sh(eval_cmd("lang") + "--detector none=/nonexistent/detector " + kData + "lang");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "detector 'none'"));
  }
  SECTION("a missing DIR") {
    outcome o = sh(eval_cmd("lang") + first_word() + kData + "no-such-dir");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "not a directory"));
  }
  SECTION("an empty language file") {
    outcome o = sh(eval_cmd("lang") + first_word() + kData + "empty");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "en.txt: no samples"));
  }
  SECTION("--only a language without a file") {
    outcome o = sh(eval_cmd("lang") + first_word() + "--only en,xx " + kData + "lang");
    CHECK(o.status == 1);
    CHECK(contains(o.err, "xx.txt"));
  }
  SECTION("usage errors exit 2") {
    CHECK(sh(eval_cmd("lang") + kData + "lang").status == 2);  // --no-langsift and no detector
    CHECK(sh(eval_cmd("lang") + first_word() + "--frobnicate " + kData + "lang").status == 2);
    CHECK(sh(eval_cmd("lang") + "--detector noequals " + kData + "lang").status == 2);
    CHECK(sh(eval_cmd("lang") + first_word() + first_word() + kData + "lang").status == 2);  // name twice
    CHECK(sh(eval_cmd("lang") + first_word()).status == 2);                                 // no DIR
  }
}

TEST_CASE("lang: the default detector is the langsift next to langsift-eval") {
  outcome o = sh(q(kBin + "langsift-eval") + " lang --help");
  CHECK(o.status == 0);
  CHECK(contains(o.out, "--detector NAME=CMD"));
  // Whatever `langsift detect` does today, the report names it as the command run.
  outcome run = sh(q(kBin + "langsift-eval") + " lang --limit 1 --only en " + kData + "lang");
  if (run.status == 0)
    CHECK(contains(run.out, "langsift detect --lines`"));
  else
    CHECK(contains(run.err, "detector 'langsift'"));
}

TEST_CASE("docs: documents of N bytes, precision over all documents fed together") {
  outcome o = sh(eval_cmd("docs") + first_word() + "--langs en,fr --bytes 20 --tsv - " + kData + "docs");
  INFO(o.err);
  REQUIRE(o.status == 0);
  // en: 3 documents (the 7th sentence is a short tail, dropped), the second starts with a fr
  // sentence and is answered fr; fr: 2 documents. Answered fr: 3 documents, 2 of them fr.
  CHECK(contains(o.out, "20\tfirst\ten\t3\t2\t2\t100.00\t66.67\n"));
  CHECK(contains(o.out, "20\tfirst\tfr\t2\t3\t2\t66.67\t100.00\n"));
  CHECK(contains(o.out, "| **minimum precision** | | **66.67** (fr) | |"));
  CHECK(contains(o.out, "| first | en → fr 1 |"));
  // Several sizes in one run: at 10 bytes every sentence is a document of its own.
  outcome two = sh(eval_cmd("docs") + first_word() + "--langs en,fr --bytes 20,10 --tsv - " + kData + "docs");
  REQUIRE(two.status == 0);
  CHECK(contains(two.out, "10\tfirst\ten\t7\t6\t6\t100.00\t85.71\n"));
  CHECK(contains(two.out, "10\tfirst\tfr\t4\t5\t4\t80.00\t100.00\n"));
}

TEST_CASE("docs: errors") {
  CHECK(sh(eval_cmd("docs") + first_word() + "--bytes 20 " + kData + "docs").status == 1);  // no zh.txt...
  CHECK(contains(sh(eval_cmd("docs") + first_word() + "--langs en,xx --bytes 20 " + kData + "docs").err, "xx.txt"));
  outcome big = sh(eval_cmd("docs") + first_word() + "--langs en,fr --bytes 1000 " + kData + "docs");
  CHECK(big.status == 1);
  CHECK(contains(big.err, "not enough text"));
  CHECK(sh(eval_cmd("docs") + first_word() + "--langs en,fr --bytes 0 " + kData + "docs").status == 2);
  outcome bad = sh(eval_cmd("docs") + "--detector bad=false --langs en,fr --bytes 20 " + kData + "docs");
  CHECK(bad.status == 1);
  CHECK(contains(bad.err, "detector 'bad'"));
}

TEST_CASE("mixed: true byte shares, percent error, both in top 3") {
  std::string fixed = "--detector " + q("fixed=sh " + kData + "fixed-tsv.sh") + " ";
  outcome o = sh(eval_cmd("mixed") + fixed + "--pairs en:fr --bytes 40 --docs 3 --paragraph 10 --tsv - " +
                 kData + "mixed");
  INFO(o.err);
  REQUIRE(o.status == 0);
  auto rows = tsv_rows(o.out.substr(0, o.out.find("# Two-language")));
  REQUIRE(rows.size() == 7);  // header + 3 blocks + 3 interleaved
  // 10-byte sentences, 40-byte documents: A's share is exactly 25, 50, 75 %; the detector always
  // reports en 60 / fr 40 → errors 35, 10, 15 points, mean 20.
  CHECK(rows[1] == std::vector<std::string>{"fixed", "en:fr", "blocks", "25.0", "75.0", "60.0", "40.0", "35.0", "1",
                                            "en:60:600,fr:40:400"});
  CHECK(rows[5][2] == "interleaved");
  CHECK(rows[5][3] == "50.0");
  CHECK(rows[5][7] == "10.0");
  CHECK(contains(o.out, "| en : fr | 6 | 20.0 | 100 % | 50 % |"));
  CHECK(contains(o.out, "| **all** | 6 | 20.0 | 100 % | 50 % |"));

  // A language missing from the reported ones counts 0 % and breaks "both in top 3".
  outcome one = sh(eval_cmd("mixed") + "--detector " + q("one=sh " + kData + "fixed-tsv.sh en:100:1000") +
                   " --pairs en:fr --bytes 40 --docs 3 --layout blocks " + kData + "mixed");
  REQUIRE(one.status == 0);
  // errors: (75 + 75) / 2, (50 + 50) / 2, (25 + 25) / 2 → mean 50.
  CHECK(contains(one.out, "| en : fr | 3 | 50.0 | 0 % | 50 % |"));
}

TEST_CASE("mixed: detector output that is not the TSV format is an error") {
  outcome plain = sh(eval_cmd("mixed") + first_word() + "--pairs en:fr --bytes 40 --docs 1 " + kData + "mixed");
  CHECK(plain.status == 1);
  CHECK(contains(plain.err, "no second TAB-separated field"));
  outcome bad = sh(eval_cmd("mixed") + "--detector " + q("bad=sh " + kData + "fixed-tsv.sh en:lots") +
                   " --pairs en:fr --bytes 40 --docs 1 " + kData + "mixed");
  CHECK(bad.status == 1);
  CHECK(contains(bad.err, "'en:lots'"));
  CHECK(sh(eval_cmd("mixed") + first_word() + "--pairs en:en " + kData + "mixed").status == 2);
  CHECK(sh(eval_cmd("mixed") + first_word() + "--pairs en:fr --random 2 " + kData + "mixed").status == 2);
  CHECK(sh(eval_cmd("mixed") + first_word() + "--pairs en:xx " + kData + "mixed").status == 1);
}

TEST_CASE("mixed: --random pairs are deterministic") {
  std::string fixed = "--detector " + q("fixed=sh " + kData + "fixed-tsv.sh") + " ";
  outcome a = sh(eval_cmd("mixed") + fixed + "--random 1 --seed 7 --bytes 40 --docs 1 " + kData + "mixed");
  outcome b = sh(eval_cmd("mixed") + fixed + "--random 1 --seed 7 --bytes 40 --docs 1 " + kData + "mixed");
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  CHECK((contains(a.out, "| en : fr |") || contains(a.out, "| fr : en |")));
}

TEST_CASE("spans: bytes right, boundary error and extra boundaries against the true parts") {
  // 10-byte sentences, parts of 20 bytes (two sentences): "en sente10 en sente11 fr sente10 fr
  // sente11", the boundary at byte 22. One detector gives the true spans, the other one span.
  const std::string by_word = "--detector " + q("w=sh " + kData + "spans-by-word.sh") + " ";
  const std::string one = "--detector " + q("one=sh " + kData + "spans-by-word.sh one") + " ";
  outcome o = sh(eval_cmd("spans") + by_word + one + "--languages 1,2 --part-bytes 20 --docs 4 --tsv - " + kData + "mixed");
  INFO(o.err);
  REQUIRE(o.status == 0);
  auto rows = tsv_rows(o.out.substr(0, o.out.find("# Language spans")));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == std::vector<std::string>{"detector", "languages", "part_bytes", "documents", "mean_part_bytes",
                                            "right_pct", "boundary_error", "within10_pct", "extra_per_doc"});
  CHECK(rows[1] == std::vector<std::string>{"w", "1", "20", "4", "20.0", "100.00", "", "", "0.000"});
  CHECK(rows[3] == std::vector<std::string>{"w", "2", "20", "4", "20.0", "100.00", "0.00", "100.00", "0.000"});
  // One span: the first part's bytes right (half); the boundary's nearest is the document's end,
  // 21 bytes away (43 - 22).
  CHECK(rows[4] == std::vector<std::string>{"one", "2", "20", "4", "20.0", "50.00", "21.00", "0.00", "0.000"});
  CHECK(contains(o.out, "| **2+, all** | | | | 100.0 | 0.0 | 100.0 | 0.00 | 50.0 | 21.0 | 0.0 | 0.00 |"));
  // The draws depend on the seed only.
  CHECK(sh(eval_cmd("spans") + by_word + "--part-bytes 20 --languages 2 --docs 3 --seed 5 " + kData + "mixed").out ==
        sh(eval_cmd("spans") + by_word + "--part-bytes 20 --languages 2 --docs 3 --seed 5 " + kData + "mixed").out);
}

TEST_CASE("spans: malformed or out-of-order spans and bad options are errors") {
  outcome bad = sh(eval_cmd("spans") + "--detector " + q("bad=sh " + kData + "spans-by-word.sh bad") +
                   " --languages 2 --part-bytes 20 --docs 1 " + kData + "mixed");
  CHECK(bad.status == 1);
  CHECK(contains(bad.err, "detector 'bad', output line 1: span 2 [0, 3) is out of order"));
  outcome none = sh(eval_cmd("spans") + first_word() + "--languages 2 --part-bytes 20 --docs 1 " + kData + "mixed");
  CHECK(none.status == 1);
  CHECK(contains(none.err, "no \"spans\" field"));
  CHECK(sh(eval_cmd("spans") + first_word() + "--languages 3 " + kData + "mixed").status == 1);  // two languages only
  CHECK(sh(eval_cmd("spans") + first_word() + "--languages 4 " + kData + "mixed").status == 2);
  CHECK(sh(eval_cmd("spans") + first_word() + "--part-bytes 0 " + kData + "mixed").status == 2);
}

// Built, and so registered, only when CMake found CLD2 and built the peer (tests/CMakeLists.txt).
#if LANGSIFT_HAVE_CLD2_PEER
TEST_CASE("peers: CLD2 adapter with the full tables") {
  fs::path peer = kBin + "langsift-peer-cld2";
  REQUIRE(fs::exists(peer));
  fs::path in = scratch() / "cld2.in";
  std::ofstream(in) << "Ọjọ́ àbámẹ́ta ni àwọn ènìyàn máa ń lọ sí ọjà láti ra oúnjẹ fún ìdílé wọn\n"
                    << "\n"
                    << "Das ist ein ganz normaler deutscher Satz mit einigen Wörtern.\n"
                    << "Dette er en helt vanlig norsk setning med noen ord i seg.";  // no final '\n'
  outcome o = sh(q(peer.string()) + " < " + in.string());
  REQUIRE(o.status == 0);
  CHECK(o.out == "yo\nund\nde\nnb\n");  // Yoruba only with the full tables; no → nb
  outcome t = sh(q(peer.string()) + " --tsv < " + in.string());
  REQUIRE(t.status == 0);
  auto rows = tsv_rows(t.out);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].size() == 6);
  CHECK(rows[2][0] == "de");
  CHECK(rows[2][1].rfind("de:", 0) == 0);
  CHECK(rows[1][1].empty());
  CHECK(sh(q(peer.string()) + " --bogus").status == 2);

  // A C1 control character (U+0092, a mis-decoded apostrophe, as in lingua-dev's French) makes CLD2
  // reject the line; --clean blanks it first.
  fs::path c1 = scratch() / "cld2-c1.in";
  std::ofstream(c1) << "Elle ne peut donc, \xc3\xa0 elle seule, nourrir le d\xc3\xa9" "bat qui doit s\xc2\x92" "engager "
                       "en Europe et dans les pays candidats.\n";
  CHECK(sh(q(peer.string()) + " < " + c1.string()).out == "und\n");
  CHECK(sh(q(peer.string()) + " --clean < " + c1.string()).out == "fr\n");

  // --spans: CLD2's result chunks, covering the line; a line CLD2 rejects is one und span, and
  // --clean keeps the offsets (a blank per byte).
  fs::path two = scratch() / "cld2-spans.in";
  const std::string de = "Das ist ein ganz normaler deutscher Satz mit einigen Wörtern, und noch ein zweiter Satz "
                         "über das Wetter in der Stadt.";
  const std::string en = "This is a perfectly ordinary English sentence with a few words, and another one about "
                         "the weather in the city.";
  std::ofstream(two) << de << " " << en << "\n\n";
  outcome sp = sh(q(peer.string()) + " --spans < " + two.string());
  REQUIRE(sp.status == 0);
  CHECK(sp.out.rfind("{\"spans\":[[0,", 0) == 0);
  CHECK(contains(sp.out, "\"de\"]"));
  // (a std::string first: gcc 12's -Wrestrict misreads "," + std::string&& as an overlapping copy)
  const std::string end_of_en = std::to_string(de.size() + 1 + en.size());
  CHECK(contains(sp.out, std::string(",") + end_of_en + ",\"en\"]]}\n{\"spans\":[]}\n"));
  CHECK(sh(q(peer.string()) + " --spans < " + c1.string()).out == "{\"spans\":[[0,109,\"und\"]]}\n");  // 109 bytes
  const outcome clean = sh(q(peer.string()) + " --spans --clean < " + c1.string());
  CHECK(clean.out == "{\"spans\":[[0,109,\"fr\"]]}\n");
  CHECK(sh(q(peer.string()) + " --spans --tsv < /dev/null").status == 2);
}
#endif  // LANGSIFT_HAVE_CLD2_PEER

TEST_CASE("peers: fastText wrapper keeps lines aligned and maps codes (fake fasttext CLI)") {
  fs::path bin = scratch() / "fake-bin";
  fs::create_directories(bin);
  {
    // Stands in for `fasttext predict MODEL - 1`: labels each line with its first word.
    std::ofstream f(bin / "fasttext");
    f << "#!/bin/sh\n[ \"$1\" = predict ] && [ \"$3\" = - ] && [ \"$4\" = 1 ] || exit 9\n"
         "exec awk '{ print \"__label__\" $1 }'\n";
  }
  fs::permissions(bin / "fasttext", fs::perms::owner_all);
  fs::path model = scratch() / "model.ftz";
  std::ofstream(model) << "x";
  fs::path in = scratch() / "ft.in";
  std::ofstream(in) << "en hello\n\nno hei\n   \nals grüezi\nsh zdravo\n";
  std::string script = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../tools/peers/fasttext-lines.sh";
  outcome o = sh("PATH=" + q(bin.string()) + ":\"$PATH\" bash " + q(script) + " " + q(model.string()) + " < " +
                 in.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == "en\n_\nnb\n_\ngsw\nsh\n");
  CHECK(sh("bash " + q(script) + " /nonexistent/model.ftz").status == 1);
}

TEST_CASE("encoding: the synthetic dev set generator and --breakdown on a small training set") {
  // A training directory of two languages, written here: Polish (windows-1250, iso-8859-2) and
  // Greek (windows-1253, iso-8859-7); the generator adds UTF-8 and UTF-16LE/BE of each text.
  const fs::path dir = scratch() / "devset";
  fs::remove_all(dir);
  const fs::path train = dir / "train";
  fs::create_directories(train);
  {
    std::ofstream pl(train / "pl.txt", std::ios::binary), el(train / "el.txt", std::ios::binary);
    for (int i = 0; i < 200; ++i) {  // the generator draws from the last 30 % of the lines
      pl << "Ślusarz " << i << " powiedział, że zażółć gęślą jaźń to zdanie, które ma wszystkie litery.\n";
      el << "Ο σιδεράς " << i << " είπε ότι η Αθήνα ξυπνά νωρίς και το λιμάνι γεμίζει πλοία.\n";
    }
  }
  const fs::path out = dir / "out";
  const std::string script = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../scripts/make-encoding-devset.py";
  outcome g = sh("/usr/bin/python3 " + q(script) + " --train " + q(train.string()) + " --per 1 --langs pl,el " +
                 q(out.string()));
  INFO(g.err);
  REQUIRE(g.status == 0);
  // (2 legacy + 3 Unicode forms) x 5 lengths x (plain, html) per language
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(out)) files += e.is_regular_file();
  CHECK(files == 2 * 5 * 5 * 2);
  // cut on a character boundary at most 64 bytes, and wrapped after the cut
  const std::string plain = slurp(out / "pl" / "windows-1250.plain.n64.000.txt");
  const std::string html = slurp(out / "pl" / "windows-1250.html.n64.000.txt");
  CHECK(plain.size() <= 64);
  CHECK(plain.size() >= 60);
  CHECK(contains(html, plain));
  CHECK_FALSE(contains(html, "charset"));
  const std::string utf16 = slurp(out / "el" / "utf-16.be.plain.n128.000.txt");
  CHECK(utf16.size() % 2 == 0);
  CHECK(utf16.size() <= 128);
  // the eval tool scores it, per tag and per charset, and every file decodes in its charset
  outcome e = sh(q(kBin + "langsift-eval") + " encoding --breakdown " + q(out.string()));
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(contains(e.out, "(all legacy)"));
  CHECK(contains(e.out, "n2048"));
  CHECK(contains(e.out, "windows-1253"));
  CHECK(contains(e.out, "utf-16be"));
  CHECK_FALSE(contains(e.out, "do not decode cleanly"));
  // a language without a code page table is an error
  outcome bad = sh("/usr/bin/python3 " + q(script) + " --train " + q(train.string()) + " --langs xx " +
                   q((dir / "bad").string()));
  CHECK(bad.status != 0);
  CHECK(contains(bad.err, "no code page table for 'xx'"));
}

namespace {

/// The `all` rows of `langsift-eval calibration --tsv FILE`: set -> (samples, mean probability,
/// accuracy, ECE); and checks that each ECE is the one of its set's bins.
struct calibration_row {
  std::size_t samples = 0;
  double mean = 0, accuracy = 0, ece = 0;
};
std::map<std::string, calibration_row> calibration_rows(const fs::path& file) {
  std::ifstream in(file);
  const std::string tsv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::map<std::string, calibration_row> all;
  std::map<std::string, double> ece_of_bins, weighted_mean;
  const auto rows = tsv_rows(tsv);
  REQUIRE(!rows.empty());
  CHECK(rows[0] == std::vector<std::string>{"set", "bin", "low", "high", "samples", "mean_probability", "accuracy", "ece"});
  std::map<std::string, int> bins;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    REQUIRE(r.size() == 8);
    if (r[1] == "all") {
      all[r[0]] = {std::stoul(r[4]), std::stod(r[5]), std::stod(r[6]), std::stod(r[7])};
      continue;
    }
    ++bins[r[0]];
    const double n = std::stod(r[4]);
    if (n == 0) continue;
    ece_of_bins[r[0]] += n * std::fabs(std::stod(r[5]) - std::stod(r[6]));
    weighted_mean[r[0]] += n * std::stod(r[5]);
  }
  for (const auto& [set, row] : all) {
    INFO(set);
    CHECK(bins[set] == 15);
    // ECE = sum over bins of (share of samples) x |mean probability - share right| (up to the
    // rounding of the 4-decimal fields).
    CHECK(row.ece == Approx(ece_of_bins[set] / static_cast<double>(row.samples)).margin(2e-4));
    CHECK(row.mean == Approx(weighted_mean[set] / static_cast<double>(row.samples)).margin(2e-4));
  }
  return all;
}

}  // namespace

TEST_CASE("junk: und, unreliable and reliable shares per category, the summary, TSV rows and examples") {
  const std::string det = "--detector " + q("fake=sh " + kData + "junk-tsv.sh") + " ";
  outcome o = sh(eval_cmd("junk") + det + "--tsv - --examples 1 " + kData + "junk");
  INFO(o.err);
  REQUIRE(o.status == 0);
  // code: 4 samples, 1 und, 1 unreliable, 2 reliable (en, la); repeated: 5, 2 und, 3 reliable.
  CHECK(contains(o.out, "set\tdetector\tcategory\tsamples\tund\tunreliable\treliable\tpassed_pct\ttop_reliable\ttop_reliable_count\n"));
  CHECK(contains(o.out, "junk\tfake\tcode\t4\t1\t1\t2\t50.00\ten\t1\n"));
  CHECK(contains(o.out, "junk\tfake\trepeated\t5\t2\t0\t3\t40.00\tmt\t2\n"));
  outcome md = sh(eval_cmd("junk") + det + "--examples 1 " + kData + "junk");
  REQUIRE(md.status == 0);
  CHECK(contains(md.out, "| code | 4 | fake | 25.0 | 25.0 | 50.0 | **50.0** | en 1 · la 1 |"));
  CHECK(contains(md.out, "| repeated | 5 | fake | 40.0 | 0.0 | 60.0 | **40.0** | mt 2 · fr 1 |"));
  // micro 4 of 9 passed, mean of 50 and 40, lowest and highest category
  CHECK(contains(md.out, "| fake | 9 | 33.3 | 11.1 | 55.6 | 44.4 | 45.0 | repeated 40.0 | code 50.0 |"));
  CHECK(contains(md.out, "- code, fake: `en 1 for (int i = 0; i < n; ++i)`"));  // the first reliable one
  CHECK(contains(md.out, "- repeated, fake: `mt 1 x x x`"));
  CHECK_FALSE(contains(md.out, "`mt 1 y y y`"));  // --examples 1
  outcome top = sh(eval_cmd("junk") + det + "--top 1 " + kData + "junk");
  REQUIRE(top.status == 0);
  CHECK(contains(top.out, "| **40.0** | mt 2 |"));
}

TEST_CASE("junk: a detector without langsift's reliable field, and usage errors") {
  outcome o = sh(eval_cmd("junk") + first_word() + kData + "junk");
  CHECK(o.status == 1);
  CHECK(contains(o.err, "detector 'first'"));
  CHECK(contains(o.err, "code.txt"));
  CHECK(contains(o.err, "no reliable field"));
  CHECK(sh(eval_cmd("junk") + kData + "junk").status == 2);  // --no-langsift and no detector
  CHECK(sh(eval_cmd("junk") + first_word() + "--top 0 " + kData + "junk").status == 2);
  CHECK(sh(eval_cmd("junk") + first_word() + "--frobnicate " + kData + "junk").status == 2);
  CHECK(sh(eval_cmd("junk") + first_word()).status == 2);
  outcome empty = sh(eval_cmd("junk") + first_word() + kData + "empty");
  CHECK(empty.status == 1);
  CHECK(contains(empty.err, "no samples"));
}

TEST_CASE("junk: the generator is deterministic per part, and langsift's own TSV scores it") {
  const std::string script = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../scripts/make-junk-set.py";
  const fs::path dir = scratch() / "junkset";
  fs::remove_all(dir);
  const std::string cats = " --per-category 30 --categories repeated-token,base64,lorem-ipsum,code-python ";
  auto make = [&](const std::string& part, const std::string& out) {
    return sh("/usr/bin/python3 " + q(script) + " --part " + part + cats + q((dir / out).string()));
  };
  outcome a = make("dev", "a"), b = make("dev", "b"), t = make("test", "t");
  INFO(a.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  REQUIRE(t.status == 0);
  for (const char* c : {"repeated-token.txt", "base64.txt", "lorem-ipsum.txt", "code-python.txt"}) {
    const std::string x = slurp(dir / "a" / c);
    CHECK(x == slurp(dir / "b" / c));   // same part, same bytes
    CHECK(x != slurp(dir / "t" / c));   // the other part differs
    CHECK(std::count(x.begin(), x.end(), '\n') == 30);
  }
  CHECK(slurp(dir / "a" / "MANIFEST.tsv") == slurp(dir / "b" / "MANIFEST.tsv"));
  CHECK(contains(slurp(dir / "a" / "MANIFEST.tsv"), "output\tbase64\tbase64.txt\t"));
  CHECK(contains(slurp(dir / "a" / "MANIFEST.tsv"), "source\tcode-python\t/usr/lib/python3"));
  CHECK(make("dev", "a").status == 0);
  CHECK(sh("/usr/bin/python3 " + q(script) + " --categories nonsense " + q((dir / "c").string())).status == 2);
  // langsift's TSV has the reliable field the mode reads
  outcome e = sh(q(kBin + "langsift-eval") + " junk --tsv - " + q((dir / "a").string()));
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(contains(e.out, "a\tlangsift\tbase64\t30\t"));
  // --web-text: lines of held-out text, each with web debris added, deterministically
  fs::create_directories(dir / "heldout");
  {
    std::ofstream de(dir / "heldout" / "de.txt", std::ios::binary);
    for (int i = 0; i < 20; ++i) de << "Der Stadtrat hat am Dienstag " << i << " neue Regeln beschlossen.\n";
  }
  auto web = [&](const std::string& out) {
    return sh("/usr/bin/python3 " + q(script) + " --part dev --per-category 5 --web-text " + q((dir / "heldout").string()) +
              " " + q((dir / out).string()));
  };
  REQUIRE(web("w1").status == 0);
  REQUIRE(web("w2").status == 0);
  const std::string w = slurp(dir / "w1" / "de.txt");
  CHECK(w == slurp(dir / "w2" / "de.txt"));
  CHECK(std::count(w.begin(), w.end(), '\n') == 5);
  std::istringstream lines(w);
  for (std::string line; std::getline(lines, line);) {  // a held-out line, and something added to it
    INFO(line);
    CHECK(contains(line, "Stadtrat"));
    CHECK(line.size() > std::string("Der Stadtrat hat am Dienstag 10 neue Regeln beschlossen.").size());
  }
  CHECK(sh("/usr/bin/python3 " + q(script) + " --web-text /nonexistent " + q((dir / "w3").string())).status == 2);
}

TEST_CASE("calibration: ECE and the reliability table of the top probability, per set, --docs, --score") {
  const fs::path tsv = scratch() / "calibration.tsv";
  outcome o = sh(q(kBin + "langsift-eval") + " calibration --docs 40 --tsv " + tsv.string() + " " + kData + "lang");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const auto rows = calibration_rows(tsv);
  REQUIRE(rows.size() == 2);  // the files of DIR, and documents of >= 40 bytes from them
  REQUIRE(rows.count("lang") == 1);
  CHECK(rows.at("lang").samples == 10);  // en 5, fr 2, zh 3
  CHECK(rows.at("docs-40").samples >= 1);
  // The markdown report: the summary, and the tables with --table.
  outcome md = sh(q(kBin + "langsift-eval") + " calibration --table " + kData + "lang");
  REQUIRE(md.status == 0);
  CHECK(contains(md.out, "| set | samples | right % | mean probability % | ECE |"));
  CHECK(contains(md.out, "\n## lang\n"));
  CHECK(contains(md.out, "| probability | samples | mean probability % | right % |"));
  // --score margin: the confidence before #30 (logistic of the margin), another figure.
  outcome before = sh(q(kBin + "langsift-eval") + " calibration --score margin --tsv " + tsv.string() + " " + kData + "lang");
  REQUIRE(before.status == 0);
  CHECK(calibration_rows(tsv).at("lang").mean != rows.at("lang").mean);
  // --calibration: another (scale, rest) for the same model; the answers stay, the probabilities move.
  outcome sharp = sh(q(kBin + "langsift-eval") + " calibration --calibration 1,0.001 --tsv " + tsv.string() + " " + kData + "lang");
  REQUIRE(sharp.status == 0);
  const auto s = calibration_rows(tsv).at("lang");
  CHECK(s.accuracy == rows.at("lang").accuracy);
  CHECK(s.mean > rows.at("lang").mean);
}

TEST_CASE("calibration: errors") {
  const std::string tool = q(kBin + "langsift-eval") + " calibration ";
  CHECK(sh(tool + kData + "no-such-dir").status == 1);
  CHECK(sh(tool + "--sets nope " + kData + "lang").status == 2);
  CHECK(sh(tool + "--score x " + kData + "lang").status == 2);
  for (const char* c : {"0,0.1", "0.1,-1", "x", "0.1"}) CHECK(sh(tool + "--calibration " + c + " " + kData + "lang").status == 2);
  CHECK(sh(tool + "--model no-such-model.lsm " + kData + "lang").status == 1);
  CHECK(sh(tool).status == 2);
  const fs::path sets = scratch() / "cal-sets";
  fs::create_directories(sets / "words");
  std::ofstream(sets / "words" / "de.txt") << "Haus\n";
  outcome nodocs = sh(tool + "--docs 400 " + sets.string());
  CHECK(nodocs.status == 2);  // documents are built from the set `sentences`
  CHECK(contains(nodocs.err, "sentences"));
}

TEST_CASE("calibrate --probability: fits SCALE,REST on held-out text of a model, deterministically") {
  // Held-out text: the test corpus (not the built-in model's training text), four times over so
  // that every kind of sample (words, pairs, lines, documents of 400 bytes) has enough.
  const fs::path dir = scratch() / "cal-heldout";
  fs::create_directories(dir);
  for (const char* code : {"de", "en", "es", "fr", "nl"}) {
    std::ifstream in(std::string(LANGSIFT_TEST_DATA_DIR) + "/corpus/" + code + ".txt");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / (std::string(code) + ".txt")) << text << text << text << text;
  }
  const std::string model = q(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/default.lsm");
  const std::string cmd = q(kBin + "langsift-eval") + " calibrate --probability --lines 60 " + model + " " + dir.string();
  outcome a = sh(cmd);
  INFO(a.err);
  REQUIRE(a.status == 0);
  const std::string line = a.out.substr(0, a.out.find('\n'));
  const std::size_t comma = line.find(',');
  REQUIRE(comma != std::string::npos);
  const double scale = std::stod(line.substr(0, comma)), rest = std::stod(line.substr(comma + 1));
  CHECK(scale > 0);
  CHECK(rest >= 0);
  for (const char* kind : {"single words: ", "word pairs: ", "lines: ", "documents: "}) CHECK(contains(a.err, kind));
  CHECK(contains(a.err, "ECE "));
  CHECK(sh(cmd).out == a.out);  // deterministic
  // The fit is what `calibration --calibration` takes.
  CHECK(sh(q(kBin + "langsift-eval") + " calibration --calibration " + line + " " + kData + "lang").status == 0);
  // --langs: only these languages' samples.
  outcome de = sh(cmd + " --langs de,nl");
  REQUIRE(de.status == 0);
  CHECK(de.out != a.out);
  // Errors: a model without its text, a --loso directory without models, too little text.
  CHECK(sh(q(kBin + "langsift-eval") + " calibrate --probability " + model).status == 2);
  CHECK(sh(q(kBin + "langsift-eval") + " calibrate --probability --loso " + dir.string()).status == 1);
  outcome few = sh(q(kBin + "langsift-eval") + " calibrate --probability --lines 60 " + model + " " + kData + "lang");
  CHECK(few.status == 1);
  CHECK(contains(few.err, "too few"));
}

#ifdef LANGSIFT_LINGUA_DEV_DIR
TEST_CASE("calibration: the built-in models' top probability has ECE <= 0.03 on lingua-dev's sets and 400-byte documents [lingua]") {
  for (const char* model : {"default", "wide"}) {
    INFO(model);
    const fs::path tsv = scratch() / "lingua-calibration.tsv";
    outcome o = sh(q(kBin + "langsift-eval") + " calibration --model " + model +
                   " --sets single-words,word-pairs,sentences --docs 400 --tsv " + tsv.string() + " " + q(LANGSIFT_LINGUA_DEV_DIR));
    INFO(o.err);
    REQUIRE(o.status == 0);
    const auto rows = calibration_rows(tsv);
    REQUIRE(rows.size() == 4);
    for (const auto& [set, row] : rows) {
      INFO(set << ": ECE " << row.ece << ", " << row.samples << " samples");
      CHECK(row.samples > 10000);
      CHECK(row.ece <= 0.03);
    }
  }
}
#endif

TEST_CASE("url: the default words model is the built-in one, wherever the tool runs") {
  // Run from a directory that is not the source tree: the default was models/url-words.bin,
  // relative to the working directory, which only a source tree has (#33).
  const fs::path dir = scratch();
  std::string rows;
  for (int i = 0; i < 30; ++i) {
    rows += "de\thttp://www.beispiel" + std::to_string(i) + ".de/nachrichten/wetter-heute\n";
    rows += "fr\thttp://www.exemple" + std::to_string(i) + ".fr/actualites/meteo-aujourdhui\n";
  }
  const fs::path file = dir / "labelled.tsv";
  std::ofstream(file) << rows;
  const outcome r = sh("cd " + q(dir.string()) + " && " + q(kBin + "langsift-eval") + " url --folds 2 " + q(file.string()));
  CHECK(r.status == 0);
  CHECK(!contains(r.err, "cannot open"));
  CHECK(contains(r.out, "words model: built-in ("));
  // A words model file is still read from where --words says.
  const outcome missing = sh(q(kBin + "langsift-eval") + " url --words " + q((dir / "none.bin").string()) + " " +
                             q(file.string()));
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "none.bin"));
}

TEST_CASE("scripts/rare-fp.py: false positives of the wide model's added languages, per million, macro and web-weighted") {
  const std::string script = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../scripts/rare-fp.py";
  const fs::path dir = scratch() / "rare-fp";
  fs::remove_all(dir);
  fs::create_directories(dir / "set");
  // Italian's file: two Interlingua lines (the wide model answers ia, an added language) and an
  // Italian one; French's: one French line. `zz.txt` is no language of the default model: not counted.
  std::ofstream(dir / "set" / "it.txt") << "Interlingua es un lingua auxiliar international.\n"
                                           "Le lingua es facile a apprender.\n"
                                           "La casa \xc3\xa8 molto grande e bella, vicino al mare.\n";
  std::ofstream(dir / "set" / "fr.txt") << "Bonjour, je suis tr\xc3\xa8s content de vous voir aujourd'hui.\n";
  std::ofstream(dir / "set" / "zz.txt") << "Interlingua es un lingua auxiliar international.\n";
  // A prior of our own: Italian 3 % of the web, French 1 %: Italian's pages weigh 0.75.
  std::ofstream(dir / "prior.csv") << "crawl,primary_language,pages,urls,%pages/crawl\n"
                                      "X,ita,3,3,3.0000\nX,fra,1,1,1.0000\n";
  const std::string base = "/usr/bin/python3 " + q(script) + " --langsift " + q(kBin + "langsift") +
                           " --web-prior " + q((dir / "prior.csv").string()) + " ";
  const fs::path tsv = dir / "fp.tsv", md = dir / "fp.md";
  outcome o = sh(base + "--set " + q("lines=" + (dir / "set").string() + "@1") + " --tsv " + q(tsv.string()) +
                 " --markdown " + q(md.string()));
  INFO(o.err);
  REQUIRE(o.status == 0);
  const std::string t = slurp(tsv);
  // ia took 2 of Italian's 3 lines and none of French's: macro (2/3 + 0) / 2, web 0.75 x 2/3.
  CHECK(contains(t, "lines\tia\t2\t333333.3\t500000.0\tit:2\n"));
  CHECK(contains(t, "lines\tall\t2\t333333.3\t500000.0\t\n"));
  CHECK(contains(t, "lines\taccuracy:wide\t2\t"));  // it 1 of 3, fr 1 of 1
  CHECK(contains(slurp(md), "| ia | 2 | 333,333 | 500,000 | it 2 |"));
  // Documents of >= 40 bytes: Italian's first line alone (48 bytes), then the other two joined.
  outcome docs = sh(base + "--bytes 40 --set " + q("docs=" + (dir / "set").string()) + " --tsv " + q(tsv.string()));
  INFO(docs.err);
  REQUIRE(docs.status == 0);
  CHECK(contains(slurp(tsv), "docs\taccuracy:default\t"));
  CHECK(contains(docs.out, "## docs: 3 documents of at least 40 bytes, 2 languages"));
  // Errors: usage (2), a missing directory or prior (1), one line each.
  CHECK(sh(base).status == 2);
  CHECK(sh(base + "--set nodir").status == 2);
  CHECK(sh(base + "--set " + q("x=" + (dir / "set").string() + "@0")).status == 2);
  outcome missing = sh(base + "--set " + q("x=" + (dir / "none").string()));
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "none: not a directory"));
  outcome no_prior = sh("/usr/bin/python3 " + q(script) + " --langsift " + q(kBin + "langsift") + " --web-prior " +
                        q((dir / "none.csv").string()) + " --set " + q("x=" + (dir / "set").string()));
  CHECK(no_prior.status == 1);
  CHECK(contains(no_prior.err, "none.csv"));
}
