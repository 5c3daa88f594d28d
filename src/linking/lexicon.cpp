// The learned lexicon (see lexicon.h).
#include "linking/lexicon.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "common/file.h"
#include "common/strings.h"

namespace plainsql::linking {

namespace internal {
extern const std::string_view kLexiconTsv;
}  // namespace internal

Result<Lexicon> Lexicon::Parse(std::string_view text) {
  Lexicon out;
  size_t number = 0;
  for (const std::string& raw : Split(text, '\n')) {
    ++number;
    const std::string line(Trim(raw));
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    if (f.size() != 5 || f[0].empty() || f[1].empty()) {
      return MakeError(ErrorCode::kFormat, fmt::format("lexicon line {}: want 5 tab-separated fields", number));
    }
    LexiconEntry e{f[0], f[1], 0, 0, 0};
    try {
      e.count = std::stoul(f[2]);
      e.databases = std::stoul(f[3]);
      e.share = std::stod(f[4]);
    } catch (const std::exception&) {
      return MakeError(ErrorCode::kFormat, fmt::format("lexicon line {}: not a number", number));
    }
    out.entries_.push_back(std::move(e));
  }
  for (const auto& e : out.entries_) out.by_schema_[e.schema_stem].push_back(&e);
  return out;
}

std::string Lexicon::Format(const std::vector<LexiconEntry>& entries, std::string_view header) {
  std::string out;
  for (const std::string& line : Split(header, '\n')) out += "# " + line + "\n";
  out += "# question stem\tschema stem\tcount\tdatabases\tshare\n";
  for (const auto& e : entries) {
    out += fmt::format("{}\t{}\t{}\t{}\t{:.4f}\n", e.question_stem, e.schema_stem, e.count, e.databases, e.share);
  }
  return out;
}

const Lexicon& Lexicon::Builtin() {
  // The shipped file is checked by a test; were it unreadable, linking would go on without learned pairs.
  static const Lexicon kLexicon = [] {
    auto parsed = Parse(internal::kLexiconTsv);
    return parsed ? std::move(*parsed) : Lexicon{};
  }();
  return kLexicon;
}

const Lexicon& Lexicon::Active() {
  static const Lexicon kActive = [] {
    const char* path = std::getenv("PLAINSQL_LEXICON");
    // On unless turned off ("none"): learned with Spider train's paraphrases, it links the synonyms of held-out
    // questions at no cost to the others (docs/BENCHMARKS.md, issue #19 seventh part).
    if (path != nullptr && std::string_view(path) == "none") return Lexicon{};
    if (path == nullptr || *path == '\0' || std::string_view(path) == "builtin") return Builtin();
    auto parsed = ReadFile(path);
    if (!parsed) {
      std::fprintf(stderr, "plainsql: warning: PLAINSQL_LEXICON: %s; no learned pairs\n",
                   parsed.error().message.c_str());
      return Lexicon{};
    }
    return std::move(*parsed);
  }();
  return kActive;
}

Result<Lexicon> Lexicon::ReadFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  return Parse(*text);
}

Status Lexicon::CheckEnvironment() {
  const char* path = std::getenv("PLAINSQL_LEXICON");
  if (path == nullptr || *path == '\0') return Status::Ok();
  const std::string_view value(path);
  if (value == "none" || value == "builtin") return Status::Ok();
  auto parsed = ReadFile(path);
  if (!parsed) {
    Error e = parsed.error();
    e.message = fmt::format("PLAINSQL_LEXICON: {} (unset it for the built-in lexicon, or set it to none)", e.message);
    return e;
  }
  return Status::Ok();
}

const std::vector<const LexiconEntry*>& Lexicon::ForSchemaStem(const std::string& schema_stem) const {
  static const std::vector<const LexiconEntry*> kNone;
  auto it = by_schema_.find(schema_stem);
  return it == by_schema_.end() ? kNone : it->second;
}

}  // namespace plainsql::linking
