// Naming a whole schema (see namer.h).
#include "naturalness/namer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "common/strings.h"
#include "naturalness/identifier.h"
#include "sql/dialect.h"

namespace plainsql::naturalness {

namespace {

bool IsVowel(char c) { return std::string_view("aeiouAEIOU").find(c) != std::string_view::npos; }

bool AllDigits(std::string_view w) {
  return !w.empty() &&
         std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A name every dialect reads bare: letters, digits and '_', not starting with a digit, not a reserved word.
bool Plain(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return !sql::IsKeyword(name);
}

// `name` made plain: other characters become '_' (runs collapsed), a leading digit gets "n_" before it.
std::string Sanitize(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) out = "name";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "n_" + out;
  return out;
}

// `name`, or name2, name3, ... (name_2, ... when it ends in a digit): the first that is plain and not in `taken`
// (case-insensitive). Adds it to `taken`.
std::string Claim(std::string name, std::set<std::string>& taken) {
  if (!Plain(name)) name = Sanitize(name);
  std::string candidate = name;
  for (int k = 2; taken.count(ToLower(candidate)) || !Plain(candidate); ++k) {
    bool digit_end = std::isdigit(static_cast<unsigned char>(name.back()));
    candidate = fmt::format("{}{}{}", name, digit_end ? "_" : "", k);
  }
  taken.insert(ToLower(candidate));
  return candidate;
}

}  // namespace

std::string Abbreviate(std::string_view name, Level level) {
  if (level != Level::kLow && level != Level::kLeast) return std::string(name);
  std::vector<std::string_view> words = SplitWords(name);
  if (words.empty()) return std::string(name);
  bool snake = name.find('_') != std::string_view::npos || name.find(' ') != std::string_view::npos;
  std::vector<std::string> parts;
  if (level == Level::kLow) {
    for (std::string_view w : words) {
      std::string p;
      if (w.size() < 4 || AllDigits(w)) {
        p = std::string(w);
      } else {
        p += w[0];
        for (size_t i = 1; i < w.size(); ++i) {
          if (!IsVowel(w[i])) p += w[i];
        }
      }
      parts.push_back(std::move(p));
    }
  } else if (words.size() == 1) {
    std::string_view w = words[0];
    parts.emplace_back(AllDigits(w) ? w : w.substr(0, w.size() > 4 ? 3 : 1));
  } else {
    std::string initials;
    for (std::string_view w : words) {
      if (AllDigits(w)) {
        initials += std::string(w);
      } else {
        initials += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
      }
    }
    return initials;
  }
  if (snake) return Join(parts, "_");
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string p = parts[i];
    if (i > 0 && !p.empty()) p[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    out += p;
  }
  return out;
}

namespace {

// The expander, told the schema's names, comments and dictionaries.
void Prepare(const catalog::Schema& schema, Expander& expander, const NamingOptions& options) {
  std::vector<std::string> context;
  for (const auto& t : schema.tables) {
    context.push_back(t.name);
    for (const auto& c : t.columns) context.push_back(c.name);
  }
  expander.SetContext(context);
  for (const auto& text : options.evidence) expander.AddEvidence(text);
  for (const auto& t : schema.tables) {
    if (!t.comment.empty()) expander.AddEvidence(t.comment);
    for (const auto& c : t.columns) {
      if (!c.comment.empty()) expander.AddEvidence(c.comment);
    }
  }
}

// Whether a name stays as it is at N1: the classifier calls it Regular and it needs no quotes.
bool KeepsItsName(const Classifier& classifier, const std::string& name) {
  return classifier.Classify(name).level == Level::kRegular && Plain(name);
}

// The expander's readable form. A table's name loses a leading "TB_" / "TBL_" / "T_" (a naming convention that says
// "table", not what it holds).
std::string Expanded(const Expander& expander, const std::string& name, bool is_table) {
  std::string_view rest = name;
  if (is_table) {
    std::vector<std::string_view> words = SplitWords(name);
    if (words.size() > 1 &&
        (EqualsIgnoreCase(words[0], "tb") || EqualsIgnoreCase(words[0], "tbl") || EqualsIgnoreCase(words[0], "t"))) {
      rest = std::string_view(name).substr(static_cast<size_t>(words[1].data() - name.data()));
    }
  }
  std::string e = expander.Expand(rest).name;
  return e.empty() ? Sanitize(name) : e;
}

const CrosswalkEntry* FindPrevious(const Crosswalk* previous, bool is_table, const std::string& table,
                                   const std::string& native) {
  if (!previous) return nullptr;
  const CrosswalkEntry* any = nullptr;
  for (const auto& e : previous->entries) {
    if (e.is_table != is_table || !EqualsIgnoreCase(e.native, native)) continue;
    if (is_table || EqualsIgnoreCase(e.table, table)) return &e;
    if (e.table.empty() && !any) any = &e;
  }
  return any;
}

}  // namespace

std::vector<PendingName> PendingNames(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                                      const Crosswalk* previous, const NamingOptions& options) {
  Prepare(schema, expander, options);
  std::vector<PendingName> out;
  for (const auto& t : schema.tables) {
    if (!FindPrevious(previous, true, "", t.name) && !KeepsItsName(classifier, t.name)) {
      out.push_back({t.name, "", Expanded(expander, t.name, true)});
    }
  }
  for (const auto& t : schema.tables) {
    for (const auto& c : t.columns) {
      if (!FindPrevious(previous, false, t.name, c.name) && !KeepsItsName(classifier, c.name)) {
        out.push_back({c.name, t.name, Expanded(expander, c.name, false)});
      }
    }
  }
  return out;
}

Crosswalk NameSchema(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                     const Crosswalk* previous, const NamingOptions& options, NamingReport* report) {
  NamingReport local;
  NamingReport& r = report ? *report : local;
  std::string database = options.database.empty() ? schema.database : options.database;
  Prepare(schema, expander, options);
  // The readable form of a name: itself when it keeps its name, else a proposed name, else the expansion.
  auto readable = [&](const std::string& name, const std::string& table, bool is_table) {
    if (KeepsItsName(classifier, name)) return name;
    auto p = options.proposed.find({is_table ? std::string() : table, name});
    if (p != options.proposed.end() && !p->second.empty()) return p->second;
    return Expanded(expander, name, is_table);
  };
  auto find_previous = [&](bool is_table, const std::string& table, const std::string& native) {
    return FindPrevious(previous, is_table, table, native);
  };

  Crosswalk out;
  std::set<const CrosswalkEntry*> used;
  // Levels 1..3 as indices into the taken sets.
  auto fill_levels = [&](CrosswalkEntry& e, std::array<std::set<std::string>, 3>& taken, const std::string& prefix) {
    std::string n1 = readable(e.native, e.table, e.is_table);
    // A reserved word is not a natural name for a column: say whose it is ("Group" -> spare_part_group).
    if (sql::IsKeyword(n1) && !prefix.empty()) n1 = Sanitize(prefix) + "_" + ToLower(n1);
    e.n1 = Claim(n1, taken[0]);
    e.n2 = Claim(Abbreviate(e.n1, Level::kLow), taken[1]);
    e.n3 = Claim(Abbreviate(e.n1, Level::kLeast), taken[2]);
  };

  std::array<std::set<std::string>, 3> table_names;
  std::vector<CrosswalkEntry> tables;
  // Kept entries claim their names first, so that new names never take them.
  for (const auto& t : schema.tables) {
    if (const CrosswalkEntry* p = find_previous(true, "", t.name)) {
      for (int k = 0; k < 3; ++k) table_names[k].insert(ToLower(p->At(kLevels[k])));
    }
  }
  for (const auto& t : schema.tables) {
    if (const CrosswalkEntry* p = find_previous(true, "", t.name)) {
      out.entries.push_back(*p);
      used.insert(p);
      ++r.kept;
      continue;
    }
    CrosswalkEntry e;
    e.native = t.name;
    e.is_table = true;
    e.database = database;
    fill_levels(e, table_names, "");
    if (e.n1 != e.native) ++r.expanded;
    ++r.added;
    out.entries.push_back(std::move(e));
  }
  for (const auto& t : schema.tables) {
    std::string table_n1 = out.TableName(t.name, Level::kRegular);
    std::array<std::set<std::string>, 3> column_names;
    for (const auto& c : t.columns) {
      if (const CrosswalkEntry* p = find_previous(false, t.name, c.name)) {
        for (int k = 0; k < 3; ++k) column_names[k].insert(ToLower(p->At(kLevels[k])));
      }
    }
    for (const auto& c : t.columns) {
      if (const CrosswalkEntry* p = find_previous(false, t.name, c.name)) {
        if (used.insert(p).second) {
          out.entries.push_back(*p);
          ++r.kept;
        }
        continue;
      }
      CrosswalkEntry e;
      e.native = c.name;
      e.database = database;
      e.table = t.name;
      fill_levels(e, column_names, table_n1);
      if (e.n1 != e.native) ++r.expanded;
      ++r.added;
      out.entries.push_back(std::move(e));
    }
  }
  if (previous) {
    for (const auto& e : previous->entries) {
      if (used.count(&e)) continue;
      out.entries.push_back(e);
      r.stale.push_back(e.is_table || e.table.empty() ? e.native : e.table + "." + e.native);
    }
  }
  return out;
}

}  // namespace plainsql::naturalness
