// Naturalness stage, unit level: identifier analysis, the word list, the shipped classifier, profiles and reports.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "naturalness/dictionary.h"
#include "naturalness/expander.h"
#include "naturalness/identifier.h"
#include "naturalness/name_model.h"
#include "naturalness/namer.h"
#include "naturalness/profile.h"
#include "naturalness/report.h"
#include "naturalness/translate_query.h"
#include "naturalness/wordlist.h"
#include "test_util.h"

namespace plainsql::naturalness {
namespace {

std::vector<std::string> Words(std::string_view name) {
  std::vector<std::string> out;
  for (auto w : SplitWords(name)) out.emplace_back(w);
  return out;
}

TEST(Identifier, SplitsEveryWayNamesAreWritten) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Words("customer_id"), (V{"customer", "id"}));
  EXPECT_EQ(Words("CustomerID"), (V{"Customer", "ID"}));
  EXPECT_EQ(Words("XMLFileName"), (V{"XML", "File", "Name"}));
  EXPECT_EQ(Words("Pay_Day4"), (V{"Pay", "Day", "4"}));
  EXPECT_EQ(Words("RDN14"), (V{"RDN", "14"}));
  EXPECT_EQ(Words("first name"), (V{"first", "name"}));
  EXPECT_EQ(Words("~TMPCLP650861"), (V{"TMPCLP", "650861"}));
  EXPECT_EQ(Words("numteachinexp"), (V{"numteachinexp"}));
  EXPECT_EQ(Words(""), V{});
  EXPECT_EQ(Words("@"), V{});
  EXPECT_EQ(Words("Größe"), (V{"Gr", "e"}));  // non-ASCII bytes separate words; their tags say "other"
}

TEST(Identifier, SnailsCharacterTags) {
  EXPECT_EQ(CharTags("Pay_Day4"), "+^+$+^+#");
  EXPECT_EQ(CharTags("a-b@c d!"), "^$+$+*+*");
  EXPECT_EQ(CharTags(""), "");
}

// A small word list built from files, so these tests do not depend on Debian's lists.
class SmallWordList : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(dir_.File("common")) << "teach\nnumber\namount\npayable\ndescription\nexperience\n";
    std::ofstream(dir_.File("rare")) << "Teacher\nexp\nnum\ncan't\nx-ray\n";
    WordListSources s;
    s.dictionaries = {{dir_.File("common"), 0}, {dir_.File("rare"), 2}};
    s.wordnet_dir = "";
    auto built = WordList::Build(s);
    ASSERT_TRUE(built.ok()) << built.error().message;
    words_ = std::make_unique<WordList>(std::move(*built));
  }
  test::TempDir dir_;
  std::unique_ptr<WordList> words_;
};

TEST_F(SmallWordList, TiersPrefixesAndSkeletons) {
  EXPECT_EQ(words_->Size(), 9u);  // "can't" and "x-ray" are skipped
  EXPECT_EQ(words_->Tier("teach"), 0);
  EXPECT_EQ(words_->Tier("teacher"), 2);  // case folded
  EXPECT_EQ(words_->Tier("id"), 0);       // a short function word
  EXPECT_FALSE(words_->Tier("zz"));
  EXPECT_TRUE(words_->IsCommonPrefix("desc"));
  EXPECT_FALSE(words_->IsCommonPrefix("description"));  // the whole word is not a prefix of itself
  EXPECT_TRUE(words_->IsCommonSkeleton("amnt"));
  EXPECT_TRUE(words_->IsCommonSkeleton("pybl"));
  EXPECT_EQ(ConsonantSkeleton("payable"), "pybl");
  // Round trip through the shipped file format.
  std::ofstream(dir_.File("w.tsv")) << words_->Serialize("test");
  auto again = WordList::Load(dir_.File("w.tsv"));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->Serialize("test"), words_->Serialize("test"));
  std::ofstream(dir_.File("bad.tsv")) << "word\n";
  EXPECT_EQ(WordList::Load(dir_.File("bad.tsv")).error().code, ErrorCode::kFormat);
}

// A list read from a file in any order and with a word twice keeps the word's lowest tier; a list of a few short
// words (fewer letters than a string holds in itself) still finds them after being moved.
TEST_F(SmallWordList, UnsortedFilesRepeatedWordsAndMoves) {
  std::ofstream(dir_.File("unsorted.tsv")) << "# comment\nzoo\t2\nant\t1\nzoo\t0\ncat\t3\n";
  auto list = WordList::Load(dir_.File("unsorted.tsv"));
  ASSERT_TRUE(list.ok()) << list.error().message;
  WordList moved = std::move(*list);
  EXPECT_EQ(moved.Size(), 3u);
  EXPECT_EQ(moved.Tier("zoo"), 0);
  EXPECT_EQ(moved.Tier("ant"), 1);
  EXPECT_EQ(moved.Tier("cat"), 3);
  EXPECT_FALSE(moved.Tier("dog"));
  EXPECT_EQ(moved.Serialize("h"), "# h\nant\t1\ncat\t3\nzoo\t0\n");
  EXPECT_FALSE(WordList().Tier("ant"));  // an empty list finds nothing
}

TEST_F(SmallWordList, SegmentsRunTogetherWordsAndKindsOfWords) {
  Segmentation s = Segment("numteachinexp", *words_);
  EXPECT_EQ(s.parts, (std::vector<std::string>{"num", "teach", "in", "exp"}));
  EXPECT_EQ(s.unknown_letters, 0);
  EXPECT_EQ(AnalyzeWord("teach", *words_).kind, WordKind::kWord);
  EXPECT_EQ(AnalyzeWord("42", *words_).kind, WordKind::kNumber);
  EXPECT_EQ(AnalyzeWord("teachnumber", *words_).kind, WordKind::kSegmented);
  EXPECT_EQ(AnalyzeWord("desc", *words_).kind, WordKind::kPrefix);
  EXPECT_EQ(AnalyzeWord("amnt", *words_).kind, WordKind::kSkeleton);
  EXPECT_EQ(AnalyzeWord("qzx", *words_).kind, WordKind::kUnknown);
  std::string long_run(300, 'q');
  EXPECT_EQ(Segment(long_run, *words_).unknown_letters, 300);
}

const Classifier& Shipped() {
  static Classifier* c = [] {
    auto loaded = Classifier::Load(std::string(PLAINSQL_SOURCE_DIR) + "/data");
    EXPECT_TRUE(loaded.ok()) << loaded.error().message;
    return new Classifier(std::move(*loaded));
  }();
  return *c;
}

TEST(Classifier, ShippedModelSeparatesTheLevels) {
  EXPECT_EQ(Shipped().Classify("customer_id").level, Level::kRegular);
  EXPECT_EQ(Shipped().Classify("first_name").level, Level::kRegular);
  EXPECT_EQ(Shipped().Classify("MO_ST").level, Level::kLeast);
  EXPECT_EQ(Shipped().Classify("TB_MO").level, Level::kLeast);
  EXPECT_EQ(Shipped().Classify("CustAddr").level, Level::kLow);
}

TEST(Classifier, AnyInputGivesThreeProbabilities) {
  std::string emoji = "\xF0\x9F\x99\x82";
  std::string invalid_utf8 = "\xFF\xFE\x80";
  for (const std::string& name : {std::string(), std::string(1000, 'x'),
                                  std::string("Gr\xC3\xB6\xC3\x9F"
                                              "e"),
                                  std::string("first name"), std::string("a\"b'c`d[e]"), emoji, invalid_utf8,
                                  std::string("\t\n"), std::string(1000, '_')}) {
    Prediction p = Shipped().Classify(name);
    double sum = p.p[0] + p.p[1] + p.p[2];
    EXPECT_NEAR(sum, 1.0, 1e-9) << name;
    for (double x : p.p) EXPECT_TRUE(x >= 0 && x <= 1 && std::isfinite(x)) << name;
    EXPECT_EQ(p.level, kLevels[std::max_element(p.p.begin(), p.p.end()) - p.p.begin()]);
  }
}

TEST(Classifier, ModelFileRoundTripsAndBadFilesAreRefused) {
  auto again = Model::Parse(Shipped().GetModel().Serialize(), "copy");
  ASSERT_TRUE(again.ok()) << again.error().message;
  for (const char* name : {"customer_id", "MO_ST", "CustAddr", ""}) {
    Prediction a = Shipped().Classify(name), b = again->Classify(name, Shipped().Words());
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.p[k], b.p[k], 1e-6) << name;
  }
  EXPECT_EQ(Model::Parse("hello\n", "x").error().code, ErrorCode::kFormat);
  EXPECT_EQ(Model::Parse("format plainsql-naturalness 1\n", "x").error().code, ErrorCode::kFormat);  // no bias
  EXPECT_EQ(Model::Parse("format plainsql-naturalness 1\nbias 0 0 0\nf a%G 1 2 3\n", "x").error().code,
            ErrorCode::kFormat);
  // Numbers are read whole: a field that is not one, or one too few, names the line.
  for (const char* bad : {"bias 0 x 0", "bias 0 0", "f a 1 2", "f a 1 2 3junk", "format plainsql-naturalness 1.5"}) {
    auto parsed = Model::Parse(fmt::format("format plainsql-naturalness 1\nbias 0 0 0\n{}\n", bad), "x");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().message.find("x:3:"), std::string::npos) << parsed.error().message;
  }
  auto spaced = Model::Parse("format  plainsql-naturalness 1\ninfo note  two words \nbias 0.5 -1e-3 2\n", "x");
  ASSERT_TRUE(spaced.ok()) << spaced.error().message;
  EXPECT_NE(spaced->Serialize().find("info note two words\n"), std::string::npos) << spaced->Serialize();
  EXPECT_NE(spaced->Serialize().find("bias 0.5 -0.001 2\n"), std::string::npos) << spaced->Serialize();
  EXPECT_EQ(Model::Load("/nonexistent/model").error().code, ErrorCode::kNotFound);
}

// Four dictionary words and two names of each level: a set any learner fits exactly.
struct TinySet {
  WordList words;
  std::vector<LabeledIdentifier> train = {{"customer_name", Level::kRegular},
                                          {"order_date", Level::kRegular},
                                          {"CustNm", Level::kLow},
                                          {"OrdDt", Level::kLow},
                                          {"XQ7", Level::kLeast},
                                          {"ZZK2", Level::kLeast}};
  TinySet() {
    test::TempDir dir;
    std::ofstream(dir.File("w")) << "customer\nname\norder\ndate\n";
    WordListSources s;
    s.dictionaries = {{dir.File("w"), 0}};
    s.wordnet_dir = "";
    auto built = WordList::Build(s);
    if (built.ok()) words = std::move(*built);
  }
};

TEST(Classifier, TrainsOnATinySetAndEvaluates) {
  const TinySet tiny;
  ASSERT_GT(tiny.words.Size(), 0u);
  const WordList* words = &tiny.words;
  const std::vector<LabeledIdentifier>& train = tiny.train;
  TrainReport report;
  TrainOptions options;
  options.c_values = {1, 10};
  auto model = Train(train, train, *words, options, &report);
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(report.candidates.size(), 2u);
  EvalReport ev = Evaluate(*model, *words, train);
  EXPECT_EQ(ev.n, 6u);
  EXPECT_DOUBLE_EQ(ev.accuracy, 1.0);
  EXPECT_EQ(ev.confusion[0][0] + ev.confusion[1][1] + ev.confusion[2][2], 6);
  EXPECT_FALSE(Train({}, {}, *words, options, nullptr).ok());
}

// The ordinal learner (the default) fits two boundaries, Regular or not and Least or not: Low keeps no weight of its
// own. One regression per level fits the same tiny set too, with weights for Low.
TEST(Classifier, TheOrdinalLearnerLeavesLowToNeitherBoundary) {
  const TinySet tiny;
  ASSERT_GT(tiny.words.Size(), 0u);
  const WordList* words = &tiny.words;
  const std::vector<LabeledIdentifier>& train = tiny.train;
  auto low_weights = [](const Model& m) {
    size_t nonzero = 0;
    std::istringstream in(m.Serialize());
    for (std::string line; std::getline(in, line);) {
      std::istringstream f(line);
      std::string kind, name;
      double w1 = 0, w2 = 0, w3 = 0;
      if (f >> kind && (kind == "f" || kind == "bias")) {
        if (kind == "f") f >> name;
        f >> w1 >> w2 >> w3;
        nonzero += w2 != 0;
      }
    }
    return nonzero;
  };
  TrainOptions options;
  options.c_values = {10};
  EXPECT_EQ(options.learner, Learner::kOrdinal);
  auto ordinal = Train(train, train, *words, options, nullptr);
  ASSERT_TRUE(ordinal.ok()) << ordinal.error().message;
  EXPECT_EQ(low_weights(*ordinal), 0u);
  EXPECT_NE(ordinal->Serialize().find("info solver liblinear-L2R_LR-ordinal\n"), std::string::npos);
  EXPECT_DOUBLE_EQ(Evaluate(*ordinal, *words, train).accuracy, 1.0);
  EXPECT_EQ(ordinal->Classify("CustNm", *words).level, Level::kLow);

  options.learner = Learner::kOneVsRest;
  auto per_level = Train(train, train, *words, options, nullptr);
  ASSERT_TRUE(per_level.ok()) << per_level.error().message;
  EXPECT_GT(low_weights(*per_level), 0u);
  EXPECT_NE(per_level->Serialize().find("info solver liblinear-L2R_LR-one-vs-rest\n"), std::string::npos);
  EXPECT_DOUBLE_EQ(Evaluate(*per_level, *words, train).accuracy, 1.0);

  EXPECT_EQ(ParseLearner("ordinal"), Learner::kOrdinal);
  EXPECT_EQ(ParseLearner("one-vs-rest"), Learner::kOneVsRest);
  EXPECT_FALSE(ParseLearner("svm"));
}

TEST(Classifier, LoadsLabelledFilesAndRefusesBadOnes) {
  test::TempDir dir;
  std::ofstream(dir.File("ok.csv")) << "text,category,label\r\ncustomer_id,N1,0\r\n\"a,b\",N3,2\r\n";
  auto rows = LoadLabeled(dir.File("ok.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].text, "a,b");
  EXPECT_EQ((*rows)[1].level, Level::kLeast);
  std::ofstream(dir.File("disagree.csv")) << "text,category,label\nx,N1,2\n";
  EXPECT_EQ(LoadLabeled(dir.File("disagree.csv")).error().code, ErrorCode::kFormat);
  std::ofstream(dir.File("nohead.csv")) << "x,y\n";
  EXPECT_EQ(LoadLabeled(dir.File("nohead.csv")).error().code, ErrorCode::kFormat);
}

TEST(Profile, SampleDatabaseScoresAndWarnings) {
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  auto schema = catalog::Introspect(**conn, opts);
  ASSERT_TRUE(schema.ok());
  // Add what the sample lacks: names that differ only by case, and the word "table" in a name.
  for (const char* name : {"Notes", "notes"}) {
    schema->tables[0].columns.push_back(catalog::Column{});
    schema->tables[0].columns.back().name = name;
  }
  schema->tables[1].columns.push_back(catalog::Column{});
  schema->tables[1].columns.back().name = "lookup_table_ref";
  SchemaProfile p = ProfileSchema(*schema, Shipped());
  EXPECT_EQ(p.tables.Total(), static_cast<int>(schema->tables.size()));
  EXPECT_EQ(p.columns.Total(), static_cast<int>(schema->ColumnCount()));
  EXPECT_EQ(p.all.Total(), p.tables.Total() + p.columns.Total());
  EXPECT_NEAR(p.all.Combined(), (p.all.regular + 0.5 * p.all.low) / p.all.Total(), 1e-12);
  EXPECT_GT(p.all.least, 0);
  std::set<std::string> kinds;
  for (const auto& w : p.warnings) kinds.insert(w.kind);
  EXPECT_EQ(kinds, (std::set<std::string>{"whitespace", "reserved word", "case-only difference", "table word"}));
  auto least = p.LeastNaturalFirst();
  ASSERT_EQ(least.size(), static_cast<size_t>(p.all.Total()));
  for (size_t i = 1; i < least.size(); ++i) EXPECT_LE(least[i - 1]->Score(), least[i]->Score());

  std::string html = RenderProfile(p, ProfileFormat::kHtml);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained, no scripts
  EXPECT_EQ(html.find("http"), std::string::npos);     // nothing fetched from anywhere
  EXPECT_NE(html.find("Reported By"), std::string::npos);
  std::string csv = RenderProfile(p, ProfileFormat::kCsv);
  EXPECT_EQ(static_cast<int>(std::count(csv.begin(), csv.end(), '\n')), p.all.Total() + 1);
  auto json = nlohmann::json::parse(RenderProfile(p, ProfileFormat::kJson));
  EXPECT_EQ(json["all"]["names"], p.all.Total());
  EXPECT_FALSE(ProfileFormatByName("pdf"));
}

}  // namespace
}  // namespace plainsql::naturalness

namespace plainsql::naturalness {
namespace {

TEST(Crosswalk, CollisionsAreResolvedTableByTable) {
  Crosswalk cw;
  cw.entries.push_back({"A", true, "db", "thing", "thng", "T", "", {}});
  cw.entries.push_back({"B", true, "db", "Thing", "thng2", "T2", "", {}});  // N1 collides with A's (case ignored)
  cw.entries.push_back({"X", false, "db", "code", "cd", "C", "", {}});      // any table
  cw.entries.push_back({"Y", false, "db", "code", "cd2", "C2", "A", {}});   // collides with X in A only
  sql::NameCatalog native;
  native.tables.push_back({"", "A", {"X", "Y"}});
  native.tables.push_back({"", "B", {"X", "Z"}});
  std::vector<std::string> warnings;
  Crosswalk fixed = ResolveCollisions(cw, native, &warnings);
  EXPECT_EQ(warnings.size(), 2u) << ::testing::PrintToString(warnings);
  EXPECT_EQ(fixed.TableName("A", Level::kRegular), "thing");
  EXPECT_EQ(fixed.TableName("B", Level::kRegular), "Thing_2");
  EXPECT_EQ(fixed.ColumnName("A", "X", Level::kRegular), "code");
  EXPECT_EQ(fixed.ColumnName("A", "Y", Level::kRegular), "code_2");
  EXPECT_EQ(fixed.ColumnName("B", "X", Level::kRegular), "code");  // no collision in B
  EXPECT_EQ(fixed.ColumnName("A", "Y", Level::kLow), "cd2");       // other levels untouched
  for (const auto& i : ValidateCrosswalk(fixed, &native)) EXPECT_FALSE(i.error) << i.message;
  std::vector<std::string> none;
  EXPECT_EQ(SerializeCrosswalk(ResolveCollisions(fixed, native, &none)), SerializeCrosswalk(fixed));
  EXPECT_TRUE(none.empty());
}

TEST(Crosswalk, SavesLoadsAndValidates) {
  Crosswalk cw;
  cw.entries.push_back({"TB_MO", true, "plant", "maintenance_order", "mnt_ord", "TB_MO", "", {}});
  cw.entries.push_back({"MO_ST", false, "plant", "status", "st", "MO_ST", "TB_MO", {}});
  cw.entries.push_back({"MO_TYP", false, "plant", "Status", "typ", "MO_TYP", "TB_MO", {}});  // N1 collides with MO_ST
  cw.entries.push_back({"CRT_DT", false, "plant", "created, on", "crt", "order", "", {}});   // needs quoting; reserved
  cw.entries.push_back({"EQ_ID", false, "plant", "equipment_id", "", "EQ_ID", "", {}});      // no N2 name
  cw.entries.push_back({"EQ_ID", false, "plant", "equipment_id", "eq", "EQ_ID", "", {}});    // listed twice
  test::TempDir dir;
  ASSERT_TRUE(SaveCrosswalk(cw, dir.File("cw.csv")).ok());
  auto again = LoadCrosswalk(dir.File("cw.csv"));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(SerializeCrosswalk(*again), SerializeCrosswalk(cw));
  EXPECT_EQ((*again).entries[3].n1, "created, on");
  EXPECT_EQ((*again).entries[1].table, "TB_MO");
  EXPECT_EQ(SerializeCrosswalk(cw).find("N1_alternatives"), std::string::npos);  // no column when none has any

  // Other readings of a name at N1 ride in an eighth column, '|'-separated; the schema shown at N1 carries them.
  cw.entries[0].alternatives = {"motor_order", "mo"};
  ASSERT_TRUE(SaveCrosswalk(cw, dir.File("alt.csv")).ok());
  auto with = LoadCrosswalk(dir.File("alt.csv"));
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_EQ(SerializeCrosswalk(*with), SerializeCrosswalk(cw));
  EXPECT_EQ(with->entries[0].alternatives, (std::vector<std::string>{"motor_order", "mo"}));
  EXPECT_TRUE(with->entries[1].alternatives.empty());
  catalog::Schema plant;
  plant.tables.push_back({});
  plant.tables[0].name = "TB_MO";
  plant.tables[0].columns.push_back({});
  plant.tables[0].columns[0].name = "MO_ST";
  with->entries[1].alternatives = {"state"};
  catalog::Schema n1 = NaturalSchema(plant, *with, Level::kRegular);
  EXPECT_EQ(n1.tables[0].name, "maintenance_order");
  EXPECT_EQ(n1.tables[0].aliases, (std::vector<std::string>{"motor_order", "mo"}));
  EXPECT_EQ(n1.tables[0].columns[0].aliases, (std::vector<std::string>{"state"}));
  EXPECT_NE(catalog::StructuralFingerprint(n1),
            catalog::StructuralFingerprint(NaturalSchema(plant, cw, Level::kRegular)));
  catalog::Schema n2 = NaturalSchema(plant, *with, Level::kLow);
  EXPECT_TRUE(n2.tables[0].aliases.empty());
  EXPECT_TRUE(n2.tables[0].columns[0].aliases.empty());

  std::vector<std::string> errors, warnings;
  for (const auto& i : ValidateCrosswalk(cw)) (i.error ? errors : warnings).push_back(i.message);
  EXPECT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);      // duplicate, empty N2, N1 collision in TB_MO
  EXPECT_EQ(warnings.size(), 2u) << ::testing::PrintToString(warnings);  // quoting, reserved word

  // On the real schema: EQ_ID in two tables is fine; a name the schema does not have is reported.
  sql::NameCatalog native;
  native.tables.push_back({"", "TB_MO", {"MO_ID", "MO_ST", "MO_TYP", "EQ_ID", "CRT_DT"}});
  native.tables.push_back({"", "TB_EQUIP", {"EQ_ID"}});
  cw.entries.pop_back();
  cw.entries.push_back({"GHOST", false, "plant", "ghost", "gh", "G", "", {}});
  bool ghost = false;
  int errs = 0;
  for (const auto& i : ValidateCrosswalk(cw, &native)) {
    errs += i.error;
    ghost |= i.native == "GHOST";
  }
  EXPECT_TRUE(ghost);
  EXPECT_EQ(errs, 2);  // empty N2, N1 collision
}

}  // namespace
}  // namespace plainsql::naturalness

namespace plainsql::naturalness {
namespace {

// A name's other readings: one word at a time read as one of its alternatives, the least sure word first, every word's
// first alternative before any second; a word left as written offers its unsure reading.
TEST(Expander, AlternativeNamesOneWordAtATimeLeastSureFirst) {
  Expansion e;
  e.words.emplace_back(
      "Pil", "pilot", "model",
      std::vector<std::pair<std::string, std::string>>{{"pill", "model"}, {"pile", "model"}, {"pillar", "model"}});
  e.words.back().posterior = 0.9;
  e.words.emplace_back("Nm", "nm", "unchanged",
                       std::vector<std::pair<std::string, std::string>>{{"name", "model"}, {"number", "model"}});
  e.words.back().posterior = 0.2;
  e.words.emplace_back("id", "id", "word");
  e.name = "pilot_nm_id";
  EXPECT_EQ(AlternativeNames(e),
            (std::vector<std::string>{"pilot_name_id", "pill_nm_id", "pilot_number_id", "pile_nm_id"}));
  EXPECT_EQ(AlternativeNames(e, 1), (std::vector<std::string>{"pilot_name_id"}));
  EXPECT_EQ(AlternativeNames(e, 10).size(), 5u);
  e.words.resize(1);
  e.words[0].alternatives.clear();
  e.name = "pilot";
  EXPECT_TRUE(AlternativeNames(e).empty());
}

TEST(Expander, ExpandsWordByWordAndSaysWhy) {
  const Classifier& c = Shipped();
  Expander e(c.Words(), {{"qty", "quantity"}, {"addr", "address"}});
  e.SetContext({"Location", "LocationName", "CustAddr"});
  Expansion x = e.Expand("LocCode");
  EXPECT_EQ(x.name, "location_code");
  ASSERT_EQ(x.words.size(), 2u);
  EXPECT_EQ(x.words[0].source, "schema");
  EXPECT_EQ(x.words[1].source, "word");
  EXPECT_EQ(e.Expand("qty_2").name, "quantity_2");
  EXPECT_EQ(e.Expand("FRNTHOOD").name, "front_hood");     // a run split into abbreviation-sized pieces
  EXPECT_EQ(e.Expand("2ndAddr").name.substr(0, 1), "n");  // never starts with a digit
  EXPECT_EQ(e.Expand("").name, "");
  EXPECT_DOUBLE_EQ(NameTokenF1("air_bag_location", "AirBagLocation"), 1.0);
  EXPECT_DOUBLE_EQ(NameTokenF1("air_bag", "AirBagLocation"), 0.8);
  EXPECT_TRUE(NameNormalizedEqual("Air_Bag", "airbag"));
}

TEST(Expander, DictionaryPhrasesExpandInitialsAndGeneralRulesApply) {
  const Classifier& c = Shipped();
  Expander e(c.Words(), {{"utm", "universal_transverse_mercator"}, {"coord", "coordinate"}, {"cd", "code"}});
  e.SetContext({"TB_MO", "MO_ST", "Lat", "Long", "Enumerations"});
  EXPECT_EQ(e.Expand("MO_ST").name.substr(0, 3), "mo_");  // no evidence: MO stays
  e.AddEvidence("Maintenance orders. The maintenance order status; each maintenance order has one.");
  Expansion x = e.Expand("MO_ST");
  EXPECT_EQ(x.words.at(0).expanded, "maintenance_order");
  EXPECT_EQ(x.words.at(0).source, "dictionary phrase");
  e.AddEvidence("Completion date.");  // a phrase seen once is not enough for two letters
  EXPECT_EQ(e.Expand("CD").name, "code");
  EXPECT_EQ(e.Expand("Long").name, "longitude");       // beside a latitude
  EXPECT_EQ(e.Expand("Enum").name, "enumeration");     // the singular of a schema word
  EXPECT_EQ(e.Expand("Xcoord").name, "x_coordinate");  // an axis letter run into an abbreviation
  EXPECT_EQ(e.Expand("UTMX").name, "universal_transverse_mercator_x");
  EXPECT_EQ(e.Expand("UTME").name, "universal_transverse_mercator_east");
}

// A schema's comments tell a copy of the expander what its cryptic words abbreviate, names without a comment too
// (MoOperation); the expander given stays as it was, and a schema without comments gives no copy.
TEST(Expander, ACopyReadsASchemasComments) {
  const Classifier& c = Shipped();
  Expander e(c.Words(), {{"cd", "code"}});
  catalog::Schema schema;
  catalog::Table mo;
  mo.name = "TB_MO";
  mo.comment = "Maintenance orders: one row per maintenance order";
  catalog::Column id;
  id.name = "MO_ID";
  id.comment = "Maintenance order number";
  mo.columns.push_back(id);
  catalog::Table operation;
  operation.name = "MoOperation";
  schema.tables = {mo, operation};
  std::unique_ptr<Expander> told = ExpanderWithComments(e, schema);
  ASSERT_TRUE(told);
  EXPECT_EQ(told->Expand("MoOperation").name, "maintenance_order_operation");
  EXPECT_EQ(e.Expand("MoOperation").name, "mo_operation");
  for (auto& t : schema.tables) {
    t.comment.clear();
    for (auto& col : t.columns) col.comment.clear();
  }
  EXPECT_EQ(ExpanderWithComments(e, schema), nullptr);
}

// The cases of fixtures/expander_rules.tsv: the rules alone, with the shipped abbreviations.
TEST(Expander, RulesReadTheCasesOfTheFixture) {
  const Classifier& c = Shipped();
  auto abbreviations = Expander::LoadAbbreviations(DefaultDataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/naturalness/fixtures/expander_rules.tsv");
  ASSERT_TRUE(in) << "fixtures/expander_rules.tsv";
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    Expander e(c.Words(), *abbreviations);
    if (f[0] != "-") e.SetContext(Split(f[0], ','));
    EXPECT_EQ(e.Expand(f[1]).name, f[2]) << f[1];
    ++cases;
  }
  EXPECT_GE(cases, 10);
}

catalog::Column TextColumn(std::string name, std::vector<std::string> samples,
                           catalog::TypeClass type = catalog::TypeClass::kText) {
  catalog::Column c;
  c.name = std::move(name);
  c.type_class = type;
  c.samples = std::move(samples);
  return c;
}

TEST(NameModel, ColumnShapesFromKeysTypesAndValues) {
  catalog::Table t;
  t.name = "T";
  t.primary_key = {"Id"};
  t.columns = {TextColumn("Id", {"1", "2"}),
               TextColumn("Flag", {"0", "1"}),
               TextColumn("Yr", {"1999", "2004"}),
               TextColumn("Age", {"23", "41"}),
               TextColumn("Pop", {"12000", "850000"}),
               TextColumn("Wt", {"1.5", "2.25"}),
               TextColumn("Dt", {"2020-01-31", "2021-11-02 10:00"}),
               TextColumn("Cd", {"AB", "X7"}),
               TextColumn("Nm", {"Paris", "New York"}),
               TextColumn("Kind", {"small", "large"}),
               TextColumn("Mail", {"a@b.org", "c@d.org"}),
               TextColumn("Ph", {"+1 555-0100", "555-0199"}),
               TextColumn("Yn", {"Y", "N"}),
               TextColumn("Empty", {}, catalog::TypeClass::kNumeric)};
  std::vector<std::string> want = {"key",  "flag",   "year", "small",   "int",         "real", "date",
                                   "code", "proper", "word", "contact", "number_text", "flag", "numeric"};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(ColumnShape(t, t.columns[i]), want[i]) << t.columns[i].name;
}

TEST(NameModel, AbbreviationChannel) {
  EXPECT_EQ(AbbreviationProbability("xyz", "country"), 0);      // not its letters
  EXPECT_EQ(AbbreviationProbability("country", "country"), 0);  // not an abbreviation
  EXPECT_EQ(AbbreviationProbability("ytr", "country"), 0);      // not from the first letter
  EXPECT_DOUBLE_EQ(AbbreviationProbability("c", "country"), 0.25);
  // The consonant skeleton and a prefix are likelier than scattered letters.
  EXPECT_GT(AbbreviationProbability("cntr", "country"), AbbreviationProbability("cuy", "country"));
  EXPECT_GT(AbbreviationProbability("cou", "country"), AbbreviationProbability("cuy", "country"));
  EXPECT_GT(AbbreviationProbability("ctry", "country"), 0);
  // How many letters are kept does not depend much on the word's length: "man" is as much manufacturer as manager.
  EXPECT_GT(AbbreviationProbability("man", "manufacturer") / AbbreviationProbability("man", "manager"), 0.8);
  EXPECT_EQ(Singular("categories"), "category");
  EXPECT_EQ(Singular("courses"), "course");
  EXPECT_EQ(Singular("status"), "status");
  EXPECT_EQ(Singular("address"), "address");
  EXPECT_EQ(Singular("gas"), "gas");
}

TEST(NameModel, LearnsSavesLoadsAndRefusesBadFiles) {
  catalog::Schema s;
  catalog::Table singer;
  singer.name = "singer";
  singer.primary_key = {"singer_id"};
  singer.columns = {TextColumn("singer_id", {"1", "2"}), TextColumn("age", {"23", "41"}),
                    TextColumn("first_name", {"Ann", "Bo"}), TextColumn("birth_year", {"1980", "1999"})};
  s.tables = {singer};
  NameModel m;
  m.Learn(s);
  EXPECT_EQ(m.Schemas(), 1);
  EXPECT_TRUE(m.Knows("singer"));
  EXPECT_GT(m.LogPrior("singer", true, 0.01), m.LogPrior("age", true, 0.01));     // a table word
  EXPECT_GT(m.LogPrior("age", false, 0.01), m.LogPrior("stadium", false, 0.01));  // a column word, an unseen one
  EXPECT_GT(m.ShapeEvidence("age", "small"), 0);
  EXPECT_LT(m.ShapeEvidence("age", "year"), 0);
  EXPECT_GT(m.Cohesion("first", "name"), 0);
  EXPECT_EQ(m.Cohesion("name", "first"), 0);  // "name" is never followed by a word
  test::TempDir dir;
  std::string path = dir.File("name_model.tsv");
  {
    std::ofstream f(path);
    f << m.Serialize("a test\nmodel");
  }
  auto back = NameModel::Load(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->Serialize("a test\nmodel"), m.Serialize("a test\nmodel"));
  EXPECT_DOUBLE_EQ(back->Cohesion("first", "name"), m.Cohesion("first", "name"));
  {
    std::ofstream f(path);
    f << "word\tage\tx\t1\t\n";
  }
  EXPECT_FALSE(NameModel::Load(path).ok());
  {
    std::ofstream f(path);
    f << "# nothing\n";
  }
  EXPECT_FALSE(NameModel::Load(path).ok());
  EXPECT_FALSE(NameModel::Load(path + ".missing").ok());
}

// The cases of fixtures/name_readings.tsv, read with the shipped name model.
TEST(NameModel, ShippedModelReadsCrypticNames) {
  const Classifier& c = Shipped();
  auto model = NameModel::Load(DefaultDataDir() + "/name_model.tsv");
  ASSERT_TRUE(model.ok()) << model.error().message;
  auto abbreviations = Expander::LoadAbbreviations(DefaultDataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  Expander e(c.Words(), *abbreviations);
  e.SetNameModel(&*model);
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/naturalness/fixtures/name_readings.tsv");
  ASSERT_TRUE(in) << "fixtures/name_readings.tsv";
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 6u) << line;
    NameContext ctx;
    ctx.is_table = f[1] == "table";
    if (f[2] != "-") ctx.shape = f[2];
    if (f[3] != "-") ctx.related = Split(f[3], ',');
    if (f[4] != "-") {
      for (const auto& kv : Split(f[4], ',')) {
        auto colon = kv.find(':');
        ctx.value_kinds[kv.substr(0, colon)] = std::stod(kv.substr(colon + 1));
      }
    }
    Expansion x = e.Expand(f[0], &ctx);
    EXPECT_EQ(x.name, f[5]) << f[0];
    ++cases;
  }
  EXPECT_GE(cases, 8);
  // Without the model the same expander leaves a single letter as it is.
  Expander plain(c.Words(), *abbreviations);
  NameContext year;
  year.shape = "year";
  EXPECT_EQ(plain.Expand("Y", &year).name, "y");
}

TEST(Dictionary, ReadsTextXmlAndPdf) {
  std::string dir = std::string(PLAINSQL_SOURCE_DIR) + "/tests/naturalness/fixtures/";
  auto xml = DictionaryText(dir + "plant_dictionary.xml");
  ASSERT_TRUE(xml.ok()) << xml.error().message;
  EXPECT_NE(xml->find("Status of the maintenance order"), std::string::npos);  // an attribute
  EXPECT_NE(xml->find("Operation confirmations & times"), std::string::npos);  // CDATA
  EXPECT_EQ(xml->find("<table"), std::string::npos);
  auto pdf = DictionaryText(dir + "plant_dictionary.pdf");
  ASSERT_TRUE(pdf.ok()) << pdf.error().message;
  EXPECT_NE(pdf->find("status of the maintenance order"), std::string::npos) << *pdf;
  auto csv = DictionaryText(std::string(PLAINSQL_SOURCE_DIR) + "/examples/plant_dictionary.csv");
  ASSERT_TRUE(csv.ok());
  EXPECT_TRUE(csv->starts_with("table,column,description"));
  // A folder (BIRD's database_description): every file, in name order, a Windows-1252 one as UTF-8.
  auto folder = DictionaryText(std::string(PLAINSQL_SOURCE_DIR) + "/tests/catalog/data/dictionary");
  ASSERT_TRUE(folder.ok()) << folder.error().message;
  EXPECT_LT(folder->find("A3,region"), folder->find("POPLATEK TYDNE"));  // District.csv before account.csv
  EXPECT_NE(folder->find("average salary \xE2\x80\x93 in CZK"), std::string::npos);

  test::TempDir tmp;
  std::ofstream(tmp.File("bad.xml")) << "<dictionary><table>";
  std::ofstream(tmp.File("bad.pdf")) << "not a pdf";
  auto bad_xml = DictionaryText(tmp.File("bad.xml"));
  ASSERT_FALSE(bad_xml.ok());
  EXPECT_EQ(bad_xml.error().code, ErrorCode::kFormat);
  auto bad_pdf = DictionaryText(tmp.File("bad.pdf"));
  ASSERT_FALSE(bad_pdf.ok());
  EXPECT_EQ(bad_pdf.error().code, ErrorCode::kFormat);
  EXPECT_EQ(DictionaryText(tmp.File("missing.pdf")).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(DictionaryText(tmp.File("missing.csv")).error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace plainsql::naturalness
