// The translator's passes, in the order they run (kPasses). Each reads the reading the passes before it left and adds
// to it; once one stops the reading (no query can be made: `stopped` and `reason`), the later ones are not run.
#pragma once

#include <array>

#include "builtin/reading.h"

namespace plainsql::builtin {

using Pass = void (*)(Reading&);

/// pass_linking.cpp — before the passes: "the first and last names" is read as "the first names and last names" when
/// the first word and the shared noun name a column together (first_name), so each coordinated name links whole.
std::vector<retrieval::Token> ExpandCoordinatedNames(const std::vector<retrieval::Token>& tokens,
                                                     const linking::SchemaIndex& index);

/// pass_cues.cpp — cue words ("how many", "sorted by", superlatives) are marked used: they name no table or column.
void MaskCues(Reading& r);
/// pass_linking.cpp — the tables and columns the question names (`mentions`), best links first, one per token span,
/// preferring columns of the tables the question names or whose stored values it names.
void LinkSchema(Reading& r);
/// pass_values.cpp — LIKE patterns ("containing 'court'"), found before the values so a pattern is not a value.
void FindPatterns(Reading& r);
/// pass_values.cpp — stored values the question names become `=` filters, on a column of a named table first; the
/// first value several columns hold is varied across readings (`choices`).
void MatchValues(Reading& r);
/// pass_subject.cpp — the subject: the first table named, else the table of the first column or value named. With
/// none, the reading stops: nothing in the question links.
void ChooseSubject(Reading& r);
/// pass_values.cpp — each pattern's text column (named before the cue, after the pattern, else the subject's name).
void PlacePatterns(Reading& r);
/// pass_values.cpp — yes/no columns named by their quality ("certified technicians") are filters on true.
void YesNoColumns(Reading& r);
/// pass_negation.cpp — the negating word, and the tables named after it (other than the subject).
void FindNegation(Reading& r);
/// pass_comparisons.cpp — comparisons with numbers, dates and the average; counts per group (HAVING).
void ReadComparisons(Reading& r);
/// pass_comparisons.cpp — the subject's date column for a date, a year or a month at token `cue`: the one a word
/// nearest `cue` names ("installed", "created" for a column described as the creation date), else its only one, or one
/// of a table next to it named right before `cue`. The word right before that names the column is the date's, not a
/// stored value it also matched: "orders created in 2023" is when they were created, not the orders whose status is
/// 'Created' (that value's filter is dropped).
std::optional<ColumnRef> SubjectDateColumnAt(Reading& r, size_t cue);
/// pass_comparisons.cpp — a number after a column's name ("ID 1004") and lone years ("in 2014").
void ReadNumbers(Reading& r);
/// pass_grouping.cpp — "for each X" / "in each genre": the grouping column.
void ReadGroupBy(Reading& r);
/// pass_grouping.cpp — aggregates ("average age") and counts.
void ReadAggregates(Reading& r);
/// pass_grouping.cpp — superlatives, "ordered by", limits.
void ReadOrder(Reading& r);
/// pass_grouping.cpp — the select list: columns named and not used otherwise, grouping by "X and the count",
/// aggregates, counts, every column for "all the information".
void ChooseOutputs(Reading& r);
/// pass_negation.cpp — the negated tables' filters become a NOT IN subquery over the subject's single foreign key to
/// them, or `!=` on the subject's own values; with no single key, the tables are joined as before.
void BuildNegation(Reading& r);
/// pass_joins.cpp — the tables every part needs, joined through foreign keys; a table that cannot be joined is
/// dropped with what it contributed. The reading stops when none can be joined.
void JoinTables(Reading& r);
/// pass_build.cpp — the syntax trees: conditions in question order ("or" → OR; a same-column pair no row meets →
/// INTERSECT or OR, with the other reading next), grouping, ordering, limit; printed in the dialect; the score.
void BuildQueries(Reading& r);

inline constexpr std::array<Pass, 17> kPasses = {
    MaskCues,     LinkSchema,    FindPatterns,    MatchValues, ChooseSubject, PlacePatterns,
    YesNoColumns, FindNegation,  ReadComparisons, ReadNumbers, ReadGroupBy,   ReadAggregates,
    ReadOrder,    ChooseOutputs, BuildNegation,   JoinTables,  BuildQueries};

}  // namespace plainsql::builtin
