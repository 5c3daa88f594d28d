// Helpers shared by the tests: temporary files, SQLite fixtures built with the C API, file checksums.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace plainsql::test {

/// A fresh empty directory under the system temp dir, removed with its content at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// Creates (or extends) a SQLite database at `path` by running `sql` with a writable connection. Fails the test on
/// error.
void MakeSqliteDb(const std::string& path, const std::string& sql);

/// 128-bit hash of a file's bytes, as hex ("" if unreadable).
std::string FileChecksum(const std::string& path);

/// The whole content of a file.
std::string ReadFile(const std::string& path);

/// The path of `name` in tests/<dir>/data/ (test cases kept as data).
std::string DataFile(const std::string& dir, const std::string& name);

/// The cases of tests/<dir>/data/<name>: its lines split at tabs, blank lines and `#` comment lines skipped. A line
/// without `fields` fields fails the test and is left out.
std::vector<std::vector<std::string>> CaseRows(const std::string& dir, const std::string& name, size_t fields);

/// The gold lines their own engine rejects, from tests/sql/gold_rejected.txt: "file:line" -> reason, for the lines
/// whose kind ("parse" or "execute") is `what`, or of every kind when `what` is empty.
std::map<std::string, std::string> GoldRejected(const std::string& what = "");

/// The sample database built from examples/plant.sql.
std::string SampleDb();

}  // namespace plainsql::test
