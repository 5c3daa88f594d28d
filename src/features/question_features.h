// The question-syntax and pragmatics features: from the question's text, its tokens and the built-in translator's
// reading of its cues (superlatives, comparisons, negations, grouping, order, limits).
#pragma once

#include <string_view>
#include <vector>

#include "builtin/intent.h"
#include "features/values.h"
#include "retrieval/text.h"

namespace plainsql::features {

/// Sets every kQuestionSyntax and kPragmatics feature of `values`. `tokens` and `intent` are the question's own
/// (without its evidence); `evidence` says whether external knowledge or a hint comes with it.
void ReadQuestion(std::string_view question, const std::vector<retrieval::Token>& tokens, const builtin::Intent& intent,
                  bool evidence, Values& values);

}  // namespace plainsql::features
