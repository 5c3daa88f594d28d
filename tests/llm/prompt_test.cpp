// Prompt templates and SQL extraction from model replies.
#include <gtest/gtest.h>

#include "catalog/schema.h"
#include "llm/extract.h"
#include "llm/generator.h"
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

// Issue #17: few-shot examples in the DAIL-SQL and OmniSQL slots, best first, each against its own schema.
TEST(Prompt, ExamplesRenderBestFirstAgainstTheirOwnSchemas) {
  catalog::Schema concert;
  catalog::Table singer;
  singer.name = "singer";
  catalog::Column id, name;
  id.name = "singer_id";
  id.type = "INTEGER";
  name.name = "name";
  name.type = "TEXT";
  singer.columns = {id, name};
  singer.primary_key = {"singer_id"};
  concert.tables = {singer};
  std::vector<generate::PromptExample> examples = {
      {"concert", "How many singers are there?", "SELECT count(*) FROM singer", 0.91,
       std::make_shared<const catalog::Schema>(concert), &sql::Sqlite()},
      {"zoo", "Count the animals */ DROP\nnow", "SELECT count(*) FROM animal", 0.5, nullptr, &sql::Sqlite()}};
  std::string dail = RenderExamplesDail(examples);
  size_t first = dail.find("/* Answer the following: How many singers are there? */\nSELECT count(*) FROM singer");
  size_t second = dail.find("/* Answer the following: Count the animals * / DROP now */\nSELECT count(*) FROM animal");
  ASSERT_NE(first, std::string::npos) << dail;
  ASSERT_NE(second, std::string::npos) << dail;
  EXPECT_LT(first, second);
  EXPECT_LT(dail.find("CREATE TABLE singer"), first);
  EXPECT_EQ(dail.find("CREATE TABLE animal"), std::string::npos);  // its schema is not known
  std::string omni = RenderExamplesOmni(examples);
  size_t one = omni.find("Example 1 (database concert, similarity 0.91):\nCREATE TABLE singer");
  size_t two = omni.find("Example 2 (database zoo, similarity 0.50):\nQuestion: Count the animals");
  ASSERT_NE(one, std::string::npos) << omni;
  ASSERT_NE(two, std::string::npos) << omni;
  EXPECT_LT(one, two);
  EXPECT_NE(omni.find("```sql\nSELECT count(*) FROM singer\n```"), std::string::npos) << omni;
  EXPECT_EQ(RenderExamplesDail({}), "");
  EXPECT_EQ(RenderExamplesOmni({}), "");

  // In the prompts: the examples where the slots are; without examples, the prompts as before (no trace of a slot).
  generate::GenerationRequest r;
  r.question = "How many concerts are there?";
  r.schema = &concert;
  for (const std::string style : {"omnisql", "dail_sql"}) {
    auto zero_shot = BuildPrompt(r, style);
    ASSERT_TRUE(zero_shot.ok()) << zero_shot.error().message;
    std::string plain = MessagesText(*zero_shot);
    EXPECT_EQ(plain.find("xample"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("\n\n\n"), std::string::npos) << plain;
    generate::GenerationRequest with = r;
    with.examples = examples;
    auto few_shot = BuildPrompt(with, style);
    ASSERT_TRUE(few_shot.ok()) << few_shot.error().message;
    std::string text = MessagesText(*few_shot);
    std::string slot = style == "omnisql" ? omni : dail;
    EXPECT_NE(text.find(slot), std::string::npos) << text;
    EXPECT_LT(text.find(slot), text.find("How many concerts are there?")) << text;
  }
}

}  // namespace
}  // namespace plainsql::llm
