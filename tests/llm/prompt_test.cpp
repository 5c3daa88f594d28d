// Prompt templates and SQL extraction from model replies.
#include <gtest/gtest.h>

#include "llm/extract.h"
#include "llm/prompt.h"

namespace plainsql::llm {
namespace {

TEST(Extract, FencedBlocksBareSqlAndSeveralCandidates) {
  EXPECT_EQ(ExtractSql("```sql\nSELECT 1;\n```"), "SELECT 1");
  // Reasoning first, final answer last.
  EXPECT_EQ(ExtractSql("First try:\n```sql\nSELECT a FROM t\n```\nBetter:\n```SQL\nSELECT b FROM t;\n```\nDone."),
            "SELECT b FROM t");
  EXPECT_EQ(ExtractSqlCandidates("```sql\nSELECT 1\n```\n```sql\nSELECT 2\n```").size(), 2u);
  // Unmarked blocks count only when they hold a query; other languages never.
  EXPECT_EQ(ExtractSql("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```"), "WITH x AS (SELECT 1) SELECT * FROM x");
  EXPECT_EQ(ExtractSql("```\nThe answer is 42.\n```"), "");
  EXPECT_EQ(ExtractSql("```python\nprint('SELECT 1')\n```"), "");
  // Bare SQL with prose around it; CRLF.
  EXPECT_EQ(ExtractSql("Here it is:\r\nSELECT name\r\nFROM t\r\nWHERE x = 1;\r\n\r\nThis returns names."),
            "SELECT name\nFROM t\nWHERE x = 1");
  EXPECT_EQ(ExtractSql("I cannot answer that from this schema."), "");
  EXPECT_EQ(ExtractSql(""), "");
  // A reply cut off inside its block still gives the query.
  EXPECT_EQ(ExtractSql("```sql\nSELECT count(*) FROM t"), "SELECT count(*) FROM t");
  // A marked block is returned even if it is not a query: the read-only check refuses it later.
  EXPECT_EQ(ExtractSql("```sql\nDROP TABLE t;\n```"), "DROP TABLE t");
}

TEST(Prompt, TemplatesParseRenderAndReportMissingValues) {
  auto t = PromptTemplate::Parse("t",
                                 "# comment\n### system\nYou write {{dialect}}.\n### user\n{{schema}}\n\n"
                                 "{{evidence}}\n\n\nQ: {{ question }}\n");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->Placeholders(), (std::vector<std::string>{"dialect", "evidence", "question", "schema"}));
  auto m = t->Render({{"dialect", "SQLite"}, {"schema", "t(a)"}, {"evidence", ""}, {"question", "How many?"}});
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->size(), 2u);
  EXPECT_EQ((*m)[0].role, "system");
  EXPECT_EQ((*m)[0].content, "You write SQLite.");
  EXPECT_EQ((*m)[1].content, "t(a)\n\nQ: How many?");  // the empty evidence leaves one blank line
  auto missing = t->Render({{"dialect", "x"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("{{schema}}"), std::string::npos) << missing.error().message;
  EXPECT_FALSE(PromptTemplate::Parse("t", "no header").ok());
  EXPECT_FALSE(PromptTemplate::Parse("t", "### user\n{{open").ok());
  EXPECT_FALSE(PromptTemplate::Parse("t", "### robot\nhi").ok());
  EXPECT_FALSE(PromptTemplate::Load("../etc/passwd").ok());
}

TEST(Prompt, ShippedTemplatesLoadAndDialectRulesDiffer) {
  for (const auto& name : {"omnisql", "snails_zero_shot", "dail_sql", "refine"}) {
    auto t = PromptTemplate::Load(name);
    ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
    auto p = t->Placeholders();
    EXPECT_NE(std::find(p.begin(), p.end(), "question"), p.end()) << name;
    EXPECT_NE(std::find(p.begin(), p.end(), "dialect_rules"), p.end()) << name;
  }
  auto sqlite = DialectRules("sqlite");
  auto tsql = DialectRules("tsql");
  ASSERT_TRUE(sqlite.ok() && tsql.ok());
  EXPECT_NE(sqlite->find("never TOP"), std::string::npos);
  EXPECT_NE(tsql->find("never LIMIT"), std::string::npos);
  EXPECT_EQ(*DialectRules("cobol"), "");
}

}  // namespace
}  // namespace plainsql::llm
