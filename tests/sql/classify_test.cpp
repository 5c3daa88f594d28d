// Data-driven tests of the lexical statement classifier: cases live in classify_cases.txt.
#include <gtest/gtest.h>

#include <fstream>

#include "common/strings.h"
#include "sql/classify.h"

namespace plainsql::sql {
namespace {

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'n' || s[i + 1] == 't')) {
      out.push_back(s[i + 1] == 'n' ? '\n' : '\t');
      ++i;
    } else if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
      out.push_back('\\');
      ++i;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

TEST(Classify, Cases) {
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/sql/classify_cases.txt");
  ASSERT_TRUE(in) << "classify_cases.txt not found";
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    ASSERT_GE(f.size(), 3u) << line;
    std::string sql = f.size() > 3 ? Unescape(f[3]) : "";
    Classification c = ClassifyStatement(sql);
    SCOPED_TRACE(line);
    if (f[0] == "unterminated") {
      EXPECT_TRUE(c.unterminated);
    } else {
      EXPECT_FALSE(c.unterminated);
      LexicalKind want = f[0] == "query"   ? LexicalKind::kQuery
                         : f[0] == "other" ? LexicalKind::kOther
                                           : LexicalKind::kEmpty;
      EXPECT_EQ(c.kind, want);
    }
    EXPECT_EQ(c.statement_count, std::stoi(f[1]));
    EXPECT_EQ(c.first_keyword, f[2]);
    ++n;
  }
  EXPECT_GT(n, 30);
}

TEST(Classify, NeverCrashesOnArbitraryBytes) {
  // A cheap robustness sweep: every prefix of a tricky statement, and some binary noise.
  std::string tricky = "WITH a AS (SELECT $t$x$t$, 'y''z', \"q\"\"r\", [s]) SELECT /* c */ * FROM a; -- end";
  for (size_t i = 0; i <= tricky.size(); ++i) (void)ClassifyStatement(tricky.substr(0, i));
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise.push_back(static_cast<char>((i * 131 + 7) % 256));
  (void)ClassifyStatement(noise);
}

}  // namespace
}  // namespace plainsql::sql
