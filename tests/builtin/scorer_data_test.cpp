// The shipped reading scorer (data/reading_scorer.tsv) is what `plainsql builtin train` makes of Spider train: the
// same text, byte for byte, and its held-out figures are those quoted in docs/BENCHMARKS.md.
#include <gtest/gtest.h>

#include <filesystem>

#include "builtin/train.h"
#include "common/file.h"
#include "data_test.h"
#include "eval/benchmark.h"

namespace plainsql::builtin {
namespace {

TEST(ReadingScorerData, TheShippedModelRegeneratesFromSpiderTrain) {
  const std::string spider = std::string(PLAINSQL_SHARED_DATA) + "/spider";
  if (!std::filesystem::exists(spider + "/train.json")) PLAINSQL_DATA_MISSING() << spider << "/train.json not found";
  auto bench = eval::LoadSpiderQuestions(spider + "/train.json");
  ASSERT_TRUE(bench.ok()) << bench.error().message;
  auto resources = linking::LinkResources::Load();
  ASSERT_TRUE(resources.ok()) << resources.error().message;
  TrainOptions options;
  options.collect.db_dir = spider + "/database";
  options.source = "train.json";
  auto trained = TrainReadingScorer(*bench, options, **resources);
  ASSERT_TRUE(trained.ok()) << trained.error().message;
  auto shipped = ReadFileToString(std::string(PLAINSQL_SOURCE_DIR) + "/data/reading_scorer.tsv");
  ASSERT_TRUE(shipped.ok());
  EXPECT_EQ(trained->text, *shipped) << "retrain: plainsql builtin train --questions " << spider
                                     << "/train.json --db-dir " << spider << "/database -o data/reading_scorer.tsv";
  // The scorer ranks at least as well as the translator's own order on the held-out databases.
  EXPECT_GE(trained->held_out.ranked_right, trained->held_out.translator_right);
}

}  // namespace
}  // namespace plainsql::builtin
