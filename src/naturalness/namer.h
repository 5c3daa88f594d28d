// Naming a whole schema: the crosswalk `plainsql rename` writes. N1 (Regular) comes from the expander for every name
// the classifier marks Low or Least (and for names that are not valid plain identifiers); N2 (Low) and N3 (Least)
// come from the abbreviator. Every level is made collision-free and free of reserved words. An earlier crosswalk's
// entries are kept as they are, so that a user's edits survive a rerun.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "naturalness/expander.h"
#include "naturalness/name_model.h"
#include "retrieval/wordnet.h"

namespace plainsql::naturalness {

/// The abbreviator: Regular -> Low or Least, deterministic (the same name always gives the same result).
///   Low:   every word of four or more letters loses its vowels after the first letter ("student" -> "stdnt",
///          "name" -> "nm"); shorter words stay.
///   Least: a name of several words becomes their initials ("last_name" -> "LN"); a single word its first letter,
///          or its first three when it is longer than four letters ("Student" -> "Stu", "Age" -> "A").
/// Words are split as SplitWords splits them; the original's separator style is kept (snake_case stays snake_case,
/// CamelCase stays CamelCase).
std::string Abbreviate(std::string_view name, Level level);

struct NamingReport {
  int kept = 0;                    // entries taken unchanged from the earlier crosswalk
  int added = 0;                   // new entries
  int expanded = 0;                // new entries whose N1 differs from the native name
  int with_alternatives = 0;       // new entries with other readings (CrosswalkEntry::alternatives)
  std::vector<std::string> stale;  // earlier entries that name nothing in the schema any more (kept in the file)
};

struct NamingOptions {
  std::string database;               // the source_database column; default: the schema's database name
  std::vector<std::string> evidence;  // texts of data dictionaries (Expander::AddEvidence), besides the comments
  /// N1 names proposed from elsewhere (an LLM), keyed by (table, identifier) with "" as the table of a table; they
  /// replace the expander's and are still made unique and free of reserved words.
  std::map<std::pair<std::string, std::string>, std::string> proposed;
  /// WordNet, to read what a column's stored values are (NameContext::value_kinds) when the schema has samples and the
  /// expander a name model; may be null.
  const retrieval::WordNet* wordnet = nullptr;
  /// With a name model: how much a cryptic piece's readings elsewhere in the schema weigh on each of its readings (one
  /// reading per piece across the schema; Expander::SetSchemaReadings); 0 reads every name on its own.
  double agreement = kDefaultAgreement;
  static constexpr double kDefaultAgreement = 1.0;
};

/// An identifier NameSchema will give a new N1 name, with the expander's guess.
struct PendingName {
  std::string identifier;
  std::string table;  // "" for a table
  std::string guess;
};

/// The identifiers of `schema` that NameSchema would expand (not kept from `previous`, and not already Regular and
/// plain), in schema order, for a second opinion (NamingOptions::proposed).
/// Tells `expander` the comments of `schema`'s tables and columns (a database's own or a data dictionary's): the
/// phrases whose initials a cryptic word may be ("Maintenance orders: ..." for MO). Returns how many it read.
size_t AddCommentEvidence(const catalog::Schema& schema, Expander& expander);
/// A copy of `expander` that has read `schema`'s comments (AddCommentEvidence); null when the schema has none.
std::unique_ptr<Expander> ExpanderWithComments(const Expander& expander, const catalog::Schema& schema);

std::vector<PendingName> PendingNames(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                                      const Crosswalk* previous, const NamingOptions& options);

/// A crosswalk entry for every table and column of `schema` (tables first, then columns, each column entry with its
/// table). With `previous`, its entries for identifiers of this schema are kept exactly, and only the others are
/// named; entries naming nothing in the schema are kept too (and reported).
Crosswalk NameSchema(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                     const Crosswalk* previous, const NamingOptions& options, NamingReport* report);

/// What naming a schema reads from the data folder, loaded once: the classifier, the abbreviations and, unless
/// `name_model_file` is "none", the name model ("": the folder's name_model.tsv) with WordNet when it is installed.
/// `plainsql rename`, and the PostgreSQL extension's natural views, name with it.
class SchemaNamer {
 public:
  static Result<std::unique_ptr<SchemaNamer>> Load(const std::string& data_dir, const std::string& name_model_file = "",
                                                   double min_posterior = 0.25);
  SchemaNamer(const SchemaNamer&) = delete;
  SchemaNamer& operator=(const SchemaNamer&) = delete;

  const Classifier& classifier() const { return classifier_; }
  Expander& expander() { return *expander_; }
  bool has_name_model() const { return name_model_.has_value(); }
  /// WordNet, when the name model is used and WordNet is installed (null otherwise).
  const retrieval::WordNet* wordnet() const { return wordnet_.get(); }

  /// NameSchema with these resources; `options.wordnet` is filled when it is null.
  Crosswalk Name(const catalog::Schema& schema, const Crosswalk* previous, NamingOptions options, NamingReport* report);

 private:
  explicit SchemaNamer(Classifier classifier) : classifier_(std::move(classifier)) {}
  Classifier classifier_;
  std::optional<NameModel> name_model_;
  std::unique_ptr<Expander> expander_;  // reads classifier_'s word list
  std::shared_ptr<const retrieval::WordNet> wordnet_;
};

}  // namespace plainsql::naturalness
