// The skalpel subsetting method (issue #18, src/linking/subset_skalpel.h) against scripted servers: the chat model is
// the project's scripted server (tests/llm/fake_llm_server.h: table descriptions, then the question's decomposition, in
// order), and the embeddings come from a keyword server in this file, whose vectors count a few words, so that which
// tables are near which phrases is known. Checked: the subset, the description cache (a second run asks for no
// description), the offline embedder standing in, bad replies, the budget, column retrieval, and the API key kept out
// of the cache and the notes.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <thread>

#include "common/strings.h"
#include "linking/subset_methods.h"
#include "linking/subset_skalpel.h"
#include "llm/fake_llm_server.h"
#include "test_util.h"

namespace plainsql::linking {
namespace {

using test::FakeLlmServer;

// An OpenAI-compatible /v1/embeddings server whose vectors count the words of kVocabulary in a text (plus a small
// constant, so that no vector is zero); the model "missing" is refused with 404, as Ollama and OpenAI refuse an
// unknown model.
class KeywordEmbeddings {
 public:
  static constexpr std::array<std::string_view, 6> kVocabulary = {"singer",   "concert", "stadium",
                                                                  "employee", "shop",    "capacity"};

  KeywordEmbeddings() {
    server_.Post("/v1/embeddings", [this](const httplib::Request& req, httplib::Response& res) {
      ++requests_;
      auto body = nlohmann::json::parse(req.body, nullptr, false);
      if (body.value("model", "") == "missing") {
        res.status = 404;
        res.set_content(R"({"error": {"message": "model 'missing' not found"}})", "application/json");
        return;
      }
      nlohmann::json out = {{"data", nlohmann::json::array()}, {"usage", {{"prompt_tokens", 3}}}};
      for (size_t i = 0; i < body["input"].size(); ++i) {
        const std::string text = ToLower(body["input"][i].get<std::string>());
        std::vector<double> v;
        for (auto word : kVocabulary) {
          double n = 0;
          for (size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) ++n;
          v.push_back(n);
        }
        v.push_back(0.01);
        out["data"].push_back({{"index", i}, {"embedding", v}});
      }
      res.set_content(out.dump(), "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~KeywordEmbeddings() {
    server_.stop();
    thread_.join();
  }
  KeywordEmbeddings(const KeywordEmbeddings&) = delete;
  KeywordEmbeddings& operator=(const KeywordEmbeddings&) = delete;

  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int Requests() const { return requests_; }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> requests_{0};
};

catalog::Column MakeColumn(const std::string& name, const std::string& type) {
  catalog::Column c;
  c.name = name;
  c.type = type;
  return c;
}

catalog::Table MakeTable(const std::string& name, const std::vector<std::string>& columns,
                         const std::vector<std::string>& key) {
  catalog::Table t;
  t.name = name;
  for (const auto& c : columns) t.columns.push_back(MakeColumn(c, "text"));
  t.primary_key = key;
  return t;
}

// Six tables; the scripted descriptions below are in this order.
catalog::Schema ConcertSchema() {
  catalog::Schema s;
  s.database = "concert_singer";
  s.tables.push_back(MakeTable("singer", {"singer_id", "name", "country", "age"}, {"singer_id"}));
  s.tables.push_back(
      MakeTable("concert", {"concert_id", "concert_name", "theme", "stadium_id", "year"}, {"concert_id"}));
  s.tables.push_back(MakeTable("stadium", {"stadium_id", "location", "name", "capacity"}, {"stadium_id"}));
  s.tables.push_back(MakeTable("singer_in_concert", {"concert_id", "singer_id"}, {}));
  s.tables.push_back(MakeTable("employee", {"employee_id", "name", "city"}, {"employee_id"}));
  s.tables.push_back(MakeTable("shop", {"shop_id", "shop_name", "district"}, {"shop_id"}));
  catalog::ForeignKey fk;
  fk.columns = {"concert_id"};
  fk.ref_table = "concert";
  fk.ref_columns = {"concert_id"};
  s.tables[3].foreign_keys.push_back(fk);
  return s;
}

std::string Described(const std::string& text) { return "```json\n{\"description\": \"" + text + "\"}\n```"; }

const std::vector<std::string> kDescriptions = {
    Described("A singer is a performing artist with a name, a country and an age."),
    Described("A concert is a musical event with a name and a theme, held at a stadium in a year."),
    Described("A stadium is a venue in a location, with a name and a seating capacity."),
    Described("Each record says which singer performed at which concert."),
    Described("An employee is a person who works for a company and lives in a city."),
    Described("A shop is a store in a district."),
};

const std::string kQuestion = "How many singers performed in concerts at the largest stadium?";
const std::string kPhrases = R"(```json
["A singer is a person who sings.", "A concert is a live music event.", "A stadium is a large venue."]
```)";

class SkalpelTest : public ::testing::Test {
 protected:
  SkalpelOptions Options(const std::string& embedding_model = "kw-embed") const {
    SkalpelOptions o;
    o.chat.base_url = chat.url();
    o.chat.model = "chat-model";
    o.chat.api_key = "sk-test-secret-0123456789";
    o.chat.max_retries = 0;
    o.embedding = o.chat;
    o.embedding.base_url = embeddings.Url();
    o.embedding.model = embedding_model;
    o.cache_dir = dir.path();
    o.threads = 1;  // descriptions asked for in schema order, as the script is
    return o;
  }

  // Scripts the six descriptions, then `decompositions`.
  void Script(const std::vector<std::string>& descriptions, const std::vector<std::string>& decompositions) {
    std::vector<FakeLlmServer::Reply> replies;
    replies.reserve(descriptions.size() + decompositions.size());
    for (const auto& d : descriptions) replies.push_back(FakeLlmServer::Ok(d));
    for (const auto& d : decompositions) replies.push_back(FakeLlmServer::Ok(d));
    chat.Script(replies);
  }

  size_t ChatRequests(const std::string& containing) const {
    size_t n = 0;
    for (const auto& r : chat.Requests()) {
      if (r.contains("messages") && r.dump().find(containing) != std::string::npos) ++n;
    }
    return n;
  }

  test::TempDir dir;
  FakeLlmServer chat;
  KeywordEmbeddings embeddings;
  catalog::Schema schema = ConcertSchema();
};

std::set<std::string> Set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::string Notes(const Subset& s) { return Join(s.notes, "\n"); }

TEST_F(SkalpelTest, KeepsTablesNearThePhrasesWithAllTheirColumns) {
  Script(kDescriptions, {kPhrases});
  auto sub = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(sub) << sub.error().message;
  auto s = (*sub)->Select(kQuestion, {});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(Set(s->tables), (std::set<std::string>{"singer", "concert", "stadium", "singer_in_concert"})) << Notes(*s);
  EXPECT_EQ(s->tables.front(), "singer");  // schema order
  EXPECT_EQ(s->columns.size(), 4u + 5u + 4u + 2u);
  for (const auto& t : s->tables) EXPECT_GT(s->scores.at(t), 0.4) << t;  // similarity at least 1 - 0.6
  EXPECT_NE(Notes(*s).find("embeddings: kw-embed"), std::string::npos) << Notes(*s);
  EXPECT_NE(Notes(*s).find("3 phrases"), std::string::npos) << Notes(*s);
  // The prompts: a table shown with its columns; the question in the decomposition prompt.
  EXPECT_EQ(ChatRequests("stadium (stadium_id text, location text"), 1u);
  EXPECT_EQ(ChatRequests(kQuestion), 1u);
  // A tighter threshold (SubsetOptions::threshold is the least similarity) keeps fewer tables.
  SubsetOptions strict;
  strict.threshold = 0.99;
  auto few = (*sub)->Select(kQuestion, strict);
  ASSERT_TRUE(few) << few.error().message;
  EXPECT_LT(few->tables.size(), s->tables.size());
  EXPECT_FALSE(few->tables.empty());
}

TEST_F(SkalpelTest, DescriptionsAreCachedBySchemaModelAndPromptVersion) {
  Script(kDescriptions, {kPhrases});
  auto first = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(ChatRequests("three-sentence description"), 6u);
  const std::string file = SkalpelCacheFile(schema, Options());
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  const std::string cached = test::ReadFile(file);
  EXPECT_NE(cached.find("seating capacity"), std::string::npos);
  EXPECT_EQ(cached.find("sk-test-secret"), std::string::npos) << "the API key is never stored";

  // A second subsetter for the same schema and model asks for no description, only the decomposition.
  chat.Script({FakeLlmServer::Ok(kPhrases)});
  auto second = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(second) << second.error().message;
  auto s = (*second)->Select(kQuestion, {});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(ChatRequests("three-sentence description"), 6u);
  EXPECT_EQ(Set(s->tables), (std::set<std::string>{"singer", "concert", "stadium", "singer_in_concert"}));
  EXPECT_NE(Notes(*s).find("6 from the cache, 0 written"), std::string::npos) << Notes(*s);
  EXPECT_EQ(Notes(*s).find("sk-test-secret"), std::string::npos);

  // Another model, or a changed schema, is another cache file.
  SkalpelOptions other = Options();
  other.chat.model = "other-model";
  EXPECT_NE(SkalpelCacheFile(schema, other), file);
  catalog::Schema changed = schema;
  changed.tables[5].columns.push_back(MakeColumn("opened", "date"));
  EXPECT_NE(SkalpelCacheFile(changed, Options()), file);
}

TEST_F(SkalpelTest, WithoutAnEmbeddingModelTheOfflineEmbedderStandsIn) {
  Script(kDescriptions, {kPhrases});
  auto sub = MakeSkalpelSubsetter(schema, Options(""));
  ASSERT_TRUE(sub) << sub.error().message;
  auto s = (*sub)->Select(kQuestion, {});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(embeddings.Requests(), 0);
  EXPECT_NE(Notes(*s).find("offline sparse embedder (no embedding model configured)"), std::string::npos) << Notes(*s);
  const auto kept = Set(s->tables);
  EXPECT_TRUE(kept.count("singer") && kept.count("concert") && kept.count("stadium")) << Join(s->tables, ",");
  EXPECT_FALSE(kept.count("shop")) << "its description shares only function words with the phrases";
}

TEST_F(SkalpelTest, AnEndpointThatRefusesTheEmbeddingModelFallsBackWithANote) {
  Script(kDescriptions, {kPhrases});
  auto sub = MakeSkalpelSubsetter(schema, Options("missing"));
  ASSERT_TRUE(sub) << sub.error().message;
  auto s = (*sub)->Select(kQuestion, {});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_NE(Notes(*s).find("the endpoint refused embedding model missing"), std::string::npos) << Notes(*s);
  EXPECT_FALSE(s->tables.empty());
}

TEST_F(SkalpelTest, ABadDescriptionIsAnErrorNamingTheTableAndWhatWasDescribedIsKept) {
  std::vector<std::string> bad = kDescriptions;
  bad[2] = R"({"text": "a venue"})";
  Script(bad, {kPhrases});
  auto sub = MakeSkalpelSubsetter(schema, Options());
  ASSERT_FALSE(sub);
  EXPECT_EQ(sub.error().code, ErrorCode::kFormat);
  EXPECT_NE(sub.error().message.find("description of table stadium"), std::string::npos) << sub.error().message;
  // The two tables described before the failure are cached: the next run asks for the four others.
  Script({kDescriptions.begin() + 2, kDescriptions.end()}, {kPhrases});
  auto again = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(ChatRequests("three-sentence description"), 3u + 4u);
}

TEST_F(SkalpelTest, ABadDecompositionMatchesTheQuestionAloneWithANote) {
  Script(kDescriptions, {"Sorry, I cannot help with that."});
  auto sub = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(sub) << sub.error().message;
  auto s = (*sub)->Select(kQuestion, {});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_NE(Notes(*s).find("the question alone was matched"), std::string::npos) << Notes(*s);
  const auto kept = Set(s->tables);
  EXPECT_TRUE(kept.count("singer") && kept.count("stadium")) << Join(s->tables, ",");
}

TEST_F(SkalpelTest, AnUnreachableModelOrNoModelIsAClearError) {
  SkalpelOptions o = Options();
  o.chat.base_url = "http://127.0.0.1:1/v1";  // nothing listens on port 1
  auto sub = MakeSkalpelSubsetter(schema, o);
  ASSERT_FALSE(sub);
  EXPECT_EQ(sub.error().code, ErrorCode::kConnection) << sub.error().message;
  EXPECT_EQ(sub.error().message.find("sk-test-secret"), std::string::npos);
  o.chat.model.clear();
  auto none = MakeSkalpelSubsetter(schema, o);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(none.error().message.find("--model"), std::string::npos) << none.error().message;
}

TEST_F(SkalpelTest, TheBudgetKeepsTheClosestWholeTables) {
  Script(kDescriptions, {kPhrases});
  auto sub = MakeSkalpelSubsetter(schema, Options());
  ASSERT_TRUE(sub) << sub.error().message;
  SubsetOptions o;
  o.budget = 6;
  auto s = (*sub)->Select(kQuestion, o);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_LE(s->columns.size(), 6u);
  EXPECT_FALSE(s->tables.empty());
}

TEST_F(SkalpelTest, ColumnRetrievalKeepsNearColumnsAndKeys) {
  Script(kDescriptions, {R"(["A stadium has a seating capacity."])"});
  SkalpelOptions o = Options();
  o.column_max_distance = 0.6;
  auto sub = MakeSkalpelSubsetter(schema, o);
  ASSERT_TRUE(sub) << sub.error().message;
  auto s = (*sub)->Select("Which stadium has the largest capacity?", {});
  ASSERT_TRUE(s) << s.error().message;
  const auto columns = Set(s->columns);
  EXPECT_TRUE(columns.count("stadium.capacity")) << Join(s->columns, ",");
  EXPECT_TRUE(columns.count("stadium.stadium_id")) << "a key stays";
  EXPECT_FALSE(columns.count("stadium.location")) << "a natural name far from every phrase goes";
}

TEST_F(SkalpelTest, TheMethodIsKnownByName) {
  const auto& methods = SubsetMethods();
  EXPECT_NE(std::find(methods.begin(), methods.end(), "skalpel"), methods.end());
  Script(kDescriptions, {kPhrases});
  SkalpelOptions o = Options();
  auto sub = MakeSubsetter("skalpel", schema, nullptr, nullptr, nullptr, &o);
  ASSERT_TRUE(sub) << sub.error().message;
  EXPECT_EQ((*sub)->Name(), "skalpel");
}

// Replies as models give them: fenced or bare, with prose around, or plain prose for a description.
TEST(SkalpelParse, Decomposition) {
  auto fenced = ParseDecomposition("Here you go:\n```json\n[\"a\", \"b\"]\n```\nDone.");
  ASSERT_TRUE(fenced) << fenced.error().message;
  EXPECT_EQ(*fenced, (std::vector<std::string>{"a", "b"}));
  auto bare = ParseDecomposition("[\"x\", 3, \" y \"]");
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_EQ(*bare, (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(ParseDecomposition("no list here"));
  EXPECT_FALSE(ParseDecomposition("[1, 2]"));
  EXPECT_FALSE(ParseDecomposition("[\"unterminated"));
}

TEST(SkalpelParse, Description) {
  auto fenced = ParseDescription("```json\n{\"description\": \"A thing.\"}\n```");
  ASSERT_TRUE(fenced) << fenced.error().message;
  EXPECT_EQ(*fenced, "A thing.");
  auto prose = ParseDescription("A shop sells things to people.");
  ASSERT_TRUE(prose) << prose.error().message;
  EXPECT_EQ(*prose, "A shop sells things to people.");
  EXPECT_FALSE(ParseDescription("{\"text\": \"x\"}"));
  EXPECT_FALSE(ParseDescription("   "));
}

}  // namespace
}  // namespace plainsql::linking
