// The subject pass (see passes.h): the table the question is about.
#include "builtin/passes.h"

namespace plainsql::builtin {

void ChooseSubject(Reading& r) {
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty()) {
      r.subject = el.table;
      break;
    }
  }
  if (r.subject.empty() && !r.mentions.empty()) r.subject = ElementOf(r, r.mentions.front()).table;
  if (r.subject.empty() && !r.filters.empty()) r.subject = r.filters.front().col.table;
  if (!r.subject.empty()) return;
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    // Cue words ("how many") are understood, just not names.
    if (r.tokens[i].kind == TokenKind::kWord && !retrieval::IsStopWord(r.tokens[i].lower) && !r.used[i]) {
      r.unlinked.push_back(r.tokens[i].text);
    }
  }
  r.reason = "nothing in the question names a table, a column or a stored value";
  r.stopped = true;
}

}  // namespace plainsql::builtin
