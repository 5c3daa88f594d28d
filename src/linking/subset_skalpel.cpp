// The `skalpel` subsetting method (see subset_skalpel.h).
//
// Where this follows the paper and where it simplifies:
//  - Table descriptions: one LLM call per table, asking for a three-sentence conceptual description of the real-world
//    object the table stands for, as JSON {"description": ...} (appendix D.2, figure 9; the wording here is ours). The
//    table is shown as its name, its columns with types and up to three example values each when the schema has them
//    (section 3.4); very wide tables are cut at kPromptColumns columns. The paper stores descriptions and their
//    embeddings in pgvector; here the descriptions are cached in a JSON file and re-embedded at each start (one
//    batched request per 64 tables for a dense model).
//  - Question decomposition: one LLM call asking for a JSON list of phrases, one per object or concept of the question
//    (figure 10; our wording and our example). A reply that is not such a list is not fatal: the question alone is
//    matched and a note says so (the paper's "raw question" ablation).
//  - Retrieval: cosine distance between each phrase and each table description; a table is kept when its smallest
//    distance to any phrase is at most τ_l (0.600), with all its columns (the paper's vector-only mode, appendix
//    D.0.2). Here the whole question is matched too (match_question), and when no table is within τ_l the nearest one
//    is kept (the paper would return an empty subset). Search is exact (every description compared), not HNSW.
//  - Optional column retrieval (column_max_distance): column names embedded, a column kept when within τ_c of a
//    phrase or when the naturalness classifier (ours, not the paper's CANINE model) calls its name Low or Least; we
//    also keep key columns so that joins stay possible. Off by default, as in the paper's experiments.
//  - Not done: the optional LLM refinement (table and column selection by the model), which the paper did not use.
#include "linking/subset_skalpel.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <utility>

#include "catalog/cache.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/strings.h"
#include "naturalness/classifier.h"
#include "retrieval/embedder.h"

namespace plainsql::linking {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kPromptColumns = 150;         // columns shown per table in a description prompt (token bound)
constexpr size_t kPromptSamples = 3;           // example values shown per column
constexpr size_t kPromptSampleChars = 40;      // longer example values are cut
constexpr size_t kMaxDescriptionChars = 2000;  // a runaway description is cut (three sentences are far shorter)
constexpr size_t kExcerptChars = 160;          // how much of a bad reply an error message quotes

// The description prompt (figure 9 of the paper, in our words). {table} is the table's text.
constexpr std::string_view kDescribePrompt =
    "Write a three-sentence description of the following table: {table}\n"
    "Describe it at a conceptual level, so that all of its meaning comes across. Do not call it a table or a database "
    "object: describe the real-world thing it represents. Answer with a JSON object whose only key is "
    "\"description\", in a block that starts with ```json and ends with ```.";

// The decomposition prompt (figure 10 of the paper, in our words and with our own example).
constexpr std::string_view kDecomposePrompt =
    "Describe the objects, concepts and relationships mentioned in a natural language question. Answer with a JSON "
    "list of strings, one string per object or concept, each a short sentence explaining it. Output only the JSON "
    "list, well formed, with no ellipses.\n\n"
    "Example question: Which orchestras performed symphonies by Brahms in 2019?\n"
    "Result:\n"
    "```json\n"
    "[\n"
    "  \"An orchestra is a large ensemble of musicians who perform together.\",\n"
    "  \"A performance is an event where an orchestra plays a piece of music on a date.\",\n"
    "  \"A symphony is a long musical composition for orchestra.\",\n"
    "  \"Brahms is a composer who wrote musical works.\",\n"
    "  \"2019 is the year in which the performances took place.\"\n"
    "]\n"
    "```\n\n"
    "Describe the objects, concepts, etc. in the question: {question}";

std::string Excerpt(std::string_view text) {
  std::string s(Trim(text));
  if (s.size() > kExcerptChars) s = s.substr(0, kExcerptChars) + "...";
  return ReplaceAll(s, "\n", " ");
}

// The JSON values a reply may hold, most likely first: the contents of each fenced block, then the span from the
// first `open` to the last `close`.
std::vector<std::string> JsonCandidates(std::string_view reply, char open, char close) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = reply.find("```", pos)) != std::string_view::npos) {
    size_t body = reply.find('\n', pos + 3);
    if (body == std::string_view::npos) break;
    size_t end = reply.find("```", body);
    out.emplace_back(reply.substr(body + 1, end == std::string_view::npos ? std::string_view::npos : end - body - 1));
    if (end == std::string_view::npos) break;
    pos = end + 3;
  }
  size_t first = reply.find(open);
  size_t last = reply.rfind(close);
  if (first != std::string_view::npos && last != std::string_view::npos && last > first) {
    out.emplace_back(reply.substr(first, last - first + 1));
  }
  return out;
}

// The table as the description prompt shows it: name(column type [e.g. 'a', 'b'], ...).
std::string TableText(const std::string& name, const catalog::Table& table) {
  std::string out = name + " (";
  for (size_t i = 0; i < table.columns.size() && i < kPromptColumns; ++i) {
    const catalog::Column& c = table.columns[i];
    if (i > 0) out += ", ";
    out += c.name;
    if (!c.type.empty()) out += " " + c.type;
    if (!c.samples.empty()) {
      std::vector<std::string> values;
      for (size_t k = 0; k < c.samples.size() && k < kPromptSamples; ++k) {
        std::string v = c.samples[k].substr(0, kPromptSampleChars);
        values.push_back("'" + ReplaceAll(v, "\n", " ") + "'");
      }
      out += " e.g. " + Join(values, ", ");
    }
  }
  if (table.columns.size() > kPromptColumns) {
    out += fmt::format(", and {} more columns", table.columns.size() - kPromptColumns);
  }
  out += ")";
  if (!table.comment.empty()) out += "; comment: " + table.comment;
  return out;
}

// Texts embedded and compared: a dense model's (queries embedded in one batched request) or the offline sparse one.
class Space {
 public:
  // Indexes `texts` with the embedding endpoint, or with the sparse embedder when no model is configured or the
  // endpoint refuses the model (`note` says which). `reuse`: a space whose choice to follow (the columns follow the
  // tables).
  static Result<std::unique_ptr<Space>> Build(const std::vector<std::string>& texts, const llm::Config& config,
                                              const Space* reuse, std::string& note) {
    auto space = std::make_unique<Space>();
    const bool dense_wanted = reuse ? reuse->client_ != nullptr : !config.model.empty();
    if (dense_wanted) {
      retrieval::DenseOptions dense;
      dense.exact_below = static_cast<size_t>(-1);  // exact search: the threshold needs every distance
      auto embedder = retrieval::MakeOpenAiEmbedder(config, dense);
      if (!embedder) return embedder.error();
      auto client = llm::Client::Create(config);
      if (!client) return client.error();
      auto index = (*embedder)->Index(texts);
      if (index) {
        space->index_ = std::move(*index);
        space->client_ = std::make_unique<llm::Client>(std::move(*client));
        note = fmt::format("embeddings: {} at {}", config.model, config.base_url);
        return space;
      }
      // kInvalidArgument: the server answered 4xx (an unknown model, no /embeddings route). Anything else (the server
      // unreachable, a timeout) is an error the user must see, not a reason to quietly change method.
      if (index.error().code != ErrorCode::kInvalidArgument) return index.error();
      note = fmt::format("embeddings: the offline sparse embedder (the endpoint refused embedding model {}: {})",
                         config.model, Excerpt(index.error().message));
    } else if (!reuse) {
      note = "embeddings: the offline sparse embedder (no embedding model configured)";
    }
    auto index = retrieval::MakeSparseEmbedder()->Index(texts);
    if (!index) return index.error();
    space->index_ = std::move(*index);
    return space;
  }

  bool Dense() const { return client_ != nullptr; }

  // `queries` embedded as the indexed texts were.
  Result<std::vector<retrieval::Embedding>> Embed(const std::vector<std::string>& queries, int64_t* tokens) const {
    std::vector<retrieval::Embedding> out;
    if (!client_) {
      for (const auto& q : queries) {
        auto e = index_->Embed(q);
        if (!e) return e.error();
        out.push_back(std::move(*e));
      }
      return out;
    }
    auto reply = client_->Embed(queries);
    if (!reply) return reply.error();
    if (tokens) *tokens += reply->prompt_tokens;
    for (auto& v : reply->vectors) {
      retrieval::Embedding e;
      if (retrieval::NormalizeDense(v)) e.dense = std::move(v);
      out.push_back(std::move(e));
    }
    return out;
  }

  // The smallest cosine distance of indexed text `id` to any of `queries` (the paper keeps a table's minimum).
  double Nearest(const std::vector<retrieval::Embedding>& queries, uint32_t id) const {
    double best = 2;  // the largest cosine distance
    for (const auto& q : queries) best = std::min(best, 1.0 - index_->Similarity(q, id));
    return best;
  }

 private:
  std::unique_ptr<retrieval::TextIndex> index_;
  std::unique_ptr<llm::Client> client_;  // dense only: embeds queries in one request
};

// The descriptions cached for a schema: table display name -> description.
using Descriptions = std::map<std::string, std::string>;

Descriptions ReadCache(const std::string& file) {
  Descriptions out;
  auto text = ReadFileToString(file);
  if (!text) return out;
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object() || !j.contains("descriptions") || !j["descriptions"].is_object()) return out;
  for (const auto& [k, v] : j["descriptions"].items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

Status WriteCache(const std::string& file, const catalog::Schema& schema, const SkalpelOptions& options,
                  const Descriptions& descriptions) {
  nlohmann::ordered_json j = {{"database", schema.database},
                              {"schema", catalog::StructuralFingerprint(schema)},
                              {"model", options.chat.model},
                              {"prompt_version", kSkalpelPromptVersion},
                              {"descriptions", descriptions}};
  return WriteFileAtomically(file, j.dump(1));
}

class SkalpelSubsetter final : public Subsetter {
 public:
  SkalpelSubsetter(const catalog::Schema& schema, SkalpelOptions options, llm::Client chat)
      : schema_(schema), options_(std::move(options)), chat_(std::move(chat)) {}

  std::string Name() const override { return "skalpel"; }

  // Preprocessing: descriptions (cached or asked for), then their embeddings.
  Status Prepare() {
    for (const auto& t : schema_.tables) names_.push_back(catalog::DisplayName(schema_, t));
    const std::string file = options_.cache ? SkalpelCacheFile(schema_, options_) : "";
    Descriptions descriptions = file.empty() ? Descriptions{} : ReadCache(file);
    const size_t cached = descriptions.size();
    Status described = DescribeMissing(descriptions);
    const size_t asked = descriptions.size() - std::min(descriptions.size(), cached);
    if (!file.empty() && asked > 0) {
      // Written even after a failure: what was described is not asked for again.
      if (Status w = WriteCache(file, schema_, options_, descriptions); !w) {
        prep_notes_.push_back("descriptions not cached: " + w.error().message);
      }
    }
    if (!described) return described;
    prep_notes_.push_back(
        fmt::format("descriptions: {} from the cache, {} written by {} ({} prompt tokens, {} "
                    "completion tokens){}",
                    names_.size() - asked, asked, options_.chat.model, prep_prompt_tokens_, prep_completion_tokens_,
                    file.empty() ? "" : " in " + file));
    std::vector<std::string> texts;
    for (const auto& n : names_) texts.push_back(descriptions[n]);
    std::string note;
    auto space = Space::Build(texts, options_.embedding, nullptr, note);
    if (!space) return space.error();
    tables_ = std::move(*space);
    prep_notes_.push_back(note);
    if (options_.column_max_distance) return PrepareColumns();
    return {};
  }

  Result<Subset> Select(const std::string& question, const SubsetOptions& options) override {
    const auto t0 = Clock::now();
    Subset s;
    s.notes = prep_notes_;
    std::vector<std::string> queries;
    if (options_.match_question) queries.push_back(question);
    auto phrases = Decompose(question, s.notes);
    if (!phrases) return phrases.error();
    for (auto& p : *phrases) queries.push_back(std::move(p));
    if (queries.empty()) queries.push_back(question);  // a failed decomposition without match_question
    int64_t embed_tokens = 0;
    auto vectors = tables_->Embed(queries, &embed_tokens);
    if (!vectors) return vectors.error();
    Keep(*vectors, options, s);
    if (columns_) {
      Status c = FilterColumns(queries, *vectors, s);
      if (!c) return c.error();
    }
    if (embed_tokens > 0) s.notes.push_back(fmt::format("embedding tokens: {}", embed_tokens));
    s.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return s;
  }

 private:
  // One description from the model, for the table at `index` (its example values filled in first when missing).
  Result<std::string> DescribeOne(size_t index, int64_t& prompt_tokens, int64_t& completion_tokens) const {
    catalog::Table table = schema_.tables[index];
    const bool has_samples =
        std::any_of(table.columns.begin(), table.columns.end(), [](const auto& c) { return !c.samples.empty(); });
    if (!has_samples && options_.samples) options_.samples(table);
    llm::ChatRequest r;
    r.messages.push_back({"user", ReplaceAll(kDescribePrompt, "{table}", TableText(names_[index], table))});
    auto reply = chat_.Chat(r);
    if (!reply) return reply.error();
    prompt_tokens += reply->prompt_tokens;
    completion_tokens += reply->completion_tokens;
    auto d = ParseDescription(reply->choices.empty() ? std::string() : reply->choices.front());
    if (!d) {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("the model's description of table {}: {}", names_[index], d.error().message));
    }
    return d;
  }

  // Asks the model for the descriptions `descriptions` lacks, a few requests in flight; stops at the first error.
  Status DescribeMissing(Descriptions& descriptions) {
    std::vector<size_t> todo;
    for (size_t i = 0; i < names_.size(); ++i) {
      if (!descriptions.count(names_[i])) todo.push_back(i);
    }
    if (todo.empty()) return {};
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mu;
    std::optional<Error> error;
    auto work = [&] {
      int64_t prompt = 0, completion = 0;
      for (size_t k = next++; k < todo.size() && !failed; k = next++) {
        auto d = DescribeOne(todo[k], prompt, completion);
        std::lock_guard lock(mu);
        if (!d) {
          if (!error) error = d.error();
          failed = true;
        } else {
          descriptions[names_[todo[k]]] = std::move(*d);
        }
      }
      std::lock_guard lock(mu);
      prep_prompt_tokens_ += prompt;
      prep_completion_tokens_ += completion;
    };
    const size_t n = std::clamp<size_t>(static_cast<size_t>(std::max(1, options_.threads)), 1, todo.size());
    std::vector<std::thread> workers;
    for (size_t i = 1; i < n; ++i) workers.emplace_back(work);
    work();
    for (auto& w : workers) w.join();
    if (error) return *error;
    return {};
  }

  // The optional column retrieval: column names embedded, and the naturalness of each.
  Status PrepareColumns() {
    auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
    if (!classifier) return classifier.error();
    std::vector<std::string> texts;
    for (const auto& t : schema_.tables) {
      column_start_.push_back(texts.size());
      for (const auto& c : t.columns) {
        texts.push_back(ReplaceAll(c.label.empty() ? c.name : c.label, "_", " "));
        const auto level = classifier->Classify(c.name).level;
        cryptic_.push_back(level == naturalness::Level::kLow || level == naturalness::Level::kLeast);
      }
    }
    std::string note;
    auto space = Space::Build(texts, options_.embedding, tables_.get(), note);
    if (!space) return space.error();
    columns_ = std::move(*space);
    return {};
  }

  // The question's phrases from the model; a reply that is not a list of phrases leaves them empty, with a note.
  Result<std::vector<std::string>> Decompose(const std::string& question, std::vector<std::string>& notes) const {
    llm::ChatRequest r;
    r.messages.push_back({"user", ReplaceAll(kDecomposePrompt, "{question}", question)});
    auto reply = chat_.Chat(r);
    if (!reply) return reply.error();
    notes.push_back(
        fmt::format("decomposition tokens: {} prompt, {} completion", reply->prompt_tokens, reply->completion_tokens));
    auto phrases = ParseDecomposition(reply->choices.empty() ? std::string() : reply->choices.front());
    if (!phrases) {
      notes.push_back("the model's decomposition was not a JSON list of phrases (" + phrases.error().message +
                      "): the question alone was matched");
      return std::vector<std::string>{};
    }
    notes.push_back(fmt::format("{} phrases: {}", phrases->size(), Join(*phrases, " | ")));
    return phrases;
  }

  // Every table within the distance threshold of a query, with all its columns (closest first under a budget).
  void Keep(const std::vector<retrieval::Embedding>& queries, const SubsetOptions& options, Subset& s) const {
    double max_distance = tables_->Dense() ? options_.max_distance : options_.sparse_max_distance;
    if (options.threshold) max_distance = 1.0 - *options.threshold;
    std::vector<std::pair<double, size_t>> kept;  // (distance, table)
    std::pair<double, size_t> nearest{3, 0};
    for (size_t i = 0; i < names_.size(); ++i) {
      const double d = tables_->Nearest(queries, static_cast<uint32_t>(i));
      if (d <= max_distance) kept.emplace_back(d, i);
      nearest = std::min(nearest, std::make_pair(d, i));
    }
    if (kept.empty() && !names_.empty()) {
      kept.push_back(nearest);
      s.notes.push_back(fmt::format("no table within distance {:.3f}: the nearest one ({}, {:.3f}) was kept",
                                    max_distance, names_[nearest.second], nearest.first));
    }
    std::sort(kept.begin(), kept.end());
    std::map<size_t, double> chosen;  // table -> distance, in schema order
    size_t columns = 0;
    for (const auto& [d, i] : kept) {
      const size_t width = schema_.tables[i].columns.size();
      if (options.budget > 0 && columns + width > options.budget) continue;  // whole tables only
      columns += width;
      chosen.emplace(i, d);
    }
    for (const auto& [i, d] : chosen) {
      const double score = std::clamp(1.0 - d, 0.0, 1.0);
      s.tables.push_back(names_[i]);
      s.scores[names_[i]] = score;
      for (const auto& c : schema_.tables[i].columns) {
        s.columns.push_back(names_[i] + "." + c.name);
        s.scores[s.columns.back()] = score;
      }
    }
    s.notes.push_back(fmt::format("kept {} of {} tables within cosine distance {:.3f} of the question or a phrase",
                                  chosen.size(), names_.size(), max_distance));
  }

  // The optional column retrieval over the kept tables' columns: a column stays when its name is within τ_c of a
  // query, when its name is cryptic (Low or Least natural), or when it is a key.
  Status FilterColumns(const std::vector<std::string>& queries, const std::vector<retrieval::Embedding>& vectors,
                       Subset& s) const {
    std::vector<retrieval::Embedding> own;
    if (!columns_->Dense()) {  // the sparse embedder's vocabulary is per collection: embed the queries again
      auto e = columns_->Embed(queries, nullptr);
      if (!e) return e.error();
      own = std::move(*e);
    }
    const auto& qs = columns_->Dense() ? vectors : own;
    std::vector<std::string> kept;
    size_t dropped = 0;
    for (size_t i = 0; i < names_.size(); ++i) {
      if (!s.scores.count(names_[i])) continue;
      const catalog::Table& t = schema_.tables[i];
      std::set<std::string> keys(t.primary_key.begin(), t.primary_key.end());
      for (const auto& fk : t.foreign_keys) keys.insert(fk.columns.begin(), fk.columns.end());
      for (size_t c = 0; c < t.columns.size(); ++c) {
        const size_t id = column_start_[i] + c;
        const double d = columns_->Nearest(qs, static_cast<uint32_t>(id));
        const std::string name = names_[i] + "." + t.columns[c].name;
        if (d <= *options_.column_max_distance || cryptic_[id] || keys.count(t.columns[c].name)) {
          kept.push_back(name);
          s.scores[name] = std::clamp(1.0 - d, 0.0, 1.0);
        } else {
          s.scores.erase(name);
          ++dropped;
        }
      }
    }
    s.columns = std::move(kept);
    s.notes.push_back(
        fmt::format("column retrieval: {} columns left out (farther than {:.3f}, natural names, not keys)", dropped,
                    *options_.column_max_distance));
    return {};
  }

  const catalog::Schema& schema_;
  SkalpelOptions options_;
  llm::Client chat_;
  std::vector<std::string> names_;  // display names, in schema order
  std::unique_ptr<Space> tables_;
  std::unique_ptr<Space> columns_;    // column retrieval only
  std::vector<bool> cryptic_;         // per column (schema order): Low or Least natural
  std::vector<size_t> column_start_;  // per table: the id of its first column in `columns_`
  std::vector<std::string> prep_notes_;
  int64_t prep_prompt_tokens_ = 0, prep_completion_tokens_ = 0;
};

}  // namespace

std::string SkalpelCacheFile(const catalog::Schema& schema, const SkalpelOptions& options) {
  Hasher h;
  h.Update(catalog::StructuralFingerprint(schema));
  h.Update(options.chat.model);
  h.Update(int64_t{kSkalpelPromptVersion});
  const std::string dir = options.cache_dir.empty() ? catalog::DefaultCacheDir() : options.cache_dir;
  return (std::filesystem::path(dir) / "skalpel" / (h.HexDigest() + ".json")).string();
}

Result<std::vector<std::string>> ParseDecomposition(const std::string& reply) {
  for (const auto& candidate : JsonCandidates(reply, '[', ']')) {
    auto j = nlohmann::json::parse(candidate, nullptr, false);
    if (!j.is_array()) continue;
    std::vector<std::string> out;
    for (const auto& x : j) {
      if (x.is_string() && !Trim(x.get<std::string>()).empty()) out.emplace_back(Trim(x.get<std::string>()));
    }
    if (!out.empty()) return out;
  }
  return MakeError(ErrorCode::kFormat, fmt::format("no JSON list of strings in the reply '{}'", Excerpt(reply)));
}

Result<std::string> ParseDescription(const std::string& reply) {
  for (const auto& candidate : JsonCandidates(reply, '{', '}')) {
    auto j = nlohmann::json::parse(candidate, nullptr, false);
    if (j.is_object() && j.contains("description") && j["description"].is_string()) {
      std::string d(Trim(j["description"].get<std::string>()));
      if (!d.empty()) return d.substr(0, kMaxDescriptionChars);
    }
  }
  if (reply.find('{') == std::string::npos) {
    // Plain prose: the description itself (fences and their language tag dropped).
    std::string text = ReplaceAll(reply, "```json", "");
    text = std::string(Trim(ReplaceAll(text, "```", "")));
    if (!text.empty()) return text.substr(0, kMaxDescriptionChars);
  }
  return MakeError(ErrorCode::kFormat, fmt::format("expected {{\"description\": \"...\"}}, got '{}'", Excerpt(reply)));
}

Result<std::unique_ptr<Subsetter>> MakeSkalpelSubsetter(const catalog::Schema& schema, SkalpelOptions options) {
  if (options.chat.base_url.empty() || options.chat.model.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "the skalpel method needs an LLM: --llm URL and --model NAME (or PLAINSQL_LLM_URL and "
                     "PLAINSQL_LLM_MODEL, or [llm] url and model in plainsql.toml)");
  }
  if (!options.embedding.model.empty() && options.embedding.base_url.empty()) {
    options.embedding.base_url = options.chat.base_url;
  }
  auto chat = llm::Client::Create(options.chat);
  if (!chat) return chat.error();
  auto s = std::make_unique<SkalpelSubsetter>(schema, std::move(options), std::move(*chat));
  if (Status p = s->Prepare(); !p) return p.error();
  return std::unique_ptr<Subsetter>(std::move(s));
}

}  // namespace plainsql::linking
