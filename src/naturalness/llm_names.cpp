// Readable names from an LLM (see llm_names.h).
#include "naturalness/llm_names.h"

#include <fmt/format.h>

#include <cctype>

#include "common/strings.h"
#include "naturalness/identifier.h"

namespace plainsql::naturalness {

namespace {

bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `line` holds `word` with no word character on either side, case ignored.
bool MentionsWord(const std::string& line_lower, const std::string& word_lower) {
  if (word_lower.empty()) return false;
  for (size_t at = line_lower.find(word_lower); at != std::string::npos; at = line_lower.find(word_lower, at + 1)) {
    bool left = at == 0 || !WordChar(line_lower[at - 1]);
    size_t end = at + word_lower.size();
    bool right = end >= line_lower.size() || !WordChar(line_lower[end]);
    if (left && right) return true;
  }
  return false;
}

// A name as snake_case words of letters and digits; "" when nothing usable is left.
std::string SnakeCase(std::string_view name) {
  std::vector<std::string> words;
  for (std::string_view w : SplitWords(name)) {
    std::string lower;
    for (char c : w) {
      if (std::isalnum(static_cast<unsigned char>(c)))
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!lower.empty()) words.push_back(lower);
  }
  std::string out = Join(words, "_");
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out[0]))) out = "n_" + out;
  return out;
}

std::string StripDecoration(std::string_view s) {
  s = Trim(s);
  while (!s.empty() && (s.front() == '-' || s.front() == '*' || s.front() == '`' || s.front() == '"' ||
                        s.front() == '\'' || std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '.')) {
    // "1. X -> y" numbering and bullets; a digit only counts while a '.' or ')' follows the number.
    if (std::isdigit(static_cast<unsigned char>(s.front()))) {
      size_t k = 0;
      while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
      if (k < s.size() && (s[k] == '.' || s[k] == ')')) {
        s.remove_prefix(k + 1);
        s = Trim(s);
        continue;
      }
      break;
    }
    s.remove_prefix(1);
    s = Trim(s);
  }
  while (!s.empty() && (s.back() == '`' || s.back() == '"' || s.back() == '\'' || s.back() == ',' || s.back() == '.' ||
                        s.back() == '*')) {
    s.remove_suffix(1);
  }
  return std::string(Trim(s));
}

}  // namespace

std::vector<std::string> DictionaryContext(const std::vector<std::string>& dictionaries, const std::string& identifier,
                                           size_t max_lines) {
  std::vector<std::string> out;
  std::string id = ToLower(identifier);
  for (const auto& text : dictionaries) {
    for (const std::string& line : Split(text, '\n')) {
      if (out.size() >= max_lines) return out;
      if (!MentionsWord(ToLower(line), id)) continue;
      std::string t(Trim(line));
      if (t.size() > 200) t = t.substr(0, 200) + "...";
      out.push_back(t);
    }
  }
  return out;
}

std::vector<llm::Message> NamingPrompt(const std::string& database, const std::vector<std::string>& schema_names,
                                       const std::vector<LlmNameRequest>& batch,
                                       const std::vector<std::string>& dictionaries, const ValidatedNames& validated) {
  std::string system =
      "You rename database identifiers so that a reader understands them. For each identifier, give a readable "
      "name in snake_case made of plain English words that says what the table or column holds: expand "
      "abbreviations and acronyms, keep numbers, do not add words that are not implied. Reply with exactly one line "
      "per identifier, in the form: identifier -> readable_name. No other text.";
  std::string user =
      "Examples:\nCustAddr -> customer_address\nQTY_ORD -> quantity_ordered\nDOB -> date_of_birth\n"
      "tbl_EmpHist -> employee_history\n\n";
  if (!validated.empty()) {
    user += "Names already chosen for this schema (follow their style):\n";
    for (size_t i = 0; i < validated.size() && i < 20; ++i) {
      user += validated[i].first + " -> " + validated[i].second + "\n";
    }
    user += "\n";
  }
  if (!database.empty()) user += "Database: " + database + "\n";
  std::string names;
  for (const auto& n : schema_names) {
    if (names.size() > 3000) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + n;
  }
  user += "Other names in the schema: " + names + "\n\n";
  std::string context;
  for (const auto& r : batch) {
    for (const auto& line : DictionaryContext(dictionaries, r.identifier)) context += "- " + line + "\n";
  }
  if (!context.empty()) user += "From the documentation:\n" + context + "\n";
  user += "Identifiers (with their table, and a rough guess you may ignore):\n";
  for (const auto& r : batch) {
    user += r.identifier;
    if (!r.table.empty()) user += " (column of " + r.table + ")";
    if (!r.guess.empty()) user += " [guess: " + r.guess + "]";
    user += "\n";
  }
  return {{"system", system}, {"user", user}};
}

std::map<size_t, std::string> ParseNamingReply(const std::string& reply, const std::vector<LlmNameRequest>& batch) {
  std::map<size_t, std::string> out;
  for (const std::string& raw : Split(reply, '\n')) {
    std::string line(Trim(raw));
    size_t sep = line.find("->");
    size_t sep_len = 2;
    if (sep == std::string::npos) {
      sep = line.find(':');
      sep_len = 1;
    }
    if (sep == std::string::npos) continue;
    std::string left = StripDecoration(line.substr(0, sep));
    std::string right = StripDecoration(line.substr(sep + sep_len));
    // "MO_ST (column of TB_MO)" -> "MO_ST"
    if (size_t paren = left.find(" ("); paren != std::string::npos) left = std::string(Trim(left.substr(0, paren)));
    std::string name = SnakeCase(right);
    if (name.empty() || name.size() > 63) continue;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!out.count(i) && EqualsIgnoreCase(batch[i].identifier, left)) {
        out[i] = name;
        break;
      }
    }
  }
  return out;
}

Result<std::map<size_t, std::string>> NameWithLlm(const llm::Client& client, const std::string& database,
                                                  const std::vector<std::string>& schema_names,
                                                  const std::vector<LlmNameRequest>& requests,
                                                  const std::vector<std::string>& dictionaries, LlmNamingStats* stats,
                                                  size_t batch_size, const ValidatedNames& validated) {
  std::map<size_t, std::string> out;
  LlmNamingStats local;
  LlmNamingStats& s = stats ? *stats : local;
  if (batch_size == 0) batch_size = 40;
  for (size_t start = 0; start < requests.size(); start += batch_size) {
    std::vector<LlmNameRequest> batch(
        requests.begin() + static_cast<std::ptrdiff_t>(start),
        requests.begin() + static_cast<std::ptrdiff_t>(std::min(requests.size(), start + batch_size)));
    llm::ChatRequest req;
    req.messages = NamingPrompt(database, schema_names, batch, dictionaries, validated);
    auto reply = client.Chat(req);
    if (!reply) return reply.error();
    ++s.requests;
    s.prompt_tokens += reply->prompt_tokens;
    s.completion_tokens += reply->completion_tokens;
    for (const auto& [i, name] : ParseNamingReply(reply->choices.at(0), batch)) {
      out[start + i] = name;
      ++s.named;
    }
  }
  return out;
}

}  // namespace plainsql::naturalness
