// Prompt templates (see prompt.h).
#include "llm/prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "catalog/render.h"
#include "common/file.h"
#include "common/strings.h"

namespace plainsql::llm {

Result<PromptTemplate> PromptTemplate::Parse(const std::string& name, const std::string& text) {
  PromptTemplate t;
  t.name_ = name;
  Message* current = nullptr;
  for (std::string line : Split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with("### ")) {
      std::string role = TrimmedCopy(line.substr(4));
      if (role != "system" && role != "user" && role != "assistant") {
        return MakeError(ErrorCode::kFormat, fmt::format("prompt {}: unknown message role '{}'", name, role));
      }
      t.messages_.push_back({role, ""});
      current = &t.messages_.back();
      continue;
    }
    if (!current) continue;  // comments and blank lines before the first message
    current->content += line + "\n";
  }
  if (t.messages_.empty()) {
    return MakeError(ErrorCode::kFormat, fmt::format("prompt {}: no message (a line '### user' starts one)", name));
  }
  for (auto& m : t.messages_) {
    while (!m.content.empty() && m.content.back() == '\n') m.content.pop_back();
    for (size_t at = m.content.find("{{"); at != std::string::npos; at = m.content.find("{{", at + 2)) {
      if (m.content.find("}}", at) == std::string::npos) {
        return MakeError(ErrorCode::kFormat, fmt::format("prompt {}: a placeholder is not closed with }}}}", name));
      }
    }
  }
  return t;
}

Result<PromptTemplate> PromptTemplate::Load(const std::string& name, const std::string& data_dir) {
  if (name.empty() || name.find_first_of("/\\.") != std::string::npos) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("'{}' is not a prompt name", name));
  }
  std::string path = (data_dir.empty() ? DataDir() : data_dir) + "/prompts/" + name + ".txt";
  auto text = ReadFileToString(path);
  if (!text) {
    return MakeError(ErrorCode::kNotFound, fmt::format("no prompt '{}' ({} cannot be read); prompts: {}, refine", name,
                                                       path, Join(PromptStyles(), ", ")));
  }
  return Parse(name, *text);
}

Result<std::vector<Message>> PromptTemplate::Render(const std::map<std::string, std::string>& vars) const {
  std::vector<Message> out;
  out.reserve(messages_.size());
  for (const auto& m : messages_) {
    std::string text;
    size_t pos = 0;
    for (size_t at = m.content.find("{{"); at != std::string::npos; at = m.content.find("{{", pos)) {
      size_t end = m.content.find("}}", at);
      std::string key = TrimmedCopy(m.content.substr(at + 2, end - at - 2));
      auto it = vars.find(key);
      if (it == vars.end()) {
        return MakeError(ErrorCode::kInvalidArgument, fmt::format("prompt {}: no value for {{{{{}}}}}", name_, key));
      }
      text += m.content.substr(pos, at - pos) + it->second;
      pos = end + 2;
    }
    text += m.content.substr(pos);
    // Empty values leave blank runs behind: at most one blank line in a row.
    std::string squeezed;
    squeezed.reserve(text.size());
    int newlines = 0;
    for (char c : text) {
      newlines = c == '\n' ? newlines + 1 : 0;
      if (newlines <= 2) squeezed += c;
    }
    out.push_back({m.role, TrimmedCopy(squeezed)});
  }
  return out;
}

std::vector<std::string> PromptTemplate::Placeholders() const {
  std::set<std::string> keys;
  for (const auto& m : messages_) {
    for (size_t at = m.content.find("{{"); at != std::string::npos; at = m.content.find("{{", at + 2)) {
      size_t end = m.content.find("}}", at);
      keys.insert(TrimmedCopy(m.content.substr(at + 2, end - at - 2)));
    }
  }
  return {keys.begin(), keys.end()};
}

std::vector<std::string> PromptStyles() { return {"omnisql", "snails_zero_shot", "dail_sql"}; }

Result<std::string> DialectRules(const std::string& dialect, const std::string& data_dir) {
  std::string path = (data_dir.empty() ? DataDir() : data_dir) + "/prompts/dialects.tsv";
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  for (const std::string& line : Split(*text, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab != std::string::npos && line.substr(0, tab) == dialect) return TrimmedCopy(line.substr(tab + 1));
  }
  return std::string();
}

namespace {

// An example's own schema as CREATE TABLE statements in its dialect ("" when it is not known).
std::string ExampleSchema(const generate::PromptExample& e) {
  if (!e.schema || e.schema->tables.empty()) return "";
  return std::string(Trim(catalog::RenderDdl(*e.schema, e.dialect ? *e.dialect : sql::Sqlite())));
}

// The question on one line: a comment must not be closed, or a line broken, by the question's own text.
std::string OneLine(std::string_view text) {
  std::string out = ReplaceAll(ReplaceAll(text, "*/", "* /"), "\r", " ");
  std::replace(out.begin(), out.end(), '\n', ' ');
  return std::string(Trim(out));
}

}  // namespace

std::string RenderExamplesDail(const std::vector<generate::PromptExample>& examples) {
  if (examples.empty()) return "";
  std::string out = "/* Some solved examples from similar questions, most similar first: */\n";
  for (const auto& e : examples) {
    std::string schema = ExampleSchema(e);
    if (!schema.empty()) out += "/* Given the following database schema: */\n" + schema + "\n";
    out += fmt::format("/* Answer the following: {} */\n{}\n\n", OneLine(e.question), Trim(e.sql));
  }
  return std::string(Trim(out));
}

std::string RenderExamplesOmni(const std::vector<generate::PromptExample>& examples) {
  if (examples.empty()) return "";
  std::string out =
      "Solved examples from similar questions, most similar first (similarity from 0 to 1; each is shown with the "
      "tables of its own database):\n";
  for (size_t i = 0; i < examples.size(); ++i) {
    const auto& e = examples[i];
    out += fmt::format("\nExample {} (database {}, similarity {:.2f}):\n", i + 1, e.db_id, e.score);
    if (std::string schema = ExampleSchema(e); !schema.empty()) out += schema + "\n";
    out += fmt::format("Question: {}\n```sql\n{}\n```\n", OneLine(e.question), Trim(e.sql));
  }
  return std::string(Trim(out));
}

std::string MessagesText(const std::vector<Message>& messages) {
  std::string out;
  for (const auto& m : messages) out += (out.empty() ? "" : "\n\n") + fmt::format("[{}]\n{}", m.role, m.content);
  return out + "\n";
}

}  // namespace plainsql::llm
