// Every schema in the benchmark schema files under ../shared/data converts: Spider, Spider-DK, BIRD (dev and
// mini-dev) and SNAILS, with as many tables and columns as the file lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "catalog/benchmark_schema.h"
#include "catalog/render.h"
#include "data_test.h"

namespace plainsql::catalog {
namespace {

class BenchmarkFiles : public ::testing::TestWithParam<const char*> {};

TEST_P(BenchmarkFiles, EveryEntryConverts) {
  std::string path = std::string(PLAINSQL_SHARED_DATA) + "/" + GetParam();
  if (!std::filesystem::exists(path)) PLAINSQL_DATA_MISSING() << path << " not found";
  auto j = ReadJsonFile(path);
  ASSERT_TRUE(j.ok()) << j.error().message;
  ASSERT_TRUE(j->is_array());
  size_t tables = 0, columns = 0;
  std::vector<std::string> warnings;
  for (const auto& entry : *j) {
    auto s = SchemaFromBenchmarkEntry(entry, &warnings);
    ASSERT_TRUE(s.ok()) << GetParam() << ": " << s.error().message;
    EXPECT_EQ(s->tables.size(), entry["table_names_original"].size()) << s->database;
    EXPECT_EQ(s->ColumnCount() + 1, entry["column_names_original"].size()) << s->database;  // + the "*" entry
    EXPECT_FALSE(RenderPromptDdl(*s, sql::Sqlite()).empty());
    tables += s->tables.size();
    columns += s->ColumnCount();
  }
  std::cout << GetParam() << ": " << j->size() << " schemas, " << tables << " tables, " << columns << " columns, "
            << warnings.size() << " warnings on keys\n";
  for (const auto& w : warnings) std::cout << "  " << w << "\n";
  // SNAILS's file writes the keys of its five schemas with keys one column early (as if without the "*" entry); read
  // one later they join like-named columns. The other files' keys are read as written.
  const auto shifted = std::count_if(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("as if there were no") != std::string::npos;
  });
  EXPECT_EQ(shifted, std::string(GetParam()).starts_with("snails/") ? 5 : 0);
}

INSTANTIATE_TEST_SUITE_P(SharedData, BenchmarkFiles,
                         ::testing::Values("spider/tables.json", "spider-variants/dk_tables.json",
                                           "bird/dev_tables.json", "bird/mini_dev/dev_tables.json",
                                           "snails/schemas/snails_tables_Native.json"));

}  // namespace
}  // namespace plainsql::catalog
