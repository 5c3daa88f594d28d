// Dates relative to today (relative_dates.h). The calendar arithmetic is std::chrono's (C++20 calendar types); the
// local date is the C library's (localtime_r), as this compiler's <chrono> has no time zone database.
#include "builtin/relative_dates.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "builtin/intent.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

using retrieval::Token;
using retrieval::TokenKind;

std::chrono::sys_days DaysOf(const Day& d) {
  return std::chrono::sys_days{std::chrono::year{d.year} / std::chrono::month{static_cast<unsigned>(d.month)} /
                               std::chrono::day{static_cast<unsigned>(d.day)}};
}

Day DayOf(std::chrono::sys_days s) {
  const std::chrono::year_month_day ymd{s};
  return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

Day AddDays(const Day& d, int n) { return DayOf(DaysOf(d) + std::chrono::days{n}); }

// `n` months on (or back), the day kept when the month has it, else the month's last day (a month before 31 March is
// 28 or 29 February).
Day AddMonths(const Day& d, int n) {
  const int index = d.year * 12 + (d.month - 1) + n;
  Day out{index / 12, index % 12 + 1, d.day};
  out.day = std::min(out.day, retrieval::DaysInMonth(out.year, out.month));
  return out;
}

// A time unit's length in days or months ("days": 1 day, "weeks": 7 days, "months": 1 month, "years": 12 months);
// nullopt for any other word.
struct Unit {
  int days = 0;
  int months = 0;
};

std::optional<Unit> UnitOf(const Token& t) {
  if (t.kind != TokenKind::kWord) return std::nullopt;
  std::string_view w = t.lower;
  if (w.size() > 1 && w.back() == 's') w.remove_suffix(1);
  if (w == "day") return Unit{1, 0};
  if (w == "week") return Unit{7, 0};
  if (w == "month") return Unit{0, 1};
  if (w == "year") return Unit{0, 12};
  return std::nullopt;
}

Day Back(const Day& today, const Unit& u, int n) {
  return u.months ? AddMonths(today, -u.months * n) : AddDays(today, -u.days * n);
}

bool IsWordToken(const Token& t, std::string_view w) { return t.kind == TokenKind::kWord && t.lower == w; }

// What a phrase at `i` reads as: the tokens that replace [i, end), and the note.
struct Replacement {
  size_t end = 0;
  std::vector<Token> tokens;
  std::string note;
};

class Reader {
 public:
  Reader(const std::vector<Token>& tokens, const Day& today) : tokens_(tokens), today_(today) {}

  std::optional<Replacement> At(size_t i) const {
    if (auto r = Span(i)) return r;
    if (auto r = Ago(i)) return r;
    if (auto r = Calendar(i)) return r;
    if (auto r = OneDay(i)) return r;
    return std::nullopt;
  }

 private:
  const Token* TokenAt(size_t k) const { return k < tokens_.size() ? &tokens_[k] : nullptr; }

  // The phrase's own text: from the first token's offset to the end of the last.
  std::string TextOf(size_t begin, size_t end) const {
    std::string out;
    for (size_t k = begin; k < end; ++k) out += (k > begin ? " " : "") + tokens_[k].text;
    return out;
  }

  Token Made(TokenKind kind, std::string value, size_t begin, size_t end) const {
    Token t;
    t.kind = kind;
    t.lower = t.stem = std::move(value);
    t.offset = tokens_[begin].offset;
    t.text = TextOf(begin, end);
    return t;
  }

  std::string TodayIso() const { return IsoOf(today_); }

  // "in the last 30 days", "within the past 2 weeks", "over the last year", "the last 3 months", "in last 2 weeks":
  // since the day that many units back. A span needs a number after "last", or "the" with a preposition before it
  // ("in last year" is the calendar's, Calendar reads it).
  std::optional<Replacement> Span(size_t i) const {
    static constexpr std::array<std::string_view, 6> kPrepositions = {"in", "within", "during", "over", "for", "from"};
    size_t k = i;
    const bool preposition = std::any_of(kPrepositions.begin(), kPrepositions.end(),
                                         [&](std::string_view p) { return IsWordToken(tokens_[i], p); });
    if (preposition) ++k;
    const bool the = TokenAt(k) && IsWordToken(*TokenAt(k), "the");
    if (the) ++k;
    const Token* last = TokenAt(k);
    if (!last || !(IsWordToken(*last, "last") || IsWordToken(*last, "past") || IsWordToken(*last, "previous"))) {
      return std::nullopt;
    }
    size_t u = k + 1;
    int n = 1;
    if (const Token* count = TokenAt(u); count && count->kind == TokenKind::kNumber) {
      auto v = SmallNumber(*count);
      if (!v || *v < 1 || *v > 1000) return std::nullopt;
      n = static_cast<int>(*v);
      ++u;
    } else if (count && count->kind == TokenKind::kWord) {
      if (auto v = SmallNumber(*count); v && *v >= 1 && *v <= 1000) {
        n = static_cast<int>(*v);
        ++u;
      }
    }
    const Token* unit = TokenAt(u);
    auto length = unit ? UnitOf(*unit) : std::nullopt;
    const bool counted = u > k + 1;
    if (!length || (!counted && !(the && preposition))) return std::nullopt;
    const std::string from = IsoOf(Back(today_, *length, n));
    Replacement r;
    r.end = u + 1;
    r.tokens.push_back(Made(TokenKind::kWord, "since", i, u));
    r.tokens.push_back(Made(TokenKind::kNumber, from, u, u + 1));
    r.note = fmt::format("'{}': since {} (today is {})", TextOf(i, u + 1), from, TodayIso());
    return r;
  }

  // "3 days ago", "a month ago", "two weeks ago": that day.
  std::optional<Replacement> Ago(size_t i) const {
    const Token* unit = TokenAt(i + 1);
    const Token* ago = TokenAt(i + 2);
    if (!unit || !ago || !IsWordToken(*ago, "ago")) return std::nullopt;
    auto length = UnitOf(*unit);
    if (!length) return std::nullopt;
    int n = 0;
    if (IsWordToken(tokens_[i], "a") || IsWordToken(tokens_[i], "an") || IsWordToken(tokens_[i], "one")) {
      n = 1;
    } else if (auto v = SmallNumber(tokens_[i]); v && *v >= 1 && *v <= 1000) {
      n = static_cast<int>(*v);
    }
    if (n == 0) return std::nullopt;
    const std::string day = IsoOf(Back(today_, *length, n));
    Replacement r;
    r.end = i + 3;
    r.tokens.push_back(Made(TokenKind::kNumber, day, i, i + 3));
    r.note = fmt::format("'{}': {} (today is {})", TextOf(i, i + 3), day, TodayIso());
    return r;
  }

  // "this year", "last month", "previous week", "the current year": the calendar period, the current one or the one
  // before. "last" not after "the", "its" or "their" ("the last year" alone is the latest year; Span reads it after
  // a preposition).
  std::optional<Replacement> Calendar(size_t i) const {
    const Token& which = tokens_[i];
    const bool current = IsWordToken(which, "this") || IsWordToken(which, "current");
    const bool before = IsWordToken(which, "last") || IsWordToken(which, "previous");
    const Token* unit = TokenAt(i + 1);
    if ((!current && !before) || !unit || unit->kind != TokenKind::kWord) return std::nullopt;
    if (before && i > 0 &&
        (IsWordToken(tokens_[i - 1], "the") || IsWordToken(tokens_[i - 1], "its") ||
         IsWordToken(tokens_[i - 1], "their"))) {
      return std::nullopt;
    }
    Replacement r;
    r.end = i + 2;
    const std::string text = TextOf(i, i + 2);
    if (unit->lower == "year") {
      const int year = today_.year - (before ? 1 : 0);
      r.tokens.push_back(Made(TokenKind::kNumber, fmt::format("{:04d}", year), i, i + 2));
      r.note = fmt::format("'{}': {:04d}-01-01 to {:04d}-12-31 (today is {})", text, year, year, TodayIso());
    } else if (unit->lower == "month") {
      const Day first = AddMonths({today_.year, today_.month, 1}, before ? -1 : 0);
      const int days = retrieval::DaysInMonth(first.year, first.month);
      r.tokens.push_back(Made(TokenKind::kNumber, fmt::format("{:04d}-{:02d}", first.year, first.month), i, i + 2));
      r.note = fmt::format("'{}': {} to {:04d}-{:02d}-{:02d} (today is {})", text, IsoOf(first), first.year,
                           first.month, days, TodayIso());
    } else if (unit->lower == "week") {
      // Weeks begin on Monday (ISO 8601).
      const std::chrono::weekday wd{DaysOf(today_)};
      const int since_monday = static_cast<int>(wd.iso_encoding()) - 1;
      const Day monday = AddDays(today_, -since_monday - (before ? 7 : 0));
      const Day sunday = AddDays(monday, 6);
      r.tokens.push_back(Made(TokenKind::kWord, "between", i, i + 1));
      r.tokens.push_back(Made(TokenKind::kNumber, IsoOf(monday), i, i + 1));
      r.tokens.push_back(Made(TokenKind::kWord, "and", i + 1, i + 2));
      r.tokens.push_back(Made(TokenKind::kNumber, IsoOf(sunday) + " 23:59:59", i + 1, i + 2));
      r.note = fmt::format("'{}': {} to {} (today is {})", text, IsoOf(monday), IsoOf(sunday), TodayIso());
    } else {
      return std::nullopt;
    }
    return r;
  }

  // "today", "yesterday": that day.
  std::optional<Replacement> OneDay(size_t i) const {
    const bool today = IsWordToken(tokens_[i], "today");
    if (!today && !IsWordToken(tokens_[i], "yesterday")) return std::nullopt;
    const std::string day = IsoOf(today ? today_ : AddDays(today_, -1));
    Replacement r;
    r.end = i + 1;
    r.tokens.push_back(Made(TokenKind::kNumber, day, i, i + 1));
    r.note = fmt::format("'{}': {}{}", tokens_[i].text, day, today ? "" : fmt::format(" (today is {})", TodayIso()));
    return r;
  }

  const std::vector<Token>& tokens_;
  Day today_;
};

}  // namespace

std::optional<Day> ParseDay(std::string_view iso) {
  if (iso.size() != 10 || !retrieval::IsIsoDateTime(iso)) return std::nullopt;
  Day d{std::atoi(std::string(iso.substr(0, 4)).c_str()), std::atoi(std::string(iso.substr(5, 2)).c_str()),
        std::atoi(std::string(iso.substr(8, 2)).c_str())};
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > retrieval::DaysInMonth(d.year, d.month)) return std::nullopt;
  return d;
}

Day NextDay(const Day& d) { return AddDays(d, 1); }

std::string IsoOf(const Day& d) { return fmt::format("{:04d}-{:02d}-{:02d}", d.year, d.month, d.day); }

Result<Day> Today() {
  if (const char* env = std::getenv(kTodayVariable); env != nullptr && *env != '\0') {
    if (auto d = ParseDay(env)) return *d;
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} is '{}': it must be a day written YYYY-MM-DD", kTodayVariable, env));
  }
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return Day{local.tm_year + 1900, local.tm_mon + 1, local.tm_mday};
}

Status CheckTodayEnvironment() {
  auto today = Today();
  if (!today) return today.error();
  return Status::Ok();
}

std::vector<std::string> ReadRelativeDates(std::vector<Token>& tokens, const Day& today,
                                           const std::function<bool(size_t, size_t)>& names) {
  std::vector<std::string> notes;
  std::vector<Token> out;
  const Reader reader(tokens, today);
  bool changed = false;
  for (size_t i = 0; i < tokens.size();) {
    std::optional<Replacement> r = reader.At(i);
    // (a phrase stays as written when its words from any one on, two at least, are a name: "last year" of Last_year)
    if (r && names) {
      for (size_t b = i; r && b < r->end; ++b) {
        if ((r->end - b >= 2 || r->end - i == 1) && names(b, r->end)) r.reset();
      }
    }
    if (!r) {
      out.push_back(tokens[i++]);
      continue;
    }
    for (auto& t : r->tokens) out.push_back(std::move(t));
    notes.push_back(std::move(r->note));
    i = r->end;
    changed = true;
  }
  if (changed) tokens = std::move(out);
  return notes;
}

bool NamesSchemaElement(const linking::SchemaIndex& index, const std::vector<Token>& tokens, size_t begin, size_t end) {
  if (begin >= end || end > tokens.size()) return false;
  for (const auto& el : index.Elements()) {
    for (const auto& phrase : el.phrases) {
      if (phrase.size() != end - begin) continue;
      bool same = true;
      for (size_t k = 0; same && k < phrase.size(); ++k) same = phrase[k] == tokens[begin + k].stem;
      if (same) return true;
    }
  }
  return false;
}

}  // namespace plainsql::builtin
