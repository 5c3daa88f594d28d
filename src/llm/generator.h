// An OpenAI-compatible model as a generator (generate/generator.h): a prompt style (llm/prompt.h: omnisql,
// snails_zero_shot, dail_sql) for questions and the refine prompt for repairs; the schema rendered for the style (DDL
// with sample values, SNAILS lines, plain DDL). Replies are reduced to SQL text (llm/extract.h); the pipeline parses
// it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "generate/generator.h"
#include "llm/client.h"

namespace plainsql::llm {

/// Fails on an unknown prompt style or a configuration the client refuses (no URL, no model).
Result<std::unique_ptr<generate::Generator>> MakeLlmGenerator(Config config, const std::string& style = "omnisql");

/// The exact messages an LLM generator would send for `request` with `style` (for `plainsql prompt`).
Result<std::vector<Message>> BuildPrompt(const generate::GenerationRequest& request, const std::string& style);

}  // namespace plainsql::llm
