// Schema subsets in eval (issue #18): SKALPEL's size categories at their boundaries (data/size_categories.tsv), the
// relation and attribute scores and proportions of hand-made cases (data/subset_metrics.tsv), a schema restricted to a
// subset with its join keys (data/restrict_cases.txt on data/subset_schema.json), the JSON of `eval subsets` (summary,
// by size, per question), the subsets file's "ms", and the subset source stored with a run's system.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "catalog/benchmark_schema.h"
#include "catalog/restrict.h"
#include "common/file.h"
#include "common/strings.h"
#include "eval/levels.h"
#include "eval/metrics.h"
#include "eval/score.h"
#include "eval/subset_source.h"
#include "eval/systems.h"
#include "test_util.h"

namespace plainsql::eval {
namespace {

const std::string kData = std::string(PLAINSQL_SOURCE_DIR) + "/tests/eval/data/";

// The non-comment, non-empty lines of a data file, split at TABs.
std::vector<std::vector<std::string>> DataRows(const std::string& file) {
  std::ifstream in(kData + file);
  EXPECT_TRUE(in) << kData << file;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(Split(line, '\t'));
  }
  return rows;
}

std::set<std::string> SetOf(const std::string& list) {
  std::set<std::string> out;
  if (list == "-") return out;
  for (const auto& e : Split(list, ',')) out.insert(std::string(Trim(e)));
  return out;
}

TEST(SubsetEvalTest, SizeCategoryBoundaries) {
  auto rows = DataRows("size_categories.tsv");
  ASSERT_GE(rows.size(), 10U);
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 2U);
    EXPECT_EQ(SizeCategoryName(SizeCategoryOf(std::stoull(r[0]))), r[1]) << r[0] << " columns";
  }
}

TEST(SubsetEvalTest, RelationAndAttributeScores) {
  auto rows = DataRows("subset_metrics.tsv");
  ASSERT_GE(rows.size(), 4U);
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 5U);
    SubsetScores s = ScoreSubset(SetOf(r[0]), SetOf(r[1]), SchemaSize{std::stoull(r[2]), std::stoull(r[3])});
    const std::map<std::string, double> got = {{"perfect", s.perfect ? 1 : 0},
                                               {"sch_recall", s.recall},
                                               {"sch_precision", s.precision},
                                               {"sch_f1", s.f1},
                                               {"relation_recall", s.relation_recall},
                                               {"relation_precision", s.relation_precision},
                                               {"relation_f1", s.relation_f1},
                                               {"attribute_recall", s.attribute_recall},
                                               {"attribute_precision", s.attribute_precision},
                                               {"attribute_f1", s.attribute_f1},
                                               {"relation_proportion", s.relation_proportion},
                                               {"attribute_proportion", s.attribute_proportion},
                                               {"proportion", s.proportion}};
    for (const auto& kv : Split(r[4], ' ')) {
      auto parts = Split(kv, '=');
      ASSERT_EQ(parts.size(), 2U) << kv;
      ASSERT_TRUE(got.count(parts[0])) << parts[0];
      EXPECT_NEAR(got.at(parts[0]), std::stod(parts[1]), 1e-3)
          << parts[0] << " for gold " << r[0] << ", subset " << r[1];
    }
  }
}

// The restricted schema as restrict_cases.txt writes it.
std::string Describe(const catalog::RestrictedSchema& r) {
  std::string out;
  for (const auto& t : r.schema.tables) {
    std::vector<std::string> cols;
    for (const auto& c : t.columns) cols.push_back(c.name);
    out += t.name + ": " + Join(cols, ", ") + "\n";
  }
  for (const auto& t : r.schema.tables) {
    for (const auto& fk : t.foreign_keys) {
      out += "fk: " + t.name + "." + Join(fk.columns, ",") + " -> " + fk.ref_table + "." + Join(fk.ref_columns, ",") +
             "\n";
    }
  }
  out += "keys added: " + std::to_string(r.key_columns_added) + "\n";
  if (!r.unknown.empty()) out += "unknown: " + Join(r.unknown, ", ") + "\n";
  return out;
}

TEST(SubsetEvalTest, RestrictedSchemaKeepsJoinKeys) {
  auto schema = catalog::LoadBenchmarkSchema(kData + "subset_schema.json", "shop");
  ASSERT_TRUE(schema) << schema.error().message;
  std::ifstream in(kData + "restrict_cases.txt");
  ASSERT_TRUE(in);
  std::string line, expected;
  std::optional<std::vector<std::string>> subset;
  int cases = 0;
  auto check = [&] {
    if (!subset) return;
    EXPECT_EQ(Describe(catalog::RestrictSchema(*schema, *subset)), expected) << "subset: " << Join(*subset, ", ");
    ++cases;
    subset.reset();
    expected.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '#') continue;
    if (line.starts_with("subset: ")) {
      subset.emplace();
      for (const auto& e : Split(line.substr(8), ',')) subset->emplace_back(Trim(e));
    } else if (line.empty()) {
      check();
    } else {
      expected += line + "\n";
    }
  }
  check();
  EXPECT_GE(cases, 8);
}

SubsetResult Scored(size_t index, size_t columns, bool perfect, std::optional<double> ms) {
  SubsetResult r;
  r.index = index;
  r.db_id = "db" + std::to_string(index);
  r.scored = true;
  r.scores.perfect = perfect;
  r.scores.recall = perfect ? 1.0 : 0.5;
  r.scores.attribute_proportion = 0.25;
  r.schema_columns = columns;
  r.size = SizeCategoryOf(columns);
  r.tokens = 100;
  r.schema_tokens = 400;
  r.ms = ms;
  return r;
}

TEST(SubsetEvalTest, JsonShapeBySizeAndQuestion) {
  SubsetResult unscored;
  unscored.index = 3;
  unscored.error = "database missing";
  std::vector<SubsetResult> results = {Scored(0, 20, true, 4.0), Scored(1, 60, false, 2.0),
                                       Scored(2, 3'000, true, std::nullopt), unscored};
  auto j = SubsetJson(results);
  const auto& s = j["summary"];
  EXPECT_EQ(s["questions"], 4);
  EXPECT_EQ(s["scored"], 3);
  EXPECT_NEAR(s["perf_recall"].get<double>(), 2.0 / 3, 1e-9);
  EXPECT_NEAR(s["attribute_proportion"].get<double>(), 0.25, 1e-9);
  EXPECT_NEAR(s["tokens"].get<double>(), 100, 1e-9);
  EXPECT_EQ(s["ms"]["timed"], 2);
  EXPECT_NEAR(s["ms"]["mean"].get<double>(), 3.0, 1e-9);
  EXPECT_NEAR(s["ms"]["p50"].get<double>(), 2.0, 1e-9);  // nearest rank
  EXPECT_NEAR(s["ms"]["p99"].get<double>(), 4.0, 1e-9);
  std::vector<std::string> names;
  for (const auto& [k, v] : s["by_size"].items()) names.push_back(k);
  EXPECT_EQ(names, (std::vector<std::string>{"S", "M", "L", "XL", "XXL", "XXL+"}));
  EXPECT_EQ(s["by_size"]["S"]["questions"], 2);
  EXPECT_NEAR(s["by_size"]["S"]["perf_recall"].get<double>(), 0.5, 1e-9);
  EXPECT_EQ(s["by_size"]["S"]["columns"], "< 100");
  EXPECT_EQ(s["by_size"]["XL"]["scored"], 1);
  EXPECT_TRUE(s["by_size"]["XL"]["ms"]["mean"].is_null());
  EXPECT_EQ(s["by_size"]["M"]["questions"], 0);
  EXPECT_TRUE(s["by_size"]["M"]["perf_recall"].is_null());
  // Every key a consumer of the older output read is still there.
  for (const char* k : {"sch_recall", "perf_recall", "sch_precision", "sch_f1", "relation_recall", "relation_precision",
                        "attribute_recall", "attribute_precision", "proportion"}) {
    EXPECT_TRUE(s.contains(k)) << k;
  }
  const auto& q = j["questions"];
  ASSERT_EQ(q.size(), 4U);
  EXPECT_EQ(q[0]["size"], "S");
  EXPECT_EQ(q[2]["size"], "XL");
  EXPECT_EQ(q[0]["ms"], 4.0);
  EXPECT_TRUE(q[2]["ms"].is_null());
  for (const char* k : {"perfect", "relation_f1", "attribute_f1", "relation_proportion", "attribute_proportion",
                        "tokens", "schema_tokens", "schema_columns", "subset_columns", "missing", "unknown"}) {
    EXPECT_TRUE(q[0].contains(k)) << k;
  }
  EXPECT_EQ(q[3]["error"], "database missing");
  EXPECT_FALSE(q[3].contains("size"));
}

TEST(SubsetEvalTest, SubsetFileKeepsTheTime) {
  test::TempDir dir;
  std::string path = dir.File("s.jsonl");
  ASSERT_TRUE(WriteFileAtomically(
      path, "{\"tables\": [\"t\"], \"columns\": [\"t.a\"], \"scores\": {}, \"ms\": 1.5}\n[\"u\"]\n"));
  auto lines = LoadSubsetLines(path);
  ASSERT_TRUE(lines) << lines.error().message;
  ASSERT_EQ(lines->size(), 2U);
  EXPECT_EQ((*lines)[0].names, (std::vector<std::string>{"t", "t.a"}));
  EXPECT_EQ((*lines)[0].ms, 1.5);
  EXPECT_FALSE((*lines)[1].ms);
  ASSERT_TRUE(WriteFileAtomically(path, "{\"tables\": [\"t\"], \"ms\": \"fast\"}\n"));
  auto bad = LoadSubsetLines(path);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(":1: \"ms\" must be a number"), std::string::npos) << bad.error().message;
}

TEST(SubsetEvalTest, SubsetSourceIsStoredWithTheSystem) {
  auto oracle = ParseSubsetSource("oracle");
  ASSERT_TRUE(oracle);
  EXPECT_EQ(oracle->kind, SubsetKind::kOracle);
  auto method = ParseSubsetSource("builtin");
  ASSERT_TRUE(method);
  EXPECT_EQ(method->kind, SubsetKind::kMethod);
  auto file = ParseSubsetSource("runs/subsets.jsonl");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->Spec(), "file:runs/subsets.jsonl");
  auto again = ParseSubsetSource(file->Spec());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->value, "runs/subsets.jsonl");
  EXPECT_FALSE(ParseSubsetSource("a\tb"));

  std::string stored = SystemWithSubset("builtin", *oracle);
  EXPECT_EQ(SplitSubset(stored), (std::pair<std::string, std::string>{"builtin", "oracle"}));
  EXPECT_EQ(SplitSubset("builtin"), (std::pair<std::string, std::string>{"builtin", ""}));
  EXPECT_EQ(SystemLabel(stored), "builtin [subset oracle]");
  EXPECT_EQ(SystemLabel(SystemWithSubset("builtin", *file)), "builtin [subset file:runs/subsets.jsonl]");
}

// A run's naming level (issue #21) is stored after its subset, read back, labelled, and names identifiers as shown.
TEST(SubsetEvalTest, NamesLevelIsStoredWithTheSystem) {
  test::TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(
      dir.File("plant.csv"),
      "native_identifier,table_or_column,source_database,N1_identifier,N2_identifier,N3_identifier\n"
      "TB_MO,table,plant,maintenance_order,mntnnc_ordr,MO\n"
      "MO_ST,column,plant,status,stts,ST\n"));
  EXPECT_FALSE(ParseNamesLevel("", "N2"));                 // a level needs the crosswalks
  EXPECT_FALSE(ParseNamesLevel(dir.File("nothing"), ""));  // not a directory
  EXPECT_FALSE(ParseNamesLevel(dir.path(), "N7"));
  auto none = ParseNamesLevel("", "");
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  auto n2 = ParseNamesLevel(dir.path(), "N2");
  ASSERT_TRUE(n2 && *n2);
  EXPECT_EQ((*n2)->level, naturalness::Level::kLow);

  auto oracle = ParseSubsetSource("oracle");
  ASSERT_TRUE(oracle);
  const std::string stored = SystemWithNames(SystemWithSubset("builtin", *oracle), *n2);
  auto [rest, names] = SplitNames(stored);
  EXPECT_EQ(SplitSubset(rest), (std::pair<std::string, std::string>{"builtin", "oracle"}));
  ASSERT_TRUE(names);
  EXPECT_EQ(names->crosswalk_dir, dir.path());
  EXPECT_EQ(names->level, naturalness::Level::kLow);
  EXPECT_EQ(SystemLabel(stored), "builtin [subset oracle] [names N2]");
  EXPECT_FALSE(SplitNames("builtin").second);
  EXPECT_FALSE(names->via_views);

  // Through views: stored and read back, labelled; a via needs crosswalks and a level with other names.
  auto views = ParseNamesLevel(dir.path(), "N3", "views");
  ASSERT_TRUE(views && *views);
  EXPECT_TRUE((*views)->via_views);
  const std::string through = SystemWithNames("builtin", *views);
  auto [plain, read] = SplitNames(through);
  EXPECT_EQ(plain, "builtin");
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->via_views);
  EXPECT_EQ(read->level, naturalness::Level::kLeast);
  EXPECT_EQ(read->crosswalk_dir, dir.path());
  EXPECT_EQ(SystemLabel(through), "builtin [names N3 via views]");
  EXPECT_FALSE(ParseNamesLevel(dir.path(), "N3", "tunnel"));
  EXPECT_FALSE(ParseNamesLevel("", "", "views"));
  EXPECT_FALSE(ParseNamesLevel(dir.path(), "native", "views"));
  auto middleware = ParseNamesLevel(dir.path(), "N1", "middleware");
  ASSERT_TRUE(middleware && *middleware);
  EXPECT_FALSE((*middleware)->via_views);

  const ShownName shown = ShownNames(stored);
  ASSERT_TRUE(shown);
  EXPECT_EQ(shown("plant", "tb_mo"), "mntnnc_ordr");
  EXPECT_EQ(shown("plant", "tb_mo.mo_st"), "stts");
  EXPECT_EQ(shown("plant", "tb_mo.other"), "other");    // not in the crosswalk: its native name
  EXPECT_EQ(shown("elsewhere", "t.column"), "column");  // no crosswalk for the database
  EXPECT_FALSE(ShownNames("builtin"));                  // native names: nothing to map
  std::vector<Question> questions(2);
  questions[0].db_id = "plant";
  questions[1].db_id = "zoo";
  EXPECT_EQ(MissingCrosswalks(dir.path(), questions), std::vector<std::string>{"zoo"});
}

}  // namespace
}  // namespace plainsql::eval
