// Metrics and loaders of the evaluation harness, on small cases with known answers.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/claims_check.h"
#include "eval/metrics.h"
#include "eval/report.h"
#include "eval/runs.h"
#include "eval/score.h"
#include "eval/stats.h"
#include "eval/systems.h"
#include "naturalness/classifier.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "test_util.h"

namespace plainsql::eval {
namespace {

using exec::ResultSet;
using exec::Value;

ResultSet Rs(std::vector<std::vector<Value>> rows, size_t columns = 0) {
  ResultSet rs;
  size_t n = columns ? columns : (rows.empty() ? 1 : rows[0].size());
  for (size_t i = 0; i < n; ++i) rs.columns.push_back("c" + std::to_string(i));
  for (auto& r : rows) rs.rows.push_back(std::move(r));
  return rs;
}
Value I(int64_t v) { return Value::Integer(v); }
Value R(double v) { return Value::Real(v); }
Value T(const std::string& v) { return Value::Text(v); }

TEST(ExStrict, FollowsTheTestSuiteSemantics) {
  ResultSet gold = Rs({{I(1), T("a")}, {I(2), T("b")}});
  EXPECT_TRUE(ExStrict(gold, Rs({{I(2), T("b")}, {I(1), T("a")}}), false));               // any order without ORDER BY
  EXPECT_FALSE(ExStrict(gold, Rs({{I(2), T("b")}, {I(1), T("a")}}), true));               // in order with it
  EXPECT_TRUE(ExStrict(gold, Rs({{T("a"), I(1)}, {T("b"), I(2)}}), true));                // columns may be permuted
  EXPECT_TRUE(ExStrict(gold, Rs({{R(1.0), T("a")}, {R(2.0), T("b")}}), true));            // 1 == 1.0
  EXPECT_FALSE(ExStrict(gold, Rs({{T("1"), T("a")}, {T("2"), T("b")}}), true));           // '1' != 1
  EXPECT_FALSE(ExStrict(gold, Rs({{I(1), T("a")}}), false));                              // row count
  EXPECT_FALSE(ExStrict(gold, Rs({{I(1), T("a"), I(0)}, {I(2), T("b"), I(0)}}), false));  // column count
  EXPECT_TRUE(ExStrict(Rs({}, 2), Rs({}, 3), false));                                     // two empty results
  // Multisets, not sets: duplicates count.
  EXPECT_FALSE(ExStrict(Rs({{I(1)}, {I(1)}, {I(2)}}), Rs({{I(1)}, {I(2)}, {I(2)}}), false));
  // A permutation must hold for every row at once: swapping one column per row is not enough.
  EXPECT_FALSE(ExStrict(Rs({{I(1), I(2)}, {I(3), I(4)}}), Rs({{I(2), I(1)}, {I(3), I(4)}}), false));
  EXPECT_TRUE(ExStrict(Rs({{Value::Null()}}), Rs({{Value::Null()}}), false));
}

TEST(ExRelaxedAndJaccard, AllowExtraColumnsAndNearMisses) {
  ResultSet gold = Rs({{T("a")}, {T("b")}});
  EXPECT_TRUE(ExRelaxed(gold, Rs({{I(1), T("b")}, {I(2), T("a")}})));  // an extra column, any order
  EXPECT_FALSE(ExRelaxed(gold, Rs({{T("a")}, {T("b")}, {T("c")}})));   // a row too many
  EXPECT_FALSE(ExStrict(gold, Rs({{I(1), T("b")}, {I(2), T("a")}}), false));
  EXPECT_DOUBLE_EQ(ExJaccard(gold, Rs({{I(1), T("b")}, {I(2), T("a")}})), 1.0);
  // 19 of 20 rows: Jaccard 0.95, just correct; 18 of 20: 18/20 = 0.9, wrong.
  std::vector<std::vector<Value>> g, p19, p18;
  for (int i = 0; i < 20; ++i) g.push_back({I(i)});
  for (int i = 0; i < 19; ++i) p19.push_back({I(i)});
  for (int i = 0; i < 18; ++i) p18.push_back({I(i)});
  EXPECT_GE(ExJaccard(Rs(g), Rs(p19)), kJaccardThreshold);
  EXPECT_LT(ExJaccard(Rs(g), Rs(p18)), kJaccardThreshold);
  EXPECT_DOUBLE_EQ(ExJaccard(Rs({{I(1), I(2)}}), Rs({{I(1)}})), 0.0);  // a gold column without partner
}

TEST(Metrics, DistinctLinkingOrderAndBootstrap) {
  auto q =
      sql::ParseQuery("SELECT DISTINCT a, count(DISTINCT b) FROM t UNION SELECT DISTINCT c, 1 FROM u", sql::Sqlite());
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(sql::Print(WithoutDistinct(*q), sql::Sqlite()), "SELECT a, count(b) FROM t UNION SELECT c, 1 FROM u");
  EXPECT_TRUE(OrderMatters("select a from t ORDER BY a"));
  EXPECT_TRUE(OrderMatters("select a from (select b from t order by b) limit 1"));  // anywhere, as the official test
  EXPECT_FALSE(OrderMatters("select a from t ORDER\n BY a"));  // not with a line break: its substring test
  EXPECT_FALSE(OrderMatters("select border_by from t"));
  LinkingScores l = QueryLinking({"t", "t.a", "t.b"}, {"t", "t.a", "u"});
  EXPECT_NEAR(l.recall, 2.0 / 3, 1e-12);
  EXPECT_NEAR(l.precision, 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(QueryLinking({}, {}).recall, 1.0);
  std::vector<double> outcomes(100, 1.0);
  for (int i = 0; i < 30; ++i) outcomes[static_cast<size_t>(i)] = 0.0;
  Interval a = BootstrapInterval(outcomes), b = BootstrapInterval(outcomes);
  EXPECT_EQ(a.low, b.low);  // reproducible
  EXPECT_LT(a.low, 0.7);
  EXPECT_GT(a.high, 0.7);
  auto e1 = sql::ParseQuery("select T1.a from t as T1", sql::Sqlite());
  auto e2 = sql::ParseQuery("SELECT t1.A FROM T AS t1", sql::Sqlite());
  ASSERT_TRUE(e1.ok() && e2.ok());
  EXPECT_TRUE(ExactMatch(*e1, *e2, sql::Sqlite()));
}

TEST(Hardness, OfficialClassesFromSpiderJsonAndFromTheTree) {
  // Spider dev #0: SELECT count(*) FROM singer -> easy.
  std::string easy =
      R"({"from": {"table_units": [["table_unit", 1]], "conds": []}, "select": [false, [[3, [0, [0, 0, false], null]]]],)"
      R"( "where": [], "groupBy": [], "having": [], "orderBy": [], "limit": null, "intersect": null, "union": null,)"
      R"( "except": null})";
  EXPECT_EQ(HardnessFromSpiderJson(easy), Hardness::kEasy);
  EXPECT_FALSE(HardnessFromSpiderJson("[1, 2]").has_value());
  auto tree = [](const char* s) { return HardnessFromQuery(*sql::ParseQuery(s, sql::Sqlite())); };
  EXPECT_EQ(tree("SELECT count(*) FROM singer"), Hardness::kEasy);
  EXPECT_EQ(tree("SELECT name, age FROM singer WHERE age > 20"), Hardness::kMedium);
  EXPECT_EQ(tree("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)"), Hardness::kHard);
  EXPECT_EQ(tree("SELECT T1.name, count(*) FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id JOIN c ON c.x = T2.x "
                 "GROUP BY T1.name ORDER BY count(*) DESC LIMIT 1"),
            Hardness::kExtra);
}

TEST(Benchmarks, LoadSnailsPairsCustomAndPredictions) {
  test::TempDir tmp;
  std::ofstream(tmp.File("Shop.sql"), std::ios::binary)
      << "-- 1: How many orders?\r\nSELECT COUNT(*)\r\nFROM Orders\r\n;\r\n\r\n-- 2: Which site?\r\n"
         "-- @HINT site means the Site column\r\nSELECT Site FROM Orders WHERE OrderID = 1;\n";
  auto s = LoadSnailsPairs(tmp.File("Shop.sql"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->questions.size(), 2u);
  EXPECT_EQ(s->questions[0].question, "How many orders?");
  EXPECT_EQ(s->questions[0].gold_sql, "SELECT COUNT(*)\nFROM Orders");
  EXPECT_EQ(s->questions[1].evidence, "site means the Site column");
  EXPECT_EQ(s->questions[1].db_id, "Shop");
  EXPECT_EQ(s->dialect, "tsql");
  // A file with no pairs (here a JSON list of questions, the Spider format) is an error that names the format.
  std::ofstream(tmp.File("list.json")) << R"([{"db_id": "Shop", "question": "How many orders?", "query": "SELECT 1"}])";
  auto none = LoadSnailsPairs(tmp.File("list.json"));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kFormat);
  EXPECT_NE(none.error().message.find("--benchmark spider"), std::string::npos) << none.error().message;

  std::ofstream(tmp.File("b.jsonl")) << R"({"question": "q1", "sql": "SELECT 1", "db_id": "plant"})"
                                     << "\n\n"
                                     << R"({"question": "q2", "query": "SELECT 2", "db": "plant"})"
                                     << "\n";
  auto j = LoadCustom(tmp.File("b.jsonl"));
  ASSERT_TRUE(j.ok()) << j.error().message;
  ASSERT_EQ(j->questions.size(), 2u);
  EXPECT_EQ(j->questions[1].gold_sql, "SELECT 2");
  std::ofstream(tmp.File("b.csv")) << "question,sql,db_id\n\"Count, please\",SELECT count(*) FROM plant,plant\n";
  auto c = LoadCustom(tmp.File("b.csv"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->questions.at(0).question, "Count, please");
  std::ofstream(tmp.File("bad.jsonl")) << R"({"question": "no sql", "db_id": "plant"})"
                                       << "\n";
  auto bad = LoadCustom(tmp.File("bad.jsonl"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad.jsonl:1: no gold SQL"), std::string::npos) << bad.error().message;

  std::ofstream(tmp.File("p.sql")) << "SELECT 1\tdb\r\n\nSELECT 2\n";
  auto p = LoadPredictions(tmp.File("p.sql"));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (std::vector<std::string>{"SELECT 1", "", "SELECT 2"}));
}

TEST(Score, ScoresPredictionsOnTheSampleDatabase) {
  Benchmark b;
  b.name = "custom";
  std::string dir = test::SampleDb().substr(0, test::SampleDb().rfind('/'));
  b.questions = {{0, "plant", "How many plants?", "SELECT count(*) FROM plant", "", "", "", ""},
                 {1, "plant", "Plant names by id", "SELECT plant_name FROM plant ORDER BY plant_id", "", "", "", ""},
                 {2, "plant", "Statuses", "SELECT DISTINCT MO_ST FROM TB_MO", "", "", "", ""},
                 {3, "plant", "Nothing", "SELECT count(*) FROM plant", "", "", "", ""}};
  std::vector<std::string> predictions = {"SELECT count(plant_id) FROM plant",
                                          "SELECT plant_name FROM plant ORDER BY plant_name",  // wrong order
                                          "SELECT MO_ST FROM TB_MO GROUP BY MO_ST",            // DISTINCT removed
                                          "SELECT nothing FROM nowhere"};
  ScoreOptions o;
  o.db_dir = dir;
  auto scores = ScorePredictions(b, b.questions, predictions, o);
  ASSERT_TRUE(scores.ok()) << scores.error().message;
  EXPECT_TRUE(*(*scores)[0].ex_strict);
  EXPECT_FALSE((*scores)[0].em);
  EXPECT_FALSE(*(*scores)[1].ex_strict);
  EXPECT_TRUE(*(*scores)[1].ex_relaxed);  // the same rows, another order
  // Without DISTINCT the gold has one row per order and the prediction one per status: wrong by the official rule.
  EXPECT_FALSE(*(*scores)[2].ex_strict);
  o.keep_distinct = true;
  auto kept = ScorePredictions(b, b.questions, predictions, o);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(*(*kept)[2].ex_strict);
  EXPECT_FALSE(*(*scores)[3].ex_strict);
  EXPECT_NE((*scores)[3].error.find("nowhere"), std::string::npos) << (*scores)[3].error;
  EXPECT_DOUBLE_EQ((*scores)[3].linking.recall, 0.0);
  nlohmann::ordered_json j = ScoreJson(*scores);
  EXPECT_EQ(j["summary"]["count"], 4);
  EXPECT_DOUBLE_EQ(j["summary"]["ex_strict"].get<double>(), 0.25);
  EXPECT_EQ(j["questions"].size(), 4u);
  EXPECT_EQ(j["questions"][3]["index"], 3);
  EXPECT_FALSE(ScorePredictions(b, b.questions, {"SELECT 1"}, o).ok());  // count mismatch
}

TEST(Statistics, KendallMcNemarAndSubsets) {
  // No ties: 8 concordant and 2 discordant pairs, tau 0.6; z = 6 / sqrt(5*4*15/18).
  KendallResult k = KendallTau({1, 2, 3, 4, 5}, {1, 3, 2, 5, 4});
  EXPECT_NEAR(k.tau, 0.6, 1e-12);
  EXPECT_NEAR(k.p_value, std::erfc(6 / std::sqrt(50.0 / 3) / std::sqrt(2.0)), 1e-12);
  EXPECT_NEAR(KendallTau({1, 2, 3}, {3, 2, 1}).tau, -1.0, 1e-12);
  KendallResult tied = KendallTau({1, 1, 2, 2}, {0, 1, 0, 1});  // no association
  EXPECT_NEAR(tied.tau, 0.0, 1e-12);
  EXPECT_NEAR(tied.p_value, 1.0, 1e-12);
  EXPECT_FALSE(KendallTau({1, 1, 1}, {1, 2, 3}).defined);  // a constant series: tau is undefined
  EXPECT_TRUE(KendallTau({1, 2, 3}, {1, 2, 3}).defined);
  // Exact: 2 * (C(13,0)+C(13,1)+C(13,2)+C(13,3)) / 2^13.
  EXPECT_NEAR(McNemarP(3, 10), 2 * 378.0 / 8192, 1e-12);
  EXPECT_DOUBLE_EQ(McNemarP(0, 0), 1.0);
  // Chi-square with continuity correction: (|30-15|-1)^2 / 45.
  EXPECT_NEAR(McNemarP(30, 15), std::erfc(std::sqrt(196.0 / 45 / 2)), 1e-12);
  SubsetScores sub = ScoreSubset({"t", "t.a", "u", "u.b"}, {"t", "t.a", "t.c", "u"}, 20);
  EXPECT_DOUBLE_EQ(sub.recall, 0.75);
  EXPECT_FALSE(sub.perfect);
  EXPECT_DOUBLE_EQ(sub.precision, 0.75);
  EXPECT_DOUBLE_EQ(sub.relation_recall, 1.0);
  EXPECT_DOUBLE_EQ(sub.attribute_recall, 0.5);
  EXPECT_DOUBLE_EQ(sub.attribute_precision, 0.5);
  EXPECT_DOUBLE_EQ(sub.proportion, 0.2);
  EXPECT_TRUE(ScoreSubset({"t"}, {"t", "u"}, 4).perfect);
}

TEST(Runs, StoreRecordsResumesAndCompares) {
  test::TempDir tmp;
  std::string path = tmp.File("runs.db");
  std::vector<Question> qs = {{0, "plant", "q0", "SELECT 1", "", "", "", ""},
                              {1, "plant", "q1", "SELECT 2", "", "", "", ""},
                              {2, "plant", "q2", "SELECT 3", "", "", "", ""}};
  std::string id_a, id_b;
  {
    auto store = RunStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    RunSpec spec;
    spec.name = "first";
    spec.benchmark = "custom";
    spec.questions = "q.jsonl";
    spec.system = "predictions:p.sql";
    auto id = (*store)->CreateRun(spec, qs);
    ASSERT_TRUE(id.ok()) << id.error().message;
    id_a = *id;
    QuestionScore s;
    s.index = 1;
    s.db_id = "plant";
    s.difficulty = "easy";
    s.predicted_sql = "SELECT 2";
    s.ex_strict = s.ex_relaxed = s.ex_jaccard = true;
    s.em = true;
    ASSERT_TRUE((*store)->Record(id_a, 1, s, 1.5).ok());
    ASSERT_TRUE((*store)->SetStatus(id_a, "interrupted").ok());
  }
  // Reopened: the recorded question survives, the others are pending.
  auto store = RunStore::Open(path);
  ASSERT_TRUE(store.ok());
  auto pending = (*store)->Pending(id_a);
  ASSERT_TRUE(pending.ok());
  EXPECT_EQ(*pending, (std::vector<size_t>{0, 2}));
  auto run = (*store)->GetRun("first");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->status, "interrupted");
  EXPECT_EQ(run->done, 1);
  EXPECT_EQ(run->total, 3);
  EXPECT_EQ((*store)->GetRun(id_a.substr(id_a.size() - 4))->id, id_a);
  EXPECT_EQ((*store)->GetRun("nope").error().code, ErrorCode::kNotFound);
  auto scores = (*store)->Scores(id_a);
  ASSERT_TRUE(scores.ok());
  ASSERT_EQ(scores->size(), 1u);
  EXPECT_EQ((*scores)[0].index, 1u);
  EXPECT_TRUE(*(*scores)[0].ex_strict);
  EXPECT_EQ((*scores)[0].predicted_sql, "SELECT 2");
  auto indexes = (*store)->QuestionIndexes(id_a);
  ASSERT_TRUE(indexes.ok());
  EXPECT_EQ(*indexes, (std::vector<size_t>{0, 1, 2}));

  // Comparing: A right on 1, B right on 0 and 1.
  auto id = (*store)->CreateRun(RunSpec{}, qs);
  ASSERT_TRUE(id.ok());
  id_b = *id;
  QuestionScore right, wrong;
  right.ex_strict = true;
  wrong.ex_strict = false;
  for (size_t i : {0, 1}) {
    right.index = i;
    ASSERT_TRUE((*store)->Record(id_b, i, right, 1).ok());
  }
  wrong.index = 0;
  ASSERT_TRUE((*store)->Record(id_a, 0, wrong, 1).ok());
  auto c = CompareRuns(*(*store)->Scores(id_a), *(*store)->Scores(id_b));
  EXPECT_EQ(c["questions"], 2);
  EXPECT_EQ(c["only_a_right"], 0);
  EXPECT_EQ(c["only_b_right"], 1);
  EXPECT_DOUBLE_EQ(c["mcnemar_p"].get<double>(), 1.0);

  std::ofstream(tmp.File("junk.db")) << "not a database at all, just text that is long enough to be read";
  EXPECT_FALSE(RunStore::Open(tmp.File("junk.db")).ok());
}

TEST(Runs, ConcurrentClaimsOnSqlite) {
  test::TempDir tmp;
  test::CheckConcurrentClaims(tmp.File("runs.db"));
}

TEST(Runs, WorkerAlive) {
  EXPECT_TRUE(WorkerAlive(WorkerId()));
  std::string me = WorkerId();
  std::string host = me.substr(0, me.rfind(':'));
  EXPECT_FALSE(WorkerAlive(host + ":99999999"));         // no such process on this machine
  EXPECT_TRUE(WorkerAlive("some-other-host:99999999"));  // cannot be checked: alive until the lease lapses
}

TEST(Report, SelfContainedHtmlWithEveryPart) {
  QuestionScore right, wrong, unparsable, unknown;
  right.index = 0;
  right.db_id = "a<b";
  right.difficulty = "easy";
  right.ex_strict = right.ex_relaxed = right.ex_jaccard = true;
  right.latency_ms = 3;
  wrong = right;
  wrong.index = 1;
  wrong.ex_strict = wrong.ex_relaxed = wrong.ex_jaccard = false;
  wrong.latency_ms = 40;
  unparsable = wrong;
  unparsable.index = 2;
  unparsable.error = "does not parse: expected FROM";
  unknown = wrong;
  unknown.index = 3;
  unknown.error = "no such column: x";
  EXPECT_EQ(ErrorCategory(right), "correct");
  EXPECT_EQ(ErrorCategory(wrong), "wrong result");
  EXPECT_EQ(ErrorCategory(unparsable), "does not parse");
  EXPECT_EQ(ErrorCategory(unknown), "unknown table or column");
  QuestionScore not_run;
  EXPECT_EQ(ErrorCategory(not_run), "not executed");
  ReportRun a{{}, {right, wrong, unparsable, unknown}, {}};
  a.info.id = "run-a";
  ReportRun b{{}, {right, right, right, unknown}, {}};
  b.info.id = "run-b";
  std::string plain = RunReportHtml(a, &b);
  EXPECT_EQ(plain.find("by naturalness"), std::string::npos);  // no statistics: no naturalness section
  // With statistics, the naturalness section shows each level's rate and Kendall's tau.
  a.statistics = {{"naturalness",
                   {{"questions", 3},
                    {"kendall_tau", 0.5},
                    {"p_value", 0.25},
                    {"by_least_level",
                     {{"Regular", {{"n", 2}, {"value", 0.5}, {"ci95", {0.0, 1.0}}}},
                      {"Least", {{"n", 1}, {"value", 1.0}, {"ci95", {1.0, 1.0}}}}}}}}};
  std::string html = RunReportHtml(a, &b);
  EXPECT_NE(html.find("EX strict by naturalness"), std::string::npos);
  EXPECT_NE(html.find("τ between a question's naturalness and its success = 0.500"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>Least</td><td>1.000 <small>(1)</small></td><td>–</td></tr>"), std::string::npos);
  EXPECT_EQ(html.find("<td>Low</td>"), std::string::npos);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(html.find("http"), std::string::npos);    // nothing to fetch
  EXPECT_NE(html.find("a&lt;b"), std::string::npos);  // names escaped
  EXPECT_EQ(html.find("a<b"), std::string::npos);
  for (const char* part : {"EX strict by difficulty", "EX strict by database", "Outcomes", "Latency per question",
                           "McNemar", "<svg", "unknown table or column"}) {
    EXPECT_NE(html.find(part), std::string::npos) << part;
  }
}

TEST(Stats, NaturalnessAgainstSuccess) {
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  std::vector<QuestionScore> scores;
  auto add = [&](std::vector<std::string> ids, bool right) {
    QuestionScore s;
    s.index = scores.size();
    s.ex_strict = s.ex_relaxed = s.ex_jaccard = right;
    s.gold_identifiers = std::move(ids);
    scores.push_back(std::move(s));
  };
  for (int i = 0; i < 6; ++i) add({"customer", "customer.first_name", "customer.city"}, true);
  for (int i = 0; i < 6; ++i) add({"tb_cst", "tb_cst.cst_fnm", "tb_cst.xq7"}, false);
  add({"customer.last_name"}, false);
  add({"cst_q"}, true);
  auto j = RunStatistics(scores, *classifier);
  EXPECT_EQ(j["naturalness"]["questions"], 14);
  EXPECT_GT(j["naturalness"]["kendall_tau"].get<double>(), 0.3);
  EXPECT_LT(j["naturalness"]["p_value"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(j["naturalness"]["by_least_level"]["Regular"]["value"].get<double>(), 6.0 / 7);
  EXPECT_DOUBLE_EQ(j["ex_strict"]["value"].get<double>(), 7.0 / 14);
  // Every question right: tau is undefined and reported as null, not as 0.
  for (auto& s : scores) s.ex_strict = true;
  auto all_right = RunStatistics(scores, *classifier);
  EXPECT_TRUE(all_right["naturalness"]["kendall_tau"].is_null());
  EXPECT_TRUE(all_right["naturalness"]["p_value"].is_null());
}

TEST(Stats, IdentifierRecallPerIdentifierAndLevel) {
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  auto score = [](std::string db, std::vector<std::string> gold, std::vector<std::string> predicted) {
    QuestionScore s;
    s.db_id = std::move(db);
    s.linked = true;
    s.gold_identifiers = std::move(gold);
    s.predicted_identifiers = std::move(predicted);
    return s;
  };
  std::vector<QuestionScore> scores = {
      score("a", {"customer", "customer.city"}, {"customer", "customer.city"}),
      score("a", {"customer", "customer.xq7"}, {"customer"}),
      score("b", {"customer"}, {}),  // another database: another identifier
  };
  QuestionScore unlinked = score("a", {"customer.xq7"}, {"customer.xq7"});
  unlinked.linked = false;  // not counted
  scores.push_back(unlinked);
  auto ids = IdentifierRecalls(scores);
  ASSERT_EQ(ids.size(), 4u);
  EXPECT_EQ(ids[0].db_id, "a");
  EXPECT_EQ(ids[0].identifier, "customer");
  EXPECT_EQ(ids[0].queries, 2);
  EXPECT_EQ(ids[0].recalled, 2);
  EXPECT_EQ(ids[2].identifier, "customer.xq7");
  EXPECT_EQ(ids[2].Recall(), 0.0);
  EXPECT_EQ(ids[3].db_id, "b");
  EXPECT_EQ(ids[3].Recall(), 0.0);
  auto j = RunStatistics(scores, *classifier);
  EXPECT_EQ(j["identifier_recall"]["identifiers"], 4);
  EXPECT_DOUBLE_EQ(j["identifier_recall"]["mean"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["identifier_recall"]["by_level"]["Least"]["mean"].get<double>(), 0.0);  // xq7
  EXPECT_DOUBLE_EQ(ScoreJson(scores)["summary"]["identifier_recall"].get<double>(), 0.5);
}

TEST(Stats, CostPerStageAndTokensInTheReport) {
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  std::vector<QuestionScore> scores(3);
  for (size_t i = 0; i < scores.size(); ++i) {
    scores[i].index = i;
    scores[i].ex_strict = true;
    scores[i].stages = {{"generate", 100.0 * static_cast<double>(i + 1), 1000, 50 * static_cast<int64_t>(i)},
                        {"scoring", 1, 0, 0}};
  }
  // Stages survive JSON, and malformed entries are skipped.
  EXPECT_EQ(StagesFromJson(nlohmann::json::parse(StagesToJson(scores[1].stages).dump())), scores[1].stages);
  EXPECT_EQ(StagesFromJson(nlohmann::json::parse(R"([{"ms": 1}, {"stage": "x", "ms": "slow"}, 3])")).size(), 1u);
  auto j = RunStatistics(scores, *classifier);
  ASSERT_TRUE(j["stages"].contains("generate"));
  EXPECT_EQ(j["stages"].begin().key(), "generate");  // first-seen order
  EXPECT_DOUBLE_EQ(j["stages"]["generate"]["median_ms"].get<double>(), 200);
  EXPECT_DOUBLE_EQ(j["stages"]["generate"]["total_ms"].get<double>(), 600);
  EXPECT_EQ(j["stages"]["generate"]["prompt_tokens"], 3000);
  EXPECT_EQ(j["stages"]["generate"]["completion_tokens"], 150);
  ReportRun run{{}, scores, j};
  run.info.id = "run-llm";
  std::string html = RunReportHtml(run);
  EXPECT_NE(html.find("Cost per stage"), std::string::npos);
  EXPECT_NE(html.find("<td>generate</td><td>200</td><td>200</td><td>3000</td><td>150</td>"), std::string::npos);
  EXPECT_NE(html.find("token distribution"), std::string::npos);
  for (auto& s : run.scores) s.stages = {{"scoring", 1, 0, 0}};
  EXPECT_NE(RunReportHtml(run).find("No LLM tokens recorded"), std::string::npos);
}

TEST(Benchmark, SpiderSynQuestionsAreRead) {
  test::TempDir tmp;
  std::ofstream(tmp.File("syn.json"))
      << R"([{"db_id": "concert_singer", "SpiderQuestion": "How many singers do we have?",
              "SpiderSynQuestion": "How many vocalists do we have?", "query": "SELECT count(*) FROM singer"}])";
  auto b = LoadBenchmark("spider", tmp.File("syn.json"));
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(b->questions.size(), 1u);
  EXPECT_EQ(b->questions[0].question, "How many vocalists do we have?");
}

TEST(ExStrict, AgreesWithTheOfficialRulesCaseByCase) {
  std::string cases = test::ReadFile(std::string(PLAINSQL_SOURCE_DIR) + "/tests/eval/ex_official_cases.txt");
  Benchmark b;
  b.name = "custom";
  std::vector<std::string> predictions;
  std::vector<bool> expected;
  for (const std::string& line : Split(cases, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    b.questions.push_back({b.questions.size(), "plant", "", f[1], "", "", "", ""});
    predictions.push_back(f[2]);
    expected.push_back(f[0] == "1");
  }
  ASSERT_GE(b.questions.size(), 25u);
  ScoreOptions o;
  o.db_dir = test::SampleDb().substr(0, test::SampleDb().rfind('/'));
  o.limits.timeout = std::chrono::milliseconds(300);  // the endless recursive query must stop and count as wrong
  auto scores = ScorePredictions(b, b.questions, predictions, o);
  ASSERT_TRUE(scores.ok()) << scores.error().message;
  for (size_t i = 0; i < scores->size(); ++i) {
    const QuestionScore& s = (*scores)[i];
    ASSERT_TRUE(s.ex_strict.has_value()) << s.gold_sql << ": " << s.gold_error;
    EXPECT_EQ(*s.ex_strict, expected[i]) << "gold: " << s.gold_sql << "\npred: " << s.predicted_sql
                                         << "\nerror: " << s.error;
  }
}

// Each key inference mode of the built-in system is stored under its own name and read back as itself (isolated was
// once stored as add).
TEST(Systems, BuiltinKeyInferenceModesRoundTrip) {
  using linking::KeyInferenceMode;
  EXPECT_EQ(BuiltinSystemSpec(std::nullopt), "builtin");
  for (KeyInferenceMode m : {KeyInferenceMode::kAdd, KeyInferenceMode::kReplace, KeyInferenceMode::kIsolated}) {
    const std::string spec = BuiltinSystemSpec(m);
    auto parsed = ParseBuiltinSystem(spec);
    ASSERT_TRUE(parsed.has_value()) << spec;
    ASSERT_TRUE(parsed->ok()) << spec;
    ASSERT_TRUE(parsed->value().has_value()) << spec;
    EXPECT_EQ(*parsed->value(), m) << spec;
  }
  EXPECT_EQ(BuiltinSystemSpec(KeyInferenceMode::kIsolated), "builtin:infer-keys=isolated");
  auto bad = ParseBuiltinSystem("builtin:infer-keys=sometimes");
  ASSERT_TRUE(bad.has_value());
  EXPECT_FALSE(bad->ok());
}

}  // namespace
}  // namespace plainsql::eval
