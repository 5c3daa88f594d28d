// Dates a question gives relative to today ("last month", "in the past 30 days", "yesterday"), read as the dates they
// are on the day of asking, so that the passes compare them as the dates a question writes out.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "linking/linker.h"
#include "retrieval/text.h"

namespace plainsql::builtin {

/// A calendar day.
struct Day {
  int year = 0;
  int month = 0;  // 1..12
  int day = 0;    // 1..31
};

/// A day written "YYYY-MM-DD" (a real one: no 2023-02-30); nullopt else.
std::optional<Day> ParseDay(std::string_view iso);
/// "YYYY-MM-DD".
std::string IsoOf(const Day& d);
/// The day after `d`.
Day NextDay(const Day& d);

/// The environment variable that sets the day relative dates count from ("YYYY-MM-DD"), for tests and for asking as
/// of another day.
inline constexpr const char* kTodayVariable = "PLAINSQL_TODAY";
/// The day relative dates count from: kTodayVariable when set, else the machine's local date.
Result<Day> Today();
/// An error naming kTodayVariable when it is set to anything but a day; OK else.
Status CheckTodayEnvironment();

/// Rewrites the phrases of `tokens` that give a date relative to `today` as the date tokens the passes read, the
/// phrase's text kept (offsets and text of the question's own words):
/// - a calendar period: "this year" / "last year" (one year token, "2025"), "this month" / "last month" / "previous
///   month" (one month token, "2026-11"), "this week" / "last week" (Monday to Sunday: "between" day "and" day);
/// - a day: "today", "yesterday", "3 days ago", "a month ago" (one ISO day token);
/// - a span up to today: "in the last 30 days", "within the past 2 weeks", "over the last year", "the last 3 months"
///   ("since" and the first day: a comparison the passes read as for any "since").
/// A phrase that is also a table's or a column's whole name (`names` says, given the first and past-the-last token)
/// is left as written: a column Last_year is meant by "last year". "the last year" alone ("What was the last year
/// ...") is the latest, not a span: a span needs a preposition before it or a number in it. Returns one note per
/// phrase read ("'last month': 2026-11-01 to 2026-11-30 (today is 2026-12-07)").
std::vector<std::string> ReadRelativeDates(std::vector<retrieval::Token>& tokens, const Day& today,
                                           const std::function<bool(size_t, size_t)>& names);

/// Whether tokens [begin, end) are, stem for stem, one of the names of a table or column of `index`.
bool NamesSchemaElement(const linking::SchemaIndex& index, const std::vector<retrieval::Token>& tokens, size_t begin,
                        size_t end);

}  // namespace plainsql::builtin
