// An approximate count of the tokens an LLM tokenizer would make of a text, to compare prompt renderings.
//
// The approximation follows how byte-pair-encoding tokenizers of the GPT family pre-split text: a word (letters,
// with one leading space absorbed) is one token per started 6 letters, but an all-capitals run one per 3 (BPE
// vocabularies hold few capitalised pieces) and a case change starts a new word; digits are one token per started
// 3; each other visible character is a token; a run of whitespace without a following word is one token.
// It is a documented estimate, not a tokenizer: use it to compare renderings, not to bill.
#pragma once

#include <cstddef>
#include <string_view>

namespace plainsql::catalog {

size_t EstimateTokens(std::string_view text);

}  // namespace plainsql::catalog
