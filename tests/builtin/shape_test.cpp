// The shape of a query and the shape model (issue #19): shapes of the queries in shapes.txt, masked words of a real
// reading, the model's text form, fitting and the shipped model.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "builtin/shape.h"
#include "builtin/train.h"
#include "common/strings.h"
#include "sql/parser.h"

namespace plainsql::builtin {
namespace {

std::set<std::string> Names(const Shape& s) {
  std::set<std::string> out;
  for (size_t p = 0; p < kShapePropertyCount; ++p) {
    if (s[p]) out.emplace(kShapeProperties[p]);
  }
  return out;
}

TEST(Shape, OfEachQueryInTheCases) {
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/builtin/shapes.txt");
  ASSERT_TRUE(in) << "tests/builtin/shapes.txt not found";
  std::string line;
  size_t cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    const size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    auto query = sql::ParseQuery(line.substr(0, tab), sql::Sqlite());
    ASSERT_TRUE(query.ok()) << line << ": " << query.error().message;
    std::set<std::string> expected;
    std::istringstream words(line.substr(tab + 1));
    for (std::string w; words >> w;) {
      if (w != "-") expected.insert(w);
    }
    EXPECT_EQ(Names(ShapeOf(*query)), expected) << line;
    ++cases;
  }
  EXPECT_GE(cases, 20u);
}

TEST(Shape, InputsAreWordsAndPairsOnce) {
  const auto inputs = ShapeInputs({"how", "mani", "<mask>", "how"});
  const std::vector<std::string> expected = {"b:<mask>_how", "b:<s>_how", "b:how_mani", "b:mani_<mask>",
                                             "w:<mask>",     "w:how",     "w:mani"};
  EXPECT_EQ(inputs, expected);
}

TEST(ShapeModel, FitsPredictsAndRoundTrips) {
  // Questions saying "how many" ask for a count, the others do not: the fitted model says so of new questions.
  std::vector<std::vector<std::string>> words;
  std::vector<Shape> shapes;
  for (int i = 0; i < 40; ++i) {
    Shape counted{}, listed{};
    counted[6] = true;  // "count"
    words.push_back({"how", "mani", "<mask>", i % 2 ? "are" : "exist"});
    shapes.push_back(counted);
    words.push_back({"list", "the", "<mask>", i % 2 ? "of" : "for", "<mask>"});
    shapes.push_back(listed);
  }
  const ShapeModel model = FitShapeModel(words, shapes, 1.0);
  ASSERT_FALSE(model.Empty());
  constexpr size_t kCount = 6;
  ASSERT_EQ(kShapeProperties[kCount], "count");
  EXPECT_GT(model.Predict({"how", "mani", "<mask>", "do", "we", "have"})[kCount], 0.8);
  EXPECT_LT(model.Predict({"list", "all", "<mask>"})[kCount], 0.2);
  // A property no question has is predicted absent.
  EXPECT_LT(model.Predict({"how", "mani", "<mask>"})[0], 0.01);
  auto back = ShapeModel::Parse(model.Serialize("a header"));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->Inputs(), model.Inputs());
  EXPECT_NEAR(back->Predict({"how", "mani", "<mask>"})[kCount], model.Predict({"how", "mani", "<mask>"})[kCount], 1e-5);
  // Errors name the line.
  EXPECT_FALSE(ShapeModel::Parse("").ok());
  auto wrong = ShapeModel::Parse("property\twhere\n");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("line 1"), std::string::npos);
  std::string text = model.Serialize("");
  text += "w:extra" + std::string(kShapePropertyCount, '\t') + "\n";
  EXPECT_FALSE(ShapeModel::Parse(text).ok());  // empty cells are not numbers
}

TEST(ShapeModel, TheShippedModelIsTrainedAndAgreementRanksShapes) {
  const ShapeModel& m = ShapeModel::Builtin();
  ASSERT_GT(m.Inputs(), 100u);
  constexpr size_t kCount = 6, kOrder = 4;
  const auto how_many = m.Predict({"how", "mani", "<mask>", "are", "there", "?"});
  EXPECT_GT(how_many[kCount], 0.5);
  const auto sorted = m.Predict({"list", "the", "<mask>", "sort", "by", "<mask>", "in", "descend", "order"});
  EXPECT_GT(sorted[kOrder], 0.5);
  EXPECT_LT(how_many[kOrder], 0.5);
  // A count agrees better with "how many" than a list does.
  Shape count{}, list{};
  count[kCount] = true;
  EXPECT_GT(ShapeAgreement(count, how_many).first, ShapeAgreement(list, how_many).first);
  EXPECT_GT(ShapeAgreement(count, how_many).second, ShapeAgreement(list, how_many).second);
}

}  // namespace
}  // namespace plainsql::builtin
