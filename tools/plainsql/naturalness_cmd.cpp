// `plainsql naturalness ...` (see naturalness_cmd.h).
#include "naturalness_cmd.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "cli.h"
#include "common/csv.h"
#include "common/file.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "naturalness/expander.h"
#include "naturalness/identifier.h"
#include "naturalness/name_model.h"
#include "naturalness/profile.h"
#include "naturalness/report.h"
#include "naturalness/wordlist.h"

namespace plainsql::cli {

NaturalnessCommands::NaturalnessCommands(CLI::App& app) {
  root_ =
      app.add_subcommand("naturalness",
                         "Classify identifiers as Regular / Low / Least natural, expand them, check crosswalks; train "
                         "and evaluate the classifier");
  root_->require_subcommand(1);
  root_->add_option("--data-dir", data_dir_, "Directory with words.tsv and naturalness.model (default: shipped data)");

  classify_ = root_->add_subcommand("classify",
                                    "Classify identifiers (arguments, or one per standard-input line) and print CSV: "
                                    "identifier,label,p_regular,p_low,p_least");
  classify_->add_option("IDENTIFIER", identifiers_, "Identifiers to classify (default: read standard input)");

  eval_ = root_->add_subcommand("eval", "Score the classifier on a labelled SNAILS-format file (text,category,label)");
  eval_->add_option("FILE", eval_file_, "Labelled CSV file")->required();
  eval_->add_flag("--json", json_, "Print a JSON object (accuracy, macro_f1, confusion, ...)");

  train_ = root_->add_subcommand("train", "Train the classifier and write the model file");
  train_->add_option("--train", train_file_, "Training file (SNAILS format), e.g. snails/naturalness/train.csv")
      ->required();
  train_->add_option("--validation", validation_file_, "Validation file, used to choose C")->required();
  train_->add_option("--words", words_file_, "Word list (default: DATA_DIR/words.tsv)");
  train_->add_option("--out", out_, "Model file to write (default: DATA_DIR/naturalness.model)");
  train_->add_option("--c", c_values_, "Regularisation constants to try (default: 0.3 1 3 10)");
  train_
      ->add_option("--learner", learner_,
                   "ordinal (two regressions on the levels' order: Regular or not, Least or not) | one-vs-rest (one "
                   "regression per level)")
      ->capture_default_str();

  wordlist_ = root_->add_subcommand(
      "wordlist", "Build the word list from Debian's wamerican-small, wamerican, wamerican-large and WordNet");
  wordlist_->add_option("--out", out_, "File to write (default: DATA_DIR/words.tsv)");

  name_model_ = root_->add_subcommand(
      "name-model",
      "Learn the name model the expander reads cryptic names with (the words of readable schemas' names and what "
      "their columns hold) from SQLite databases");
  name_model_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout: DIR/<db>/<db>.sqlite)")
      ->required();
  name_model_
      ->add_option("--questions", questions_file_,
                   "Learn from the databases this questions file asks about (its db_id fields), e.g. Spider's "
                   "train.json")
      ->required();
  name_model_->add_option("--exclude", excluded_, "Databases to leave out (repeatable), e.g. a development split");
  name_model_->add_option("--out", out_, "File to write (default: DATA_DIR/name_model.tsv)");

  check_ = root_->add_subcommand(
      "check-crosswalk", "Validate a crosswalk CSV: empty, duplicate and colliding names, reserved words, quoting");
  check_->add_option("FILE", crosswalk_file_, "Crosswalk CSV (SNAILS format, optional 7th column `table`)")->required();
  check_->add_option("--conn", conn_, "Check against this database's schema (collisions per real table)");
  check_->add_option("--tables", tables_file_, "Check against a Spider/BIRD/SNAILS tables.json schema");
  check_->add_option("--db", db_id_, "With --tables: the db_id");

  expand_ = root_->add_subcommand(
      "expand", "Expand cryptic names into readable ones: reads identifier[,table] lines, writes identifier,expanded");
  expand_->add_flag("--explain", explain_, "Add a third column: each word, its expansion and where it came from");
  expand_->add_option("--name-model", name_model_file_,
                      "Read cryptic words with this name model (plainsql naturalness name-model; the shipped one is "
                      "DATA_DIR/name_model.tsv); a line without a table is read as a table's name");

  profile_ = app.add_subcommand("profile", "Report how natural a schema's table and column names are");
  profile_->add_option("CONN", conn_, "Database connection (not needed with --tables)");
  profile_->add_option("--tables", tables_file_, "Profile a Spider/BIRD/SNAILS tables.json schema instead");
  profile_->add_option("--db", db_id_, "With --tables: the db_id");
  profile_->add_option("--schema", schema_filter_, "PostgreSQL: only this schema (default: all)");
  profile_->add_option("--format,-f", format_, "text | json | csv | html")->capture_default_str();
  profile_->add_option("--top", top_, "How many of the least natural names to list (text, html)")
      ->capture_default_str();
  profile_->add_option("--data-dir", data_dir_, "Directory with words.tsv and naturalness.model");
}

int NaturalnessCommands::Run() {
  if (data_dir_.empty()) data_dir_ = naturalness::DefaultDataDir();
  if (*classify_) return Classify();
  if (*eval_) return Eval();
  if (*train_) return Train();
  if (*wordlist_) return WordList();
  if (*name_model_) return NameModel();
  if (*profile_) return Profile();
  if (*check_) return CheckCrosswalk();
  if (*expand_) return Expand();
  return 2;
}

int NaturalnessCommands::Classify() {
  auto classifier = naturalness::Classifier::Load(data_dir_);
  if (!classifier) return Fail(classifier.error());
  std::string out = "identifier,label,p_regular,p_low,p_least\n";
  auto one = [&](const std::string& id) {
    naturalness::Prediction p = classifier->Classify(id);
    out += fmt::format("{},{},{:.4f},{:.4f},{:.4f}\n", CsvField(id), naturalness::LevelCode(p.level), p.p[0], p.p[1],
                       p.p[2]);
    if (out.size() > (1 << 16)) {
      Write(out);
      out.clear();
    }
  };
  if (!identifiers_.empty()) {
    for (const auto& id : identifiers_) one(id);
  } else {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      one(line);
    }
  }
  Write(out);
  return 0;
}

int NaturalnessCommands::Eval() {
  auto classifier = naturalness::Classifier::Load(data_dir_);
  if (!classifier) return Fail(classifier.error());
  auto rows = naturalness::LoadLabeled(eval_file_);
  if (!rows) return Fail(rows.error());
  naturalness::EvalReport r = naturalness::Evaluate(*classifier, *rows);
  if (json_) {
    nlohmann::ordered_json j;
    j["n"] = r.n;
    j["accuracy"] = r.accuracy;
    j["macro_precision"] = r.macro_precision;
    j["macro_recall"] = r.macro_recall;
    j["macro_f1"] = r.macro_f1;
    j["per_class"] = nlohmann::ordered_json::object();
    for (int k = 0; k < 3; ++k) {
      j["per_class"][std::string(naturalness::LevelCode(naturalness::kLevels[k]))] = {
          {"precision", r.precision[k]}, {"recall", r.recall[k]}, {"f1", r.f1[k]}};
    }
    j["labels"] = {"N1", "N2", "N3"};
    j["confusion"] = r.confusion;  // rows: gold, columns: predicted
    Write(j.dump() + "\n");
    return 0;
  }
  std::string out = fmt::format(
      "{} identifiers\naccuracy        {:.4f}\nmacro precision {:.4f}\nmacro recall    {:.4f}\n"
      "macro F1        {:.4f}\n\n",
      r.n, r.accuracy, r.macro_precision, r.macro_recall, r.macro_f1);
  out += fmt::format("{:<12} {:>9} {:>9} {:>9}\n", "level", "precision", "recall", "F1");
  for (int k = 0; k < 3; ++k) {
    auto level = naturalness::kLevels[k];
    out += fmt::format("{:<12} {:>9.4f} {:>9.4f} {:>9.4f}\n",
                       fmt::format("{} {}", naturalness::LevelCode(level), naturalness::LevelName(level)),
                       r.precision[k], r.recall[k], r.f1[k]);
  }
  out += "\nconfusion (rows: gold, columns: predicted)\n";
  out += fmt::format("{:<6} {:>6} {:>6} {:>6}\n", "", "N1", "N2", "N3");
  for (int g = 0; g < 3; ++g) {
    out += fmt::format("{:<6} {:>6} {:>6} {:>6}\n", naturalness::LevelCode(naturalness::kLevels[g]), r.confusion[g][0],
                       r.confusion[g][1], r.confusion[g][2]);
  }
  Write(out);
  return 0;
}

int NaturalnessCommands::Train() {
  const auto learner = naturalness::ParseLearner(learner_);
  if (!learner) {
    return Fail(
        MakeError(ErrorCode::kInvalidArgument, "--learner must be ordinal or one-vs-rest, not '" + learner_ + "'"));
  }
  auto words = naturalness::WordList::Load(words_file_.empty() ? data_dir_ + "/words.tsv" : words_file_);
  if (!words) return Fail(words.error());
  auto train = naturalness::LoadLabeled(train_file_);
  if (!train) return Fail(train.error());
  auto validation = naturalness::LoadLabeled(validation_file_);
  if (!validation) return Fail(validation.error());
  naturalness::TrainOptions options;
  if (!c_values_.empty()) options.c_values = c_values_;
  options.learner = *learner;
  for (double c : options.c_values) {
    if (!(c > 0)) return Fail(MakeError(ErrorCode::kInvalidArgument, "--c values must be positive"));
  }
  naturalness::TrainReport report;
  auto model = naturalness::Train(*train, *validation, *words, options, &report,
                                  [](const std::string& line) { fmt::print(stderr, "{}\n", line); });
  if (!model) return Fail(model.error());
  std::string path = out_.empty() ? data_dir_ + "/naturalness.model" : out_;
  if (Status w = WriteFileAtomically(path, model->Serialize()); !w) return Fail(w.error());
  fmt::print(stderr, "{} learner, chose C = {:g}; wrote {} ({} features)\n", naturalness::LearnerName(options.learner),
             report.chosen_c, path, model->FeatureCount());
  return 0;
}

int NaturalnessCommands::WordList() {
  auto list = naturalness::WordList::Build(naturalness::WordListSources{});
  if (!list) return Fail(list.error());
  std::string path = out_.empty() ? data_dir_ + "/words.tsv" : out_;
  std::string header =
      "plainsql word list: word<TAB>tier. Tier 0: wamerican-small; 1: wamerican; 2: wamerican-large; 3: WordNet 3.0\n"
      "lemma only. Lower-cased letters-only words. Regenerate with `plainsql naturalness wordlist` (Debian packages\n"
      "wamerican-small, wamerican, wamerican-large, wordnet).";
  if (Status w = WriteFileAtomically(path, list->Serialize(header)); !w) return Fail(w.error());
  fmt::print(stderr, "wrote {} ({} words)\n", path, list->Size());
  return 0;
}

int NaturalnessCommands::NameModel() {
  auto text = ReadFileToString(questions_file_);
  if (!text) return Fail(text.error());
  std::set<std::string> dbs;
  try {
    for (const auto& q : nlohmann::json::parse(*text)) dbs.insert(q.at("db_id").get<std::string>());
  } catch (const std::exception& e) {
    return Fail(MakeError(ErrorCode::kFormat, fmt::format("{}: expected a JSON list of questions with db_id ({})",
                                                          questions_file_, e.what())));
  }
  for (const auto& x : excluded_) dbs.erase(x);
  naturalness::NameModel model;
  std::vector<std::string> missing;
  size_t done = 0;
  for (const auto& db : dbs) {
    std::string path = eval::SqliteDatabasePath(db_dir_, db);
    if (path.empty()) {
      missing.push_back(db);
      continue;
    }
    auto conn = exec::Connect(path);
    if (!conn) return Fail(conn.error());
    catalog::IntrospectOptions opts;
    opts.samples = naturalness::kShapeSamples;
    opts.row_counts = false;
    auto schema = catalog::Introspect(**conn, opts);
    if (!schema) return Fail(schema.error());
    model.Learn(*schema);
    if (++done % 20 == 0) fmt::print(stderr, "{} of {} databases\n", done, dbs.size());
  }
  if (model.Empty())
    return Fail(
        MakeError(ErrorCode::kNotFound, fmt::format("no database of {} found under {}", questions_file_, db_dir_)));
  std::string path = out_.empty() ? data_dir_ + "/name_model.tsv" : out_;
  std::string header = fmt::format(
      "plainsql name model (do not edit): the words of table and column names and the shapes of the columns they "
      "name,\nlearned by `plainsql naturalness name-model` from {} databases of {}{}.\nschemas N; shape S COUNT; "
      "word W IN_TABLES IN_COLUMNS SHAPE:COUNT,...; pair W NEXT_WORD COUNT",
      model.Schemas(), std::filesystem::path(questions_file_).filename().string(),
      excluded_.empty() ? "" : fmt::format(" ({} left out)", excluded_.size()));
  if (Status w = WriteFileAtomically(path, model.Serialize(header)); !w) return Fail(w.error());
  std::string note = missing.empty() ? "" : fmt::format("; {} databases not found", missing.size());
  fmt::print(stderr, "wrote {} ({} words from {} databases{})\n", path, model.Size(), model.Schemas(), note);
  return 0;
}

int NaturalnessCommands::Profile() {
  auto format = naturalness::ParseProfileFormat(format_);
  if (!format) return Fail(format.error());
  auto classifier = naturalness::Classifier::Load(data_dir_);
  if (!classifier) return Fail(classifier.error());
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  opts.row_counts = false;
  opts.schema_filter = schema_filter_;
  auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, true);
  if (!target) return Fail(target.error());
  naturalness::SchemaProfile profile = naturalness::ProfileSchema(target->schema, *classifier);
  naturalness::ReportOptions options;
  options.top = top_;
  Write(naturalness::RenderProfile(profile, *format, options));
  return 0;
}

int NaturalnessCommands::CheckCrosswalk() {
  auto cw = naturalness::LoadCrosswalk(crosswalk_file_);
  if (!cw) return Fail(cw.error());
  std::optional<sql::NameCatalog> native;
  if (!conn_.empty() || !tables_file_.empty()) {
    catalog::IntrospectOptions opts;
    opts.samples = 0;
    opts.row_counts = false;
    auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, true);
    if (!target) return Fail(target.error());
    native = catalog::ToNameCatalog(target->schema);
  }
  auto issues = naturalness::ValidateCrosswalk(*cw, native ? &*native : nullptr);
  int errors = 0;
  std::string out;
  for (const auto& i : issues) {
    errors += i.error;
    out += fmt::format("{}: {}\n", i.error ? "error" : "warning", i.message);
  }
  out += fmt::format("{}: {} entries, {} errors, {} warnings\n", crosswalk_file_, cw->entries.size(), errors,
                     issues.size() - errors);
  Write(out);
  if (errors) return Fail(MakeError(ErrorCode::kFormat, fmt::format("{} has {} errors", crosswalk_file_, errors)));
  return 0;
}

int NaturalnessCommands::Expand() {
  auto words = naturalness::WordList::Load(data_dir_ + "/words.tsv");
  if (!words) return Fail(words.error());
  auto abbreviations = naturalness::Expander::LoadAbbreviations(data_dir_ + "/abbreviations.tsv");
  if (!abbreviations) return Fail(abbreviations.error());
  // Every line is read first: the names together are the schema vocabulary the expander draws on.
  std::vector<std::string> identifiers, tables, context;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f = ParseCsvRecord(line);
    identifiers.push_back(f[0]);
    tables.push_back(f.size() > 1 ? f[1] : "");
    context.push_back(f[0]);
    if (f.size() > 1 && !f[1].empty()) context.push_back(f[1]);
  }
  naturalness::Expander expander(*words, std::move(*abbreviations));
  expander.SetContext(context);
  std::optional<naturalness::NameModel> model;
  if (!name_model_file_.empty()) {
    auto loaded = naturalness::NameModel::Load(name_model_file_);
    if (!loaded) return Fail(loaded.error());
    model = std::move(*loaded);
    expander.SetNameModel(&*model);
  }
  std::string out = explain_ ? "identifier,expanded,explanation\n" : "identifier,expanded\n";
  for (size_t i = 0; i < identifiers.size(); ++i) {
    const std::string& id = identifiers[i];
    naturalness::NameContext ctx;
    ctx.is_table = tables[i].empty();
    for (std::string_view w : naturalness::SplitWords(tables[i])) ctx.related.push_back(ToLower(w));
    naturalness::Expansion e = expander.Expand(id, &ctx);
    out += CsvField(id) + "," + CsvField(e.name);
    if (explain_) {
      std::vector<std::string> parts;
      for (const auto& w : e.words) {
        std::string part = w.written + "=" + w.expanded + " (" + w.source + ")";
        if (!w.alternatives.empty()) {
          std::vector<std::string> alts;
          for (const auto& [word, source] : w.alternatives) alts.push_back(word + " (" + source + ")");
          part += " [or " + Join(alts, ", ") + "]";
        }
        parts.push_back(part);
      }
      out += "," + CsvField(Join(parts, "; "));
    }
    out += "\n";
  }
  Write(out);
  return 0;
}

}  // namespace plainsql::cli
