// The built-in translator's parts: tokens and stems, schema linking.
#include <gtest/gtest.h>

#include <algorithm>

#include "builtin/intent.h"
#include "builtin/translator.h"
#include "catalog/introspect.h"
#include "common/file.h"
#include "exec/connection.h"
#include "linking/joins.h"
#include "linking/linker.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "retrieval/wordnet.h"
#include "test_util.h"

namespace plainsql::builtin {

using linking::ConnectTables;
using linking::Link;
using retrieval::IsStopWord;
using retrieval::RelatedWord;
using retrieval::Relation;
using retrieval::Tokenize;
using retrieval::ValueIndexOptions;
using retrieval::WordNet;
namespace {

catalog::Schema Concerts() {
  catalog::Schema s;
  auto table = [&](std::string name, std::vector<std::string> columns) {
    catalog::Table t;
    t.name = std::move(name);
    for (auto& c : columns) {
      catalog::Column col;
      col.name = c;
      col.type = "text";
      t.columns.push_back(std::move(col));
    }
    s.tables.push_back(std::move(t));
  };
  table("singer", {"Singer_ID", "Name", "Country", "Song_Name", "Age"});
  table("concert", {"concert_ID", "concert_Name", "Theme", "Year"});
  table("TB_MO", {"MO_ID", "MO_ST"});
  return s;
}

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
}

TEST(Linker, WholeAndPartialMatchesRankedBestFirst) {
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("Show the song names and ages of all singers", st);
  auto links = Link(index, tokens);
  ASSERT_FALSE(links.empty());
  auto name_of = [&](const LinkMatch& m) {
    const auto& e = index.Elements()[m.element];
    return e.column.empty() ? e.table : e.table + "." + e.column;
  };
  // The best match is the two-word column; the table and "Age" match whole words.
  EXPECT_EQ(name_of(links[0]), "singer.Song_Name");
  EXPECT_TRUE(links[0].whole);
  EXPECT_EQ(links[0].end - links[0].begin, 2u);
  std::vector<std::string> whole;
  for (const auto& m : links) {
    if (m.whole) whole.push_back(name_of(m));
  }
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer"), whole.end());
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer.Age"), whole.end());
  // "names" alone is also the head of concert_Name and the whole of singer.Name.
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer.Name"), whole.end());
  bool partial_concert_name = false;
  for (const auto& m : links) partial_concert_name |= !m.whole && name_of(m) == "concert.concert_Name";
  EXPECT_TRUE(partial_concert_name);
  EXPECT_TRUE(Link(index, Tokenize("Nothing relevant here", st)).empty());
}

TEST(Linker, ExpansionsOfCrypticNamesAreIndexed) {
  auto classifier = naturalness::Classifier::Load(DataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  naturalness::Expander expander(classifier->Words(), std::move(*abbreviations));
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st, &expander);
  auto links = Link(index, Tokenize("How many statuses are there?", st));
  bool status = false;
  for (const auto& m : links) status |= index.Elements()[m.element].column == "MO_ST";
  EXPECT_TRUE(status) << "MO_ST should be found through its expansion";
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
  EXPECT_FALSE(has(singer, "singer", Relation::kSynonym));  // not itself
  // A plural is read as its singular; multi-word lemmas are left out.
  auto countries = (*wn)->Related("countries");
  EXPECT_TRUE(has(countries, "nation", Relation::kSynonym));
  for (const auto& r : countries) EXPECT_EQ(r.word.find('_'), std::string::npos) << r.word;
  EXPECT_TRUE((*wn)->Knows("stadium"));
  EXPECT_FALSE((*wn)->Knows("zzqx"));
  EXPECT_TRUE((*wn)->Related("zzqx").empty());
  auto missing = WordNet::Open("/nonexistent/wordnet");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("wordnet-base"), std::string::npos);
}

TEST(Linker, SynonymsAndHypernymsThroughWordNet) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex plain(schema, st);
  SchemaIndex related(schema, st, nullptr, wn->get());
  auto tokens = Tokenize("How many vocalists do we have?", st);
  EXPECT_TRUE(Link(plain, tokens).empty());
  auto links = Link(related, tokens);
  ASSERT_FALSE(links.empty());
  EXPECT_EQ(related.Elements()[links[0].element].table, "singer");
  EXPECT_TRUE(links[0].related);
  EXPECT_LT(links[0].score, 1.0);  // below a match as written
  // A word the schema has is never replaced by a synonym.
  EXPECT_TRUE(related.AlternativesFor(st.Stem("singer")).empty());
  EXPECT_FALSE(related.AlternativesFor(st.Stem("musicians")).empty());
  // Two words in the other order.
  catalog::Schema claims;
  claims.tables.push_back({});
  claims.tables[0].name = "claims";
  claims.tables[0].columns.push_back({});
  claims.tables[0].columns[0].name = "amount_claimed";
  SchemaIndex ci(claims, st);
  auto swapped = Link(ci, Tokenize("the largest claim amount", st));
  ASSERT_FALSE(swapped.empty());
  EXPECT_EQ(ci.Elements()[swapped[0].element].column, "amount_claimed");
  EXPECT_TRUE(swapped[0].whole);
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
  // A budget already spent skips every column instead of failing.
  ValueIndexOptions none;
  none.budget = std::chrono::milliseconds(0);
  auto skipped = ValueIndex::Build(**conn, *schema, none);
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(skipped->Values(), 0u);
  EXPECT_GT(skipped->ColumnsSkipped(), 0u);
}

TEST(Joins, ShortestForeignKeyPathsWithIntermediateTables) {
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema.ok());
  auto t = ConnectTables(*schema, {"tb_mo", "PLANT"});
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->Tables(), (std::vector<std::string>{"TB_MO", "TB_EQUIP", "plant"}));
  ASSERT_EQ(t->edges.size(), 2u);
  EXPECT_EQ(t->edges[0].left_columns, (std::vector<std::string>{"EQ_ID"}));
  EXPECT_EQ(t->edges[0].right_columns, (std::vector<std::string>{"EQ_ID"}));
  EXPECT_EQ(t->edges[1].left_columns, (std::vector<std::string>{"PLNT_ID"}));
  EXPECT_EQ(t->edges[1].right_columns, (std::vector<std::string>{"plant_id"}));
  // Three tables: the status codes join the order directly.
  auto three = ConnectTables(*schema, {"plant", "TB_MO", "MO_ST_CD"});
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->Tables().size(), 4u);
  EXPECT_EQ(three->Tables().back(), "MO_ST_CD");
  auto one = ConnectTables(*schema, {"plant", "plant"});
  ASSERT_TRUE(one.has_value());
  EXPECT_TRUE(one->edges.empty());
  EXPECT_FALSE(ConnectTables(*schema, {"plant", "open_orders"}).has_value());  // a view: no foreign keys
  EXPECT_FALSE(ConnectTables(*schema, {"plant", "nope"}).has_value());
  EXPECT_FALSE(ConnectTables(*schema, {}).has_value());
}

TEST(Intent, CuesForAggregatesGroupingOrderComparisonsAndNegation) {
  Stemmer st;
  auto in = [&](const std::string& q) { return ReadIntent(Tokenize(q, st)); };
  auto count = in("How many singers do we have?");
  ASSERT_EQ(count.aggregates.size(), 1u);
  EXPECT_EQ(count.aggregates[0].kind, Aggregate::kCount);
  EXPECT_EQ(in("What is the number of cars?").aggregates[0].kind, Aggregate::kCount);
  EXPECT_EQ(in("What is the average age of all singers?").aggregates[0].kind, Aggregate::kAvg);
  EXPECT_EQ(in("Show the total sales").aggregates[0].kind, Aggregate::kSum);
  EXPECT_EQ(in("What is the maximum capacity?").aggregates[0].kind, Aggregate::kMax);

  auto group = in("Show the number of singers for each country.");
  ASSERT_EQ(group.group_by.size(), 1u);
  EXPECT_EQ(Tokenize("Show the number of singers for each country.", st)[group.group_by[0]].lower, "country");
  EXPECT_EQ(in("How many orders per plant?").group_by.size(), 1u);

  auto order = in("List the names sorted by age in descending order, top 3");
  EXPECT_EQ(order.order_descending, std::optional<bool>(true));
  ASSERT_TRUE(order.order_token.has_value());
  EXPECT_EQ(order.limit, std::optional<int64_t>(3));
  EXPECT_EQ(in("the first five names in alphabetical order").limit, std::optional<int64_t>(5));
  EXPECT_EQ(in("the first five names in alphabetical order").order_descending, std::optional<bool>(false));

  auto sup = in("What is the name of the oldest singer?");
  ASSERT_EQ(sup.superlatives.size(), 1u);
  EXPECT_TRUE(sup.superlatives[0].descending);
  EXPECT_FALSE(in("Who is the youngest?").superlatives[0].descending);
  EXPECT_TRUE(in("Which stadium has at least 3 concerts?").superlatives.empty());

  auto cmp = in("Singers older than 30 with at least 2 songs, released before 2010");
  ASSERT_EQ(cmp.comparisons.size(), 3u);
  EXPECT_EQ(cmp.comparisons[0].op, ">");
  EXPECT_EQ(cmp.comparisons[0].value, "30");
  EXPECT_EQ(cmp.comparisons[0].adjective, "older");
  EXPECT_EQ(cmp.comparisons[1].op, ">=");
  EXPECT_EQ(cmp.comparisons[2].op, "<");
  EXPECT_EQ(cmp.comparisons[2].value, "2010");
  auto between = in("capacity between 5000 and 10000");
  ASSERT_EQ(between.comparisons.size(), 1u);
  EXPECT_EQ(between.comparisons[0].op, "BETWEEN");
  EXPECT_EQ(between.comparisons[0].high, "10000");
  EXPECT_EQ(in("no more than 5 stars").comparisons[0].op, "<=");
  EXPECT_EQ(in("more than or equal to 5 stars").comparisons[0].op, ">=");

  // Number words, "N or more", "at least once", limits before a superlative, cues past function words.
  auto words = in("teams with two or more players that won more than once");
  ASSERT_EQ(words.comparisons.size(), 2u);
  EXPECT_EQ(words.comparisons[0].op, ">=");
  EXPECT_EQ(words.comparisons[0].value, "2");
  EXPECT_EQ(words.comparisons[1].op, ">");
  EXPECT_EQ(words.comparisons[1].value, "1");
  EXPECT_EQ(in("the three lowest distances").limit, std::optional<int64_t>(3));
  auto year = in("wines produced before the year of 2010");
  ASSERT_EQ(year.comparisons.size(), 1u);
  EXPECT_EQ(year.comparisons[0].op, "<");
  EXPECT_EQ(year.comparisons[0].value, "2010");
  // Comparisons with the average are not aggregates to select.
  auto avg = in("singers older than average");
  ASSERT_EQ(avg.comparisons.size(), 1u);
  EXPECT_TRUE(avg.comparisons[0].average);
  EXPECT_EQ(avg.comparisons[0].op, ">");
  EXPECT_EQ(avg.comparisons[0].adjective, "older");
  EXPECT_TRUE(avg.aggregates.empty());
  EXPECT_EQ(in("songs below the average rating").comparisons[0].op, "<");
  EXPECT_EQ(in("What is the average age?").aggregates.size(), 1u);

  EXPECT_EQ(in("Which singers did not perform in any concert?").negations.size(), 1u);
  EXPECT_EQ(in("students who haven't enrolled").negations.size(), 1u);
  EXPECT_TRUE(in("How many different countries?").distinct);
  EXPECT_TRUE(in("List all singers").aggregates.empty());
}

TEST(Translator, AnswersCommonFormsAndSaysWhenItCannot) {
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema.ok());
  auto classifier = naturalness::Classifier::Load(DataDir());
  ASSERT_TRUE(classifier.ok());
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  naturalness::Expander expander(classifier->Words(), std::move(*abbreviations));
  Stemmer st;
  auto wordnet = WordNet::Open();
  ASSERT_TRUE(wordnet.ok()) << wordnet.error().message;
  // "equipment descriptions" reaches EQ_DESC through its expansion; WordNet relates the words of names and expansions.
  SchemaIndex index(*schema, st, &expander, wordnet->get());
  auto values = ValueIndex::Build(**conn, *schema);
  ASSERT_TRUE(values.ok());
  Translator tr(*schema, index, &*values);
  auto sql = [&](const std::string& q) {
    auto t = tr.Translate(q, (*conn)->dialect(), st);
    return t.candidates.empty() ? "(none) " + t.reason : t.candidates[0].sql;
  };
  EXPECT_EQ(sql("How many plants are there?"), "SELECT count(*) FROM plant");
  EXPECT_EQ(sql("Which plants are in Toledo?"), "SELECT plant_name FROM plant WHERE city = 'Toledo'");
  EXPECT_EQ(sql("Which plant has the most technicians?"),
            "SELECT T1.plant_name FROM plant AS T1 JOIN technician AS T2 ON T1.plant_id = T2.plant_id GROUP BY "
            "T1.plant_id ORDER BY count(*) DESC LIMIT 1");
  EXPECT_EQ(sql("List the first names of technicians with an hourly rate over 40"),
            "SELECT first_name FROM technician WHERE hourly_rate > 40");
  EXPECT_EQ(sql("Show the equipment descriptions of plant \"Riverside Works\""),
            "SELECT T2.EQ_DESC FROM plant AS T1 JOIN TB_EQUIP AS T2 ON T1.plant_id = T2.PLNT_ID WHERE T1.plant_name = "
            "'Riverside Works'");
  EXPECT_EQ(sql("How many spare parts are there for each group?"),
            "SELECT \"Group\", count(*) FROM spare_part GROUP BY \"Group\"");
  EXPECT_EQ(sql("List the plant names in alphabetical order"), "SELECT plant_name FROM plant ORDER BY plant_name");
  // Honesty: nothing linked, no query.
  auto none = tr.Translate("What is the meaning of life?", (*conn)->dialect(), st);
  EXPECT_TRUE(none.candidates.empty());
  EXPECT_NE(none.reason.find("nothing in the question"), std::string::npos);
  EXPECT_EQ(none.unlinked, (std::vector<std::string>{"meaning", "life"}));
  // Counts per group, negation, the average, patterns, "or", "both".
  EXPECT_EQ(sql("Which plants have more than 2 technicians?"),
            "SELECT T1.plant_name FROM plant AS T1 JOIN technician AS T2 ON T1.plant_id = T2.plant_id GROUP BY "
            "T1.plant_id HAVING count(*) > 2");
  EXPECT_EQ(sql("Which plants have no technicians?"),
            "SELECT plant_name FROM plant WHERE plant_id NOT IN (SELECT S1.plant_id FROM technician AS S1)");
  EXPECT_EQ(sql("List the first names of technicians with an hourly rate above the average"),
            "SELECT first_name FROM technician WHERE hourly_rate > (SELECT avg(hourly_rate) FROM technician)");
  EXPECT_EQ(sql("Which plants have a name containing the word 'Works'?"),
            "SELECT plant_name FROM plant WHERE plant_name LIKE '%Works%'");
  EXPECT_EQ(sql("Which plants have a name that does not contain the word 'Works'?"),
            "SELECT plant_name FROM plant WHERE plant_name NOT LIKE '%Works%'");
  EXPECT_EQ(sql("Which plants are in Toledo or in the Netherlands?"),
            "SELECT plant_name FROM plant WHERE city = 'Toledo' OR country = 'Netherlands'");
  // Dates compare with a date column: one named, else the subject's date column a question word names part of.
  EXPECT_EQ(sql("Which technicians were hired after 2020-01-01?"),
            "SELECT first_name FROM technician WHERE hire_date > '2020-01-01'");
  EXPECT_EQ(sql("List the equipment descriptions installed before 2015-01-01"),
            "SELECT EQ_DESC FROM TB_EQUIP WHERE INSTL_DT < '2015-01-01'");
  // Yes/no columns by their quality, negated too.
  EXPECT_EQ(sql("How many certified technicians are there?"), "SELECT count(*) FROM technician WHERE is_certified = 1");
  EXPECT_EQ(sql("List the first names of technicians who are not certified"),
            "SELECT first_name FROM technician WHERE is_certified != 1");
  auto both = tr.Translate("Which countries have both plants in Toledo and Rotterdam?", (*conn)->dialect(), st);
  ASSERT_EQ(both.candidates.size(), 2u);
  EXPECT_EQ(both.candidates[0].sql,
            "SELECT country FROM plant WHERE city = 'Toledo' INTERSECT SELECT country FROM plant WHERE city = "
            "'Rotterdam'");
  EXPECT_EQ(both.candidates[1].sql, "SELECT country FROM plant WHERE city = 'Toledo' OR city = 'Rotterdam'");
  EXPECT_LT(both.candidates[1].score, both.candidates[0].score);
  // A value two columns hold: the preferred column first, the other as a later, lower reading.
  auto pump = tr.Translate("How many pieces of equipment have type PUMP?", (*conn)->dialect(), st);
  ASSERT_EQ(pump.candidates.size(), 2u);
  EXPECT_NE(pump.candidates[0].sql.find("TYP_CD = 'PUMP'"), std::string::npos);
  EXPECT_NE(pump.candidates[1].sql.find("EQ_TYP_CD = 'PUMP'"), std::string::npos);
  EXPECT_LT(pump.candidates[1].score, pump.candidates[0].score);
  // Every candidate parses: a score in [0, 1].
  auto t = tr.Translate("How many plants are there?", (*conn)->dialect(), st);
  ASSERT_EQ(t.candidates.size(), 1u);
  EXPECT_DOUBLE_EQ(t.candidates[0].score, 1.0);
}

}  // namespace
}  // namespace plainsql::builtin
