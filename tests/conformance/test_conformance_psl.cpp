// The Public Suffix List's own checks (psl/test_psl.txt: checkPublicSuffix(domain, registrable
// domain) lines, the IDN ones in Unicode and in Punycode), read in place from
// LANGSIFT_CONFORMANCE_DIR, against split_domain (psl.hpp) with the compiled-in list.
//
// How a line is run: null input is skipped (split_domain takes a string); the domain is mapped by
// UTS #46 (idna_to_unicode: lower case, "xn--" labels decoded), as split_domain wants it; a domain
// with an empty label ("leading dot") has no registrable domain; otherwise the answer is
// split_domain's registered domain, written back in the input's own form (Unicode or Punycode,
// lower case) by taking as many of its labels. Cases that fail on purpose would be listed in
// tests/conformance/psl.tsv with the reason; the test fails when a case not in the list fails,
// and when a listed case passes or does not exist. The pass count is printed and written to
// <build>/conformance/psl.txt.
#include <catch2/catch.hpp>

#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "conformance/support.hpp"
#include "langsift/idna.hpp"
#include "langsift/psl.hpp"

using namespace langsift;
using namespace langsift_test::conformance;

namespace {

/// The arguments of checkPublicSuffix('a', 'b'): nullopt for null.
std::optional<std::string> argument(std::string_view& rest) {
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == ',' || rest.front() == '(')) rest.remove_prefix(1);
  if (rest.substr(0, 4) == "null") {
    rest.remove_prefix(4);
    return std::nullopt;
  }
  REQUIRE(!rest.empty());
  REQUIRE(rest.front() == '\'');
  const std::size_t close = rest.find('\'', 1);
  REQUIRE(close != std::string_view::npos);
  std::string v(rest.substr(1, close - 1));
  rest.remove_prefix(close + 1);
  return v;
}

std::size_t labels(std::string_view s) {
  std::size_t n = 1;
  for (char c : s) n += c == '.';
  return n;
}

/// The registrable domain of `domain` as the list's checks want it (see the top of this file).
std::optional<std::string> registrable(const std::string& domain) {
  if (domain.empty() || domain.front() == '.' || domain.find("..") != std::string::npos) return std::nullopt;
  std::string unicode, ascii;
  idna_to_unicode(domain, unicode);
  idna_to_ascii(domain, ascii);
  const domain_parts d = split_domain(unicode);
  if (d.registered_domain.empty()) return std::nullopt;
  // The same labels, in the input's form.
  const std::string& form = domain.find("xn--") != std::string::npos || domain.find("XN--") != std::string::npos ? ascii : unicode;
  const std::size_t k = labels(d.registered_domain);
  std::size_t start = form.size(), seen = 0;
  while (start > 0 && seen < k) {
    --start;
    if (form[start] == '.' && ++seen == k) {
      ++start;
      break;
    }
  }
  return form.substr(start);
}

}  // namespace

TEST_CASE("conformance: Public Suffix List test_psl.txt, split_domain") {
  std::istringstream in(read_file(kSuitesDir / "psl" / "test_psl.txt"));
  expected_failures list("psl.tsv");
  std::size_t pass = 0, run = 0, skipped = 0;
  std::ostringstream rec;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("checkPublicSuffix(", 0) != 0) continue;  // comments, commented-out checks
    std::string_view rest = std::string_view(line).substr(std::string_view("checkPublicSuffix").size());
    const std::optional<std::string> domain = argument(rest);
    const std::optional<std::string> want = argument(rest);
    if (!domain) {
      ++skipped;
      continue;
    }
    ++run;
    const std::optional<std::string> got = registrable(*domain);
    const bool ok = got == want;
    INFO("checkPublicSuffix('" << *domain << "', " << (want ? "'" + *want + "'" : "null") << "): got "
                               << (got ? "'" + *got + "'" : "null"));
    if (ok) ++pass;
    else rec << "FAIL\t" << *domain << "\tgot " << (got ? *got : "null") << "\n";
    list.check(*domain, ok);  // a failure must be listed, a listed case must fail
  }
  list.check_all_seen();
  std::ostringstream head;
  head << "psl: " << pass << " of " << run << " checks pass (" << skipped << " with null input skipped)\n";
  record("psl", head.str(), rec.str());
  CHECK(run >= 77);
}
