// Bar of issue #3: every SNAILS gold query written against Regular, Low or Least names, renamed back to native names
// with the crosswalks in ../shared/data/snails/crosswalks/, gives a query whose normalized tree equals the parsed
// native gold query. Required: at least 99 %, every exception printed with its cause.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "catalog/benchmark_schema.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "data_test.h"
#include "naturalness/crosswalk.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"
#include "sql/rewrite/normalize.h"
#include "sql/rewrite/rename.h"
#include "test_util.h"

namespace plainsql::sql {
namespace {

namespace fs = std::filesystem;

TEST(SnailsTranslateBack, NaturalQueriesRenameToTheNativeGold) {
  std::string root = std::string(PLAINSQL_SHARED_DATA) + "/snails";
  if (!fs::exists(root + "/pairs/nl_sql_pairs_alternate_naturalness"))
    PLAINSQL_DATA_MISSING() << "SNAILS data not found";
  auto schemas_json = catalog::ReadJsonFile(root + "/schemas/snails_tables_Native.json");
  ASSERT_TRUE(schemas_json.ok());
  std::map<std::string, NameCatalog> natives;  // lower-cased db_id -> names
  for (const auto& entry : *schemas_json) {
    auto s = catalog::SchemaFromBenchmarkEntry(entry);
    ASSERT_TRUE(s.ok()) << s.error().message;
    natives[ToLower(s->database)] = catalog::ToNameCatalog(*s);
  }
  std::map<std::string, std::string> native_files;  // lower-cased db -> path
  for (const auto& f : fs::directory_iterator(root + "/pairs")) {
    if (f.path().extension() == ".sql") native_files[ToLower(f.path().stem().string())] = f.path().string();
  }
  int total = 0, equal = 0;
  std::string exceptions;
  for (const auto& f : fs::directory_iterator(root + "/pairs/nl_sql_pairs_alternate_naturalness")) {
    std::string stem = f.path().stem().string();
    size_t us = stem.rfind('_');
    std::string db = stem.substr(0, us), level_name = stem.substr(us + 1);
    auto level = naturalness::LevelByName(level_name);
    ASSERT_TRUE(level.has_value()) << stem;
    ASSERT_TRUE(native_files.count(ToLower(db))) << "no native pair file for " << db;
    ASSERT_TRUE(natives.count(ToLower(db))) << "no native schema for " << db;
    std::string cw_name = db.starts_with("SBODemoUS") ? "SBODemoUS" : db;
    auto cw = naturalness::LoadCrosswalk(root + "/crosswalks/" + cw_name + ".csv");
    ASSERT_TRUE(cw.ok()) << cw.error().message;
    const NameCatalog& native = natives[ToLower(db)];
    NameCatalog natural = naturalness::NaturalCatalog(native, *cw, *level);
    RenameMap back = naturalness::ToNativeMap(native, *cw, *level);

    auto alt = ParseScript(test::ReadFile(f.path().string()), TSql());
    auto gold = ParseScript(test::ReadFile(native_files[ToLower(db)]), TSql());
    ASSERT_TRUE(alt.ok() && gold.ok());
    ASSERT_EQ(alt->size(), gold->size()) << stem;
    for (size_t i = 0; i < alt->size(); ++i) {
      ++total;
      const Query& q = *(*alt)[i].query;
      Resolution r = Resolve(q, natural, TSql());
      Query renamed = RenameIdentifiers(q, r, back);
      if (Normalize(renamed, TSql()) == Normalize(*(*gold)[i].query, TSql())) {
        ++equal;
        continue;
      }
      std::string cause = "renamed query differs from the native gold";
      auto without_aliases = [](Query x) {
        if (x.body.kind == QueryBodyKind::kSelect) {
          for (auto& item : x.body.select.items) item.alias.reset();
        }
        return x;
      };
      if (Normalize(without_aliases(renamed), TSql()) == Normalize(without_aliases(*(*gold)[i].query), TSql())) {
        cause = "the alternate file also renames the output aliases, which are not schema identifiers";
      }
      if (!r.unresolved.empty()) {
        std::vector<std::string> names;
        for (const auto& u : r.unresolved) names.push_back(u.name);
        cause = "names missing from the crosswalk-renamed schema (crosswalk or schema gap): " + Join(names, ", ");
      }
      exceptions += stem + " #" + std::to_string(i + 1) + ": " + cause + "\n    renamed: " + Print(renamed, TSql()) +
                    "\n    native:  " + Print(*(*gold)[i].query, TSql()) + "\n";
    }
  }
  double rate = total ? static_cast<double>(equal) / total : 0;
  std::cout << "SNAILS translate-back: " << equal << " / " << total << " equal (" << rate * 100 << " %)\n"
            << exceptions;
  EXPECT_GE(rate, 0.99);
  EXPECT_GE(total, 1080);  // 360 queries in each of Regular, Low and Least
}

}  // namespace
}  // namespace plainsql::sql
