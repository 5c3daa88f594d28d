// Benchmarks: questions with their gold SQL and database, from the formats the field uses.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plainsql::eval {

struct Question {
  size_t index = 0;  // position in the benchmark file, from 0
  std::string db_id;
  std::string question;
  std::string gold_sql;
  std::string evidence;         // BIRD's external knowledge; SNAILS "-- @HINT" lines
  std::string spider_sql_json;  // Spider's parsed `sql` object, when the file has one (for the official hardness)
  std::string difficulty;       // given by the file (BIRD: simple / moderate / challenging), else ""
  std::string paraphrase;       // another wording of the question (Spider train's question_syn), else ""
};

struct Benchmark {
  std::string name;                // "spider", "bird", "snails", "custom"
  std::string dialect = "sqlite";  // of the gold SQL
  std::vector<Question> questions;
};

/// Spider (and Spider-Syn / -Realistic / -DK) or BIRD questions JSON: a list of objects with `db_id`, `question` and
/// the gold SQL in `query` (Spider) or `SQL` (BIRD); BIRD's `evidence` and `difficulty` are kept.
Result<Benchmark> LoadSpiderQuestions(const std::string& path, const std::string& name = "spider");

/// SNAILS pair files (`-- N: question`, optional `-- @HINT ...` lines, the SQL up to a `;`; CRLF or LF), in T-SQL.
/// `db_id` is the file's stem unless given. A directory loads every `.sql` file in it (sorted by name).
Result<Benchmark> LoadSnailsPairs(const std::string& path, const std::string& db_id = "");

/// A custom benchmark: JSON Lines or CSV (by extension) with `question`, the gold SQL in `sql` (or `query`, `gold`),
/// and `db_id` (or `db`); optional `evidence` and `difficulty`.
Result<Benchmark> LoadCustom(const std::string& path);

/// Any of the above by name: spider, bird, snails, custom.
Result<Benchmark> LoadBenchmark(const std::string& kind, const std::string& path);

struct Selection {
  std::vector<std::string> databases;  // keep these db_ids (all when empty)
  std::optional<size_t> from, to;      // index range [from, to)
};

/// The positions of the questions `selection` keeps, in order.
std::vector<size_t> SelectQuestions(const Benchmark& benchmark, const Selection& selection);

/// A line of a Spider-style gold or predictions file: a query, optionally followed by a TAB and its db_id.
struct GoldLine {
  std::string_view sql;    // the line up to its last TAB, or the whole line
  std::string_view db_id;  // the word after the last TAB ("" when none)
  /// Set, and the line left whole, when a TAB is followed by more than one word: the TAB is inside the query, not
  /// before a db_id. Says where ("a TAB at column 9 is followed by 'FROM t', which is not a db_id").
  std::string tab_inside;
};
/// Splits a line at its last TAB when a single word (letters, digits, _ . -) follows it.
GoldLine SplitGoldLine(std::string_view line);

/// The SQLite file of a database in a Spider-style folder: DIR/db/db.sqlite, else DIR/db.sqlite ("" if neither).
std::string SqliteDatabasePath(const std::string& db_dir, const std::string& db_id);

}  // namespace plainsql::eval
