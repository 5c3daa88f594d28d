// Naturalness stage on ../shared/data (label "data"):
//  - the shipped model is what `plainsql naturalness train` makes from the SNAILS train and validation files
//    (byte for byte), and the shipped word list is what `plainsql naturalness wordlist` makes from Debian's lists;
//  - validation accuracy and macro-F1 of the shipped model (issue #4: at least 0.90 each on held-out data);
//  - every Spider database and the 17 SNAILS schemas profiled, the two collections' naturalness side by side.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <filesystem>
#include <set>

#include <iostream>

#include "catalog/benchmark_schema.h"
#include "catalog/name_catalog.h"
#include "data_test.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "naturalness/expander.h"
#include "naturalness/profile.h"
#include "naturalness/wordlist.h"
#include "test_util.h"

namespace plainsql::naturalness {
namespace {

namespace fs = std::filesystem;

std::string Shared(const std::string& rel) { return std::string(PLAINSQL_SHARED_DATA) + "/" + rel; }
std::string DataDir() { return std::string(PLAINSQL_SOURCE_DIR) + "/data"; }

TEST(NaturalnessData, ShippedModelIsReproducibleAndMeetsTheBar) {
  if (!fs::exists(Shared("snails/naturalness/train.csv")))
    PLAINSQL_DATA_MISSING() << "SNAILS naturalness files not found";
  auto train = LoadLabeled(Shared("snails/naturalness/train.csv"));
  auto validation = LoadLabeled(Shared("snails/naturalness/validation.csv"));
  ASSERT_TRUE(train.ok() && validation.ok());
  auto words = WordList::Load(DataDir() + "/words.tsv");
  ASSERT_TRUE(words.ok());
  TrainReport report;
  auto model = Train(*train, *validation, *words, TrainOptions{}, &report);
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(model->Serialize(), test::ReadFile(DataDir() + "/naturalness.model"))
      << "data/naturalness.model is not what `plainsql naturalness train` makes: retrain and commit it";
  EvalReport ev = Evaluate(*model, *words, *validation);
  std::cout << "naturalness validation: n=" << ev.n << " accuracy=" << ev.accuracy << " macro_f1=" << ev.macro_f1
            << " (C=" << report.chosen_c << ")\n";
  EXPECT_GE(ev.accuracy, 0.90);
  EXPECT_GE(ev.macro_f1, 0.90);
}

TEST(NaturalnessData, ShippedWordListIsReproducible) {
  WordListSources sources;
  for (const auto& [path, tier] : sources.dictionaries) {
    if (!fs::exists(path)) PLAINSQL_DATA_MISSING() << path << " not installed (scripts/install-deps.sh installs it)";
  }
  if (!fs::exists(sources.wordnet_dir + "/index.noun")) PLAINSQL_DATA_MISSING() << "WordNet not installed";
  auto built = WordList::Build(sources);
  ASSERT_TRUE(built.ok()) << built.error().message;
  auto shipped = WordList::Load(DataDir() + "/words.tsv");
  ASSERT_TRUE(shipped.ok());
  EXPECT_EQ(built->Serialize(""), shipped->Serialize(""))
      << "data/words.tsv differs from the Debian lists: run `plainsql naturalness wordlist` and commit it";
}

struct Collection {
  LevelCounts all, tables, columns;
  double sum_of_db_combined = 0;
  int databases = 0;
};

Collection ProfileAll(const std::string& tables_json, const Classifier& classifier) {
  Collection c;
  auto j = catalog::ReadJsonFile(tables_json);
  EXPECT_TRUE(j.ok());
  if (!j.ok()) return c;
  for (const auto& entry : *j) {
    auto schema = catalog::SchemaFromBenchmarkEntry(entry);
    EXPECT_TRUE(schema.ok());
    if (!schema.ok()) continue;
    SchemaProfile p = ProfileSchema(*schema, classifier);
    c.all.Add(p.all);
    c.tables.Add(p.tables);
    c.columns.Add(p.columns);
    c.sum_of_db_combined += p.all.Combined();
    ++c.databases;
  }
  return c;
}

TEST(NaturalnessData, SpiderIsMoreNaturalThanSnails) {
  if (!fs::exists(Shared("spider/tables.json")) || !fs::exists(Shared("snails/schemas/snails_tables_Native.json"))) {
    PLAINSQL_DATA_MISSING() << "Spider or SNAILS schemas not found";
  }
  auto classifier = Classifier::Load(DataDir());
  ASSERT_TRUE(classifier.ok());
  Collection spider = ProfileAll(Shared("spider/tables.json"), *classifier);
  Collection snails = ProfileAll(Shared("snails/schemas/snails_tables_Native.json"), *classifier);
  auto line = [](const char* name, const Collection& c) {
    std::cout << fmt::format(
        "{:<7} {:>4} dbs {:>6} names  combined {:.3f} (tables {:.3f}, columns {:.3f}; mean per db {:.3f})  "
        "Regular {:.1f}% Low {:.1f}% Least {:.1f}%\n",
        name, c.databases, c.all.Total(), c.all.Combined(), c.tables.Combined(), c.columns.Combined(),
        c.databases ? c.sum_of_db_combined / c.databases : 0.0, 100 * c.all.Share(Level::kRegular),
        100 * c.all.Share(Level::kLow), 100 * c.all.Share(Level::kLeast));
  };
  line("Spider", spider);
  line("SNAILS", snails);
  EXPECT_EQ(snails.databases, 17);
  EXPECT_GT(spider.databases, 150);
  EXPECT_GT(spider.all.Combined(), snails.all.Combined());
}

}  // namespace
}  // namespace plainsql::naturalness

namespace plainsql::naturalness {
namespace {

// Every SNAILS crosswalk checked against its own schema. The errors found are real defects of the files (two native
// columns of one table given the same N3 name), listed here so that a new one is noticed.
TEST(NaturalnessData, SnailsCrosswalksValidateAgainstTheirSchemas) {
  if (!fs::exists(Shared("snails/crosswalks-spider"))) PLAINSQL_DATA_MISSING() << "SNAILS crosswalks not found";
  const std::set<std::string> known = {
      "real_estate_properties: at N3, 'Properties.apt_feature_2', 'Properties.apt_feature_3' all become 'af2' in "
      "table Properties",
      "student_transcripts_tracking: at N3, 'Student_Enrolment.semester_id', 'Student_Enrolment.student_id' all "
      "become 's_id' in table Student_Enrolment"};
  std::set<std::string> errors;
  int files = 0;
  auto check = [&](const std::string& dir, const std::string& tables_json, bool spider) {
    for (const auto& f : fs::directory_iterator(dir)) {
      std::string db = f.path().stem().string();
      auto cw = LoadCrosswalk(f.path().string());
      ASSERT_TRUE(cw.ok()) << cw.error().message;
      auto schema = catalog::LoadBenchmarkSchema(tables_json, db);
      if (!schema.ok() && !spider) continue;  // SBODemoUS spans several SNAILS schemas
      ASSERT_TRUE(schema.ok()) << db << ": " << schema.error().message;
      sql::NameCatalog native = catalog::ToNameCatalog(*schema);
      for (const auto& i : ValidateCrosswalk(*cw, &native)) {
        if (i.error) errors.insert(db + ": " + i.message);
      }
      ++files;
    }
  };
  check(Shared("snails/crosswalks-spider"), Shared("spider/tables.json"), true);
  check(Shared("snails/crosswalks"), Shared("snails/schemas/snails_tables_Native.json"), false);
  EXPECT_GE(files, 20);
  EXPECT_EQ(errors, known);
}

}  // namespace
}  // namespace plainsql::naturalness

namespace plainsql::naturalness {
namespace {

// Expander quality on the SNAILS crosswalks (issue #5's measure): for identifiers whose N1 name differs from the
// native one, token-level F1 and normalized exact match against the N1 name, per database, with the schema's names as
// context and no LLM or data dictionary. Bar: mean over the five non-SAP databases F1 >= 0.55, EM >= 0.25.
TEST(NaturalnessData, ExpanderOnSnailsCrosswalks) {
  if (!fs::exists(Shared("snails/crosswalks"))) PLAINSQL_DATA_MISSING() << "SNAILS crosswalks not found";
  auto words = WordList::Load(DataDir() + "/words.tsv");
  auto abbreviations = Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(words.ok() && abbreviations.ok());
  double sum_f1 = 0, sum_em = 0;
  int non_sap = 0;
  for (const char* db : {"ASIS_20161108_HerpInv_Database", "CratersWildlifeObservations", "NTSB",
                         "NorthernPlainsFireManagement", "PacificIslandLandbirds", "SBODemoUS"}) {
    auto cw = LoadCrosswalk(Shared(std::string("snails/crosswalks/") + db + ".csv"));
    ASSERT_TRUE(cw.ok()) << cw.error().message;
    Expander expander(*words, *abbreviations);
    std::vector<std::string> names;
    for (const auto& e : cw->entries) names.push_back(e.native);
    expander.SetContext(names);
    double f1 = 0, em = 0;
    int n = 0;
    for (const auto& e : cw->entries) {
      if (e.native == e.n1) continue;
      std::string predicted = expander.Expand(e.native).name;
      f1 += NameTokenF1(predicted, e.n1);
      em += NameNormalizedEqual(predicted, e.n1) ? 1 : 0;
      ++n;
    }
    ASSERT_GT(n, 0);
    std::cout << fmt::format("expander {:<32} n={:>5} token F1 {:.3f}  exact {:.3f}\n", db, n, f1 / n, em / n);
    if (std::string(db) != "SBODemoUS") {
      sum_f1 += f1 / n;
      sum_em += em / n;
      ++non_sap;
    }
  }
  std::cout << fmt::format("expander mean of {} non-SAP databases: token F1 {:.3f}, exact {:.3f} (bar 0.55 / 0.25)\n",
                           non_sap, sum_f1 / non_sap, sum_em / non_sap);
  EXPECT_GE(sum_f1 / non_sap, 0.55);
  EXPECT_GE(sum_em / non_sap, 0.25);
}

// The same measure on the SNAILS crosswalks of the Spider databases, which the expander's rules were not tuned on:
// a check that they do no harm elsewhere (0.716 / 0.364 both before and after the rules of 2026-11-22). Pinned a
// little below.
TEST(NaturalnessData, ExpanderOnSpiderCrosswalks) {
  if (!fs::exists(Shared("snails/crosswalks-spider"))) PLAINSQL_DATA_MISSING() << "SNAILS Spider crosswalks not found";
  auto words = WordList::Load(DataDir() + "/words.tsv");
  auto abbreviations = Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(words.ok() && abbreviations.ok());
  double f1 = 0, em = 0;
  int n = 0, dbs = 0;
  for (const auto& f : fs::directory_iterator(Shared("snails/crosswalks-spider"))) {
    auto cw = LoadCrosswalk(f.path().string());
    ASSERT_TRUE(cw.ok()) << cw.error().message;
    Expander expander(*words, *abbreviations);
    std::vector<std::string> names;
    for (const auto& e : cw->entries) names.push_back(e.native);
    expander.SetContext(names);
    ++dbs;
    for (const auto& e : cw->entries) {
      if (e.native == e.n1) continue;
      std::string predicted = expander.Expand(e.native).name;
      f1 += NameTokenF1(predicted, e.n1);
      em += NameNormalizedEqual(predicted, e.n1) ? 1 : 0;
      ++n;
    }
  }
  ASSERT_GT(n, 0);
  std::cout << fmt::format("expander on {} Spider crosswalks: n={} token F1 {:.3f}  exact {:.3f}\n", dbs, n, f1 / n,
                           em / n);
  EXPECT_GE(f1 / n, 0.70);
  EXPECT_GE(em / n, 0.35);
}

}  // namespace
}  // namespace plainsql::naturalness
