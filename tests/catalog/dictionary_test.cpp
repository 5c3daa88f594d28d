// Data dictionaries (catalog/dictionary.h): BIRD's folder of one CSV per table and a single CSV with a table field,
// read into a schema's comments and readable names.
#include "catalog/dictionary.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/schema.h"

namespace plainsql::catalog {
namespace {

const std::string kData = std::string(PLAINSQL_SOURCE_DIR) + "/tests/catalog/data/";

Column Named(const char* name) {
  Column c;
  c.name = name;
  return c;
}

Schema Bank() {
  Schema s;
  Table account;
  account.name = "account";
  for (const char* c : {"account_id", "frequency", "date"}) account.columns.push_back(Named(c));
  Table district;
  district.name = "district";
  for (const char* c : {"district_id", "A2", "A3", "A11", "A12"}) district.columns.push_back(Named(c));
  district.columns[4].comment = "declared by the database";
  s.tables = {account, district};
  return s;
}

TEST(DataDictionary, BirdFolderFillsCommentsAndLabels) {
  auto d = DataDictionary::Read(kData + "dictionary");
  ASSERT_TRUE(d.ok()) << d.error().message;
  Schema s = Bank();
  EXPECT_EQ(d->Apply(s), 6u);  // every column but A12 (declared) and district_id (its description repeats its name)
  const Table& account = s.tables[0];
  const Table& district = s.tables[1];
  // A readable name that only repeats the name is no label; a quoted value description over two lines is one line.
  EXPECT_EQ(account.columns[0].label, "");
  EXPECT_EQ(account.columns[0].comment, "the id of the account");
  EXPECT_EQ(account.columns[1].comment,
            "frequency of the account. \"POPLATEK MESICNE\" stands for monthly issuance; \"POPLATEK TYDNE\" stands "
            "for weekly issuance");
  EXPECT_EQ(account.columns[2].comment, "the creation date of the account. in the form YYMMDD");  // "date " trimmed
  // The file's name matches the table whatever its case; a description that repeats the label is dropped.
  EXPECT_EQ(district.columns[0].comment, "");
  EXPECT_EQ(district.columns[1].label, "district_name");
  EXPECT_EQ(district.columns[1].comment, "");
  EXPECT_EQ(district.columns[2].label, "region");
  // Windows-1252 bytes read as such: an en dash and a bullet.
  EXPECT_EQ(district.columns[3].label, "average salary");
  EXPECT_EQ(district.columns[3].comment, "average salary \xE2\x80\x93 in CZK. \xE2\x80\xA2 the mean of the year");
  EXPECT_EQ(district.columns[4].comment, "declared by the database");  // kept
  ASSERT_NE(d->Find("ACCOUNT", " frequency "), nullptr);
  EXPECT_EQ(d->Find("orphan", "x")->description, "something");  // a table the schema lacks is kept, unused
  EXPECT_EQ(d->Find("account", "nope"), nullptr);
}

TEST(DataDictionary, OneFileWithATableField) {
  auto d = DataDictionary::Read(kData + "dictionary.csv");
  ASSERT_TRUE(d.ok()) << d.error().message;
  Schema s = Bank();
  EXPECT_EQ(d->Apply(s), 2u);
  EXPECT_EQ(s.tables[0].comment, "One row per bank account");
  EXPECT_EQ(s.tables[0].columns[1].comment, "How often statements are issued");
  EXPECT_EQ(s.tables[1].columns[2].comment, "Region of the district");
  EXPECT_EQ(s.tables[1].comment, "");
  // Read and applied in one call, as the commands do.
  Schema again = Bank();
  auto applied = ApplyDataDictionary(kData + "dictionary.csv", again);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(*applied, 2u);
  EXPECT_EQ(again.tables[0].columns[1].comment, "How often statements are issued");
  EXPECT_FALSE(ApplyDataDictionary(kData + "no_such.csv", again).ok());
}

TEST(DataDictionary, LongDescriptionsAreCutAtACharacterBoundary) {
  const auto dir = std::filesystem::temp_directory_path() / "plainsql_dictionary_long";
  std::filesystem::create_directories(dir);
  std::string text = "table,column,description\nt,c,";
  for (int i = 0; i < 400; ++i) text += "\xC3\xA9";  // 800 bytes of two-byte characters
  {
    FILE* f = std::fopen((dir / "d.csv").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  auto d = DataDictionary::Read((dir / "d.csv").string());
  ASSERT_TRUE(d.ok()) << d.error().message;
  const std::string& cut = d->Find("t", "c")->description;
  EXPECT_LE(cut.size(), DataDictionary::kMaxDescriptionBytes);
  EXPECT_EQ(cut.substr(cut.size() - 3), "\xE2\x80\xA6");
  EXPECT_EQ((cut.size() - 3) % 2, 0u);  // no character split
  std::filesystem::remove_all(dir);
}

TEST(DataDictionary, ErrorsSayWhatIsWrong) {
  auto missing = DataDictionary::Read(kData + "no_such_dictionary");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  auto bad = DataDictionary::Read(kData + "dictionary_bad");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kFormat);
  EXPECT_NE(bad.error().message.find("no column field"), std::string::npos) << bad.error().message;
  auto no_table = DataDictionary::Read(kData + "dictionary/orphan.csv");  // one file needs a table field
  ASSERT_FALSE(no_table.ok());
  EXPECT_NE(no_table.error().message.find("table field"), std::string::npos) << no_table.error().message;
}

TEST(DataDictionary, FoundBesideADatabaseInBirdsLayout) {
  EXPECT_EQ(DataDictionaryBeside(kData + "bank.sqlite"), "");  // no database_description folder there
  const auto root = std::filesystem::temp_directory_path() / "plainsql_dictionary_layout";
  std::filesystem::create_directories(root / "bank" / "database_description");
  EXPECT_EQ(DataDictionaryBeside((root / "bank" / "bank.sqlite").string()),
            (root / "bank" / "database_description").string());
  EXPECT_EQ(DataDictionaryIn(root.string(), "bank"), (root / "bank" / "database_description").string());
  EXPECT_EQ(DataDictionaryIn(root.string(), "other"), "");
  EXPECT_EQ(DataDictionaryIn("", "bank"), "");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace plainsql::catalog
