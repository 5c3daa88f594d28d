// The retrieval parts the built-in translator reads a question with: tokens and stems, WordNet, the value index.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "retrieval/wordnet.h"
#include "test_util.h"

namespace plainsql::retrieval {
namespace {

TEST(Text, TokensStemsNumbersAndQuotes) {
  Stemmer st;
  EXPECT_EQ(st.Stem("singers"), "singer");
  EXPECT_EQ(st.Stem("countries"), "countri");
  EXPECT_EQ(st.Stem("country"), "countri");
  auto t = Tokenize(
      "What are the names of singers older than 30, from \"United States\" or 'France'? 1,000 -2.5 "
      "singer's 1990s",
      st);
  std::vector<std::string> lower;
  for (const auto& x : t) lower.push_back(x.lower);
  EXPECT_EQ(lower,
            (std::vector<std::string>{"what", "are", "the", "names", "of", "singers", "older", "than", "30", "from",
                                      "united states", "or", "france", "1000", "-2.5", "singer", "1990s"}));
  EXPECT_EQ(t[8].kind, TokenKind::kNumber);
  EXPECT_EQ(t[10].kind, TokenKind::kQuoted);
  EXPECT_EQ(t[10].text, "United States");
  EXPECT_EQ(t[12].kind, TokenKind::kQuoted);
  EXPECT_EQ(t[13].kind, TokenKind::kNumber);
  EXPECT_EQ(t[5].stem, "singer");
  EXPECT_EQ(t[5].offset, 22u);
  EXPECT_EQ(t[16].kind, TokenKind::kWord);
  EXPECT_TRUE(IsStopWord("the"));
  EXPECT_FALSE(IsStopWord("singer"));
  // An ISO date is one number-like token.
  auto d = Tokenize("after 2000-01-01, 2000-1-1", st);
  ASSERT_GE(d.size(), 2u);
  EXPECT_EQ(d[1].kind, TokenKind::kNumber);
  EXPECT_EQ(d[1].lower, "2000-01-01");
  EXPECT_EQ(d[2].lower, "2000");  // not ISO: numbers as before
  // Curly quotes and an apostrophe inside a word.
  auto c = Tokenize("Who wrote \xe2\x80\x9cHey Jude\xe2\x80\x9d and O'Brien's song?", st);
  ASSERT_GE(c.size(), 5u);
  EXPECT_EQ(c[2].kind, TokenKind::kQuoted);
  EXPECT_EQ(c[2].text, "Hey Jude");
  EXPECT_EQ(c[4].lower, "o'brien");
  // Curly single quotes quote; the right one alone is an apostrophe.
  auto s = Tokenize(
      "the owner\xe2\x80\x99"
      "s name contains \xe2\x80\x98"
      "ee\xe2\x80\x99",
      st);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[1].lower, "owner");
  EXPECT_EQ(s[4].kind, TokenKind::kQuoted);
  EXPECT_EQ(s[4].text, "ee");
}

// Every case of data/written_dates.tsv: dates written with a month's name read as one ISO date.
TEST(Text, DatesWrittenWithTheMonthsName) {
  Stemmer st;
  const auto rows = test::CaseRows("retrieval", "written_dates.tsv", 2);
  for (const auto& f : rows) {
    std::string got;
    for (const auto& t : Tokenize(f[0], st)) {
      got += (got.empty() ? "" : "|") + std::string(t.kind == TokenKind::kNumber ? "#" : "") + t.lower;
      // The token's text is the span of the question it was read from (a quoted string's offset is its quote's).
      if (t.kind != TokenKind::kQuoted) {
        EXPECT_EQ(f[0].substr(t.offset, t.text.size()), t.text) << f[0];
      }
    }
    EXPECT_EQ(got, f[1]) << f[0];
  }
  EXPECT_GE(rows.size(), 10u);
}

TEST(WordNet, RelatedWordsFromTheDatabaseFiles) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  auto has = [](const std::vector<RelatedWord>& rs, const std::string& w, Relation r) {
    return std::any_of(rs.begin(), rs.end(), [&](const RelatedWord& x) { return x.word == w && x.relation == r; });
  };
  auto singer = (*wn)->Related("singer");
  EXPECT_TRUE(has(singer, "vocalist", Relation::kSynonym));
  EXPECT_TRUE(has(singer, "musician", Relation::kHypernym));
  EXPECT_TRUE(has(singer, "sing", Relation::kDerived));
  EXPECT_FALSE(has(singer, "singer", Relation::kSynonym));                 // not itself
  EXPECT_TRUE(has((*wn)->Related("title"), "name", Relation::kHypernym));  // a title is a name (the linker's "name")
  // A plural is read as its singular; multi-word lemmas are left out.
  auto countries = (*wn)->Related("countries");
  EXPECT_TRUE(has(countries, "nation", Relation::kSynonym));
  for (const auto& r : countries) EXPECT_EQ(r.word.find('_'), std::string::npos) << r.word;
  EXPECT_TRUE((*wn)->Knows("stadium"));
  EXPECT_FALSE((*wn)->Knows("zzqx"));
  EXPECT_TRUE((*wn)->Related("zzqx").empty());
  // A name's other names: a multi-word lemma looked up whole, its synset's lemmas split into words.
  using Words = std::vector<std::string>;
  auto first_name = (*wn)->NounSynonyms({"first", "name"});
  EXPECT_NE(std::find(first_name.begin(), first_name.end(), Words{"forename"}), first_name.end());
  EXPECT_NE(std::find(first_name.begin(), first_name.end(), Words{"given", "name"}), first_name.end());
  EXPECT_EQ(std::find(first_name.begin(), first_name.end(), Words{"first", "name"}), first_name.end());  // not itself
  auto surname = (*wn)->NounSynonyms({"surname"});
  EXPECT_NE(std::find(surname.begin(), surname.end(), Words{"last", "name"}), surname.end());
  EXPECT_TRUE((*wn)->NounSynonyms({"zzqx", "name"}).empty());
  EXPECT_TRUE((*wn)->NounSynonyms({"a", "b", "c", "d"}).empty());  // four words: not looked up
  // The nouns an adjective pertains to, multi-word lemmas read with spaces.
  auto french = (*wn)->Pertainyms("french");
  EXPECT_NE(std::find(french.begin(), french.end(), "france"), french.end());
  auto american = (*wn)->Pertainyms("american");
  EXPECT_NE(std::find(american.begin(), american.end(), "united states"), american.end());
  EXPECT_TRUE((*wn)->Pertainyms("singer").empty());  // no adjective
  EXPECT_TRUE((*wn)->Pertainyms("red").empty());     // an adjective that pertains to nothing
  auto missing = WordNet::Open("/nonexistent/wordnet");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("wordnet-base"), std::string::npos);
}

TEST(ValueIndex, FindsValuesTheQuestionNames) {
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema.ok());
  auto index = ValueIndex::Build(**conn, *schema);
  ASSERT_TRUE(index.ok()) << index.error().message;
  EXPECT_GT(index->Values(), 50u);
  EXPECT_EQ(index->ColumnsSkipped(), 0u);
  Stemmer st;
  auto has = [](const std::vector<ValueMatch>& ms, const std::string& where) {
    return std::any_of(ms.begin(), ms.end(),
                       [&](const ValueMatch& m) { return m.table + "." + m.column + "=" + m.value == where; });
  };
  auto a = index->Match(Tokenize("Which plants are in toledo or in the Netherlands?", st));
  EXPECT_TRUE(has(a, "plant.city=Toledo"));
  EXPECT_TRUE(has(a, "plant.country=Netherlands"));
  // A multi-word value beats its words; a quoted value is marked.
  auto b = index->Match(Tokenize("Orders that are technically completed at \"North Ridge Plant\"", st));
  EXPECT_TRUE(has(b, "MO_ST_CD.ST_DESC=Technically completed"));
  ASSERT_TRUE(has(b, "plant.plant_name=North Ridge Plant"));
  for (const auto& m : b) {
    if (m.value == "North Ridge Plant") {
      EXPECT_TRUE(m.quoted);
    }
  }
  EXPECT_TRUE(index->Match(Tokenize("nothing of the sort", st)).empty());
  // A value equal to a given text, reported at the tokens given.
  auto equal = index->Equal("the netherlands", 2, 3);
  EXPECT_TRUE(equal.empty());
  equal = index->Equal("NETHERLANDS", 2, 3);
  ASSERT_TRUE(has(equal, "plant.country=Netherlands"));
  EXPECT_EQ(equal.front().begin, 2u);
  EXPECT_EQ(equal.front().end, 3u);
  // Part of stored values: each value that contains the text (not the value equal to it), ignoring case.
  auto part = index->Containing("ridge");
  EXPECT_TRUE(has(part, "plant.plant_name=North Ridge Plant"));
  for (const auto& m : part) EXPECT_NE(plainsql::ToLower(m.value).find("ridge"), std::string::npos) << m.value;
  EXPECT_FALSE(has(index->Containing("North Ridge Plant"), "plant.plant_name=North Ridge Plant"));
  EXPECT_TRUE(index->Containing("ri").empty());  // under three characters
  EXPECT_EQ(index->Containing("e", 3).size(), 0u);
  EXPECT_EQ(index->Containing("pla", 2).size(), 2u);  // at most the limit
  // A budget already spent skips every column instead of failing.
  ValueIndexOptions none;
  none.budget = std::chrono::milliseconds(0);
  auto skipped = ValueIndex::Build(**conn, *schema, none);
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(skipped->Values(), 0u);
  EXPECT_GT(skipped->ColumnsSkipped(), 0u);
}

// The value index of a SQLite database made of `ddl` in `dir`, or why not.
Result<ValueIndex> IndexOf(const test::TempDir& dir, const std::string& ddl) {
  const std::string path = dir.File("values.db");
  test::MakeSqliteDb(path, ddl);
  auto conn = exec::Connect(path);
  if (!conn.ok()) return conn.error();
  auto schema = catalog::Introspect(**conn, {});
  if (!schema.ok()) return schema.error();
  return ValueIndex::Build(**conn, *schema);
}

TEST(ValueIndex, YesValueOfATextColumnOfTwoAnswers) {
  // Exactly two stored values, one yes and one no in any of the usual spellings: the yes as stored. Anything else
  // (a third value, two yeses, one answer alone, a number column) is no yes/no column.
  test::TempDir dir;
  auto index = IndexOf(dir,
                       "CREATE TABLE t (id INTEGER PRIMARY KEY, approved TEXT, male TEXT, mixed TEXT, lone TEXT, "
                       "twice TEXT, n INTEGER);"
                       "INSERT INTO t VALUES (1, 'Yes', 'T', 'Y', 'No', 'yes', 1), (2, 'No', 'F', 'N', 'No', 'Y', 0),"
                       "(3, 'Yes', 'F', 'maybe', 'No', 'yes', 1);");
  ASSERT_TRUE(index.ok()) << index.error().message;
  EXPECT_EQ(index->YesValue("t", "approved"), std::optional<std::string>("Yes"));
  EXPECT_EQ(index->YesValue("T", "MALE"), std::optional<std::string>("T"));
  EXPECT_FALSE(index->YesValue("t", "mixed"));
  EXPECT_FALSE(index->YesValue("t", "lone"));
  EXPECT_FALSE(index->YesValue("t", "twice"));
  EXPECT_FALSE(index->YesValue("t", "n"));
  // Renamed with the schema's other names.
  auto renamed = index->Renamed([](const std::string& table, const std::string& column) {
    return std::optional<std::pair<std::string, std::string>>({table + "_r", column + "_r"});
  });
  EXPECT_EQ(renamed.YesValue("t_r", "approved_r"), std::optional<std::string>("Yes"));
}

TEST(ValueIndex, PluralsOfStoredSingulars) {
  // A plural in lower case names a value stored in the singular only when asked, after a determiner or a number, as
  // the regular plural; such matches are marked. A capitalized one always does, unmarked.
  test::TempDir dir;
  auto index =
      IndexOf(dir,
              "CREATE TABLE faculty (id INTEGER PRIMARY KEY, rank TEXT, building TEXT);"
              "INSERT INTO faculty VALUES (1, 'Professor', 'Belong'), (2, 'Instructor', 'NEB'), (3, 'Nam', 'x');");
  ASSERT_TRUE(index.ok()) << index.error().message;
  Stemmer st;
  auto values = [&](const std::string& q, bool plain) {
    std::vector<std::string> out;
    for (const auto& m : index->Match(Tokenize(q, st), plain)) out.push_back(m.value + (m.plural ? "+" : ""));
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(values("How many professors are there?", true), V{"Professor+"});
  EXPECT_EQ(values("Which professors are there?", true), V{});  // no determiner before it
  EXPECT_EQ(values("List all the professors", true), V{"Professor+"});
  EXPECT_EQ(values("buildings with 10 instructors", true), V{"Instructor+"});
  EXPECT_EQ(values("buildings with ten instructors", true), V{"Instructor+"});  // a cardinal in words
  EXPECT_EQ(values("List all the professors", false), V{});
  EXPECT_EQ(values("the names of the instructors", true), V{"Instructor+"});  // "names" is not "nam"'s plural
  EXPECT_EQ(values("the room belongs to them", true), V{});                   // a verb
  EXPECT_EQ(values("List the Professors", false), V{"Professor"});
}

TEST(ValueIndex, ValuesWrittenWithPunctuationMatchTheirWords) {
  // The question's tokens drop the punctuation inside a value ("Ph.D.", "Comp. Sci."): its words still name it, the
  // longer match before a shorter value inside it ('D'); a quoted string by its words as well.
  test::TempDir dir;
  auto index =
      IndexOf(dir,
              "CREATE TABLE prof (id INTEGER PRIMARY KEY, degree TEXT, initial TEXT, dept TEXT, division TEXT);"
              "INSERT INTO prof VALUES (1, 'Ph.D.', 'D', 'Comp. Sci.', 'AS'), (2, 'MA', 'K', 'History', 'EN');");
  ASSERT_TRUE(index.ok()) << index.error().message;
  Stemmer st;
  auto values = [&](const std::string& q) {
    std::vector<std::string> out;
    for (const auto& m : index->Match(Tokenize(q, st))) out.push_back(m.column + "=" + m.value);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(values("How many professors have a Ph.D. ?"), V{"degree=Ph.D."});
  EXPECT_EQ(values("professors in the Comp. Sci. department"), V{"dept=Comp. Sci."});
  EXPECT_EQ(values("professors with the initial D"), V{"initial=D"});
  EXPECT_EQ(values("the degree \"Ph D\""), V{"degree=Ph.D."});  // quoted, by its words too
  EXPECT_EQ(values("the department \"Comp Science\""), V{});
  // A stop word written in capitals may be a code; in lower case it is not.
  EXPECT_EQ(values("professors in the division AS"), V{"division=AS"});
  EXPECT_EQ(values("as many professors as departments"), V{});
  auto renamed = index->Renamed([](const std::string& table, const std::string& column) {
    return std::optional<std::pair<std::string, std::string>>({table, column + "_r"});
  });
  EXPECT_EQ(renamed.Match(Tokenize("a Ph.D. degree", st)).size(), 1U);
}

}  // namespace
}  // namespace plainsql::retrieval
