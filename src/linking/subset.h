// Schema subsetting (issue #18): the tables and columns a question needs out of a schema too large to show whole.
// One interface, several methods: `builtin` (subset_builtin.h: the linker's evidence, cell values and the foreign-key
// graph, ranked by a learned scorer), `draft` (subset_methods.h: the tables a draft query of the built-in translator
// reads). The output is what `plainsql eval subsets` scores.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace plainsql::linking {

struct SubsetOptions {
  size_t budget = 0;                  // at most this many columns (key columns count too); 0: no cap
  std::optional<double> threshold;    // the probability a table or column needs; default: the model's own
  std::optional<size_t> small_table;  // a kept table with at most this many columns is kept whole
  std::optional<double> min_share;    // at least this share of the columns, most probable first (SubsetCut)
  std::optional<bool> associations;   // keep tables that reference two kept tables (SubsetCut)
};

/// A subset: tables in schema order, columns as "table.column", and a score (0..1) per kept table and column.
struct Subset {
  std::vector<std::string> tables;
  std::vector<std::string> columns;
  std::map<std::string, double> scores;
  std::vector<std::string> notes;  // why some entries are there (join paths, whole small tables)
  double ms = 0;                   // the time the method took for this question
};

/// {"tables": [...], "columns": ["t.c", ...], "scores": {...}, "ms": ...}: one line of the file `eval subsets` reads.
nlohmann::ordered_json SubsetToJson(const Subset& subset);

/// The subset for a reader: each table with its kept columns and scores, then the notes.
std::string SubsetText(const Subset& subset);

/// What a subsetter reads of a benchmark question: the question and, when the benchmark gives one, its evidence (BIRD's
/// external knowledge, SNAILS' hints), which a model is shown too and which often names a column or a value.
std::string QuestionWithEvidence(const std::string& question, const std::string& evidence);

/// A subsetting method for one schema (indexes built once, at construction), asked one question at a time.
class Subsetter {
 public:
  virtual ~Subsetter() = default;
  virtual std::string Name() const = 0;
  virtual Result<Subset> Select(const std::string& question, const SubsetOptions& options) = 0;
};

}  // namespace plainsql::linking
