// Masking questions and queries for example selection (see mask.h).
#include "examples/mask.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"
#include "sql/rewrite/fallbacks.h"
#include "sql/rewrite/mask.h"

namespace plainsql::examples {

namespace internal {
extern const std::string_view kWhitelistTsv;  // src/examples/whitelist.tsv, compiled in (whitelist_data.cpp.in)
}

using retrieval::Token;
using retrieval::TokenKind;

Result<Whitelist> Whitelist::Parse(std::string_view text, size_t size) {
  std::unordered_set<std::string> words;
  size_t line_number = 0;
  for (const auto& line : Split(text, '\n')) {
    ++line_number;
    std::string_view l = Trim(line);
    if (l.empty() || l.front() == '#') continue;
    if (size > 0 && words.size() >= size) break;
    auto fields = Split(l, '\t');
    if (fields.size() != 3 || fields[0].empty()) {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("whitelist line {}: expected word<TAB>frequency<TAB>domains", line_number));
    }
    words.insert(ToLower(fields[0]));
  }
  return Whitelist(std::move(words));
}

std::vector<WordCount> CountWords(const std::vector<std::string>& questions, const std::vector<std::string>& db_ids) {
  std::map<std::string, std::pair<int64_t, std::set<std::string>>> counts;
  retrieval::Stemmer stemmer;
  for (size_t i = 0; i < questions.size(); ++i) {
    for (const auto& t : retrieval::Tokenize(questions[i], stemmer)) {
      if (t.kind != TokenKind::kWord) continue;
      auto& c = counts[t.lower];
      ++c.first;
      c.second.insert(i < db_ids.size() ? db_ids[i] : std::string());
    }
  }
  std::vector<WordCount> out;
  out.reserve(counts.size());
  for (auto& [word, c] : counts) out.push_back({word, c.first, static_cast<int64_t>(c.second.size())});
  std::sort(out.begin(), out.end(), [](const WordCount& a, const WordCount& b) {
    if (a.domains != b.domains) return a.domains > b.domains;
    if (a.frequency != b.frequency) return a.frequency > b.frequency;
    return a.word < b.word;
  });
  return out;
}

std::string FormatWhitelist(const std::vector<WordCount>& counts, const std::string& header) {
  std::string out;
  for (const auto& line : Split(header, '\n')) {
    if (!line.empty()) out += "# " + line + "\n";
  }
  for (const auto& c : counts) out += fmt::format("{}\t{}\t{}\n", c.word, c.frequency, c.domains);
  return out;
}

const Whitelist& DefaultWhitelist() {
  static const Whitelist kDefault = [] {
    auto parsed = Whitelist::Parse(internal::kWhitelistTsv, kWhitelistSize);
    // The file is generated and compiled in: a parse failure is a build defect, caught by the unit tests.
    return parsed ? std::move(*parsed) : Whitelist();
  }();
  return kDefault;
}

namespace {

// WordNet is read once per process and shared; null when it is not installed (names are then linked as written).
std::shared_ptr<const retrieval::WordNet> ProcessWordNet() {
  static const std::shared_ptr<const retrieval::WordNet> kWordNet = [] {
    auto wn = retrieval::WordNet::Open();
    return wn ? *wn : nullptr;
  }();
  return kWordNet;
}

bool IsWordByte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

// Where token `i` ends in the question: its closing quote, or the end of its run of word characters (with inner
// . , ' - as retrieval::Tokenize reads numbers and words), never past the next token's start.
size_t TokenEnd(std::string_view q, const std::vector<Token>& tokens, size_t i) {
  const Token& t = tokens[i];
  size_t limit = i + 1 < tokens.size() ? tokens[i + 1].offset : q.size();
  size_t end = t.offset;
  if (t.kind == TokenKind::kQuoted) {
    const bool curly = q.substr(t.offset).starts_with("\xe2\x80\x9c");
    size_t close = curly ? q.find("\xe2\x80\x9d", t.offset + 3) : q.find(q[t.offset], t.offset + 1);
    end = close == std::string_view::npos ? limit : close + (curly ? 3 : 1);
  } else {
    if (end < q.size() && q[end] == '-') ++end;
    while (end < q.size() && (IsWordByte(static_cast<unsigned char>(q[end])) ||
                              ((q[end] == '.' || q[end] == ',' || q[end] == '\'' || q[end] == '-') &&
                               end + 1 < q.size() && IsWordByte(static_cast<unsigned char>(q[end + 1]))))) {
      ++end;
    }
  }
  return std::min(std::max(end, t.offset + 1), limit);
}

enum class Cover { kNone, kMask, kValue };

}  // namespace

struct QuestionMasker::Impl {
  Impl(const catalog::Schema& schema, const retrieval::ValueIndex* v, MaskOptions o)
      : options(std::move(o)), values(v) {
    if (options.use_wordnet && !options.wordnet) options.wordnet = ProcessWordNet();
    whitelist = options.whitelist ? options.whitelist : &DefaultWhitelist();
    index = std::make_unique<linking::SchemaIndex>(schema, stemmer, options.expander,
                                                   options.use_wordnet ? options.wordnet.get() : nullptr);
  }

  // Which placeholder, if any, each token becomes.
  std::vector<Cover> Covers(const std::vector<Token>& tokens) const {
    std::vector<Cover> cover(tokens.size(), Cover::kNone);
    auto free = [&](size_t b, size_t e) {
      return std::all_of(cover.begin() + static_cast<std::ptrdiff_t>(b), cover.begin() + static_cast<std::ptrdiff_t>(e),
                         [](Cover c) { return c == Cover::kNone; });
    };
    auto set = [&](size_t b, size_t e, Cover c) { std::fill(cover.begin() + b, cover.begin() + e, c); };
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].kind != TokenKind::kWord) cover[i] = Cover::kValue;  // numbers and quoted strings
    }
    if (values) {
      for (const auto& m : values->Match(tokens)) {
        if (m.end <= tokens.size() && free(m.begin, m.end)) set(m.begin, m.end, Cover::kValue);
      }
    }
    std::vector<char> linked(tokens.size(), 0);
    for (const auto& m : linking::Link(*index, tokens)) {
      if (!m.whole && !options.partial_links) continue;
      if (m.end <= tokens.size() && free(m.begin, m.end)) {
        set(m.begin, m.end, Cover::kMask);
        std::fill(linked.begin() + m.begin, linked.begin() + m.end, 1);
      }
    }
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (cover[i] == Cover::kNone && options.mask_unlisted && tokens[i].kind == TokenKind::kWord &&
          !retrieval::IsStopWord(tokens[i].lower)) {
        cover[i] = Cover::kMask;
      }
      // Whitelisted words stay, whatever links them; numbers and quoted strings are values whatever they spell.
      if (cover[i] != Cover::kNone && tokens[i].kind == TokenKind::kWord && whitelist->Contains(tokens[i].lower) &&
          !(linked[i] && options.mask_linked_whitelisted)) {
        cover[i] = Cover::kNone;
      }
    }
    return cover;
  }

  std::string Mask(std::string_view question) {
    std::vector<Token> tokens = retrieval::Tokenize(question, stemmer);
    std::vector<Cover> cover = Covers(tokens);
    std::string out;
    size_t at = 0;  // the question is copied up to here
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (cover[i] == Cover::kNone) continue;
      size_t begin = tokens[i].offset;
      size_t end = TokenEnd(question, tokens, i);
      // A span of one placeholder: following tokens with the same cover, separated by spaces only.
      while (i + 1 < tokens.size() && cover[i + 1] == cover[i] &&
             Trim(question.substr(end, tokens[i + 1].offset - end)).empty()) {
        ++i;
        end = TokenEnd(question, tokens, i);
      }
      std::string_view placeholder = cover[i] == Cover::kMask ? sql::kMaskedName : sql::kMaskedValue;
      std::string_view between = begin >= at ? question.substr(at, begin - at) : std::string_view();
      // The same placeholder after only spaces (a mention split by a kept word is not merged) is written once.
      if (Trim(between).empty() && out.ends_with(placeholder)) {
        at = end;
        continue;
      }
      out += between;
      out += placeholder;
      at = end;
    }
    if (at < question.size()) out += question.substr(at);
    return out;
  }

  MaskOptions options;
  const retrieval::ValueIndex* values = nullptr;
  const Whitelist* whitelist = nullptr;
  retrieval::Stemmer stemmer;
  std::unique_ptr<linking::SchemaIndex> index;
};

QuestionMasker::QuestionMasker(const catalog::Schema& schema, const retrieval::ValueIndex* values, MaskOptions options)
    : impl_(std::make_unique<Impl>(schema, values, std::move(options))) {}
QuestionMasker::~QuestionMasker() = default;
QuestionMasker::QuestionMasker(QuestionMasker&&) noexcept = default;
QuestionMasker& QuestionMasker::operator=(QuestionMasker&&) noexcept = default;

std::string QuestionMasker::Mask(std::string_view question) { return impl_->Mask(question); }

Result<std::string> MaskSql(std::string_view sql, const sql::Dialect& dialect, const catalog::Schema* schema) {
  auto query = sql::ParseQuery(sql, dialect);
  if (!query) return query.error();
  if (schema && dialect.unknown_quoted_is_string) {
    const sql::NameCatalog names = catalog::ToNameCatalog(*schema);
    return sql::Print(sql::Mask(sql::LiteralizeStringFallbacks(*query, sql::Resolve(*query, names, dialect))), dialect);
  }
  return sql::Print(sql::Mask(*query), dialect);
}

}  // namespace plainsql::examples
