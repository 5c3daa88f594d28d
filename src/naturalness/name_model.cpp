// The name model (see name_model.h).
#include "naturalness/name_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "common/strings.h"
#include "naturalness/identifier.h"
#include "naturalness/wordlist.h"

namespace plainsql::naturalness {

namespace {

bool InKey(const catalog::Table& table, const std::string& column) {
  for (const auto& k : table.primary_key) {
    if (EqualsIgnoreCase(k, column)) return true;
  }
  for (const auto& fk : table.foreign_keys) {
    for (const auto& c : fk.columns) {
      if (EqualsIgnoreCase(c, column)) return true;
    }
  }
  return false;
}

bool ParsesAsInteger(std::string_view s) {
  size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  if (i == s.size() || s.size() - i > 15) return false;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool ParsesAsNumber(std::string_view s) {
  size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  int digits = 0, points = 0;
  for (; i < s.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++digits;
    } else if (s[i] == '.') {
      ++points;
    } else if (s[i] != 'e' && s[i] != 'E' && s[i] != '+' && s[i] != '-') {
      return false;
    }
  }
  return digits > 0 && points <= 1;
}

// 2020-01-31, 31/01/2020, 2020-01-31 10:00, 10:00:00: digits around '-', '/' or ':' and nothing but digits, those and
// spaces.
bool LooksLikeDate(std::string_view s) {
  int digits = 0, seps = 0;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c == '-' || c == '/' || c == ':') {
      ++seps;
    } else if (c != ' ' && c != '.' && c != 'T' && c != 'Z') {
      return false;
    }
  }
  return digits >= 4 && seps >= 2;
}

// The shape of one stored text value.
std::string TextShape(std::string_view v) {
  static const std::set<std::string> kFlags = {"y", "n", "yes", "no", "t", "f", "true", "false"};
  if (kFlags.count(ToLower(v))) return "flag";
  if (LooksLikeDate(v)) return "date";
  if (v.find('@') != std::string_view::npos || v.find("http") != std::string_view::npos ||
      v.find("www.") != std::string_view::npos) {
    return "contact";
  }
  size_t digits = 0, letters = 0, upper = 0, spaces = 0;
  for (char c : v) {
    auto u = static_cast<unsigned char>(c);
    digits += std::isdigit(u) ? 1 : 0;
    letters += std::isalpha(u) ? 1 : 0;
    upper += std::isupper(u) ? 1 : 0;
    spaces += c == ' ' ? 1 : 0;
  }
  if (digits * 2 >= v.size()) return "number_text";
  if (v.size() > 40) return "text";
  if (v.size() <= 5 && spaces == 0 && (upper == letters || digits > 0)) return "code";
  if (letters > 0 && std::isupper(static_cast<unsigned char>(v[0]))) return "proper";
  return spaces >= 4 ? "text" : "word";
}

double Choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  double r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

bool IsSubsequence(std::string_view a, std::string_view w) {
  size_t i = 0;
  for (char c : w) {
    if (i < a.size() && c == a[i]) ++i;
  }
  return i == a.size();
}

}  // namespace

std::string Singular(std::string_view w) {
  if (w.size() <= 3 || w.back() != 's') return std::string(w);
  if (w.ends_with("ss") || w.ends_with("us") || w.ends_with("is")) return std::string(w);
  // English nouns whose singular is the plural; a rule has no dictionary to tell them ("specy", "sery").
  if (w == "species" || w == "series" || w == "news") return std::string(w);
  if (w.size() > 4 && w.ends_with("ies")) return std::string(w.substr(0, w.size() - 3)) + "y";
  if (w.ends_with("sses") || w.ends_with("xes") || w.ends_with("ches") || w.ends_with("shes")) {
    return std::string(w.substr(0, w.size() - 2));
  }
  return std::string(w.substr(0, w.size() - 1));
}

std::string ColumnShape(const catalog::Table& table, const catalog::Column& column) {
  if (InKey(table, column.name)) return "key";
  const auto& s = column.samples;
  if (s.empty()) {
    switch (column.type_class) {
      case catalog::TypeClass::kNumeric: return "numeric";
      case catalog::TypeClass::kText: return "textual";
      case catalog::TypeClass::kDatetime: return "date";
      case catalog::TypeClass::kBoolean: return "flag";
      default: return "other";
    }
  }
  if (std::all_of(s.begin(), s.end(), [](const std::string& v) { return ParsesAsInteger(v); })) {
    std::vector<long long> n;
    n.reserve(s.size());
    for (const auto& v : s) n.push_back(std::stoll(v));
    auto [lo, hi] = std::minmax_element(n.begin(), n.end());
    if (*lo >= 0 && *hi <= 1) return "flag";
    if (*lo >= 1800 && *hi <= 2100) return "year";
    if (*lo > -200 && *hi < 200) return "small";
    return "int";
  }
  if (std::all_of(s.begin(), s.end(), [](const std::string& v) { return ParsesAsNumber(v); })) return "real";
  // The text shape most values have.
  std::map<std::string, int> votes;
  for (const auto& v : s) ++votes[TextShape(v)];
  return std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

void NameModel::Learn(const catalog::Schema& schema) {
  ++schemas_;
  auto words_of = [](const std::string& name) {
    std::vector<std::string> out;
    for (std::string_view w : SplitWords(name)) {
      std::string lower = ToLower(w);
      if (!lower.empty() && std::isalpha(static_cast<unsigned char>(lower[0]))) out.push_back(Singular(lower));
    }
    return out;
  };
  auto pairs_of = [&](const std::vector<std::string>& words) {
    for (size_t i = 0; i + 1 < words.size(); ++i) {
      pairs_[{words[i], words[i + 1]}] += 1;
      followed_[words[i]] += 1;
    }
  };
  for (const auto& t : schema.tables) {
    for (const auto& w : words_of(t.name)) {
      words_[w].in_tables += 1;
      table_words_ += 1;
    }
    pairs_of(words_of(t.name));
    for (const auto& c : t.columns) {
      std::string shape = ColumnShape(t, c);
      shapes_[shape] += 1;
      columns_ += 1;
      for (const auto& w : words_of(c.name)) {
        WordCounts& wc = words_[w];
        wc.in_columns += 1;
        wc.shapes[shape] += 1;
        column_words_ += 1;
      }
      pairs_of(words_of(c.name));
    }
  }
  IndexWords();
}

void NameModel::IndexWords() {
  for (auto& v : by_letter_) v.clear();
  for (const auto& [w, c] : words_) {
    if (w[0] >= 'a' && w[0] <= 'z') by_letter_[static_cast<size_t>(w[0] - 'a')].push_back(w);
  }
}

Result<NameModel> NameModel::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read the name model {}", path));
  NameModel m;
  std::string line;
  int n = 0;
  auto bad = [&](std::string_view why) {
    return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: {}", path, n, why));
  };
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '\t');
    try {
      if (f[0] == "schemas" && f.size() == 2) {
        m.schemas_ = std::stoi(f[1]);
      } else if (f[0] == "shape" && f.size() == 3) {
        m.shapes_[f[1]] = std::stod(f[2]);
        m.columns_ += std::stod(f[2]);
      } else if (f[0] == "word" && f.size() == 5) {
        WordCounts& wc = m.words_[f[1]];
        wc.in_tables = std::stod(f[2]);
        wc.in_columns = std::stod(f[3]);
        m.table_words_ += wc.in_tables;
        m.column_words_ += wc.in_columns;
        for (const auto& kv : Split(f[4], ',')) {
          size_t colon = kv.find(':');
          if (colon == std::string::npos) continue;
          wc.shapes[kv.substr(0, colon)] = std::stod(kv.substr(colon + 1));
        }
      } else if (f[0] == "pair" && f.size() == 4) {
        double c = std::stod(f[3]);
        m.pairs_[{f[1], f[2]}] = c;
        m.followed_[f[1]] += c;
      } else {
        return bad("expected 'schemas', 'shape', 'word' or 'pair' fields");
      }
    } catch (const std::exception&) {
      return bad("a count is not a number");
    }
  }
  if (m.words_.empty()) return MakeError(ErrorCode::kFormat, fmt::format("{}: no words", path));
  m.IndexWords();
  return m;
}

std::string NameModel::Serialize(std::string_view header) const {
  std::ostringstream out;
  for (const auto& line : Split(std::string(header), '\n')) out << "# " << line << '\n';
  out << "schemas\t" << schemas_ << '\n';
  for (const auto& [s, c] : shapes_) out << "shape\t" << s << '\t' << c << '\n';
  for (const auto& [w, c] : words_) {
    std::vector<std::string> kv;
    for (const auto& [s, k] : c.shapes) kv.push_back(fmt::format("{}:{}", s, k));
    out << "word\t" << w << '\t' << c.in_tables << '\t' << c.in_columns << '\t' << Join(kv, ",") << '\n';
  }
  for (const auto& [p, c] : pairs_) out << "pair\t" << p.first << '\t' << p.second << '\t' << c << '\n';
  return out.str();
}

double NameModel::LogPrior(const std::string& word, bool table, double dictionary_mass) const {
  double count = dictionary_mass;
  if (auto it = words_.find(word); it != words_.end()) {
    // A word seen only in the other kind of name still counts for a little.
    count +=
        table ? it->second.in_tables + 0.2 * it->second.in_columns : it->second.in_columns + 0.2 * it->second.in_tables;
  }
  double total = (table ? table_words_ : column_words_) + 1;
  return std::log(std::max(count, 1e-6) / total);
}

double NameModel::ShapeEvidence(const std::string& word, const std::string& shape) const {
  if (shape.empty() || columns_ <= 0) return 0;
  auto it = words_.find(word);
  if (it == words_.end()) return 0;
  double all = 0;
  for (const auto& [s, c] : it->second.shapes) all += c;
  auto global = shapes_.find(shape);
  double p_shape =
      ((global == shapes_.end() ? 0 : global->second) + 1) / (columns_ + static_cast<double>(shapes_.size()));
  auto own = it->second.shapes.find(shape);
  constexpr double kAlpha = 2;  // pseudo-columns of the global distribution: a word seen once says little
  double p = ((own == it->second.shapes.end() ? 0 : own->second) + kAlpha * p_shape) / (all + kAlpha);
  return std::log(p / p_shape);
}

double NameModel::Cohesion(const std::string& previous, const std::string& word) const {
  auto f = followed_.find(previous);
  auto w = words_.find(word);
  if (f == followed_.end() || w == words_.end()) return 0;
  double all = table_words_ + column_words_;
  if (f->second <= 0 || all <= 0) return 0;  // a hand-edited file with zero counts
  auto pair = pairs_.find({previous, word});
  double after = pair == pairs_.end() ? 0 : pair->second / f->second;
  double anywhere = (w->second.in_tables + w->second.in_columns) / all;
  if (!(anywhere > 0)) return 0;
  constexpr double kLambda = 0.5;  // interpolation with the word's overall probability
  return std::log((kLambda * after + (1 - kLambda) * anywhere) / anywhere);
}

const std::vector<std::string>& NameModel::WordsStartingWith(char letter) const {
  static const std::vector<std::string> kNone;
  if (letter < 'a' || letter > 'z') return kNone;
  return by_letter_[static_cast<size_t>(letter - 'a')];
}

double AbbreviationProbability(std::string_view a, std::string_view w) {
  if (a.empty() || w.size() < 2 || a[0] != w[0] || a.size() >= w.size() || !IsSubsequence(a, w)) return 0;
  // The styles' shares (a writer's habits): first letter, prefix, consonants, any letters in order.
  constexpr double kInitial = 0.25, kPrefix = 0.35, kConsonants = 0.25, kAny = 0.15;
  double p = 0;
  int n = static_cast<int>(w.size()), k = static_cast<int>(a.size());
  if (k == 1) return kInitial;
  // How many letters a writer keeps, whatever the word's length: three most often, then four, two, five.
  auto kept = [](int letters, int longest) {
    static constexpr double kLength[] = {0, 0, 0.2, 0.4, 0.25, 0.1, 0.05};
    auto at = [](int j) { return j < 7 ? kLength[j] : 0.05 / (j - 5); };
    double all = 0;
    for (int j = 2; j <= longest; ++j) all += at(j);
    return all > 0 ? at(letters) / all : 0;
  };
  if (w.starts_with(a)) p += kPrefix * kept(k, n - 1);
  std::string s = ConsonantSkeleton(w);
  int ns = static_cast<int>(s.size());
  if (ns >= 2 && IsSubsequence(a.substr(1), std::string_view(s).substr(1))) {
    // Most often the skeleton's first letters; otherwise any of its letters in order.
    double share = std::string_view(s).starts_with(a) ? 0.6 * kept(k, ns) : 0;
    p += kConsonants * (share + 0.4 / Choose(ns - 1, k - 1));
  }
  p += kAny / Choose(n - 1, k - 1);
  return p;
}

}  // namespace plainsql::naturalness
