// The skeleton of a masked query: its shape with the details that say which columns and how many left out, the
// definition DAIL-SQL uses to compare examples with the query asked for (Gao et al., 2023). Starting from the masked
// query (sql::Mask printed: every name `<mask>`, every value `<value>`), both placeholders and `*` become `_`, and then
//   - a qualified name `_._` is one `_`; an alias `AS _` goes;
//   - a join condition `ON _ = _` (with `AND _ = _` after it) goes, and `_ JOIN _` is one `_`, so any number of joined
//     tables reads as one;
//   - a list `_ , _` is one `_`, a comparison `_ op _` (= != <> > >= < <=) is one `_`, and the conditions of a
//     `WHERE _ AND _` / `WHERE _ OR _` are one;
//   - the expression after ORDER BY is `_` whatever it is.
// So `SELECT <mask>.<mask>, count(*) FROM <mask> AS <mask> JOIN <mask> AS <mask> ON <mask>.<mask> = <mask>.<mask>
// GROUP BY <mask>.<mask>` has the skeleton `select _ , count ( _ ) from _ group by _`. The masked query itself is the
// finer skeleton: two examples with the same masked query have the same skeleton, not always the other way round.
#pragma once

#include <string>
#include <string_view>

namespace plainsql::examples {

/// The skeleton of `masked_sql` (lower case, tokens separated by single spaces); "" for "".
std::string Skeleton(std::string_view masked_sql);

}  // namespace plainsql::examples
