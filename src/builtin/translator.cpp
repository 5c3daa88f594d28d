// The built-in translator (see translator.h): the passes of passes.h over a reading of the question.
#include "builtin/translator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "builtin/passes.h"
#include "builtin/words.h"
#include "naturalness/identifier.h"
#include "retrieval/wordnet.h"
#include "sql/parser.h"
#include "sql/printer.h"

namespace plainsql::builtin {

// What every reading of a question shares (Translator::Read).
struct QuestionRead {
  std::vector<Token> tokens;
  std::vector<bool> comma_before;  // per token: a comma between it and the token before (the tokenizer drops commas)
  Intent intent;
  std::vector<LinkMatch> links;
  std::vector<ValueMatch> values;
  std::vector<std::string> notes;  // how the question's words were read before the passes (dates relative to today)
};

Translator::Translator(const catalog::Schema& schema, const SchemaIndex& index, const ValueIndex* values)
    : schema_(schema), index_(index), values_(values) {
  if (auto today = Today()) today_ = *today;
}

Translation Translator::Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const {
  // The best reading, then the same question with the first stored value that several columns hold read as the next
  // column that holds it ("Toledo" as a city, else as a customer's name): later readings, ranked lower.
  const QuestionRead q = Read(question, stemmer);
  Choices first;
  Translation out = Assemble(q, dialect, first, true);
  if (out.candidates.empty()) return out;
  auto add = [&](Translation t, size_t alternative, double penalty) {
    for (auto& c : t.candidates) {
      bool seen = std::any_of(out.candidates.begin(), out.candidates.end(),
                              [&](const TranslatorCandidate& x) { return x.sql == c.sql; });
      if (seen) continue;
      c.score = std::max(0.0, c.score - penalty);
      c.features[ReadingFeatureIndex("alternative")] = static_cast<double>(alternative);
      out.candidates.push_back(std::move(c));
    }
  };
  // Other select lists: only the first column named, or the columns the conditions use shown too.
  if (first.outputs_vary) {
    for (OutputChoice o : {OutputChoice::kFirstOnly, OutputChoice::kWithUsed}) {
      Choices other;
      other.outputs = o;
      add(Assemble(q, dialect, other), 0, 0.1);
    }
  }
  // The tables a column needs, without those only named.
  if (first.named_only_tables > 0) {
    Choices other;
    other.used_tables_only = true;
    add(Assemble(q, dialect, other), 0, 0.1);
  }
  for (size_t k = 1; k <= first.value_alternatives && k <= 2; ++k) {
    Choices other;
    other.value_choice = k;
    Translation t = Assemble(q, dialect, other);
    if (other.lost) continue;  // the value's table could not be joined: that reading dropped the value
    add(std::move(t), k, 0.2 * static_cast<double>(k));
  }
  // A count per group by the column shown rather than per subject row.
  if (first.group_varies) {
    Choices other;
    other.group_by_shown = true;
    add(Assemble(q, dialect, other), 0, 0.1);
  }
  // Another link for an ambiguous mention ("name" of the singer or of the song), the closest first.
  for (size_t k = 1; k <= first.link_alternatives; ++k) {
    Choices other;
    other.link_choice = k;
    add(Assemble(q, dialect, other), 0, 0.15 * static_cast<double>(k));
  }
  AddTablesUnited(out, q, question, dialect, stemmer);
  const ShapeModel* proposer = proposer_ ? proposer_ : shape_model_;
  if (skeletons_ && skeletons_->Size() > 0 && proposer && !proposer->Empty()) {
    AddSkeletons(out, proposer->Predict(out.masked_words), dialect);
  }
  if (shape_model_ && !shape_model_->Empty()) {
    out.shape = shape_model_->Predict(out.masked_words);
    SetShapeFeatures(out.candidates, *out.shape);
  }
  return out;
}

namespace {

// The whole mention of a table at tokens [begin, end), if one links there.
const LinkMatch* TableMention(const QuestionRead& q, const SchemaIndex& index, size_t begin) {
  for (const auto& m : q.links) {
    if (m.begin == begin && m.whole && index.Elements()[m.element].column.empty()) return &m;
  }
  return nullptr;
}

// A plain list of columns (no grouping, ordering, aggregate or set operation): what a side of the union may be.
bool PlainList(const TranslatorCandidate& c) {
  if (!c.query || c.query->body.kind != sql::QueryBodyKind::kSelect || !c.query->order_by.empty() || c.query->limit) {
    return false;
  }
  const sql::Select& s = c.query->body.select;
  auto feature = [&](std::string_view name) { return c.features[ReadingFeatureIndex(name)]; };
  return s.group_by.empty() && !s.having && feature("aggregates") == 0 && feature("counting") == 0 &&
         feature("star") == 0;
}

}  // namespace

void Translator::AddTablesUnited(Translation& out, const QuestionRead& q, const std::string& question,
                                 const sql::Dialect& dialect, Stemmer& stemmer) const {
  const auto& t = q.tokens;
  auto is = [&](size_t i, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), t[i].lower) != words.end();
  };
  for (const auto& second : q.links) {
    // The second table ends the question and follows "and" (with "all" / "the" / "every"), the first "of" (with the
    // same words).
    if (second.end != t.size() || !second.whole || !index_.Elements()[second.element].column.empty()) continue;
    size_t i = second.begin;
    while (i > 0 && is(i - 1, {"all", "the", "every"})) --i;
    if (i == 0 || !is(i - 1, {"and"})) continue;
    const size_t and_at = i - 1;
    const LinkMatch* first = nullptr;
    for (size_t b = and_at; b-- > 0 && first == nullptr;) {
      if (const LinkMatch* m = TableMention(q, index_, b); m && m->end == and_at) first = m;
    }
    if (first == nullptr || index_.Elements()[first->element].table == index_.Elements()[second.element].table)
      continue;
    size_t k = first->begin;
    while (k > 0 && is(k - 1, {"all", "the", "every"})) --k;
    if (k == 0 || !is(k - 1, {"of"})) continue;
    // Each side: the question without the other table ("… of all customers", "… of all suppliers").
    const size_t first_end = t[first->end - 1].offset + t[first->end - 1].text.size();
    const std::string one = question.substr(0, first_end);
    const std::string other = question.substr(0, t[first->begin].offset) + question.substr(t[second.begin].offset);
    Choices c1, c2;
    Translation a = Assemble(Read(one, stemmer), dialect, c1);
    Translation b = Assemble(Read(other, stemmer), dialect, c2);
    if (a.candidates.empty() || b.candidates.empty() || !PlainList(a.candidates.front()) ||
        !PlainList(b.candidates.front())) {
      return;
    }
    const sql::Query& left = *a.candidates.front().query;
    const sql::Query& right = *b.candidates.front().query;
    if (left.body.select.items.size() != right.body.select.items.size()) return;
    sql::Query u;
    u.body.kind = sql::QueryBodyKind::kSetOp;
    u.body.set_op = sql::SetOp::kUnion;
    u.body.left = left.body;
    u.body.right = right.body;
    TranslatorCandidate c;
    c.sql = sql::Print(u, dialect);
    if (std::any_of(out.candidates.begin(), out.candidates.end(), [&](const auto& x) { return x.sql == c.sql; })) {
      return;
    }
    const TranslatorCandidate& best = out.candidates.front();
    c.score = std::max(0.0, best.score - 0.1);
    c.notes = best.notes;
    c.notes.push_back(fmt::format("the question asked of {} and of {}: UNION", index_.Elements()[first->element].table,
                                  index_.Elements()[second.element].table));
    c.features = best.features;
    c.features[ReadingFeatureIndex("rank")] = 0;
    c.features[ReadingFeatureIndex("set_operation")] = 1;
    c.features[ReadingFeatureIndex("union")] = 1;
    c.features[ReadingFeatureIndex("tables_united")] = 1;
    const size_t tables = ReadingFeatureIndex("tables");
    c.features[tables] = std::max(a.candidates.front().features[tables], b.candidates.front().features[tables]);
    c.features[ReadingFeatureIndex("outputs")] = static_cast<double>(left.body.select.items.size());
    c.query = std::make_shared<const sql::Query>(std::move(u));
    out.candidates.insert(out.candidates.begin() + 1, std::move(c));
    return;
  }
}

void Translator::AddSkeletons(Translation& out, const ShapePrediction& prediction, const sql::Dialect& dialect) const {
  const TranslatorCandidate& first = out.candidates.front();
  std::vector<TranslatorCandidate> filled;
  for (size_t i : skeletons_->Proposals(prediction, kSkeletonGate)) {
    if (filled.size() == kSkeletonCandidates) break;
    auto f = skeletons_->Fill(i, out.material, schema_, dialect);
    if (!f) continue;
    TranslatorCandidate c;
    c.sql = sql::Print(f->query, dialect);
    auto same = [&](const TranslatorCandidate& x) { return x.sql == c.sql; };
    if (std::any_of(out.candidates.begin(), out.candidates.end(), same) ||
        std::any_of(filled.begin(), filled.end(), same)) {
      continue;
    }
    const Skeleton& s = skeletons_->At(i);
    c.score = std::max(0.0, first.score - 0.2);
    c.notes = first.notes;
    c.notes.push_back(fmt::format("the skeleton of {} solved questions: {}", s.count, s.sql));
    c.features = first.features;
    c.features[ReadingFeatureIndex("rank")] = 0;
    c.features[ReadingFeatureIndex("alternative")] = 0;
    c.features[ReadingFeatureIndex("skeleton")] = 1;
    c.features[ReadingFeatureIndex("skeleton_unused")] = static_cast<double>(f->unused);
    c.features[ReadingFeatureIndex("skeleton_count")] = std::log1p(static_cast<double>(s.count));
    // What the query is made of, as the rule readings' features say it.
    const Shape& shape = skeletons_->ShapeAt(i);
    auto has = [&](std::string_view p) { return shape[ShapePropertyIndex(p)] ? 1.0 : 0.0; };
    c.features[ReadingFeatureIndex("set_operation")] = std::max({has("intersect"), has("union"), has("except")});
    c.features[ReadingFeatureIndex("negated")] = has("negation");
    c.features[ReadingFeatureIndex("grouped")] = has("group");
    c.features[ReadingFeatureIndex("having")] = has("having");
    c.features[ReadingFeatureIndex("ordered")] = has("order");
    c.features[ReadingFeatureIndex("limited")] = has("limit");
    // (Its aggregates and counts are its own too: "the sum of the budgets of the Marketing and Finance departments"
    // filled into an INTERSECT of two names has no sum, whatever the first reading built.)
    const size_t counting = ReadingFeatureIndex("counting");
    const size_t unmet = ReadingFeatureIndex("cue_count_unmet");
    c.features[unmet] = std::max(c.features[unmet], c.features[counting] > 0 && !has("count") ? 1.0 : 0.0);
    c.features[counting] = has("count");
    c.features[ReadingFeatureIndex("aggregates")] = has("aggregate");
    c.query = std::make_shared<const sql::Query>(std::move(f->query));
    filled.push_back(std::move(c));
  }
  const size_t at = std::min(out.candidates.size(), kRankedCandidates - filled.size());
  out.candidates.insert(out.candidates.begin() + static_cast<std::ptrdiff_t>(at),
                        std::make_move_iterator(filled.begin()), std::make_move_iterator(filled.end()));
}

namespace {

// "salary > 80000", "age >= 30": a comparison symbol before a number, outside quotes, read as the words it stands for
// (the tokenizer keeps words, numbers and quoted text only).
std::string SpellComparisonSymbols(const std::string& question) {
  if (question.find_first_of("<>") == std::string::npos) return question;
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < question.size(); ++i) {
    const char ch = question[i];
    if (quote) {
      quote = ch == quote ? 0 : quote;
    } else if (ch == '"' || (ch == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(question[i - 1]))))) {
      quote = ch;
    } else if (ch == '<' || ch == '>') {
      const bool equal = i + 1 < question.size() && question[i + 1] == '=';
      size_t k = i + (equal ? 2 : 1);
      while (k < question.size() && question[k] == ' ') ++k;
      if (k < question.size() && std::isdigit(static_cast<unsigned char>(question[k]))) {
        out += ch == '>' ? (equal ? " at least " : " more than ") : (equal ? " at most " : " less than ");
        i += equal ? 1 : 0;
        continue;
      }
    }
    out.push_back(ch);
  }
  return out;
}

// A proper name no value is written as names a stored value WordNet gives as another name of it: "California" 'CA',
// "the United States" 'USA' (the name's one to three capitalized words, the longest first); a capitalized adjective
// names the value of the noun it pertains to: "French singers", "a Canadian airport" ('France', 'Canada'). A value
// written as it is ('German') was matched before.
void AddValuesNamedOtherwise(const std::vector<Token>& tokens, const ValueIndex& values,
                             const retrieval::WordNet& wordnet, std::vector<ValueMatch>& out) {
  auto capitalized = [&](size_t i) {
    const Token& t = tokens[i];
    return t.kind == TokenKind::kWord && std::isupper(static_cast<unsigned char>(t.text[0])) && !IsStopWord(t.lower) &&
           std::none_of(out.begin(), out.end(), [&](const ValueMatch& v) { return v.begin <= i && i < v.end; });
  };
  for (size_t i = 1; i < tokens.size();) {
    if (!capitalized(i)) {
      ++i;
      continue;
    }
    size_t matched = 0;
    for (size_t n = 3; n >= 1 && matched == 0; --n) {
      if (i + n > tokens.size()) continue;
      std::vector<std::string> words;
      for (size_t k = i; k < i + n && (k == i || capitalized(k)); ++k) words.push_back(tokens[k].lower);
      if (words.size() != n) continue;
      const size_t before = out.size();
      for (const std::vector<std::string>& other : wordnet.NounSynonyms(words)) {
        for (ValueMatch& v : values.Equal(Join(other, " "), i, i + n)) out.push_back(std::move(v));
      }
      if (n == 1) {
        for (const std::string& noun : wordnet.Pertainyms(words.front())) {
          for (ValueMatch& v : values.Equal(noun, i, i + 1)) out.push_back(std::move(v));
        }
      }
      if (out.size() > before) matched = n;
    }
    i += std::max<size_t>(matched, 1);
  }
}

// "the plants in Germany": a place's proper name no column stores, where WordNet says what kind of place it is (a
// country) and a text column of the schema is named so (plant.country), is that column's value as written; the answer
// is then what the database holds of it (nothing), not every row. One or two words in title case, not opening the
// question, none an adjective of a place ("British") or in capitals ("ID", "UK": codes).
void AddValuesOfNamedKind(const std::vector<Token>& tokens, const catalog::Schema& schema,
                          const retrieval::WordNet& wordnet, std::vector<ValueMatch>& out) {
  static const words::WordSet kPlaces = words::List("place_kinds");
  static const std::set<std::string, std::less<>> kCodes = {"code", "cd", "id", "no", "number", "abbreviation"};
  auto title_case = [&](size_t i) {
    const Token& t = tokens[i];
    return t.kind == TokenKind::kWord && t.text.size() >= 3 && std::isupper(static_cast<unsigned char>(t.text[0])) &&
           std::all_of(t.text.begin() + 1, t.text.end(), [](unsigned char ch) { return std::islower(ch); }) &&
           !IsStopWord(t.lower) && wordnet.Pertainyms(t.lower).empty() &&
           std::none_of(out.begin(), out.end(), [&](const ValueMatch& v) { return v.begin <= i && i < v.end; });
  };
  for (size_t i = 1; i < tokens.size();) {
    size_t matched = 0;
    for (size_t n = 2; n >= 1 && matched == 0 && title_case(i); --n) {
      if (i + n > tokens.size() || (n == 2 && !title_case(i + 1))) continue;
      const std::string noun = n == 2 ? tokens[i].lower + "_" + tokens[i + 1].lower : tokens[i].lower;
      std::vector<std::string> kinds = wordnet.Kinds(noun, 2);
      std::erase_if(kinds, [&](const std::string& k) { return !kPlaces.count(k); });
      if (kinds.empty()) continue;
      matched = n;  // a place's name, whether or not a column holds it: not read again word by word ("North")
      const std::string value = n == 2 ? tokens[i].text + " " + tokens[i + 1].text : tokens[i].text;
      for (const auto& t : schema.tables) {
        for (const auto& c : t.columns) {
          if (c.type_class != catalog::TypeClass::kText) continue;
          // Named so by any of its words (state_province_county), unless it holds codes or keys.
          const auto words = naturalness::SplitWords(c.name);
          if (words.empty() || kCodes.count(ToLower(words.back())) ||
              std::none_of(words.begin(), words.end(), [&](std::string_view w) {
                return std::find(kinds.begin(), kinds.end(), ToLower(w)) != kinds.end();
              })) {
            continue;
          }
          out.push_back({t.name, c.name, value, i, i + n});
        }
      }
    }
    i += std::max<size_t>(matched, 1);
  }
}

// A comma between two column names is the list's "and" ("first_name, hire_date of technicians"): the tokens drop
// punctuation, and two names with nothing between them read as one phrase as often as a list.
void CommasBetweenNamesAsAnd(std::string_view text, const SchemaIndex& index, std::vector<retrieval::Token>& tokens) {
  if (text.find(',') == std::string_view::npos) return;
  std::vector<std::pair<size_t, size_t>> names;
  for (const auto& m : linking::Link(index, tokens, {.identifiers = true})) {
    if (!m.whole || m.related || m.score < 1.0 || index.Elements()[m.element].column.empty()) continue;
    if (std::none_of(names.begin(), names.end(), [&](const auto& n) { return m.begin < n.second && n.first < m.end; }))
      names.emplace_back(m.begin, m.end);
  }
  std::sort(names.begin(), names.end());
  for (size_t i = names.size(); i-- > 1;) {
    const auto& a = names[i - 1];
    const auto& b = names[i];
    if (a.second != b.first) continue;
    const retrieval::Token& last = tokens[a.second - 1];
    const size_t from = last.offset + last.text.size(), to = tokens[b.first].offset;
    if (to <= from || to > text.size()) continue;
    const std::string_view gap = text.substr(from, to - from);
    if (Trim(gap) != ",") continue;
    retrieval::Token glue;
    glue.kind = retrieval::TokenKind::kWord;
    glue.text = glue.lower = glue.stem = "and";
    glue.offset = from + gap.find(',');
    tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(b.first), std::move(glue));
  }
}

}  // namespace

namespace {

// When nothing in the question links, a word that is the first word of one table's name ("users" for user_profiles,
// "counties" for county_public_safety): the linker matches a single word with a name's last word only, which keeps
// it from reading "user" in every user_* column; with no other link, that table is the only reading there is.
void LinkTablesByFirstWord(const SchemaIndex& index, const std::vector<Token>& tokens, std::vector<LinkMatch>& links) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kWord || retrieval::IsStopWord(tokens[i].lower)) continue;
    std::vector<size_t> tables;
    for (size_t e = 0; e < index.Elements().size(); ++e) {
      const linking::SchemaElement& el = index.Elements()[e];
      if (!el.column.empty() || el.view) continue;
      const bool first = std::any_of(el.phrases.begin(), el.phrases.end(), [&](const auto& phrase) {
        return phrase.size() > 1 && phrase.front() == tokens[i].stem;
      });
      if (first) tables.push_back(e);
    }
    if (tables.size() != 1) continue;
    links.push_back({tables.front(), i, i + 1, 0.5, false, false});
  }
}

}  // namespace

QuestionRead Translator::Read(const std::string& question, Stemmer& stemmer) const {
  QuestionRead q;
  const std::string spelled = SpellComparisonSymbols(question);
  std::vector<retrieval::Token> tokens = retrieval::Tokenize(spelled, stemmer);
  if (today_) {
    q.notes = ReadRelativeDates(
        tokens, *today_, [&](size_t begin, size_t end) { return NamesSchemaElement(index_, tokens, begin, end); });
  }
  // A quoted name ("the \"hire date\" of each technician") is read as the name, unless the database holds it.
  std::function<bool(const retrieval::Token&)> stored;
  if (values_) stored = [&](const retrieval::Token& t) { return !values_->Match({t}).empty(); };
  linking::UnquoteNames(index_, spelled, stemmer, tokens, stored);
  q.tokens = ExpandCoordinatedNames(tokens, index_);
  CommasBetweenNamesAsAnd(spelled, index_, q.tokens);
  q.comma_before.assign(q.tokens.size(), false);
  for (size_t i = 1; i < q.tokens.size(); ++i) {
    const size_t from = q.tokens[i - 1].offset + q.tokens[i - 1].text.size(), to = q.tokens[i].offset;
    q.comma_before[i] =
        from < to && to <= spelled.size() && spelled.substr(from, to - from).find(',') != std::string::npos;
  }
  q.intent = ReadIntent(q.tokens);
  // A name's word that is no dictionary word may abbreviate a question word ("cty" for "city"): cryptic names. Names
  // made of abbreviations of several question words (LinkOptions::abbreviations) tied on held-out Spider train and
  // stay off.
  q.links = linking::Link(index_, q.tokens, {.abbreviated_words = true, .identifiers = true});
  if (q.links.empty()) LinkTablesByFirstWord(index_, q.tokens, q.links);
  if (values_) {
    // The value index reads the native database; a slice of it (ask --slice link) shows fewer tables and columns.
    q.values = values_->Match(q.tokens, /*plain_plurals=*/true);
    if (const retrieval::WordNet* wordnet = index_.Wordnet()) {
      AddValuesNamedOtherwise(q.tokens, *values_, *wordnet, q.values);
      AddValuesOfNamedKind(q.tokens, schema_, *wordnet, q.values);
    }
    std::erase_if(q.values, [&](const retrieval::ValueMatch& v) {
      const catalog::Table* t = schema_.FindTable(v.table);
      return t == nullptr || t->FindColumn(v.column) == nullptr;
    });
  }
  return q;
}

Translation Translator::Assemble(const QuestionRead& q, const sql::Dialect& dialect, Choices& choices,
                                 bool masked_words) const {
  Context context{schema_, index_, values_, dialect};
  Reading r(context);
  r.choices = choices;
  r.tokens = q.tokens;
  r.comma_before = q.comma_before;
  r.intent = q.intent;
  r.links = q.links;
  r.values = q.values;
  r.used.assign(r.tokens.size(), false);
  r.notes = q.notes;
  for (Pass pass : kPasses) {
    pass(r);
    if (r.stopped) break;
  }
  choices = r.choices;
  Translation out;
  std::vector<ReadingFeatureVector> features;
  for (size_t i = 0; i < r.built.size(); ++i) features.push_back(FeaturesOfReading(r, i));
  out.unlinked = std::move(r.unlinked);
  if (masked_words) {
    out.masked_words = MaskedWords(r);
    out.material = MaterialOf(r);
  }
  out.reason = std::move(r.reason);
  for (size_t i = 0; i < r.built.size(); ++i) {
    TranslatorCandidate c;
    c.sql = std::move(r.built[i].sql);
    c.query = std::make_shared<const sql::Query>(std::move(r.built[i].query));
    c.score = std::max(0.0, r.score - 0.1 * static_cast<double>(i));
    c.notes = r.notes;
    c.features = features[i];
    if (!r.built[i].note.empty()) c.notes.push_back(r.built[i].note);
    out.candidates.push_back(std::move(c));
  }
  if (!out.candidates.empty()) out.reason.clear();
  return out;
}

std::vector<std::optional<exec::ResultSet>> RunCandidates(
    std::vector<TranslatorCandidate>& candidates, exec::Connection& conn, const exec::Limits& limits, size_t max,
    const std::function<sql::Query(const sql::Query&)>& to_native) {
  std::vector<std::optional<exec::ResultSet>> results;
  for (size_t i = 0; i < candidates.size() && i < max; ++i) {
    TranslatorCandidate& c = candidates[i];
    Result<exec::ResultSet> rs = MakeError(ErrorCode::kInvalidArgument, "not run");
    if (to_native) {
      std::optional<sql::Query> parsed;
      if (!c.query) {
        if (auto p = sql::ParseQuery(c.sql, conn.dialect())) parsed = std::move(*p);
      }
      const sql::Query* q = c.query ? c.query.get() : parsed ? &*parsed : nullptr;
      if (q) rs = conn.QueryParsed(to_native(*q), limits);
    } else {
      rs = c.query ? conn.QueryParsed(*c.query, limits) : conn.Query(c.sql, limits);
    }
    results.push_back(rs ? std::optional<exec::ResultSet>(std::move(*rs)) : std::nullopt);
    SetResultFeatures(c.features, results.back() ? &*results.back() : nullptr);
  }
  return results;
}

void SetShapeFeatures(std::vector<TranslatorCandidate>& candidates, const ShapePrediction& prediction) {
  for (auto& c : candidates) {
    if (!c.query) continue;
    SetShapeFeatures(c.features, ShapeOf(*c.query), prediction);
  }
}

void RankCandidates(std::vector<TranslatorCandidate>& candidates, const ReadingScorer& scorer, size_t max) {
  const auto end = candidates.begin() + static_cast<std::ptrdiff_t>(std::min(max, candidates.size()));
  for (auto it = candidates.begin(); it != end; ++it) it->probability = scorer.Probability(it->features);
  std::vector<std::pair<double, size_t>> order;
  for (auto it = candidates.begin(); it != end; ++it) {
    order.emplace_back(scorer.RankScore(it->features), static_cast<size_t>(it - candidates.begin()));
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<TranslatorCandidate> ranked;
  ranked.reserve(order.size());
  for (const auto& [score, i] : order) ranked.push_back(std::move(candidates[i]));
  std::move(ranked.begin(), ranked.end(), candidates.begin());
}

}  // namespace plainsql::builtin
