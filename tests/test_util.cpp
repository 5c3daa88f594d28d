// Test helpers (see test_util.h).
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/hash.h"
#include "common/strings.h"

namespace plainsql::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "plainsql-test-XXXXXX").string();
  char* p = mkdtemp(tmpl.data());
  if (!p) throw std::runtime_error("mkdtemp failed");
  path_ = p;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void MakeSqliteDb(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string FileChecksum(const std::string& path) {
  if (!std::filesystem::exists(path)) return "";
  return HashHex(ReadFile(path));
}

std::string SampleDb() { return PLAINSQL_SAMPLE_DB; }

std::map<std::string, std::string> GoldRejected(const std::string& what) {
  std::map<std::string, std::string> out;
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/sql/gold_rejected.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    if (f.size() >= 3 && (what.empty() || f[1] == what)) out[f[0]] = f[2];
  }
  return out;
}

std::string DataFile(const std::string& dir, const std::string& name) {
  return std::string(PLAINSQL_SOURCE_DIR) + "/tests/" + dir + "/data/" + name;
}

std::vector<std::vector<std::string>> CaseRows(const std::string& dir, const std::string& name, size_t fields) {
  const std::string file = DataFile(dir, name);
  std::ifstream in(file);
  EXPECT_TRUE(in) << file;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    EXPECT_EQ(f.size(), fields) << file << ": " << line;
    if (f.size() == fields) rows.push_back(std::move(f));
  }
  return rows;
}

}  // namespace plainsql::test
