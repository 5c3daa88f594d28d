// The subsetting methods by name (see subset_methods.h).
#include "linking/subset_methods.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>

#include "builtin/generator.h"
#include "catalog/dictionary.h"
#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "llm/client.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::linking {

namespace {

// Drafts of the built-in translator and what they read: the `draft` method's subset, the `builtin` method's evidence.
class DraftReader {
 public:
  DraftReader(exec::Connection& conn, const catalog::Schema& schema, std::unique_ptr<generate::Generator> generator)
      : conn_(conn), schema_(schema), names_(catalog::ToNameCatalog(schema)), generator_(std::move(generator)) {}

  /// The draft's reads; `note` says what the translator answered.
  DraftReads Read(const std::string& question, std::string& note) {
    DraftReads d;
    generate::GenerationRequest r;
    r.question = question;
    r.schema = &schema_;
    r.dialect = &conn_.dialect();
    auto g = generator_->Generate(r);
    if (!g || g->candidates.empty()) {
      note = g ? "the built-in translator gave no draft" : g.error().message;
      return d;
    }
    note = "draft: " + g->candidates.front();
    std::shared_ptr<const sql::Query> tree = g->queries.empty() ? nullptr : g->queries.front();
    if (!tree) {
      auto parsed = sql::ParseQuery(g->candidates.front(), conn_.dialect());
      if (parsed) tree = std::make_shared<const sql::Query>(std::move(*parsed));
    }
    if (!tree) return d;
    const sql::Resolution res = sql::Resolve(*tree, names_, conn_.dialect());
    d.given = true;
    d.sql = g->candidates.front();
    for (const auto& t : res.tables) d.tables.insert(ToLower(t));
    for (const auto& [t, c] : res.columns) d.columns.emplace(ToLower(t), ToLower(c));
    return d;
  }

 private:
  exec::Connection& conn_;
  const catalog::Schema& schema_;
  sql::NameCatalog names_;
  std::unique_ptr<generate::Generator> generator_;
};

class DraftSubsetter final : public Subsetter {
 public:
  DraftSubsetter(exec::Connection& conn, const catalog::Schema& schema, std::unique_ptr<generate::Generator> generator)
      : schema_(schema), reader_(conn, schema, std::move(generator)) {}
  std::string Name() const override { return "draft"; }

  Result<Subset> Select(const std::string& question, const SubsetOptions& /*options*/) override {
    auto t0 = std::chrono::steady_clock::now();
    Subset s;
    std::string note;
    const std::set<std::string> read = reader_.Read(question, note).tables;
    s.notes.push_back(std::move(note));
    for (const auto& t : schema_.tables) {
      if (!read.count(ToLower(t.name))) continue;
      const std::string name = catalog::DisplayName(schema_, t);
      s.tables.push_back(name);
      s.scores[name] = 1.0;
      for (const auto& c : t.columns) s.columns.push_back(name + "." + c.name);
    }
    s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return s;
  }

 private:
  const catalog::Schema& schema_;
  DraftReader reader_;
};

// The skalpel method's options: the caller's, or the LLM from the environment; with a connection, example values for
// the description prompts (read under a lock: descriptions are asked for from several threads).
Result<std::unique_ptr<Subsetter>> MakeSkalpel(const catalog::Schema& schema, exec::Connection* conn,
                                               const SkalpelOptions* given) {
  SkalpelOptions options;
  if (given != nullptr) {
    options = *given;
  } else {
    options.chat = llm::ConfigFromEnvironment();
    options.embedding = options.chat;
    options.embedding.model.clear();  // no embedding model named: the offline embedder
  }
  if (conn != nullptr && !options.samples) {
    auto mu = std::make_shared<std::mutex>();
    options.samples = [conn, mu](catalog::Table& table) {
      catalog::Schema one;
      one.tables.push_back(table);
      catalog::IntrospectOptions io;
      io.samples = 3;
      io.sample_scan_rows = 100;  // a few values to show, not a census
      io.row_counts = false;
      std::lock_guard lock(*mu);
      catalog::CollectCountsAndSamples(*conn, io, one, nullptr);  // a table that cannot be read stays without values
      table = std::move(one.tables.front());
    };
  }
  return MakeSkalpelSubsetter(schema, std::move(options));
}

}  // namespace

const std::vector<std::string>& SubsetMethods() {
  static const std::vector<std::string> kMethods = {"builtin", "draft", "skalpel"};
  return kMethods;
}

Result<std::unique_ptr<Subsetter>> MakeSubsetter(const std::string& method, const catalog::Schema& schema,
                                                 exec::Connection* conn, const retrieval::ValueIndex* values,
                                                 std::shared_ptr<const LinkResources> resources,
                                                 const SkalpelOptions* skalpel) {
  if (method == "skalpel") return MakeSkalpel(schema, conn, skalpel);
  if (method == "builtin") {
    if (!resources) {
      auto r = LinkResources::Load();
      if (!r) return r.error();
      resources = *r;
    }
    auto builtin = std::make_unique<BuiltinSubsetter>(schema, resources, values);
    if (conn != nullptr) {
      // The database is at hand: the built-in translator's draft is evidence for the scorer (without it, none). It
      // reads with the same resources (loading them again would double the start-up time).
      auto g = builtin::MakeBuiltinGenerator(*conn, schema, resources);
      if (g) {
        auto reader = std::make_shared<DraftReader>(*conn, schema, std::move(*g));
        builtin->SetDraftSource([reader](const std::string& question) {
          std::string note;
          return reader->Read(question, note);
        });
      }
    }
    return std::unique_ptr<Subsetter>(std::move(builtin));
  }
  if (method == "draft") {
    if (conn == nullptr) {
      return MakeError(ErrorCode::kInvalidArgument, "the draft method needs the database (a connection or --db-dir)");
    }
    auto g = builtin::MakeBuiltinGenerator(*conn, schema);
    if (!g) return g.error();
    return std::unique_ptr<Subsetter>(new DraftSubsetter(*conn, schema, std::move(*g)));
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   "unknown subsetting method '" + method + "' (methods: " + Join(SubsetMethods(), ", ") + ")");
}

Result<std::unique_ptr<SubsetDatabase>> OpenSubsetDatabase(
    const catalog::BenchmarkSchemas& tables, const std::string& db_id, const std::string& sqlite_file,
    const std::string& dictionary, const std::string& method, std::shared_ptr<const LinkResources> resources,
    const SkalpelOptions* skalpel, const InferKeysOptions* infer_keys, std::vector<std::string>* notes) {
  auto db = std::make_unique<SubsetDatabase>();
  std::error_code ec;
  if (!sqlite_file.empty() && std::filesystem::exists(sqlite_file, ec)) {
    auto conn = exec::Connect(sqlite_file);
    if (!conn) return conn.error();
    db->conn = std::move(*conn);
  }
  bool from_tables = false;
  if (!tables.Empty()) {
    auto s = tables.Get(db_id, notes);
    if (s) {
      db->schema = std::move(*s);
      from_tables = true;
    } else if (!db->conn) {
      return s.error();
    }
  }
  if (!from_tables) {
    if (!db->conn) return MakeError(ErrorCode::kNotFound, "no schema for database " + db_id);
    catalog::IntrospectOptions io;
    io.samples = 0;
    io.row_counts = false;
    auto s = catalog::Introspect(*db->conn, io);
    if (!s) return s.error();
    db->schema = std::move(*s);
  }
  if (!dictionary.empty()) {
    if (auto applied = catalog::ApplyDataDictionary(dictionary, db->schema); !applied) return applied.error();
  }
  if (infer_keys) {
    KeyInferenceResult inferred;
    if (db->conn) {
      auto r = InferKeys(*db->conn, db->schema, *infer_keys);
      if (!r) return r.error();
      inferred = std::move(*r);
    } else {
      // No database: every table unread, so names and types alone decide.
      inferred = InferKeysFromSamples(db->schema, std::vector<TableValues>(db->schema.tables.size()), *infer_keys);
    }
    if (notes) {
      for (const auto& k : inferred.keys) {
        notes->push_back(fmt::format(
            "{}: inferred {} key {}({}){}", db_id, k.primary ? "primary" : "foreign", k.table, Join(k.columns, ", "),
            k.primary ? "" : fmt::format(" -> {}({})", k.ref_table, Join(k.ref_columns, ", "))));
      }
    }
  }
  if (db->conn && method == "builtin") {
    auto v = retrieval::ValueIndex::Build(*db->conn, db->schema);
    if (v) db->values = std::make_unique<retrieval::ValueIndex>(std::move(*v));  // without values: names only
  }
  auto sub = MakeSubsetter(method, db->schema, db->conn.get(), db->values.get(), std::move(resources), skalpel);
  if (!sub) return sub.error();
  db->subsetter = std::move(*sub);
  return db;
}

}  // namespace plainsql::linking
