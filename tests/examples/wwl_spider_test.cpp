// The WWL distance against its independent reference (issue #17's first bar): on every pair of the Spider schemas in
// ../shared/data/spider/tables.json, WwlDistances equals tests/examples/wwl_reference.py (Python, POT's exact EMD)
// within 1e-6. Needs python3 with numpy and POT (Debian python3-numpy, python3-pot); PLAINSQL_PYTHON names another
// interpreter. Without the data or the interpreter the test is skipped, and fails under CI=true.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "catalog/benchmark_schema.h"
#include "examples/wwl.h"
#include "test_util.h"

namespace plainsql::examples {
namespace {

// The first interpreter that imports numpy and ot: $PLAINSQL_PYTHON, python3 on the PATH, /usr/bin/python3.
std::string PythonWithPot() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("PLAINSQL_PYTHON")) candidates.emplace_back(p);
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const auto& py : candidates) {
    if (std::system((py + " -c 'import numpy, ot' >/dev/null 2>&1").c_str()) == 0) return py;
  }
  return "";
}

TEST(WwlSpider, EqualsTheReferenceOnEveryPair) {
  std::string tables = std::string(PLAINSQL_SHARED_DATA) + "/spider/tables.json";
  if (!std::filesystem::exists(tables)) {
    if (std::getenv("CI")) FAIL() << tables << " not found (CI=true: data tests must not skip)";
    GTEST_SKIP() << tables << " not found";
  }
  std::string python = PythonWithPot();
  if (python.empty()) {
    std::string why = "no python3 with numpy and POT (apt-get install python3-numpy python3-pot)";
    if (std::getenv("CI")) FAIL() << why << " (CI=true: data tests must not skip)";
    GTEST_SKIP() << why;
  }

  test::TempDir dir;
  std::string reference = std::string(PLAINSQL_SOURCE_DIR) + "/tests/examples/wwl_reference.py";
  std::string command = python + " " + reference + " '" + tables + "' > '" + dir.File("reference.json") + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto expected = catalog::ReadJsonFile(dir.File("reference.json"));
  ASSERT_TRUE(expected.ok()) << expected.error().message;

  auto file = catalog::ReadJsonFile(tables);
  ASSERT_TRUE(file.ok()) << file.error().message;
  std::vector<std::string> dbs;
  std::vector<std::vector<NodeLabels>> graphs;
  for (const auto& entry : *file) {
    auto schema = catalog::SchemaFromBenchmarkEntry(entry);
    ASSERT_TRUE(schema.ok()) << schema.error().message;
    dbs.push_back(schema->database);
    graphs.push_back(WlLabels(BuildSchemaGraph(*schema)));
  }
  ASSERT_EQ(dbs, (*expected)["dbs"].get<std::vector<std::string>>());
  ASSERT_EQ(dbs.size(), 166u);  // Spider's training and development databases

  auto got = WwlDistances(graphs);
  auto want = (*expected)["distances"].get<std::vector<std::vector<double>>>();
  ASSERT_EQ(want.size(), dbs.size());
  double worst = 0;
  size_t pairs = 0;
  for (size_t i = 0; i < dbs.size(); ++i) {
    ASSERT_EQ(want[i].size(), dbs.size());
    for (size_t j = i + 1; j < dbs.size(); ++j, ++pairs) {
      EXPECT_NEAR(got[i][j], want[i][j], 1e-6) << dbs[i] << " / " << dbs[j];
      worst = std::max(worst, std::abs(got[i][j] - want[i][j]));
    }
  }
  EXPECT_EQ(pairs, 13695u);
  std::cout << pairs << " pairs; largest difference from the reference " << worst << "\n";
}

}  // namespace
}  // namespace plainsql::examples
