// The shipped reading scorer (data/reading_scorer.tsv), shape model (data/shape_model.tsv) and lexicon
// (data/lexicon.tsv) are what `plainsql builtin train` and `plainsql builtin lexicon` make of Spider train: the same
// text, byte for byte.
#include <gtest/gtest.h>

#include <filesystem>

#include "builtin/lexicon_train.h"
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
                                     << "/train.json --db-dir " << spider
                                     << "/database -o data/reading_scorer.tsv --shape-out data/shape_model.tsv "
                                        "--skeletons-out data/skeletons.tsv";
  auto shipped_shape = ReadFileToString(std::string(PLAINSQL_SOURCE_DIR) + "/data/shape_model.tsv");
  ASSERT_TRUE(shipped_shape.ok());
  EXPECT_EQ(trained->shape_text, *shipped_shape) << "retrain with --shape-out data/shape_model.tsv";
  auto shipped_skeletons = ReadFileToString(std::string(PLAINSQL_SOURCE_DIR) + "/data/skeletons.tsv");
  ASSERT_TRUE(shipped_skeletons.ok());
  EXPECT_EQ(trained->skeletons_text, *shipped_skeletons) << "retrain with --skeletons-out data/skeletons.tsv";
  // The shape model predicts the held-out questions' shapes better than the more common value of each property.
  double accuracy = 0, majority = 0;
  for (size_t p = 0; p < kShapePropertyCount; ++p)
    accuracy += trained->shape_accuracy[p], majority += trained->shape_majority[p];
  EXPECT_GT(accuracy, majority);
  // The scorer ranks at least as well as the translator's own order on the held-out databases.
  EXPECT_GE(trained->held_out.ranked_right, trained->held_out.translator_right);
}

TEST(ReadingScorerData, TheShippedLexiconRegeneratesFromSpiderTrain) {
  const std::string spider = std::string(PLAINSQL_SHARED_DATA) + "/spider";
  if (!std::filesystem::exists(spider + "/train.json")) PLAINSQL_DATA_MISSING() << spider << "/train.json not found";
  auto bench = eval::LoadSpiderQuestions(spider + "/train.json");
  ASSERT_TRUE(bench.ok()) << bench.error().message;
  auto resources = linking::LinkResources::Load();
  ASSERT_TRUE(resources.ok()) << resources.error().message;
  LexiconOptions options;
  options.db_dir = spider + "/database";
  auto entries = LearnLexicon(*bench, options, **resources);
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  const auto& shipped = linking::Lexicon::Builtin().Entries();
  ASSERT_EQ(entries->size(), shipped.size()) << "relearn: plainsql builtin lexicon --questions " << spider
                                             << "/train.json --db-dir " << spider << "/database -o data/lexicon.tsv";
  for (size_t i = 0; i < shipped.size(); ++i) {
    EXPECT_EQ((*entries)[i].question_stem, shipped[i].question_stem);
    EXPECT_EQ((*entries)[i].schema_stem, shipped[i].schema_stem);
    EXPECT_EQ((*entries)[i].count, shipped[i].count);
  }
}

}  // namespace
}  // namespace plainsql::builtin
