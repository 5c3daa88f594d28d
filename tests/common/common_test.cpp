// Tests of the common helpers: error codes, strings, hashing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include "common/csv.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/status.h"
#include "common/strings.h"
#include "common/trees.h"

namespace plainsql {
namespace {

TEST(Status, ExitCodesAreDistinctAndNonZero) {
  std::set<int> codes;
  for (ErrorCode c :
       {ErrorCode::kInvalidArgument, ErrorCode::kNotFound, ErrorCode::kConnection, ErrorCode::kNotReadOnly,
        ErrorCode::kSql, ErrorCode::kTimeout, ErrorCode::kIo, ErrorCode::kFormat, ErrorCode::kInternal}) {
    int code = ExitCodeFor(c);
    EXPECT_NE(code, 0);
    EXPECT_TRUE(codes.insert(code).second) << "duplicate exit code " << code;
  }
}

TEST(Status, ResultHoldsValueOrError) {
  Result<int> ok = 5;
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 5);
  Result<int> bad = MakeError(ErrorCode::kTimeout, "slow");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(bad.error().message, "slow");
}

TEST(Strings, Basics) {
  EXPECT_EQ(ToLower("TB_Mo"), "tb_mo");
  EXPECT_TRUE(EqualsIgnoreCase("MO_ST", "mo_st"));
  EXPECT_FALSE(EqualsIgnoreCase("MO_ST", "MO_S"));
  EXPECT_EQ(Trim("  a b \n"), "a b");
  EXPECT_EQ(Split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(Join({"a", "b"}, ", "), "a, b");
  EXPECT_EQ(ReplaceAll("a'b'c", "'", "''"), "a''b''c");
  EXPECT_EQ(Utf8Width("Gdańsk"), 6u);
  EXPECT_EQ(ToHex(std::string("\x01\xff", 2)), "01ff");
}

TEST(File, WritesAtomicallyAndReportsFailure) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("plainsql-file-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dir);
  std::string path = (dir / "sub" / "f.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "one").ok());  // creates the directory
  ASSERT_TRUE(WriteFileAtomically(path, "two").ok());  // replaces the file
  std::ifstream in(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "sub"), fs::directory_iterator()), 1);  // no temporary left
  Status bad = WriteFileAtomically((dir / "sub" / "f.txt" / "below-a-file").string(), "x");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kIo);
  fs::remove_all(dir);
}

TEST(File, ReadsWholeFilesOfAnySize) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("plainsql-read-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dir);
  // Empty, shorter than the read block, exactly one block, and several blocks with a partial last one.
  for (size_t size : {size_t{0}, size_t{7}, size_t{1} << 16, (size_t{3} << 16) + 5}) {
    std::string content(size, '\0');
    for (size_t i = 0; i < size; ++i) content[i] = static_cast<char>('a' + (i * 7919) % 26);
    std::string path = (dir / ("f" + std::to_string(size))).string();
    ASSERT_TRUE(WriteFileAtomically(path, content).ok());
    auto read = ReadFileToString(path);
    ASSERT_TRUE(read.ok()) << size;
    EXPECT_EQ(*read, content) << size;
  }
  auto missing = ReadFileToString((dir / "none").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  auto directory = ReadFileToString(dir.string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().code, ErrorCode::kInvalidArgument);
  fs::remove_all(dir);
}

TEST(Csv, RecordsRoundTrip) {
  for (const std::string& field :
       {std::string("plain"), std::string("a,b"), std::string("say \"hi\""), std::string()}) {
    std::vector<std::string> fields = ParseCsvRecord(CsvField(field) + "," + CsvField("x"));
    ASSERT_EQ(fields.size(), 2u) << field;
    EXPECT_EQ(fields[0], field);
  }
}

TEST(Csv, DocumentsWithLineBreaksInQuotesCrlfAndAByteOrderMark) {
  const std::string text =
      "\xEF\xBB\xBFname,note\r\n"
      "a,\"two\r\nlines, \"\"quoted\"\"\"\r\n"
      "\n"
      "b,\n"
      "c,last";  // no final line break
  auto rows = ParseCsv(text);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "note"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"a", "two\r\nlines, \"quoted\""}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"b", ""}));
  EXPECT_EQ(rows[3], (std::vector<std::string>{"c", "last"}));
  EXPECT_TRUE(ParseCsv("").empty());
  EXPECT_TRUE(ParseCsv("\r\n\n").empty());
}

TEST(Strings, Utf8CheckAndWindows1252) {
  EXPECT_TRUE(IsUtf8("plain"));
  EXPECT_TRUE(IsUtf8("caf\xC3\xA9 \xE2\x80\x93 \xF0\x9F\x99\x82"));
  EXPECT_FALSE(IsUtf8("caf\xE9"));       // Latin-1
  EXPECT_FALSE(IsUtf8("\x95 bullet"));   // a Windows-1252 bullet
  EXPECT_FALSE(IsUtf8("\xC0\xAF"));      // overlong
  EXPECT_FALSE(IsUtf8("\xED\xA0\x80"));  // a surrogate
  EXPECT_FALSE(IsUtf8("\xE2\x80"));      // cut short
  EXPECT_EQ(Windows1252ToUtf8("\x95 caf\xE9 \x96 ok"), "\xE2\x80\xA2 caf\xC3\xA9 \xE2\x80\x93 ok");
  EXPECT_EQ(Windows1252ToUtf8("a\x81z"), "a\xEF\xBF\xBDz");  // undefined in the code page
  EXPECT_TRUE(IsUtf8(Windows1252ToUtf8(std::string("\x80\x9F\xFF\x00x", 5))));
}

TEST(Hash, FramedFieldsDoNotCollide) {
  Hasher a, b;
  a.Update("ab");
  a.Update("c");
  b.Update("a");
  b.Update("bc");
  EXPECT_NE(a.HexDigest(), b.HexDigest());
  EXPECT_EQ(HashHex("x").size(), 32u);
  EXPECT_EQ(HashHex("x"), HashHex("x"));
  EXPECT_NE(HashHex("x"), HashHex("y"));
}

TEST(Strings, AbbreviatesKeepsTheFirstLetterAndTheOrder) {
  EXPECT_TRUE(Abbreviates("cty", "city"));
  EXPECT_TRUE(Abbreviates("ap", "airport"));
  EXPECT_TRUE(Abbreviates("city", "city"));
  EXPECT_FALSE(Abbreviates("ty", "city"));   // another first letter
  EXPECT_FALSE(Abbreviates("cyt", "city"));  // out of order
  EXPECT_FALSE(Abbreviates("", "city"));
  EXPECT_FALSE(Abbreviates("c", ""));
}

// Two stumps on input "b": below 0.5 the margin is base + 1 - 2, else base - 1 + 3.
TreeEnsemble TwoStumps() {
  TreeEnsemble e;
  e.base_margin = 0.25;
  e.trees.push_back({TreeNode{1, 0.5F, 1, 2, 0}, TreeNode{-1, 0, -1, -1, 1.0F}, TreeNode{-1, 0, -1, -1, -1.0F}});
  e.trees.push_back({TreeNode{1, 0.5F, 1, 2, 0}, TreeNode{-1, 0, -1, -1, -2.0F}, TreeNode{-1, 0, -1, -1, 3.0F}});
  return e;
}

TEST(Trees, MarginWalksEachTreeToALeaf) {
  const TreeEnsemble e = TwoStumps();
  EXPECT_DOUBLE_EQ(e.Margin({9.0, 0.2}), 0.25 + 1 - 2);
  EXPECT_DOUBLE_EQ(e.Margin({9.0, 0.5}), 0.25 - 1 + 3);  // not below the threshold: right
  EXPECT_DOUBLE_EQ(e.Margin({9.0, 1e9}), 0.25 - 1 + 3);  // far beyond the last split: the same leaf
  EXPECT_DOUBLE_EQ(e.Margin({9.0}), 0.25 + 1 - 2);       // a missing input reads as 0
  EXPECT_DOUBLE_EQ(TreeEnsemble{}.Margin({1.0}), 0.0);
}

// Margins walks tree by tree what Margin walks row by row: the same sums, bit for bit, short rows reading 0.
TEST(Trees, MarginsOfManyRowsAreEachRowsMargin) {
  const TreeEnsemble stumps = TwoStumps();
  const std::vector<double> a = {9.0, 0.2}, b = {9.0, 0.5}, c = {9.0}, none;
  const std::vector<double> m = stumps.Margins({&a, &b, &c, &none});
  ASSERT_EQ(m.size(), 4u);
  EXPECT_DOUBLE_EQ(m[0], 0.25 + 1 - 2);
  EXPECT_DOUBLE_EQ(m[1], 0.25 - 1 + 3);
  EXPECT_DOUBLE_EQ(m[2], 0.25 + 1 - 2);
  EXPECT_DOUBLE_EQ(m[3], 0.25 + 1 - 2);
  EXPECT_TRUE(stumps.Margins({}).empty());
  EXPECT_EQ(TreeEnsemble{}.Margins({&a}), std::vector<double>{0.0});
  // Many deeper trees over six inputs, rows of every length: equal to Margin exactly.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0F, 1.0F);
  TreeEnsemble e;
  e.base_margin = 0.1;
  for (int t = 0; t < 50; ++t) {
    std::vector<TreeNode> nodes;  // a complete tree of depth 3: nodes 0-6 split, 7-14 are leaves
    for (int n = 0; n < 15; ++n) {
      nodes.push_back(n < 7 ? TreeNode{static_cast<int32_t>(rng() % 6), uniform(rng), 2 * n + 1, 2 * n + 2, 0}
                            : TreeNode{-1, 0, -1, -1, uniform(rng)});
    }
    e.trees.push_back(std::move(nodes));
  }
  ASSERT_TRUE(e.Check().ok());
  std::vector<std::vector<double>> rows;
  for (int r = 0; r < 200; ++r) {
    std::vector<double> x(static_cast<size_t>(r % 7));
    for (double& v : x) v = uniform(rng);
    rows.push_back(std::move(x));
  }
  std::vector<const std::vector<double>*> pointers;
  for (const auto& x : rows) pointers.push_back(&x);
  const std::vector<double> all = e.Margins(pointers);
  ASSERT_EQ(all.size(), rows.size());
  for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(all[r], e.Margin(rows[r])) << r;
}

TEST(Trees, TextFormRoundTripsAndBadLinesAreRefused) {
  const std::vector<std::string> inputs = {"a", "b"};
  const TreeEnsemble e = TwoStumps();
  TreeEnsemble again;
  for (const auto& line : Split(e.Serialize("m", inputs), '\n')) {
    if (line.empty()) continue;
    std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f[0].rfind("m_", 0), 0u) << line;
    f[0] = f[0].substr(2);
    ASSERT_TRUE(again.ParseLine(f, inputs).ok()) << line;
  }
  ASSERT_TRUE(again.Check().ok());
  EXPECT_EQ(again.Serialize("m", inputs), e.Serialize("m", inputs));
  for (double b : {0.0, 0.49, 0.5, 7.0}) EXPECT_DOUBLE_EQ(again.Margin({0, b}), e.Margin({0, b}));

  TreeEnsemble bad;
  EXPECT_FALSE(bad.ParseLine({"node", "0", "0", "nope", "0.5", "1", "2"}, inputs).ok());  // unknown input
  EXPECT_FALSE(bad.ParseLine({"leaf", "0", "-1", "1"}, inputs).ok());                     // negative node
  EXPECT_FALSE(bad.ParseLine({"leaf", "0", "0", "x"}, inputs).ok());                      // not a number
  EXPECT_FALSE(bad.ParseLine({"base"}, inputs).ok());
  ASSERT_TRUE(bad.ParseLine({"leaf", "0", "0", "1"}, inputs).ok());
  EXPECT_FALSE(bad.ParseLine({"leaf", "0", "0", "1"}, inputs).ok());  // given twice
  TreeEnsemble gap;                                                   // node 1 never given
  ASSERT_TRUE(gap.ParseLine({"leaf", "0", "2", "1"}, inputs).ok());
  EXPECT_FALSE(gap.Check().ok());
  TreeEnsemble cycle;  // a child before its parent would loop
  ASSERT_TRUE(cycle.ParseLine({"node", "0", "0", "a", "0.5", "0", "1"}, inputs).ok());
  ASSERT_TRUE(cycle.ParseLine({"leaf", "0", "1", "1"}, inputs).ok());
  EXPECT_FALSE(cycle.Check().ok());
}

}  // namespace
}  // namespace plainsql
