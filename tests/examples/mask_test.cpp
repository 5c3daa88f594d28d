// Masking for example selection (issue #17): questions against the sample database, queries through sql::Mask, and
// the whitelist of never-masked words.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "examples/mask.h"
#include "exec/connection.h"
#include "sql/dialect.h"
#include "test_util.h"

namespace plainsql::examples {
namespace {

// The sample database, its schema and its value index, read once.
struct Sample {
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
  std::unique_ptr<retrieval::ValueIndex> values;
};

const Sample& GetSample() {
  static const Sample* kSample = [] {
    auto* s = new Sample;
    auto conn = exec::Connect(test::SampleDb());
    EXPECT_TRUE(conn.ok()) << conn.error().message;
    s->conn = std::move(*conn);
    catalog::IntrospectOptions io;
    io.samples = 0;
    auto schema = catalog::Introspect(*s->conn, io);
    EXPECT_TRUE(schema.ok()) << schema.error().message;
    s->schema = std::move(*schema);
    auto values = retrieval::ValueIndex::Build(*s->conn, s->schema);
    EXPECT_TRUE(values.ok()) << values.error().message;
    s->values = std::make_unique<retrieval::ValueIndex>(std::move(*values));
    return s;
  }();
  return *kSample;
}

TEST(Mask, QuestionCasesOnTheSampleDatabase) {
  auto whitelist = Whitelist::Parse(test::ReadFile(test::DataFile("examples", "whitelist.tsv")));
  ASSERT_TRUE(whitelist.ok()) << whitelist.error().message;
  const Sample& sample = GetSample();
  MaskOptions links;
  links.whitelist = &*whitelist;
  links.mask_unlisted = false;
  MaskOptions unlisted = links;
  unlisted.mask_unlisted = true;
  QuestionMasker by_links(sample.schema, sample.values.get(), links);
  QuestionMasker all(sample.schema, sample.values.get(), unlisted);
  size_t cases = 0;
  for (const auto& line : Split(test::ReadFile(test::DataFile("examples", "mask_cases.txt")), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    ASSERT_TRUE(f[0] == "links" || f[0] == "unlisted") << line;
    QuestionMasker& masker = f[0] == "links" ? by_links : all;
    EXPECT_EQ(masker.Mask(f[1]), f[2]) << f[0] << ": " << f[1];
    ++cases;
  }
  EXPECT_GE(cases, 10u);
}
TEST(Mask, QueryCases) {
  size_t cases = 0;
  for (const auto& line : Split(test::ReadFile(test::DataFile("examples", "mask_sql_cases.txt")), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    const catalog::Schema* schema = f[0] == "plant" ? &GetSample().schema : nullptr;
    auto masked = MaskSql(f[1], sql::Sqlite(), schema);
    ASSERT_TRUE(masked.ok()) << masked.error().message;
    EXPECT_EQ(*masked, f[2]) << f[1];
    ++cases;
  }
  EXPECT_GE(cases, 5u);
  auto bad = MaskSql("SELECT FROM WHERE", sql::Sqlite());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kSql);
  EXPECT_FALSE(MaskSql("DELETE FROM plant", sql::Sqlite()).ok());
}

TEST(Mask, WithoutValuesOnlyNumbersAndQuotesAreValues) {
  auto whitelist = Whitelist::Parse(test::ReadFile(test::DataFile("examples", "whitelist.tsv")));
  ASSERT_TRUE(whitelist.ok());
  MaskOptions options;
  options.whitelist = &*whitelist;
  options.mask_unlisted = false;
  QuestionMasker masker(GetSample().schema, nullptr, options);
  // Canada is a stored value, but there is no value index to find it; "Riverside Works" is quoted.
  EXPECT_EQ(masker.Mask("How many plants are in Canada?"), "How many <mask> are in Canada?");
  EXPECT_EQ(masker.Mask("Plants like \"Riverside Works\" or \u201cDelta Pulp Mill\u201d, opened before -3 or 1,990.5."),
            "<mask> like <value> or <value>, <mask> before <value> or <value>.");
  EXPECT_EQ(masker.Mask(""), "");
  EXPECT_EQ(masker.Mask("   ?"), "   ?");
}

TEST(Mask, WhitelistedWordsAreNeverMasked) {
  Whitelist none;
  Whitelist some({"plants", "canada"});
  MaskOptions options;
  options.mask_unlisted = true;
  options.whitelist = &none;
  QuestionMasker bare(GetSample().schema, GetSample().values.get(), options);
  EXPECT_EQ(bare.Mask("How many plants are in Canada?"), "How <mask> are in <value>?");
  options.whitelist = &some;
  QuestionMasker kept(GetSample().schema, GetSample().values.get(), options);
  // A whitelisted word stays even when it names a table or a stored value.
  EXPECT_EQ(kept.Mask("How many plants are in Canada?"), "How <mask> plants are in Canada?");
  options.mask_linked_whitelisted = true;
  QuestionMasker linked(GetSample().schema, GetSample().values.get(), options);
  // ("many" and "plants", two masks side by side, are written as one.)
  EXPECT_EQ(linked.Mask("How many plants are in Canada?"), "How <mask> are in Canada?");
}

TEST(Whitelist, CountParseAndFormat) {
  auto counts = CountWords({"How many singers?", "How many songs, and 3 \"names\"?", "how old is the singer"},
                           {"concert", "music", "concert"});
  ASSERT_GE(counts.size(), 4u);
  // "how" is in two databases and three questions; "many" in two and two; numbers and quoted strings are not words.
  EXPECT_EQ(counts[0].word, "how");
  EXPECT_EQ(counts[0].frequency, 3);
  EXPECT_EQ(counts[0].domains, 2);
  EXPECT_EQ(counts[1].word, "many");
  EXPECT_TRUE(std::none_of(counts.begin(), counts.end(),
                           [](const WordCount& c) { return c.word == "3" || c.word == "names"; }));
  std::string text = FormatWhitelist(counts, "a header\nof two lines");
  EXPECT_TRUE(text.starts_with("# a header\n# of two lines\nhow\t3\t2\nmany\t2\t2\n")) << text;
  auto all = Whitelist::Parse(text);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->Size(), counts.size());
  auto two = Whitelist::Parse(text, 2);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->Size(), 2u);
  EXPECT_TRUE(two->Contains("how"));
  EXPECT_FALSE(two->Contains("singers"));
  auto bad = Whitelist::Parse("how\t3\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kFormat);
}

TEST(Whitelist, TheBuiltInOneIsTheGeneratedFilesHead) {
  const Whitelist& w = DefaultWhitelist();
  EXPECT_EQ(w.Size(), kWhitelistSize);
  auto file = Whitelist::Parse(test::ReadFile(std::string(PLAINSQL_SOURCE_DIR) + "/src/examples/whitelist.tsv"),
                               kWhitelistSize);
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file->Size(), w.Size());
  for (const char* word : {"the", "how", "many", "what"}) EXPECT_TRUE(w.Contains(word)) << word;
}

}  // namespace
}  // namespace plainsql::examples
