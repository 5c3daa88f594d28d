// Skeletons of solved questions (issue #19, item 2): extraction from gold queries and filling with a question's
// material, as the cases of tests/builtin/skeletons.txt say; the text form; the shipped library; a skeleton reading
// among the translator's candidates.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "builtin/skeleton.h"
#include "builtin/translator.h"
#include "catalog/introspect.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "test_util.h"

namespace plainsql::builtin {
namespace {

// A skeleton line without its counts: SQL, columns, values.
Skeleton SkeletonFromLine(const std::string& line) {
  auto lib = SkeletonLibrary::Parse("1\t1\t" + line + "\n");
  if (!lib.ok() || lib->Size() != 1) {
    ADD_FAILURE() << "bad skeleton line: " << line << (lib.ok() ? "" : " (" + lib.error().message + ")");
    return {};
  }
  return lib->At(0);
}

ColumnRef ColumnFrom(std::string_view text) {
  const size_t dot = text.find('.');
  return {TrimmedCopy(text.substr(0, dot)), dot == std::string_view::npos ? "" : TrimmedCopy(text.substr(dot + 1))};
}

// "table.column OP literal" (a number, or a 'string'); "- OP literal" for a count's number.
Filter ValueFrom(const std::string& text) {
  Filter f;
  const size_t space = text.find(' ');
  if (text.substr(0, space) != "-") f.col = ColumnFrom(text.substr(0, space));
  std::string rest = TrimmedCopy(text.substr(space + 1));
  size_t literal = rest.rfind(' ');
  if (!rest.empty() && rest.back() == '\'') literal = rest.find('\'') - 1;
  f.op = TrimmedCopy(rest.substr(0, literal));
  std::string value = TrimmedCopy(rest.substr(literal + 1));
  if (value.size() >= 2 && value.front() == '\'') {
    f.value = {Literal::Kind::kString, value.substr(1, value.size() - 2), {}};
  } else {
    f.value = {Literal::Kind::kNumber, value, {}};
  }
  return f;
}

struct SkeletonDb {
  test::TempDir dir;
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
};

std::unique_ptr<SkeletonDb> MakeSkeletonDb(const std::string& ddl) {
  auto f = std::make_unique<SkeletonDb>();
  const std::string path = f->dir.File("skeletons.sqlite");
  test::MakeSqliteDb(path, ddl);
  auto conn = exec::Connect(path);
  if (!conn.ok()) return nullptr;
  f->conn = std::move(*conn);
  auto schema = catalog::Introspect(*f->conn, {});
  if (!schema.ok()) return nullptr;
  f->schema = std::move(*schema);
  return f;
}

TEST(Skeleton, CasesFile) {
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/builtin/skeletons.txt");
  ASSERT_TRUE(in) << "tests/builtin/skeletons.txt not found";
  std::vector<std::pair<std::string, std::string>> lines;
  std::string line, ddl;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(": ");
    ASSERT_NE(colon, std::string::npos) << line;
    lines.emplace_back(line.substr(0, colon), line.substr(colon + 2));
    if (lines.back().first == "ddl") ddl += lines.back().second + ";\n";
  }
  auto f = MakeSkeletonDb(ddl);
  ASSERT_TRUE(f);
  std::optional<Skeleton> extracted;
  SkeletonMaterial material;
  std::optional<FilledSkeleton> filled;
  Skeleton to_fill;
  size_t cases = 0;
  auto fill = [&] {
    SkeletonLibrary lib = SkeletonLibrary::FromCounts({to_fill}, 0, 0);
    if (lib.Size() == 1) filled = lib.Fill(0, material, f->schema, sql::Sqlite());
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& [key, value] = lines[i];
    SCOPED_TRACE(key + ": " + value);
    if (key == "gold") {
      auto q = sql::ParseQuery(value, sql::Sqlite());
      ASSERT_TRUE(q.ok()) << value;
      extracted = ExtractSkeleton(*q, f->schema, sql::Sqlite());
    } else if (key == "skeleton") {
      ++cases;
      if (value == "none") {
        EXPECT_FALSE(extracted) << extracted->Key();
      } else {
        ASSERT_TRUE(extracted);
        EXPECT_EQ(extracted->Key(), value);
      }
    } else if (key == "unbuilt") {
      ASSERT_TRUE(extracted);
      EXPECT_EQ(IsUnbuiltForm(*extracted), value == "yes");
    } else if (key == "fill") {
      to_fill = SkeletonFromLine(value);
      material = {};
      filled.reset();
    } else if (key == "tables") {
      for (const std::string& t : Split(value, ',')) material.tables.push_back(TrimmedCopy(t));
    } else if (key == "columns") {
      for (const std::string& c : Split(value, ',')) material.columns.push_back(ColumnFrom(c));
    } else if (key == "value") {
      material.values.push_back(ValueFrom(value));
    } else if (key == "A") {
      ++cases;
      fill();
      if (value == "none") {
        EXPECT_FALSE(filled) << sql::Print(filled->query, sql::Sqlite());
      } else {
        ASSERT_TRUE(filled);
        EXPECT_EQ(sql::Print(filled->query, sql::Sqlite()), value);
        // The filled query runs on the schema it was filled for.
        EXPECT_TRUE(f->conn->Query(value, exec::Limits{}).ok()) << value;
      }
    } else if (key == "unused") {
      ASSERT_TRUE(filled);
      EXPECT_EQ(filled->unused, std::stoul(value));
    } else {
      ASSERT_EQ(key, "ddl") << "unknown key";
    }
  }
  EXPECT_GE(cases, 14u);
}

TEST(Skeleton, TextFormRoundTripsAndRejectsBadLines) {
  const std::string text =
      "# a header\n"
      "5\t3\tSELECT s0 FROM t0 WHERE k NOT IN (SELECT f0 FROM t1)\tt0:s0,k t1:f0\t-\n"
      "2\t2\tSELECT s0 FROM t0 WHERE s1 = '?0' UNION SELECT s0 FROM t0 WHERE s1 = '?1'\tt0:s0,s1\t?0:=:s1,?1:=:s1\n";
  auto lib = SkeletonLibrary::Parse(text);
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  ASSERT_EQ(lib->Size(), 2u);
  EXPECT_EQ(lib->At(0).count, 5u);
  EXPECT_EQ(lib->At(1).values.size(), 2u);
  EXPECT_EQ(lib->Serialize("a header"), text);
  for (const char* bad : {"x\t1\tSELECT s0 FROM t0\tt0:s0\t-\n", "1\t1\tSELECT s0 FROM t0\tt0:s0\n",
                          "1\t1\tSELECT s9 FROM t0\tt0:s0\t-\n", "1\t1\tSELECT s0 FROM t0\tt0:s0\t?0=s0\n",
                          "1\t1\tSELECT fx FROM t0\tt0:fx\t-\n", "1\t1\tSELECT f3 FROM t0\tt0:f3\t-\n",
                          "1\t1\tSELECT s0 FROM t0 WHERE s0 = '?0'\tt0:s0\t?0:=:s7\n"}) {
    EXPECT_FALSE(SkeletonLibrary::Parse(bad).ok()) << bad;
  }
}

TEST(Skeleton, ShippedLibraryParsesWithUnbuiltFormsOnly) {
  const SkeletonLibrary& lib = SkeletonLibrary::Builtin();
  ASSERT_GT(lib.Size(), 10u) << "data/skeletons.tsv: retrain with --skeletons-out";
  for (size_t i = 0; i < lib.Size(); ++i) {
    EXPECT_TRUE(IsUnbuiltForm(lib.At(i))) << lib.At(i).sql;
    EXPECT_GE(lib.At(i).count, 2u);
  }
}

// The translator adds a filled skeleton as a reading of its own, marked for the scorer.
TEST(Skeleton, TranslatorAddsFilledSkeletons) {
  auto f = MakeSkeletonDb(
      "CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER);"
      "CREATE TABLE singer_in_concert (concert_id INTEGER, singer_id INTEGER REFERENCES singer(singer_id));"
      "INSERT INTO singer VALUES (1, 'Ann', 'France', 30), (2, 'Bo', 'Spain', 40);"
      "INSERT INTO singer_in_concert VALUES (7, 1);");
  ASSERT_TRUE(f);
  retrieval::Stemmer stemmer;
  linking::SchemaIndex index(f->schema, stemmer, nullptr, nullptr);
  auto lib = SkeletonLibrary::Parse("3\t2\tSELECT s0 FROM t0 WHERE k NOT IN (SELECT f0 FROM t1)\tt0:s0,k t1:f0\t-\n");
  ASSERT_TRUE(lib.ok());
  Translator translator(f->schema, index, nullptr);
  translator.UseSkeletons(&*lib);
  const Translation t = translator.Translate("What are the names of singers who are not in any singer in concert?",
                                             sql::Sqlite(), stemmer);
  const size_t flag = ReadingFeatureIndex("skeleton");
  size_t skeletons = 0;
  for (const auto& c : t.candidates) {
    if (c.features[flag] == 0) continue;
    ++skeletons;
    EXPECT_EQ(c.sql, "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)");
    EXPECT_EQ(c.features[ReadingFeatureIndex("negated")], 1);
  }
  EXPECT_EQ(skeletons, 1u);
  translator.UseSkeletons(nullptr);
  const Translation none = translator.Translate("What are the names of singers who are not in any singer in concert?",
                                                sql::Sqlite(), stemmer);
  for (const auto& c : none.candidates) EXPECT_EQ(c.features[flag], 0) << c.sql;
}

}  // namespace
}  // namespace plainsql::builtin
