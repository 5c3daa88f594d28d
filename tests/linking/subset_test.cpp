// The subsetters of issue #18 (src/linking/subset*.h) on a small fixture database (tests/linking/data/
// subset_schema.sql): every case of data/subset_cases.tsv keeps the tables and columns it lists; the budget caps the
// columns; the model file round-trips and the compiled-in one parses; a subset line is what `eval subsets` reads; the
// draft method keeps the tables its draft reads; builtin with the database reads the draft as evidence.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "eval/score.h"
#include "exec/connection.h"
#include "linking/lexicon.h"
#include "linking/subset_builtin.h"
#include "linking/subset_methods.h"
#include "retrieval/text.h"
#include "test_util.h"

namespace plainsql::linking {
namespace {

const std::string kData = std::string(PLAINSQL_SOURCE_DIR) + "/tests/linking/data/";

std::set<std::string> Kept(const Subset& s) {
  std::set<std::string> out;
  for (const auto& t : s.tables) out.insert(ToLower(t));
  for (const auto& c : s.columns) out.insert(ToLower(c));
  return out;
}

// Opens a SQLite file and reads its schema (no samples).
void OpenSchema(const std::string& file, std::unique_ptr<exec::Connection>& conn, catalog::Schema& schema) {
  auto c = exec::Connect(file);
  ASSERT_TRUE(c) << c.error().message;
  conn = std::move(*c);
  catalog::IntrospectOptions io;
  io.samples = 0;
  auto s = catalog::Introspect(*conn, io);
  ASSERT_TRUE(s) << s.error().message;
  schema = std::move(*s);
}

class SubsetTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_dir = new test::TempDir();
    test::MakeSqliteDb(shared_dir->File("shop.db"), test::ReadFile(kData + "subset_schema.sql"));
  }
  static void TearDownTestSuite() {
    delete shared_dir;
    shared_dir = nullptr;
  }
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(OpenSchema(shared_dir->File("shop.db"), conn, schema));
    auto v = retrieval::ValueIndex::Build(*conn, schema);
    ASSERT_TRUE(v) << v.error().message;
    values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    auto r = LinkResources::Load();
    ASSERT_TRUE(r) << r.error().message;
    subsetter = std::make_unique<BuiltinSubsetter>(schema, *r, values.get());
  }

  static test::TempDir* shared_dir;
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
  std::unique_ptr<retrieval::ValueIndex> values;
  std::unique_ptr<BuiltinSubsetter> subsetter;
};
test::TempDir* SubsetTest::shared_dir = nullptr;

// Every case of `file` (data/subset_cases.tsv by default), asked of `s`.
void ExpectCases(Subsetter& s, const std::string& file = "subset_cases.tsv", size_t at_least = 8,
                 const SubsetOptions& options = {});

TEST_F(SubsetTest, CasesKeepWhatTheyList) { ExpectCases(*subsetter); }

TEST_F(SubsetTest, CasesKeepWhatTheyListWithTheDraft) {
  // With the database at hand, builtin reads the built-in translator's draft as evidence.
  auto with_draft = MakeSubsetter("builtin", schema, conn.get(), values.get(), nullptr);
  ASSERT_TRUE(with_draft) << with_draft.error().message;
  ExpectCases(**with_draft);
  auto s = (*with_draft)->Select("How many customers are there?", {});
  ASSERT_TRUE(s);
  EXPECT_TRUE(std::any_of(s->notes.begin(), s->notes.end(), [](const std::string& n) {
    return n.rfind("draft: ", 0) == 0;
  })) << SubsetText(*s);
}

TEST_F(SubsetTest, DraftIsEvidenceAndItsAbsenceIsNot) {
  // A draft that reads supplier.country raises their probabilities; features without it are those of no draft.
  const std::string q = "How many orders have status shipped?";
  QuestionFeatures plain = subsetter->Features(q);
  subsetter->SetDraftSource([](const std::string&) {
    DraftReads d;
    d.given = true;
    d.tables = {"supplier"};
    d.columns = {{"supplier", "country"}};
    d.sql = "SELECT country FROM supplier";
    return d;
  });
  QuestionFeatures drafted = subsetter->Features(q);
  EXPECT_EQ(drafted.draft, "SELECT country FROM supplier");
  QuestionScores a = subsetter->Score(plain), b = subsetter->Score(drafted);
  EXPECT_FALSE(a.draft);
  EXPECT_TRUE(b.draft);
  size_t supplier = schema.tables.size(), country = 0;
  for (size_t t = 0; t < schema.tables.size(); ++t) {
    if (ToLower(schema.tables[t].name) != "supplier") continue;
    supplier = t;
    for (size_t c = 0; c < schema.tables[t].columns.size(); ++c) {
      if (ToLower(schema.tables[t].columns[c].name) == "country") country = c;
    }
  }
  ASSERT_LT(supplier, schema.tables.size());
  EXPECT_GT(b.tables[supplier], a.tables[supplier]);
  EXPECT_GT(b.columns[supplier][country], a.columns[supplier][country]);
  WithoutDraft(drafted);
  EXPECT_EQ(drafted.tables, plain.tables);
  EXPECT_EQ(drafted.columns, plain.columns);
  EXPECT_TRUE(drafted.draft.empty());
}

void ExpectCases(Subsetter& subsetter, const std::string& file, size_t at_least, const SubsetOptions& options) {
  std::ifstream in(kData + file);
  ASSERT_TRUE(in) << kData << file;
  std::string line;
  size_t cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto fields = Split(line, '\t');
    ASSERT_EQ(fields.size(), 2u) << line;
    auto s = subsetter.Select(fields[0], options);
    ASSERT_TRUE(s) << s.error().message;
    std::set<std::string> kept = Kept(*s);
    for (const auto& want : Split(fields[1], ' ')) {
      if (want.empty()) continue;
      if (want[0] == '!') {  // must be left out
        EXPECT_FALSE(kept.count(ToLower(want.substr(1)))) << fields[0] << ": kept " << want << "\n" << SubsetText(*s);
      } else {
        EXPECT_TRUE(kept.count(ToLower(want))) << fields[0] << ": missing " << want << "\n" << SubsetText(*s);
      }
    }
    ++cases;
  }
  EXPECT_GE(cases, at_least);
}

// A SQLite database made from a fixture's SQL (data/FILE), kept open, and its schema (no samples).
struct SqlFixture {
  test::TempDir dir;
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;

  void Open(const std::string& file) {
    test::MakeSqliteDb(dir.File("fixture.db"), test::ReadFile(kData + file));
    OpenSchema(dir.File("fixture.db"), conn, schema);
  }
};

// A schema of cryptic names and no declared keys (data/subset_cryptic.sql): the question's words say what a name
// abbreviates ("credit limit" for CRDLMT), and tables join by their same-named key columns (CUSTNO), not by every
// column they share (CRTDATE).
TEST(SubsetCryptic, AbbreviationsAndSameNamedKeys) {
  SqlFixture f;
  ASSERT_NO_FATAL_FAILURE(f.Open("subset_cryptic.sql"));
  auto values = retrieval::ValueIndex::Build(*f.conn, f.schema);
  ASSERT_TRUE(values) << values.error().message;
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  BuiltinSubsetter subsetter(f.schema, *r, &*values);
  ExpectCases(subsetter, "subset_cryptic_cases.tsv", 3);
}

// A column named by one abbreviated word (CTY, RM, GRD) is linked to the question word it abbreviates, with no
// database at hand (as for SNAILS' schemas): a subset of three columns keeps it (data/subset_abbreviated_words.sql).
TEST(SubsetCryptic, AWordAbbreviatedAloneIsKeptWithoutADatabase) {
  SqlFixture f;
  ASSERT_NO_FATAL_FAILURE(f.Open("subset_abbreviated_words.sql"));
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  BuiltinSubsetter subsetter(f.schema, *r, nullptr);
  SubsetOptions three;
  three.budget = 3;
  ExpectCases(subsetter, "subset_abbreviated_words_cases.tsv", 5, three);
}

TEST_F(SubsetTest, JoinPathTablesComeWithTheirKeys) {
  // order_line is named by no question: it is on the path between orders and product.
  auto s = subsetter->Select("Which customers ordered the Hammer?", {});
  ASSERT_TRUE(s);
  std::set<std::string> kept = Kept(*s);
  EXPECT_TRUE(kept.count("order_line.order_id") && kept.count("order_line.product_id")) << SubsetText(*s);
}

// Without a database no value index can say that "Grace Hopper" is a customer's name, but a proper noun is still
// evidence for where names are kept: the name column scores higher than for the same question without one. As if no
// database were at hand: no cell values, no draft.
TEST_F(SubsetTest, AProperNounPointsAtNameColumnsWithoutADatabase) {
  auto name_score = [&](const std::string& question) {
    QuestionScores p = subsetter->Score(subsetter->Features(question, false));
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      if (schema.tables[t].name != "customer") continue;
      for (size_t c = 0; c < schema.tables[t].columns.size(); ++c) {
        if (schema.tables[t].columns[c].name == "full_name") return p.columns[t][c];
      }
    }
    return -1.0;
  };
  const double named = name_score("Which orders did Grace Hopper place?");
  const double unnamed = name_score("Which orders did she place?");
  ASSERT_GE(unnamed, 0);
  EXPECT_GT(named, unnamed + 0.05);
  // A capital that only opens a sentence names nothing.
  EXPECT_DOUBLE_EQ(name_score("Which orders did she place? Show them."), name_score("Which orders did she place?"));
}

// distinct_link: a word that names one column of the schema (humidity) counts whole; one that several columns answer
// as well (product id, in three tables) counts a share. full_name_part: a full name points at a name column.
TEST_F(SubsetTest, DistinctLinksAndFullNamesAreFeatures) {
  const auto& names = ColumnFeatureNames();
  auto at = [&](const std::string& name) {
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const size_t distinct = at("distinct_link"), full_name = at("full_name_part");
  ASSERT_LT(distinct, names.size());
  ASSERT_LT(full_name, names.size());
  auto feature = [&](const std::string& question, const std::string& table, const std::string& column, size_t k) {
    QuestionFeatures f = subsetter->Features(question, false);
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      if (schema.tables[t].name != table) continue;
      for (size_t c = 0; c < schema.tables[t].columns.size(); ++c) {
        if (schema.tables[t].columns[c].name == column) return f.columns[t][c][k];
      }
    }
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(feature("List the products whose humidity is above 50", "warehouse_stock", "humidity", distinct),
                   1.0);
  const double shared = feature("Show every product id", "order_line", "product_id", distinct);
  EXPECT_GT(shared, 0.0);
  EXPECT_LT(shared, 1.0);
  EXPECT_DOUBLE_EQ(feature("Show every product id", "warehouse_stock", "humidity", distinct), 0.0);
  EXPECT_GT(feature("Which orders did Grace Hopper place?", "customer", "full_name", full_name), 0.0);
  EXPECT_DOUBLE_EQ(feature("Which orders did she place?", "customer", "full_name", full_name), 0.0);
  // A quoted name is a full name as one outside quotes is (customer has one name column: 0.5); a quoted code is not.
  EXPECT_DOUBLE_EQ(feature("Which orders were placed by \"Grace Hopper\"?", "customer", "full_name", full_name), 0.5);
  EXPECT_DOUBLE_EQ(feature("Which orders have the status \"CZE\"?", "customer", "full_name", full_name), 0.0);
}

TEST_F(SubsetTest, ResourcesMayCarryTheirOwnLexicon) {
  // A lexicon given with the resources (LinkResources::Load(lexicon), as bench/train_linker --cross-fit-lexicon gives
  // each fold one) is the one the subsetter's index reads: its made-up pair links the question word to the column,
  // which the active lexicon knows nothing of.
  retrieval::Stemmer stemmer;
  auto lexicon = Lexicon::Parse(fmt::format("zorblax\t{}\t5\t3\t0.9\n", stemmer.Stem("humidity")));
  ASSERT_TRUE(lexicon.ok());
  auto own = LinkResources::Load(std::make_shared<const Lexicon>(std::move(*lexicon)));
  ASSERT_TRUE(own) << own.error().message;
  EXPECT_NE((*own)->version, LinkResources::Load().value()->version);  // name caches are kept apart
  BuiltinSubsetter with(schema, *own, nullptr);
  const auto& names = ColumnFeatureNames();
  const size_t link = static_cast<size_t>(std::find(names.begin(), names.end(), "link") - names.begin());
  ASSERT_LT(link, names.size());
  auto humidity = [&](BuiltinSubsetter& s) {
    QuestionFeatures f = s.Features("List the products with a high zorblax", false);
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      for (size_t c = 0; c < schema.tables[t].columns.size(); ++c) {
        if (schema.tables[t].columns[c].name == "humidity") return f.columns[t][c][link];
      }
    }
    return -1.0;
  };
  EXPECT_GT(humidity(with), 0.0);
  EXPECT_DOUBLE_EQ(humidity(*subsetter), 0.0);
}

TEST_F(SubsetTest, BudgetCapsTheColumns) {
  SubsetOptions options;
  options.budget = 3;
  auto s = subsetter->Select("What is the quantity on hand in aisle A3 for each product title?", options);
  ASSERT_TRUE(s);
  EXPECT_LE(s->columns.size(), 3u) << SubsetText(*s);
  options.budget = 0;
  options.threshold = 0.0;  // everything passes
  auto all = subsetter->Select("anything", options);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->columns.size(), schema.ColumnCount());
}

// A floor on the share of columns: at least that share is kept, most probable first, whatever the thresholds.
TEST_F(SubsetTest, MinShareKeepsAtLeastThatShareOfTheColumns) {
  SubsetOptions options;
  options.threshold = 1.0;  // nothing passes the threshold but the best table
  auto few = subsetter->Select("Which orders did Ada Lovelace place?", options);
  ASSERT_TRUE(few);
  options.min_share = 0.5;
  auto half = subsetter->Select("Which orders did Ada Lovelace place?", options);
  ASSERT_TRUE(half);
  EXPECT_LT(few->columns.size(), schema.ColumnCount() / 2) << SubsetText(*few);
  EXPECT_GE(half->columns.size() * 2, schema.ColumnCount()) << SubsetText(*half);
}

// A table of `columns` text columns, the c-th named `column(c)`.
catalog::Table TextTable(const std::string& name, size_t columns, const std::function<std::string(size_t)>& column) {
  catalog::Table t;
  t.name = name;
  for (size_t c = 0; c < columns; ++c) {
    catalog::Column col;
    col.name = column(c);
    col.type_class = catalog::TypeClass::kText;
    t.columns.push_back(std::move(col));
  }
  return t;
}

// The floor ranks columns by their probability times the square root of their table's (kFloorTablePower): a share
// that keeps two columns takes the likely table's column over a slightly likelier one of an unlikely table.
TEST(SubsetFloor, TheFloorPrefersColumnsOfLikelyTables) {
  catalog::Schema s;
  s.database = "floor";
  for (const std::string name : {"Lead", "Likely", "Unlikely"}) {
    s.tables.push_back(TextTable(name, 4, [&](size_t c) { return fmt::format("{}Field{}", name, c); }));
  }
  BuiltinSubsetter subsetter(s, nullptr, nullptr);
  QuestionScores p;
  p.tables = {0.95, 0.6, 0.05};
  p.columns = {{0.9, 0.01, 0.01, 0.01}, {0.3, 0.01, 0.01, 0.01}, {0.4, 0.01, 0.01, 0.01}};
  SubsetOptions options;
  options.threshold = 1.0;  // only the floor (and the best table) keeps anything
  options.small_table = 0;
  options.min_share = 2.0 / 12;  // two columns
  const Subset got = subsetter.Choose(p, options);
  EXPECT_EQ(got.tables, (std::vector<std::string>{"Lead", "Likely"})) << SubsetText(got);
  EXPECT_EQ(got.columns, (std::vector<std::string>{"Lead.LeadField0", "Likely.LikelyField0"})) << SubsetText(got);
  // Between tables about as sure, the likelier column wins (0.4 x 0.84 against 0.3 x 0.95).
  p.tables = {0.95, 0.9, 0.7};
  EXPECT_EQ(subsetter.Choose(p, options).tables, (std::vector<std::string>{"Lead", "Unlikely"}));
}

// The floor's share between its points (SubsetCut::min_share_points) and beyond the last.
TEST(SubsetFloor, TheFloorFollowsItsPointsInLogSize) {
  SubsetCut cut;
  cut.min_share = 0.2;
  cut.min_share_full_up_to = 100;
  cut.min_share_points = {{400, 0.5}};
  cut.min_share_decay = 2;
  EXPECT_DOUBLE_EQ(cut.Floor(10), 0.2);
  EXPECT_DOUBLE_EQ(cut.Floor(100), 0.2);
  EXPECT_NEAR(cut.Floor(200), 0.35, 1e-12);  // half way from 100 to 400 in log size
  EXPECT_DOUBLE_EQ(cut.Floor(400), 0.5);
  EXPECT_NEAR(cut.Floor(800), 0.125, 1e-12);  // beyond the last point: 0.5 x (400 / 800)^2
  cut.min_share_points.clear();               // without points: the decay from the knee
  EXPECT_NEAR(cut.Floor(200), 0.05, 1e-12);
  EXPECT_DOUBLE_EQ(SubsetCut{}.Floor(5000), 0);  // no floor
}

// The model's floor shrinks with the schema (SubsetCut::min_share_decay): in a schema of N tables and columns it keeps
// min_share × (K / N)^decay of the columns (K: min_share_full_up_to, 32 by default), while a share the caller gives
// holds at every size.
TEST(SubsetFloor, TheFloorShrinksInALargerSchema) {
  catalog::Schema s;
  s.database = "floor";
  for (size_t t = 0; t < 20; ++t) {
    s.tables.push_back(
        TextTable(fmt::format("area{}", t), 10, [&](size_t c) { return fmt::format("field{}_{}", t, c); }));
  }
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  auto kept = [&](double decay, std::optional<double> share, double full_up_to = SubsetCut::kFloorFullUpTo) {
    SubsetModel m = SubsetModel::Shipped();
    m.plain_cut.table_threshold = m.plain_cut.column_threshold = 1.0;
    m.plain_cut.table_lambda = m.plain_cut.column_lambda = 0;
    m.plain_cut.small_table = 0;
    m.plain_cut.min_share = 0.5;
    m.plain_cut.min_share_decay = decay;
    m.plain_cut.min_share_full_up_to = full_up_to;
    m.plain_cut.min_share_points.clear();  // the shipped model's points are not this test's shape
    BuiltinSubsetter subsetter(s, *r, nullptr, m);
    SubsetOptions options;
    options.min_share = share;
    auto got = subsetter.Select("Which records hold a value?", options);
    EXPECT_TRUE(got);
    return got ? got->columns.size() : 0;
  };
  const double columns = static_cast<double>(s.ColumnCount());
  const double floor = 0.5 * SubsetCut::kFloorFullUpTo / (columns + 20) * columns;  // decay 1: about 14.5 columns
  EXPECT_GE(static_cast<double>(kept(0, std::nullopt)), 0.5 * columns);
  const auto shrunk = static_cast<double>(kept(1, std::nullopt));
  EXPECT_GE(shrunk, floor);
  EXPECT_LT(shrunk, 0.15 * columns);
  EXPECT_GE(static_cast<double>(kept(1, 0.5)), 0.5 * columns);  // the caller's share
  // Whole up to a size larger than the schema (220 tables and columns), however steep the decay beyond; past it, the
  // decay from that size on: (256 / 440)^2 of the share in a schema twice as large.
  EXPECT_GE(static_cast<double>(kept(2, std::nullopt, 256)), 0.5 * columns);
  const auto from_110 = static_cast<double>(kept(2, std::nullopt, 110));
  EXPECT_GE(from_110, 0.5 * 0.25 * columns);  // not (32 / 220)^2 of it
  EXPECT_LT(from_110, 0.3 * columns);         // nor the whole share (and a few join columns)
}

// A table that references two kept tables is kept with its join columns when the cut says so, though a path through
// a third table joins them as short (clients and accounts both reference a district; dispositions pair them).
TEST(SubsetAssociations, ATablePairingTwoKeptTablesIsKept) {
  catalog::Schema schema;
  auto table = [&](const std::string& name, const std::vector<std::string>& columns) {
    catalog::Table t;
    t.name = name;
    for (const auto& column : columns) {
      catalog::Column c;
      c.name = column;
      t.columns.push_back(std::move(c));
    }
    t.primary_key = {t.columns.front().name};
    schema.tables.push_back(std::move(t));
  };
  table("district", {"district_id", "region"});
  table("client", {"client_id", "district_id", "gender"});
  table("account", {"account_id", "district_id", "opened"});
  table("disp", {"disp_id", "client_id", "account_id", "kind"});
  auto key = [&](size_t from, const std::string& column, const std::string& to) {
    catalog::ForeignKey fk;
    fk.columns = {column};
    fk.ref_table = to;
    fk.ref_columns = {column};
    schema.tables[from].foreign_keys.push_back(std::move(fk));
  };
  key(1, "district_id", "district");
  key(2, "district_id", "district");
  key(3, "client_id", "client");
  key(3, "account_id", "account");
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  SubsetModel model = SubsetModel::Shipped();
  model.plain_cut = SubsetCut();
  model.plain_cut.table_threshold = model.plain_cut.column_threshold = 0.5;
  model.plain_cut.small_table = 0;
  BuiltinSubsetter subsetter(schema, *r, nullptr, model);
  QuestionScores p;  // clients and their accounts: the two tables and one column each
  p.tables = {0.2, 0.9, 0.8, 0.1};
  p.columns = {{0.1, 0.1}, {0.1, 0.1, 0.9}, {0.1, 0.1, 0.9}, {0.1, 0.1, 0.1, 0.1}};
  subsetter.SetModel(model);
  EXPECT_FALSE(Kept(subsetter.Choose(p, {})).count("disp"));  // joined through their district
  model.plain_cut.associations = true;
  subsetter.SetModel(model);
  std::set<std::string> kept = Kept(subsetter.Choose(p, {}));
  EXPECT_TRUE(kept.count("disp") && kept.count("disp.client_id") && kept.count("disp.account_id") &&
              kept.count("client.client_id") && kept.count("account.account_id"))
      << Join(std::vector<std::string>(kept.begin(), kept.end()), " ");
  EXPECT_FALSE(kept.count("disp.kind"));
}

TEST_F(SubsetTest, SubsetLineIsWhatEvalSubsetsReads) {
  auto s = subsetter->Select("How many orders have status shipped?", {});
  ASSERT_TRUE(s);
  std::string path = shared_dir->File("subsets.jsonl");
  std::ofstream(path) << SubsetToJson(*s).dump() << "\n";
  auto loaded = eval::LoadSubsets(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].size(), s->tables.size() + s->columns.size());
  nlohmann::ordered_json j = SubsetToJson(*s);
  for (const char* key : {"tables", "columns", "scores", "ms"}) EXPECT_TRUE(j.contains(key)) << key;
}

TEST_F(SubsetTest, ModelRoundTripsAndTheShippedOneParses) {
  const SubsetModel& shipped = SubsetModel::Shipped();
  ASSERT_EQ(shipped.table_weights.size(), TableFeatureNames().size());
  ASSERT_EQ(shipped.column_weights.size(), ColumnFeatureNames().size());
  EXPECT_TRUE(std::any_of(shipped.column_weights.begin(), shipped.column_weights.end(), [](double w) { return w; }));
  auto again = SubsetModel::Parse(shipped.Serialize("round trip"));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->cut.small_table, shipped.cut.small_table);
  EXPECT_NEAR(again->cut.table_threshold, shipped.cut.table_threshold, 1e-4);
  EXPECT_NEAR(again->cut.column_lambda, shipped.cut.column_lambda, 1e-4);
  EXPECT_NEAR(again->plain_cut.table_threshold, shipped.plain_cut.table_threshold, 1e-4);
  EXPECT_EQ(again->plain_cut.small_table, shipped.plain_cut.small_table);
  for (size_t i = 0; i < shipped.column_weights.size(); ++i) {
    EXPECT_NEAR(again->column_weights[i], shipped.column_weights[i], 1e-5) << ColumnFeatureNames()[i];
  }
  // The shipped scorer is trees (the file is compiled in as pieces: all of them read), and they round-trip exactly.
  ASSERT_FALSE(shipped.column_trees.Empty());
  ASSERT_FALSE(shipped.table_trees.Empty());
  EXPECT_EQ(again->column_trees.trees.size(), shipped.column_trees.trees.size());
  std::vector<double> x(BaseColumnFeatureNames().size(), 0.5);
  EXPECT_DOUBLE_EQ(again->column_trees.Margin(x), shipped.column_trees.Margin(x));
  EXPECT_EQ(again->Serialize("x"), shipped.Serialize("x"));
  EXPECT_EQ(shipped.Serialize("x").find("narrow_floored"), std::string::npos);  // the default is not written
  EXPECT_EQ(again->narrow.floored, SubsetNarrow{}.floored);
  SubsetModel narrowed = shipped;
  narrowed.narrow.floored = 2;
  auto two = SubsetModel::Parse(narrowed.Serialize("the best two components floored"));
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ(two->narrow.floored, 2u);
  EXPECT_EQ(shipped.Serialize("x").find("narrow_component_share"), std::string::npos);
  EXPECT_NEAR(again->narrow.component_share, SubsetNarrow{}.component_share, 1e-9);
  narrowed.narrow.component_share = 0;  // no cap
  auto uncapped = SubsetModel::Parse(narrowed.Serialize("components uncapped"));
  ASSERT_TRUE(uncapped) << uncapped.error().message;
  EXPECT_EQ(uncapped->narrow.component_share, 0.0);
  EXPECT_EQ(shipped.Serialize("x").find("narrow_component_weight"), std::string::npos);
  narrowed.narrow.component_weight = 0;  // joined in order
  auto in_order = SubsetModel::Parse(narrowed.Serialize("components joined in order"));
  ASSERT_TRUE(in_order) << in_order.error().message;
  EXPECT_EQ(in_order->narrow.component_weight, 0.0);
  EXPECT_EQ(shipped.Serialize("x").find("narrow_component_lead"), std::string::npos);
  narrowed.narrow.component_lead = SubsetNarrow{}.component_lead + 0.25;
  auto led = SubsetModel::Parse(narrowed.Serialize("a lead grows the best component's cap"));
  ASSERT_TRUE(led) << led.error().message;
  EXPECT_NEAR(led->narrow.component_lead, SubsetNarrow{}.component_lead + 0.25, 1e-9);
  SubsetModel floor = shipped;
  floor.plain_cut.min_share = 0.3;
  floor.plain_cut.min_share_points.clear();
  auto floored = SubsetModel::Parse(floor.Serialize("min share"));
  ASSERT_TRUE(floored) << floored.error().message;
  EXPECT_NEAR(floored->plain_cut.min_share, 0.3, 1e-4);
  EXPECT_NEAR(floored->cut.min_share, shipped.cut.min_share, 1e-4);
  floor.plain_cut.min_share_decay = 0.5;
  floor.plain_cut.min_share_full_up_to = SubsetCut::kFloorFullUpTo;
  const std::string text = floor.Serialize("min share decay");
  EXPECT_EQ(text.find("plain_min_share_full_up_to"), std::string::npos);  // the default is not written
  auto decayed = SubsetModel::Parse(text);
  ASSERT_TRUE(decayed) << decayed.error().message;
  EXPECT_NEAR(decayed->plain_cut.min_share_decay, 0.5, 1e-4);
  EXPECT_EQ(decayed->cut.min_share_decay, shipped.cut.min_share_decay);
  EXPECT_EQ(decayed->plain_cut.min_share_full_up_to, SubsetCut::kFloorFullUpTo);  // absent: the old default
  floor.plain_cut.min_share_full_up_to = 512;
  auto knee = SubsetModel::Parse(floor.Serialize("whole up to 512"));
  ASSERT_TRUE(knee) << knee.error().message;
  EXPECT_EQ(knee->plain_cut.min_share_full_up_to, 512);
  EXPECT_EQ(knee->cut.min_share_full_up_to, shipped.cut.min_share_full_up_to);
  EXPECT_EQ(knee->plain_cut.min_share_points, floor.plain_cut.min_share_points);
  floor.plain_cut.min_share_points = {{768, 0.45}, {1500, 0.1}};
  auto pointed = SubsetModel::Parse(floor.Serialize("two points"));
  ASSERT_TRUE(pointed) << pointed.error().message;
  ASSERT_EQ(pointed->plain_cut.min_share_points.size(), 2u);
  EXPECT_EQ(pointed->plain_cut.min_share_points[0].first, 768);
  EXPECT_NEAR(pointed->plain_cut.min_share_points[1].second, 0.1, 1e-4);
  EXPECT_EQ(pointed->cut.min_share_points, shipped.cut.min_share_points);
  // A point not beyond the one before it, or beyond the share's range, is refused with its line.
  floor.plain_cut.min_share_points = {{400, 0.45}};
  EXPECT_FALSE(SubsetModel::Parse(floor.Serialize("a point before the knee")));
  EXPECT_FALSE(SubsetModel::Parse("min_share_point\t600\t1.5\n"));
  EXPECT_FALSE(SubsetModel::Parse("min_share_point\t600\n"));
  EXPECT_FALSE(SubsetModel::Parse("min_share_point\t900\t0.3\nmin_share_point\t600\t0.3\n"));
  EXPECT_FALSE(SubsetModel::Parse("table\tno_such_feature\t1\n"));
  EXPECT_FALSE(SubsetModel::Parse("nonsense\n"));
}

// The rule the loader applies is the cut's own (SubsetCut::Check), so the trainer can skip a cut the loader would
// refuse: a point at the whole size itself, as a trainer once wrote, is not beyond it.
TEST(SubsetCut, CheckRefusesAPointNotBeyondTheWholeSize) {
  SubsetCut cut;
  cut.min_share_full_up_to = 512;
  EXPECT_TRUE(cut.Check());
  cut.min_share_points = {{768, 0.4}, {1536, 0.1}};
  EXPECT_TRUE(cut.Check());
  cut.min_share_points = {{512, 0.3}};
  EXPECT_FALSE(cut.Check());
  cut.min_share_points = {{384, 0.4}};
  EXPECT_FALSE(cut.Check());
  cut.min_share_points = {{768, 0.4}, {768, 0.1}};
  EXPECT_FALSE(cut.Check());
}

TEST_F(SubsetTest, DraftKeepsTheTablesItsDraftReads) {
  auto draft = MakeSubsetter("draft", schema, conn.get(), nullptr, nullptr);
  ASSERT_TRUE(draft) << draft.error().message;
  auto s = (*draft)->Select("How many customers are there?", {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->tables, std::vector<std::string>{"customer"}) << SubsetText(*s);
  EXPECT_EQ(s->columns.size(), 5u);  // every column of a kept table
  EXPECT_FALSE(MakeSubsetter("draft", schema, nullptr, nullptr, nullptr));
  auto unknown = MakeSubsetter("nope", schema, conn.get(), nullptr, nullptr);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("builtin, draft"), std::string::npos);
}

// A schema over the narrowing size (5,000 columns): 240 tables of 24 columns in 40 foreign-key groups, names from a
// small vocabulary in plain and cryptic spellings.
catalog::Schema LargeSchema() {
  const std::vector<std::string> words = {"customer", "order",   "product", "invoice", "shipment", "employee",
                                          "plant",    "vehicle", "snake",   "weight",  "region",   "supplier"};
  const std::vector<std::string> cryptic = {"CUST", "ORD", "PROD", "INV", "SHPMT", "EMP",
                                            "PLNT", "VEH", "SNK",  "WT",  "RGN",   "SUPP"};
  catalog::Schema s;
  s.database = "large";
  for (size_t t = 0; t < 240; ++t) {
    catalog::Table table;
    table.name = fmt::format("{}_{}_{}", cryptic[t % 12], words[(t / 12) % 12], t);
    for (size_t c = 0; c < 24; ++c) {
      catalog::Column col;
      col.name = c == 0 ? "id" : fmt::format("{}_{}", c % 2 ? cryptic[(t + c) % 12] : words[(t + c) % 12], c % 5);
      col.type_class = c == 0 ? catalog::TypeClass::kNumeric : catalog::TypeClass::kText;
      table.columns.push_back(col);
    }
    table.primary_key = {"id"};
    if (t % 6 != 0)
      table.foreign_keys.push_back({"", {table.columns[1].name}, "", s.tables[t - 1].name, {"id"}, false});
    s.tables.push_back(std::move(table));
  }
  return s;
}

// On a large schema the subsetter keeps what its names derive in the cache folder: a second subsetter reads it and
// chooses exactly what the first did; the index built from a saved derivation equals the one built without.
TEST(SubsetLarge, NameCacheGivesTheSameSubsets) {
  test::TempDir dir;
  const char* before = std::getenv("PLAINSQL_CACHE_DIR");
  const std::string saved = before ? before : "";
  setenv("PLAINSQL_CACHE_DIR", dir.path().c_str(), 1);
  const catalog::Schema schema = LargeSchema();
  ASSERT_GT(schema.ColumnCount(), 5000u);
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  const std::vector<std::string> questions = {"What is the weight of each snake?",
                                              "Which supplier ships the most products to the region?",
                                              "List the employees of every plant", "How many invoices per customer?"};
  auto subsets = [&] {
    BuiltinSubsetter s(schema, *r, nullptr);
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> out;
    for (const auto& q : questions) {
      auto got = s.Select(q, {});
      EXPECT_TRUE(got) << got.error().message;
      if (got) out.emplace_back(got->tables, got->columns);
    }
    return out;
  };
  const auto cold = subsets();
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/linking")) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  const auto warm = subsets();
  EXPECT_EQ(warm, cold);
  ASSERT_FALSE(cold.empty());
  EXPECT_FALSE(cold[0].first.empty());

  retrieval::Stemmer stemmer;
  NameDerivations derived;
  SchemaIndex fresh(schema, stemmer, (*r)->expander.get(), (*r)->wordnet.get(), &derived);
  ASSERT_TRUE(derived.complete);
  auto loaded = NameDerivations::FromJson(nlohmann::json::parse(derived.ToJson().dump()));
  ASSERT_TRUE(loaded.has_value());
  SchemaIndex again(schema, stemmer, nullptr, nullptr, &*loaded);  // nothing derived anew: no expander, no WordNet
  ASSERT_EQ(again.Elements().size(), fresh.Elements().size());
  for (size_t i = 0; i < fresh.Elements().size(); ++i) {
    EXPECT_EQ(again.Elements()[i].phrases, fresh.Elements()[i].phrases) << i;
    EXPECT_EQ(again.Elements()[i].weights, fresh.Elements()[i].weights) << i;
  }
  for (const auto& [stem, alts] : derived.related) EXPECT_EQ(again.AlternativesFor(stem).size(), alts.size()) << stem;
  EXPECT_FALSE(NameDerivations::FromJson(nlohmann::json{{"plainsql_name_derivations", 99}}).has_value());
  if (before) {
    setenv("PLAINSQL_CACHE_DIR", saved.c_str(), 1);
  } else {
    unsetenv("PLAINSQL_CACHE_DIR");
  }
}

// A wide table (ERP schemas hold tables of hundreds of columns, and declare no keys): a column the question names in
// full is kept however far down the table it sits. The scorer was fitted on Spider's tables of at most 42 columns;
// the linear model with pairwise products extrapolated its table-size feature and ranked such a column below every
// unrelated one of the schema.
TEST(SubsetWide, AColumnNamedInAWideTableIsKept) {
  catalog::Schema s;
  s.database = "erp";
  const std::vector<std::string> small = {"Warehouses", "Currencies", "Projects", "Users", "Branches", "Countries"};
  for (const auto& name : small) {
    catalog::Table t;
    t.name = name;
    for (const std::string c : {"Code", "Name", "Remarks", "CreateDate", "UserSign"}) {
      catalog::Column col;
      col.name = c;
      col.type_class = catalog::TypeClass::kText;
      t.columns.push_back(col);
    }
    s.tables.push_back(std::move(t));
  }
  catalog::Table wide;
  wide.name = "OutgoingPayments";
  for (size_t c = 0; c < 160; ++c) {
    std::string name = fmt::format("U_Field{}", c);
    if (c == 0) name = "DocEntry";
    if (c == 90) name = "PayeeName";
    if (c == 91) name = "PayeeCity";
    if (c == 92) name = "PayeeZip";
    catalog::Column col;
    col.name = name;
    col.type_class = catalog::TypeClass::kText;
    wide.columns.push_back(col);
  }
  s.tables.push_back(std::move(wide));
  auto r = LinkResources::Load();
  ASSERT_TRUE(r) << r.error().message;
  BuiltinSubsetter subsetter(s, *r, nullptr);
  auto got = subsetter.Select("Show the payee name, city and zip of the outgoing payments", {});
  ASSERT_TRUE(got) << got.error().message;
  const auto kept = Kept(*got);
  for (const char* c : {"outgoingpayments.payeename", "outgoingpayments.payeecity", "outgoingpayments.payeezip"}) {
    EXPECT_TRUE(kept.count(c)) << c << "\n" << SubsetText(*got);
  }
  EXPECT_LT(got->columns.size(), s.ColumnCount() / 2) << SubsetText(*got);
}

}  // namespace
}  // namespace plainsql::linking
