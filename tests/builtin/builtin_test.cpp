// The built-in translator: intent cues, the word tables, the candidates' trees, and its question → SQL cases, read
// from tests/builtin/questions.txt (adding a case means adding lines there).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string_view>

#include "builtin/intent.h"
#include "builtin/query_tree.h"
#include "builtin/relative_dates.h"
#include "builtin/translator.h"
#include "builtin/words.h"
#include "catalog/introspect.h"
#include "common/file.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "retrieval/wordnet.h"
#include "sql/printer.h"
#include "test_util.h"

namespace plainsql::builtin {

using retrieval::Tokenize;
using retrieval::WordNet;
namespace {

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

// A date's year or month as text, in each engine's own function ("hired each year" groups by it).
TEST(QueryTree, DatePartInEachDialect) {
  auto printed = [](const sql::Dialect& d, const std::string& part) {
    auto e = builtin::tree::DatePart(d, part, builtin::tree::Column(d, "T1", "hire_date"));
    if (!e) return std::string("none");
    sql::Select s;
    s.items.push_back({std::move(*e), std::nullopt});
    return sql::Print(builtin::tree::QueryOf(std::move(s)), d);
  };
  EXPECT_EQ(printed(sql::Sqlite(), "year"), "SELECT strftime('%Y', T1.hire_date)");
  EXPECT_EQ(printed(sql::Sqlite(), "month"), "SELECT strftime('%Y-%m', T1.hire_date)");
  EXPECT_EQ(printed(sql::Postgres(), "year"), "SELECT to_char(T1.hire_date, 'YYYY')");
  EXPECT_EQ(printed(sql::Postgres(), "month"), "SELECT to_char(T1.hire_date, 'YYYY-MM')");
  EXPECT_EQ(printed(sql::MySql(), "year"), "SELECT DATE_FORMAT(T1.hire_date, '%Y')");
  EXPECT_EQ(printed(sql::TSql(), "month"), "SELECT FORMAT(T1.hire_date, 'yyyy-MM')");
  EXPECT_TRUE(builtin::tree::HasDatePart(sql::Postgres()));
}

TEST(Words, TablesAreCompiledInWithTheirEntries) {
  auto names = words::Names();
  for (const char* name :
       {"cue_words", "order_words", "quantities", "units", "frequency_words", "pattern_contains", "pattern_starts",
        "pattern_ends", "pattern_nouns", "filter_only_words", "everything_words", "number_words", "superlatives",
        "limit_superlatives", "comparisons", "comparisons_after", "comparison_adjectives"}) {
    EXPECT_TRUE(names.count(name)) << name;
    EXPECT_FALSE(words::List(name).empty()) << name;
  }
  // Comment headers are not entries; pairs keep their value.
  EXPECT_TRUE(words::List("cue_words").count("how"));
  for (const auto& name : names) {
    for (const auto& w : words::List(name)) EXPECT_NE(w.front(), '#') << name;
  }
  EXPECT_EQ(words::Pairs("quantities").at("older"), "age");
  EXPECT_EQ(words::Pairs("quantities").at("oldest"), "age/-date/-year");
  EXPECT_EQ(words::Pairs("units").at("lbs"), "weight");
  EXPECT_EQ(words::Pairs("number_words").at("twelve"), "12");
  EXPECT_EQ(words::Pairs("superlatives").at("newest"), "desc");
  EXPECT_EQ(words::Pairs("comparisons").at("since"), ">=");
}

// A database to translate against, with the indexes the translator reads.
struct Fixture {
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
  std::unique_ptr<SchemaIndex> index;
  std::unique_ptr<ValueIndex> values;
  std::unique_ptr<Translator> translator;
};

// The shared parts every fixture's schema index uses: the abbreviation expander and WordNet.
struct Shared {
  std::unique_ptr<naturalness::Classifier> classifier;  // the expander reads its words
  std::unique_ptr<naturalness::Expander> expander;
  std::shared_ptr<const WordNet> wordnet;
  Stemmer stemmer;
};

Shared& Parts() {
  static Shared* parts = [] {
    auto* p = new Shared;
    auto classifier = naturalness::Classifier::Load(DataDir());
    auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
    auto wordnet = WordNet::Open();
    if (!classifier.ok() || !abbreviations.ok() || !wordnet.ok()) {
      ADD_FAILURE() << "cannot load the naturalness data or WordNet";
      return p;
    }
    p->classifier = std::make_unique<naturalness::Classifier>(std::move(*classifier));
    p->expander = std::make_unique<naturalness::Expander>(p->classifier->Words(), std::move(*abbreviations));
    p->wordnet = std::move(*wordnet);
    return p;
  }();
  return *parts;
}

std::unique_ptr<Fixture> OpenFixture(const std::string& path) {
  auto f = std::make_unique<Fixture>();
  auto conn = exec::Connect(path);
  if (!conn.ok()) {
    ADD_FAILURE() << conn.error().message;
    return nullptr;
  }
  f->conn = std::move(*conn);
  auto schema = catalog::Introspect(*f->conn, {});
  if (!schema.ok()) {
    ADD_FAILURE() << schema.error().message;
    return nullptr;
  }
  f->schema = std::move(*schema);
  auto values = ValueIndex::Build(*f->conn, f->schema);
  if (!values.ok()) {
    ADD_FAILURE() << values.error().message;
    return nullptr;
  }
  // "equipment descriptions" reaches EQ_DESC through its expansion; WordNet relates the words of names and expansions.
  f->index = std::make_unique<SchemaIndex>(f->schema, Parts().stemmer, Parts().expander.get(), Parts().wordnet.get());
  f->values = std::make_unique<ValueIndex>(std::move(*values));
  f->translator = std::make_unique<Translator>(f->schema, *f->index, f->values.get());
  return f;
}

// A database made of `ddl` in `dir`, opened as a fixture.
std::unique_ptr<Fixture> FixtureOf(const test::TempDir& dir, const std::string& name, const std::string& ddl) {
  const std::string path = dir.File(name);
  test::MakeSqliteDb(path, ddl);
  return OpenFixture(path);
}

// `question`'s readings on the fixture, run and ranked by the shipped scorer (best first).
Translation Ranked(Fixture& f, const std::string& question) {
  Translation t = f.translator->Translate(question, f.conn->dialect(), Parts().stemmer);
  RunCandidates(t.candidates, *f.conn, {}, kRankedCandidates);
  RankCandidates(t.candidates, ReadingScorer::Builtin(), kRankedCandidates);
  return t;
}

// Checks that a reading feature is 1 for the candidates `marked` picks (by their SQL) and 0 for the others; returns
// how many were marked.
size_t ExpectMarked(const Translation& t, std::string_view feature,
                    const std::function<bool(const std::string&)>& marked) {
  const size_t index = ReadingFeatureIndex(feature);
  size_t n = 0;
  for (const auto& c : t.candidates) {
    const bool m = marked(c.sql);
    EXPECT_EQ(c.features[index], m ? 1.0 : 0.0) << feature << ": " << c.sql;
    n += m ? 1 : 0;
  }
  return n;
}

// One case of questions.txt.
struct Case {
  int line = 0;
  std::string schema, question;
  std::vector<std::string> answers;  // A:, A2:, ... (empty strings where a rank is not given)
  std::optional<size_t> count;       // count:
  std::optional<std::string> none;   // none:
  std::optional<Day> today;          // today: (the last one before the case), the day relative dates count from
};

// Reads questions.txt: the fixtures' statements by name, and the cases.
std::vector<Case> ReadCases(const std::string& path, std::map<std::string, std::string>& ddl) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<Case> cases;
  std::string line, schema;
  std::optional<Day> today;
  std::set<std::string> named;  // a second `schema:` of a name returns to that fixture; it may not add statements
  bool reopened = false;
  for (int n = 1; std::getline(in, line); ++n) {
    std::string_view l = Trim(line);
    if (l.empty() || l.front() == '#') continue;
    size_t colon = l.find(':');
    EXPECT_NE(colon, std::string_view::npos) << path << ":" << n << ": no 'key:'";
    if (colon == std::string_view::npos) continue;
    std::string key(l.substr(0, colon));
    std::string value(Trim(l.substr(colon + 1)));
    if (key == "schema") {
      reopened = !named.insert(value).second;
      schema = value;
    } else if (key == "ddl") {
      EXPECT_FALSE(reopened) << path << ":" << n << ": a statement for fixture '" << schema
                             << "', defined earlier (a new fixture needs a name of its own)";
      ddl[schema] += value + "\n";
    } else if (key == "today") {
      today = ParseDay(value);
      EXPECT_TRUE(today) << path << ":" << n << ": not a day: " << value;
    } else if (key == "Q") {
      cases.push_back({n, schema, value, {}, std::nullopt, std::nullopt, today});
    } else if (!cases.empty() && (key == "A" || (key.size() > 1 && key[0] == 'A'))) {
      size_t rank = key == "A" ? 0 : static_cast<size_t>(std::stoul(key.substr(1))) - 1;
      if (cases.back().answers.size() <= rank) cases.back().answers.resize(rank + 1);
      cases.back().answers[rank] = value;
    } else if (!cases.empty() && key == "count") {
      cases.back().count = static_cast<size_t>(std::stoul(value));
    } else if (!cases.empty() && key == "none") {
      cases.back().none = value;
    } else {
      ADD_FAILURE() << path << ":" << n << ": unknown line '" << line << "'";
    }
  }
  return cases;
}

void Check(const Case& c, const Translation& t) {
  SCOPED_TRACE(testing::Message() << "questions.txt:" << c.line << ": " << c.question);
  if (c.none) {
    EXPECT_TRUE(t.candidates.empty()) << t.candidates.front().sql;
    EXPECT_NE(t.reason.find(*c.none), std::string::npos) << t.reason;
  }
  if (c.count) {
    EXPECT_EQ(t.candidates.size(), *c.count);
  }
  for (size_t i = 0; i < c.answers.size(); ++i) {
    if (c.answers[i].empty()) continue;
    ASSERT_GT(t.candidates.size(), i) << "no candidate " << i + 1 << "; reason: " << t.reason;
    EXPECT_EQ(t.candidates[i].sql, c.answers[i]) << "candidate " << i + 1;
  }
}

// Every case of data/relative_dates.tsv: dates relative to the day of asking read as the dates they are, each with a
// note; phrases that are a schema's name, or the latest of something, stay as written.
TEST(RelativeDates, CasesFile) {
  Stemmer& st = Parts().stemmer;
  const auto rows = test::CaseRows("builtin", "relative_dates.tsv", 4);
  for (const auto& f : rows) {
    const std::optional<Day> today = ParseDay(f[0]);
    ASSERT_TRUE(today) << f[0];
    std::vector<Token> tokens = Tokenize(f[1], st);
    auto names = [&](size_t begin, size_t end) {
      std::string words;
      for (size_t k = begin; k < end; ++k) words += (k > begin ? " " : "") + tokens[k].lower;
      return words == f[3];
    };
    const std::vector<std::string> notes = ReadRelativeDates(tokens, *today, names);
    std::string got;
    for (const auto& t : tokens) {
      got += (got.empty() ? "" : "|") + std::string(t.kind == TokenKind::kNumber ? "#" : "") + t.lower;
      EXPECT_LT(t.offset, f[1].size()) << f[1];
    }
    EXPECT_EQ(got, f[2]) << f[1];
    const bool rewritten = got != [&] {
      std::string plain;
      for (const auto& t : Tokenize(f[1], st)) {
        plain += (plain.empty() ? "" : "|") + std::string(t.kind == TokenKind::kNumber ? "#" : "") + t.lower;
      }
      return plain;
    }();
    EXPECT_EQ(notes.size(), rewritten ? 1u : 0u) << f[1];
    if (rewritten && !notes.empty()) {
      EXPECT_NE(notes.front().find(f[0]), std::string::npos) << notes.front();
    }
  }
  EXPECT_GE(rows.size(), 20u);
  // The day comes from the environment when set there, and a malformed one is an error naming the variable.
  ASSERT_EQ(setenv(kTodayVariable, "2024-02-29", 1), 0);
  auto set = Today();
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(IsoOf(*set), "2024-02-29");
  ASSERT_EQ(setenv(kTodayVariable, "2023-02-29", 1), 0);
  EXPECT_FALSE(Today().ok());
  EXPECT_NE(CheckTodayEnvironment().error().message.find(kTodayVariable), std::string::npos);
  ASSERT_EQ(unsetenv(kTodayVariable), 0);
  EXPECT_TRUE(CheckTodayEnvironment().ok());
}

TEST(Translator, QuestionsFile) {
  std::map<std::string, std::string> ddl;
  auto cases = ReadCases(std::string(PLAINSQL_SOURCE_DIR) + "/tests/builtin/questions.txt", ddl);
  EXPECT_GE(cases.size(), 100u);
  test::TempDir dir;
  std::map<std::string, std::unique_ptr<Fixture>> fixtures;
  for (const auto& c : cases) {
    auto& f = fixtures[c.schema];
    if (!f) {
      std::string path = test::SampleDb();
      if (c.schema != "plant") {
        ASSERT_TRUE(ddl.count(c.schema)) << "no ddl: lines for schema " << c.schema;
        path = dir.File(c.schema + ".db");
        test::MakeSqliteDb(path, ddl[c.schema]);
      }
      f = OpenFixture(path);
      ASSERT_TRUE(f);
    }
    // (without a `today:` line, a day no case's relative dates depend on)
    f->translator->UseToday(c.today.value_or(Day{2000, 1, 1}));
    Check(c, f->translator->Translate(c.question, f->conn->dialect(), Parts().stemmer));
  }
}

TEST(Translator, ScoresUnlinkedWordsAndTrees) {
  auto f = OpenFixture(test::SampleDb());
  ASSERT_TRUE(f);
  Stemmer& st = Parts().stemmer;
  const sql::Dialect& d = f->conn->dialect();
  // Honesty: nothing linked, no query, and the words nothing accounts for.
  auto none = f->translator->Translate("What is the meaning of life?", d, st);
  EXPECT_TRUE(none.candidates.empty());
  EXPECT_EQ(none.unlinked, (std::vector<std::string>{"meaning", "life"}));
  // Later readings rank lower: the other reading of a same-column pair, a value another column holds.
  auto both = f->translator->Translate("Which countries have both plants in Toledo and Rotterdam?", d, st);
  ASSERT_EQ(both.candidates.size(), 2u);
  EXPECT_LT(both.candidates[1].score, both.candidates[0].score);
  auto pump = f->translator->Translate("How many pieces of equipment have type PUMP?", d, st);
  ASSERT_GE(pump.candidates.size(), 2u);
  EXPECT_LT(pump.candidates[1].score, pump.candidates[0].score);
  // Every word accounted for: score 1. Each candidate carries the tree its SQL was printed from.
  auto t = f->translator->Translate("How many plants are there?", d, st);
  ASSERT_EQ(t.candidates.size(), 1u);
  EXPECT_DOUBLE_EQ(t.candidates[0].score, 1.0);
  for (const auto* tr : {&t, &both, &pump}) {
    for (const auto& c : tr->candidates) {
      ASSERT_TRUE(c.query);
      EXPECT_EQ(sql::Print(*c.query, d), c.sql);
    }
  }
  // Literals come from the dialect: a yes/no column in PostgreSQL is compared with TRUE.
  auto pg = f->translator->Translate("How many certified technicians are there?", sql::Postgres(), st);
  ASSERT_FALSE(pg.candidates.empty());
  EXPECT_EQ(pg.candidates[0].sql, "SELECT count(*) FROM technician WHERE is_certified = TRUE");
  // A month of every year in the dialect's own function.
  auto march = f->translator->Translate("Which technicians were hired in March?", sql::Postgres(), st);
  ASSERT_FALSE(march.candidates.empty());
  EXPECT_EQ(march.candidates[0].sql, "SELECT first_name FROM technician WHERE to_char(hire_date, 'MM') = '03'");
  // A pattern matches regardless of case there too, as the value index and SQLite's LIKE do; LIKE's wildcards in the
  // question's text are escaped.
  auto like = f->translator->Translate("Which plants have a name containing the word 'works_2'?", sql::Postgres(), st);
  ASSERT_FALSE(like.candidates.empty());
  EXPECT_EQ(like.candidates[0].sql, "SELECT plant_name FROM plant WHERE plant_name ILIKE '%works\\_2%' ESCAPE '\\'");
}

// A reading that drops a table it cannot join to its subject leaves the words that named that table, and its
// conditions, unaccounted for: the view open_orders (no foreign keys) read for "equipment" loses TB_EQUIP's flag
// (0.8 of the words counted before; a negated question, so that the view is not read through its base tables).
TEST(Translator, ADroppedTablesWordsAreNotCovered) {
  auto f = OpenFixture(test::SampleDb());
  ASSERT_TRUE(f);
  auto t =
      f->translator->Translate("How many pieces of equipment are not critical?", f->conn->dialect(), Parts().stemmer);
  size_t dropping = 0;
  for (const auto& c : t.candidates) {
    const bool dropped = std::any_of(c.notes.begin(), c.notes.end(),
                                     [](const std::string& n) { return n.rfind("dropped TB_EQUIP", 0) == 0; });
    if (!dropped) continue;
    ++dropping;
    EXPECT_LE(c.score, 0.6) << c.sql;
  }
  EXPECT_GE(dropping, 1u);
}

TEST(Translator, OtherSelectListsAndTheScorersFeatures) {
  auto f = OpenFixture(test::SampleDb());
  ASSERT_TRUE(f);
  Stemmer& st = Parts().stemmer;
  const sql::Dialect& d = f->conn->dialect();
  // Two columns listed: the reading shows both, another reading only the first; the features count what is listed.
  auto t = f->translator->Translate("Show the names and cities of all plants.", d, st);
  ASSERT_GE(t.candidates.size(), 2u);
  EXPECT_EQ(t.candidates[0].sql, "SELECT plant_name, city FROM plant");
  const auto first_only = std::find_if(t.candidates.begin(), t.candidates.end(), [](const TranslatorCandidate& c) {
    return c.features[ReadingFeatureIndex("first_only")] == 1;
  });
  ASSERT_NE(first_only, t.candidates.end());
  EXPECT_EQ(first_only->sql, "SELECT plant_name FROM plant");
  EXPECT_EQ(t.candidates[0].features[ReadingFeatureIndex("listed")], 2);
  EXPECT_EQ(t.candidates[0].features[ReadingFeatureIndex("outputs_under")], 0);
  EXPECT_EQ(first_only->features[ReadingFeatureIndex("outputs_under")], 1);
  // A column a condition uses is shown too, after the others, in another reading ("with_used"; "opened" with a year
  // names opened_year, not the yes/no column IS_OPEN of the sample database).
  auto used = f->translator->Translate("Which plants opened after 1990?", d, st);
  const auto with_used = std::find_if(used.candidates.begin(), used.candidates.end(), [](const TranslatorCandidate& c) {
    return c.features[ReadingFeatureIndex("with_used")] == 1;
  });
  ASSERT_NE(with_used, used.candidates.end());
  EXPECT_EQ(with_used->sql, "SELECT plant_name, opened_year FROM plant WHERE opened_year > 1990");
  EXPECT_EQ(with_used->features[ReadingFeatureIndex("shown_used")], 1);
  // Run and ranked: result features set, every probability in (0, 1), best first by the ranking model (its own
  // linear model: P(right) of a later reading may be higher), the question's plain reading first.
  RunCandidates(used.candidates, *f->conn, {}, 8);
  RankCandidates(used.candidates, ReadingScorer::Builtin(), 8);
  ASSERT_FALSE(used.candidates.empty());
  EXPECT_EQ(used.candidates[0].sql, "SELECT plant_name FROM plant WHERE opened_year > 1990");
  for (size_t i = 0; i < used.candidates.size(); ++i) {
    EXPECT_GT(used.candidates[i].probability, 0);
    EXPECT_LT(used.candidates[i].probability, 1);
    EXPECT_EQ(used.candidates[i].features[ReadingFeatureIndex("fails")], 0);
    if (i > 0) {
      EXPECT_GE(ReadingScorer::Builtin().RankScore(used.candidates[i - 1].features),
                ReadingScorer::Builtin().RankScore(used.candidates[i].features));
    }
  }
}

// "How many departments offer courses?": the join to the courses repeats a department per course; the reading that
// counts each department once is built beside the count of rows, and the shipped scorer puts it first.
TEST(Translator, CountsEachSubjectOnce) {
  test::TempDir dir;
  auto f = FixtureOf(
      dir, "courses.db",
      "CREATE TABLE department (dept_name TEXT PRIMARY KEY, building TEXT);"
      "INSERT INTO department VALUES ('Biology', 'Watson'), ('Physics', 'Taylor'), ('History', 'Painter');"
      "CREATE TABLE course (course_id INTEGER PRIMARY KEY, title TEXT,"
      " dept_name TEXT REFERENCES department (dept_name));"
      "INSERT INTO course VALUES (1, 'Genetics', 'Biology'), (2, 'Cells', 'Biology'), (3, 'Optics', 'Physics');");
  ASSERT_TRUE(f);
  auto t = Ranked(*f, "How many departments offer courses?");
  const auto once = std::find_if(t.candidates.begin(), t.candidates.end(), [](const TranslatorCandidate& c) {
    return c.features[ReadingFeatureIndex("counted_once")] == 1;
  });
  ASSERT_NE(once, t.candidates.end());
  EXPECT_NE(once->sql.find("count(DISTINCT T1.dept_name)"), std::string::npos) << once->sql;
  EXPECT_EQ(t.candidates.front().features[ReadingFeatureIndex("counted_once")], 1) << t.candidates.front().sql;
  auto rs = f->conn->Query(t.candidates.front().sql, {});
  ASSERT_TRUE(rs);
  ASSERT_EQ(rs->rows.size(), 1u);
  EXPECT_EQ(rs->rows[0][0].ToString(), "2");
}

// Reviewers rate movies; Sarah Martinez rated Titanic twice.
constexpr const char* kFilmsDdl =
    "CREATE TABLE reviewer (rid INTEGER PRIMARY KEY, name TEXT);"
    "INSERT INTO reviewer VALUES (1, 'Sarah Martinez'), (2, 'Daniel Lewis'), (3, 'Chris Jackson');"
    "CREATE TABLE movie (mid INTEGER PRIMARY KEY, title TEXT, year INTEGER, director TEXT);"
    "INSERT INTO movie VALUES (10, 'Titanic', 1997, 'James Cameron'), (11, 'Avatar', 2009, 'James Cameron');"
    "CREATE TABLE rating (rid INTEGER REFERENCES reviewer (rid), mid INTEGER REFERENCES movie (mid), stars INTEGER);"
    "INSERT INTO rating VALUES (1, 10, 4), (1, 10, 5), (2, 10, 3), (3, 11, 2);";

TEST(Translator, ListsEachReferredRowOnce) {
  test::TempDir dir;
  auto f = FixtureOf(dir, "films.db", kFilmsDdl);
  ASSERT_TRUE(f);
  const auto listed_once = [](const TranslatorCandidate& c) {
    return c.features[ReadingFeatureIndex("listed_once")] == 1;
  };
  auto t = f->translator->Translate("Find the names of all reviewers who rated Titanic.", f->conn->dialect(),
                                    Parts().stemmer);
  const auto once = std::find_if(t.candidates.begin(), t.candidates.end(), listed_once);
  ASSERT_NE(once, t.candidates.end());
  EXPECT_NE(once->sql.find("SELECT DISTINCT"), std::string::npos) << once->sql;
  auto rs = f->conn->Query(once->sql, {});
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->rows.size(), 2u);  // Sarah Martinez rated it twice
  // A list of the rows that refer (each rating's stars) repeats nothing through the join: no second reading.
  auto stars = f->translator->Translate("List the stars of ratings of Titanic.", f->conn->dialect(), Parts().stemmer);
  EXPECT_TRUE(std::none_of(stars.candidates.begin(), stars.candidates.end(), listed_once));
}

TEST(Translator, NameOfATitledTable) {
  test::TempDir dir;
  auto f = FixtureOf(dir, "films.db", kFilmsDdl);
  ASSERT_TRUE(f);
  // "name" links the movie's title too (WordNet: "name" is the more general word for "title"), though the reviewer
  // table has a name column; the scorer ranks the title first.
  auto t = Ranked(*f, "What is the name of the most recent movie?");
  ASSERT_FALSE(t.candidates.empty());
  EXPECT_EQ(t.candidates.front().sql, "SELECT title FROM movie ORDER BY year DESC LIMIT 1");
  // The scorer reads that the reviewer's name is not the name "of the most recent movie".
  ExpectMarked(t, "shown_of_other", [](const std::string& sql) { return sql.find("T3.name") != std::string::npos; });
}

TEST(Translator, APluralNamesAStoredSingular) {
  test::TempDir dir;
  auto f =
      FixtureOf(dir, "faculty.db",
                "CREATE TABLE faculty (fac_id INTEGER PRIMARY KEY, fname TEXT, lname TEXT, rank TEXT, building TEXT);"
                "INSERT INTO faculty VALUES (1, 'Ann', 'Lee', 'Professor', 'NEB'), (2, 'Bo', 'Ng', 'Instructor', "
                "'Barton');");
  ASSERT_TRUE(f);
  // "professors" is only related to the faculty table (WordNet), and 'Professor' is a rank: the scorer ranks the
  // reading that reads the stored value first.
  auto t = Ranked(*f, "How many professors are there?");
  ASSERT_FALSE(t.candidates.empty());
  EXPECT_EQ(t.candidates.front().sql, "SELECT count(*) FROM faculty WHERE \"rank\" = 'Professor'");
}

TEST(Translator, AForeignKeyNamedByPartOfItsName) {
  test::TempDir dir;
  auto f = FixtureOf(dir, "courses.db",
                     "CREATE TABLE department (dept_name TEXT PRIMARY KEY, building TEXT);"
                     "CREATE TABLE course (course_id TEXT PRIMARY KEY, title TEXT,"
                     " dept_name TEXT REFERENCES department (dept_name));"
                     "INSERT INTO department VALUES ('Math', 'A'), ('History', 'B');"
                     "INSERT INTO course VALUES ('C1', 'Algebra', 'Math'), ('C2', 'Rome', 'History');");
  ASSERT_TRUE(f);
  // "names" is the head word of dept_name, a foreign key (the department's name), and the more general word for title:
  // the scorer reads which reading shows the foreign key (what it then prefers depends on the rest of the reading).
  auto t = Ranked(*f, "List the names of all courses.");
  const size_t part = ReadingFeatureIndex("shown_foreign_part");
  bool seen_foreign = false, seen_title = false;
  for (const auto& c : t.candidates) {
    const bool foreign = c.sql.find("dept_name") != std::string::npos;
    EXPECT_EQ(c.features[part], foreign ? 1.0 : 0.0) << c.sql;
    seen_foreign |= foreign;
    seen_title |= c.sql.find("title") != std::string::npos;
  }
  EXPECT_TRUE(seen_foreign && seen_title);
}

TEST(Translator, TheNounACountCountsIsNotShown) {
  test::TempDir dir;
  auto f = FixtureOf(dir, "lines.db",
                     "CREATE TABLE tramline (tramline_id INTEGER PRIMARY KEY, tramline TEXT, maker TEXT, depot TEXT);"
                     "INSERT INTO tramline VALUES (1, 'Red', 'Acme', 'North'), (2, 'Blue', 'Acme', 'South'),"
                     " (3, 'Green', 'Volta', 'North');");
  ASSERT_TRUE(f);
  // "the number of tramlines" counts the table's rows: a reading that also shows the tramline column beside the
  // count says so in shown_counted, and the scorer ranks the count alone first.
  auto t = Ranked(*f, "Show the different makers of tramlines, along with the number of tramlines from each maker.");
  ASSERT_FALSE(t.candidates.empty());
  EXPECT_EQ(t.candidates.front().sql, "SELECT maker, count(*) FROM tramline GROUP BY maker");
  EXPECT_GT(ExpectMarked(t, "shown_counted",
                         [](const std::string& sql) {
                           return sql.find("tramline,") != std::string::npos ||
                                  sql.find("tramline FROM") != std::string::npos;
                         }),
            0u);
}

TEST(Translator, AnAggregateOfAComparedColumnIsMarked) {
  test::TempDir dir;
  auto f = FixtureOf(dir, "climbers.db",
                     "CREATE TABLE climber (climber_id INTEGER PRIMARY KEY, name TEXT, height REAL, points REAL);"
                     "INSERT INTO climber VALUES (1, 'Ada', 181, 10), (2, 'Bo', 175, 12), (3, 'Cy', 190, 7);");
  ASSERT_TRUE(f);
  // The probability reads whether the aggregate's column is one a condition compares (right less often than not).
  auto t = Ranked(*f, "What is the average height of climbers with height over 180?");
  ASSERT_FALSE(t.candidates.empty());
  EXPECT_GT(ExpectMarked(t, "aggregate_filtered",
                         [](const std::string& sql) {
                           return sql.find("avg(height)") != std::string::npos &&
                                  sql.find("height >") != std::string::npos;
                         }),
            0u);
}

}  // namespace
}  // namespace plainsql::builtin
