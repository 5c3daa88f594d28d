// Question rewriting.
#include "features/rewrite.h"

#include "common/strings.h"
#include "llm/prompt.h"

namespace plainsql::features {

Result<std::string> RewriteQuestion(const llm::Client& client, const std::string& question, const std::string& schema,
                                    const std::vector<std::string>& features) {
  auto prompt = llm::PromptTemplate::Load("rewrite");
  if (!prompt) return prompt.error();
  std::string listed;
  for (const auto& f : features) listed += "- it " + f + "\n";
  auto messages = prompt->Render({{"schema", schema}, {"question", question}, {"features", listed}});
  if (!messages) return messages.error();
  llm::ChatRequest request;
  request.messages = std::move(*messages);
  auto reply = client.Chat(request);
  if (!reply) return reply.error();
  for (const auto& raw : Split(reply->choices.empty() ? "" : reply->choices.front(), '\n')) {
    std::string line = TrimmedCopy(raw);
    for (const char* label : {"Rewritten question:", "Question:"}) {
      if (line.starts_with(label)) line = TrimmedCopy(line.substr(std::string(label).size()));
    }
    if (line.size() >= 2 && (line.front() == '"' || line.front() == '\'') && line.back() == line.front()) {
      line = line.substr(1, line.size() - 2);
    }
    if (!line.empty()) return line;
  }
  return MakeError(ErrorCode::kFormat, "the model's rewrite of the question was empty");
}

}  // namespace plainsql::features
