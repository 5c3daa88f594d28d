// The metrics of the NL-to-SQL papers, each with its source. Execution metrics compare result sets (exec::ResultSet);
// linking metrics compare the identifiers the resolver binds; exact match compares normalized syntax trees.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "exec/value.h"
#include "sql/ast.h"
#include "sql/dialect.h"
#include "sql/resolver.h"

namespace plainsql::eval {

/// Whether the official Spider evaluator compares rows in order: the lower-cased gold text contains "order by" (its
/// exact test: a substring, anywhere, with one space).
bool OrderMatters(std::string_view gold_sql);

/// EX (strict), the Spider test-suite semantics (Zhong et al. 2020, exec_eval.py result_eq): two empty results are
/// equal; otherwise the row counts and column counts must be equal, and some permutation of the predicted columns
/// must make the predicted rows equal to the gold rows — as lists when `order_matters`, as multisets otherwise.
/// Values compare as Python compares them (1 == 1.0; text never equals a number; NULL equals NULL).
bool ExStrict(const exec::ResultSet& gold, const exec::ResultSet& predicted, bool order_matters);

/// EX (relaxed), SNAILS (Luoma & Kumar 2025): equal row counts, and every gold column matched by a distinct predicted
/// column holding the same multiset of values; extra predicted columns are allowed.
bool ExRelaxed(const exec::ResultSet& gold, const exec::ResultSet& predicted);

/// EX (Jaccard), "My Database User Is a Large Language Model": each gold column is matched to the predicted column
/// with the highest value-set Jaccard similarity (greedily, best pairs first, each predicted column once); the
/// predicted table projected on the matched columns is then compared with the gold table by tuple-set Jaccard.
/// Returns that similarity (0 when a gold column finds no partner); correct when >= 0.95.
double ExJaccard(const exec::ResultSet& gold, const exec::ResultSet& predicted);
inline constexpr double kJaccardThreshold = 0.95;

/// Removes every DISTINCT (SELECT DISTINCT and aggregate(DISTINCT ...)), as the official test-suite evaluator does
/// unless --keep_distinct is given.
sql::Query WithoutDistinct(const sql::Query& query);

/// EM: equal normalized syntax trees (sql::Normalize: identifiers as the engine resolves them, quoting, keyword
/// spelling and layout ignored). Values count, unlike the official Spider EM, which compares clause components
/// without values.
bool ExactMatch(const sql::Query& gold, const sql::Query& predicted, const sql::Dialect& dialect);

/// The identifiers a query reads, as SNAILS counts them: each table, and each column as "table.column", lower-cased.
std::set<std::string> QueryIdentifiers(const sql::Resolution& resolution);

struct LinkingScores {
  double recall = 0, precision = 0, f1 = 0;
};
/// SNAILS QueryRecall / QueryPrecision / QueryF1 of the predicted identifiers against the gold ones (an empty gold
/// set gives recall 1; an empty predicted set precision 1 when gold is empty too, else 0).
LinkingScores QueryLinking(const std::set<std::string>& gold, const std::set<std::string>& predicted);

enum class Hardness { kEasy, kMedium, kHard, kExtra };
std::string_view HardnessName(Hardness h);  // "easy", "medium", "hard", "extra"

/// Spider's difficulty class (evaluation.py eval_hardness) from the `sql` object of a Spider questions file, exactly
/// as the official code counts (quirks included). nullopt when the object is not in Spider's format.
std::optional<Hardness> HardnessFromSpiderJson(const std::string& sql_json);

/// The same classes counted on plainsql's syntax tree, for questions without Spider's `sql` object (train, SNAILS,
/// custom benchmarks). Agreement with the official classes on Spider dev is in docs/BENCHMARKS.md.
Hardness HardnessFromQuery(const sql::Query& query);

/// Schema-subsetting metrics (SKALPEL; the NATURAL thesis) for one question: the gold identifiers against a predicted
/// schema subset. Elements are tables and "table.column" names (lower-case, as QueryIdentifiers gives them).
struct SubsetScores {
  double recall = 0;                                     // SchRecall: share of the gold elements the subset keeps
  bool perfect = false;                                  // PerfRecall for this question: every gold element kept
  double precision = 0;                                  // SchPrecision: share of the subset that the gold query uses
  double f1 = 0;                                         // SchF1
  double relation_recall = 0, relation_precision = 0;    // tables only
  double attribute_recall = 0, attribute_precision = 0;  // columns only
  double proportion = 0;                                 // subset size / schema size (tables and columns)
  double relation_f1 = 0, attribute_f1 = 0;              // harmonic means of the recall and precision above
  double relation_proportion = 0;   // kept tables / the schema's tables (0 when the schema size is not given)
  double attribute_proportion = 0;  // kept columns / the schema's columns (likewise)
};
/// `schema_size` counts the schema's tables and columns; relation and attribute proportions are left 0.
SubsetScores ScoreSubset(const std::set<std::string>& gold, const std::set<std::string>& subset, size_t schema_size);
/// The same with the schema's tables and columns counted apart, so the relation and attribute proportions are set.
struct SchemaSize {
  size_t tables = 0, columns = 0;
};
SubsetScores ScoreSubset(const std::set<std::string>& gold, const std::set<std::string>& subset, SchemaSize schema);

/// SKALPEL's schema size categories (its Table 3), by the number of columns of the question's schema: S < 100,
/// M < 1,000, L < 2,500, XL < 50,000, XXL < 100,000 columns. The study has no class above; plainsql counts schemas of
/// 100,000 columns or more as XXL+.
enum class SizeCategory { kS, kM, kL, kXL, kXXL, kXXLPlus };
inline constexpr SizeCategory kSizeCategories[] = {SizeCategory::kS,  SizeCategory::kM,   SizeCategory::kL,
                                                   SizeCategory::kXL, SizeCategory::kXXL, SizeCategory::kXXLPlus};
SizeCategory SizeCategoryOf(size_t columns);
std::string_view SizeCategoryName(SizeCategory category);  // "S", "M", "L", "XL", "XXL", "XXL+"
/// The category's column range for people: "< 100", "100-999", ..., ">= 100,000".
std::string_view SizeCategoryRange(SizeCategory category);

/// Kendall's tau-b between two series (ties handled), with the two-sided p-value of the normal approximation with the
/// tie-corrected variance (as scipy.stats.kendalltau's asymptotic method; SNAILS used it for naturalness vs success).
struct KendallResult {
  double tau = 0, p_value = 1;
  bool defined = false;  // false when a series is constant (or has under two values): tau is undefined
};
KendallResult KendallTau(const std::vector<double>& x, const std::vector<double>& y);

/// McNemar's test for two systems on the same questions: `b` questions only the first got right, `c` only the second.
/// Two-sided exact binomial p-value when b + c < 25, else the chi-square test with continuity correction.
double McNemarP(int64_t b, int64_t c);

/// A percentile bootstrap confidence interval for the mean of 0/1 (or any) outcomes: `resamples` resamples with a
/// fixed seed, so the interval is reproducible.
struct Interval {
  double low = 0, high = 0;
};
Interval BootstrapInterval(const std::vector<double>& outcomes, double confidence = 0.95, int resamples = 1000,
                           uint64_t seed = 20261122);

}  // namespace plainsql::eval
