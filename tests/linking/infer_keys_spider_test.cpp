// Issue #18's key-inference bar: on the Spider databases with their declared keys hidden (KeyInferenceMode::kReplace),
// the inferred foreign keys against the declared ones (each referencing column, case-insensitively), for the databases
// of train.json (where the rules were chosen) and of dev.json (held out) separately. Precision and recall of both
// splits are printed; the test asserts the bar (>= 0.90 each) on the dev databases and a floor on train.
// PLAINSQL_INFER_KEYS_VERBOSE=1 lists every miss and every extra key; PLAINSQL_INFER_KEYS_THRESHOLD=X tries another
// threshold (for choosing it on train). Skipped without the data; fails under CI=true.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "data_test.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"

namespace plainsql::linking {
namespace {

namespace fs = std::filesystem;

std::set<std::string> DatabasesOf(const std::string& questions) {
  std::ifstream in(questions);
  nlohmann::json j = nlohmann::json::parse(in);
  std::set<std::string> out;
  for (const auto& q : j) out.insert(q.at("db_id").get<std::string>());
  return out;
}

// "table.column -> table.column" for every column of every foreign key, lower case.
std::set<std::string> Pairs(const catalog::Schema& schema, bool inferred) {
  std::set<std::string> out;
  for (const auto& t : schema.tables) {
    for (const auto& fk : t.foreign_keys) {
      if (fk.inferred != inferred) continue;
      for (size_t i = 0; i < fk.columns.size() && i < fk.ref_columns.size(); ++i) {
        out.insert(ToLower(t.name + "." + fk.columns[i] + " -> " + fk.ref_table + "." + fk.ref_columns[i]));
      }
    }
  }
  return out;
}

struct Counts {
  size_t declared = 0, inferred = 0, correct = 0, databases = 0;
  double Precision() const { return inferred ? static_cast<double>(correct) / static_cast<double>(inferred) : 0; }
  double Recall() const { return declared ? static_cast<double>(correct) / static_cast<double>(declared) : 0; }
};

Counts Measure(const std::string& root, const std::set<std::string>& dbs, bool verbose) {
  Counts n;
  for (const auto& db : dbs) {
    std::string path = root + "/database/" + db + "/" + db + ".sqlite";
    if (!fs::exists(path)) continue;  // two train databases ship without their file
    auto conn = exec::Connect(path);
    EXPECT_TRUE(conn.ok()) << path;
    if (!conn) continue;
    catalog::IntrospectOptions io;
    io.samples = 0;
    auto schema = catalog::Introspect(**conn, io);
    EXPECT_TRUE(schema.ok()) << path;
    if (!schema) continue;
    std::set<std::string> declared = Pairs(*schema, false);
    InferKeysOptions options;
    options.mode = KeyInferenceMode::kReplace;
    if (const char* t = std::getenv("PLAINSQL_INFER_KEYS_THRESHOLD")) options.threshold = std::stod(t);
    auto result = InferKeys(**conn, *schema, options);
    EXPECT_TRUE(result.ok()) << path;
    if (!result) continue;
    std::set<std::string> inferred = Pairs(*schema, true);
    ++n.databases;
    n.declared += declared.size();
    n.inferred += inferred.size();
    for (const auto& p : inferred) {
      if (declared.count(p)) {
        ++n.correct;
      } else if (verbose) {
        std::cout << "extra   " << db << ": " << p << "\n";
      }
    }
    if (verbose) {
      for (const auto& p : declared) {
        if (!inferred.count(p)) std::cout << "missed  " << db << ": " << p << "\n";
      }
    }
  }
  return n;
}

TEST(InferKeysSpider, PrecisionAndRecallAgainstDeclaredForeignKeys) {
  std::string root = std::string(PLAINSQL_SHARED_DATA) + "/spider";
  if (!fs::exists(root + "/dev.json") || !fs::exists(root + "/train.json")) {
    PLAINSQL_DATA_MISSING() << root << " not found";
  }
  bool verbose = std::getenv("PLAINSQL_INFER_KEYS_VERBOSE") != nullptr;
  Counts train = Measure(root, DatabasesOf(root + "/train.json"), verbose);
  Counts dev = Measure(root, DatabasesOf(root + "/dev.json"), verbose);
  for (const auto& [name, n] : {std::pair{"train", train}, std::pair{"dev", dev}}) {
    std::cout << name << " databases: " << n.databases << ", declared foreign-key columns " << n.declared
              << ", inferred " << n.inferred << ", correct " << n.correct << ", precision " << n.Precision()
              << ", recall " << n.Recall() << "\n";
  }
  EXPECT_GE(dev.Precision(), 0.90);
  EXPECT_GE(dev.Recall(), 0.90);
  EXPECT_GE(train.Precision(), 0.85);
  EXPECT_GE(train.Recall(), 0.85);
}

}  // namespace
}  // namespace plainsql::linking
