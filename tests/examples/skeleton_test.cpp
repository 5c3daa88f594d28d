// examples::Skeleton: cases in data/skeleton_cases.txt.
#include <gtest/gtest.h>

#include <string>

#include "common/strings.h"
#include "examples/skeleton.h"
#include "test_util.h"

namespace plainsql::examples {
namespace {

TEST(Skeleton, Cases) {
  size_t cases = 0;
  for (const auto& line : Split(test::ReadFile(test::DataFile("examples", "skeleton_cases.txt")), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    ASSERT_EQ(f.size(), 2u) << line;
    EXPECT_EQ(Skeleton(f[0]), f[1]) << f[0];
    ++cases;
  }
  EXPECT_GE(cases, 14u);
}

TEST(Skeleton, SameMaskedQuerySameSkeletonAndCoarser) {
  EXPECT_EQ(Skeleton(""), "");
  // Two masked queries that differ only in how many columns, joins and conditions share a skeleton.
  EXPECT_EQ(Skeleton("SELECT <mask> FROM <mask> WHERE <mask> = <value>"),
            Skeleton("SELECT <mask>.<mask>, <mask>.<mask> FROM <mask> AS <mask> JOIN <mask> AS <mask> ON "
                     "<mask>.<mask> = <mask>.<mask> WHERE <mask>.<mask> > <value> AND <mask>.<mask> = <value>"));
  // What the question asks for in kind still differs: an aggregate, a grouping, a set operation.
  EXPECT_NE(Skeleton("SELECT count(*) FROM <mask>"), Skeleton("SELECT <mask> FROM <mask>"));
  EXPECT_NE(Skeleton("SELECT <mask> FROM <mask> GROUP BY <mask>"), Skeleton("SELECT <mask> FROM <mask>"));
}

}  // namespace
}  // namespace plainsql::examples
