// Schema linking and foreign-key join paths, as the built-in translator uses them.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>

#include "catalog/introspect.h"
#include "common/file.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "linking/joins.h"
#include "linking/lexicon.h"
#include "linking/linker.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/text.h"
#include "retrieval/wordnet.h"
#include "test_util.h"

namespace plainsql::linking {
namespace {

using retrieval::Tokenize;

catalog::Schema Concerts() {
  catalog::Schema s;
  auto table = [&](std::string name, std::vector<std::string> columns) {
    catalog::Table t;
    t.name = std::move(name);
    for (auto& c : columns) {
      catalog::Column col;
      col.name = c;
      col.type = "text";
      t.columns.push_back(std::move(col));
    }
    s.tables.push_back(std::move(t));
  };
  table("singer", {"Singer_ID", "Name", "Country", "Song_Name", "Age"});
  table("concert", {"concert_ID", "concert_Name", "Theme", "Year"});
  table("TB_MO", {"MO_ID", "MO_ST"});
  return s;
}

// Concerts() with `columns` added to its third table (TB_MO).
catalog::Schema ConcertsWith(std::initializer_list<const char*> columns) {
  auto schema = Concerts();
  for (const char* name : columns) {
    catalog::Column c;
    c.name = name;
    schema.tables[2].columns.push_back(c);
  }
  return schema;
}

// The best score of a column's matches in `links` (0: none).
double BestScore(const SchemaIndex& index, const std::vector<LinkMatch>& links, const std::string& column) {
  double score = 0;
  for (const auto& m : links) {
    if (index.Elements()[m.element].column == column) score = std::max(score, m.score);
  }
  return score;
}

// The expander as the linker gets it: the shipped word list and abbreviations.
const naturalness::Expander& ShippedExpander() {
  static const naturalness::Classifier kClassifier = [] {
    auto c = naturalness::Classifier::Load(DataDir());
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }();
  static const naturalness::Expander kExpander = [] {
    auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
    if (!abbreviations) throw std::runtime_error(abbreviations.error().message);
    return naturalness::Expander(kClassifier.Words(), std::move(*abbreviations));
  }();
  return kExpander;
}

// Runs `answer` (the first field, the second split at spaces -> the answer as text, "-" for none) on every case of
// tests/linking/data/`name` (three tab-separated fields, the third the expected answer) and checks it; at least ten.
void CheckCaseFile(const std::string& name,
                   const std::function<std::string(const std::string&, const std::vector<std::string>&)>& answer) {
  const auto rows = test::CaseRows("linking", name, 3);
  for (const auto& f : rows) {
    const std::string got = answer(f[0], Split(f[1], ' '));
    EXPECT_EQ(got.empty() ? "-" : got, f[2]) << f[0];
  }
  EXPECT_GE(rows.size(), 10u);
}

// Every case of data/abbreviations.tsv: the spans of question words a name's letters abbreviate.
TEST(Linker, AbbreviatedSpansCases) {
  CheckCaseFile("abbreviations.tsv", [](const std::string& letters, const std::vector<std::string>& words) {
    std::string got;
    for (auto [b, e] : AbbreviatedSpans(letters, words)) got += (got.empty() ? "" : " ") + fmt::format("{}-{}", b, e);
    return got;
  });
}

// Every case of data/acronyms.tsv: the spans of question words, function words read or left out, a cryptic name's
// letters abbreviate.
TEST(Linker, AcronymSpansCases) {
  CheckCaseFile("acronyms.tsv", [](const std::string& letters, const std::vector<std::string>& words) {
    std::vector<bool> stop(words.size());
    for (size_t i = 0; i < words.size(); ++i) stop[i] = retrieval::IsStopWord(words[i]);
    std::string got;
    for (auto [b, e] : AcronymSpans(letters, words, stop)) got += (got.empty() ? "" : " ") + fmt::format("{}-{}", b, e);
    return got;
  });
}

// A word the schema writes in one table reaches its WordNet relatives in the tables that lack it only with
// LinkOptions::written_alternatives, and below the relative's own weight.
TEST(Linker, AWrittenWordReachesItsRelativesInOtherTablesWhenAsked) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  Stemmer st;
  auto schema = Concerts();
  catalog::Table band;
  band.name = "band";
  band.columns.push_back({});
  band.columns.back().name = "vocalist";
  schema.tables.push_back(band);
  SchemaIndex index(schema, st, nullptr, wn->get());
  auto tokens = Tokenize("How many vocalists do we have?", st);
  auto tables = [&](const std::vector<LinkMatch>& links) {
    std::set<std::string> out;
    for (const auto& m : links) out.insert(index.Elements()[m.element].table);
    return out;
  };
  EXPECT_EQ(tables(Link(index, tokens)), std::set<std::string>{"band"});
  auto links = Link(index, tokens, {.written_alternatives = true});
  EXPECT_EQ(tables(links), (std::set<std::string>{"band", "singer"}));
  for (const auto& m : links) {
    if (index.Elements()[m.element].table != "singer") continue;
    EXPECT_TRUE(m.related);
    EXPECT_LE(m.score, 0.85 * kWrittenAlternativeWeight + 1e-9);
  }
}

// A table whose name says nothing ("OCRD") is named by what its one-column key says a row is ("CardCode": card); a
// table with a name of its own is not (a visitor is not named "tourist" by its key Tourist_ID), nor one of a
// composite key.
TEST(Linker, AKeyNamesATableWhoseNameSaysNothing) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  Stemmer st;
  catalog::Schema schema;
  auto add = [&](const char* name, std::vector<const char*> columns, std::vector<std::string> key) {
    catalog::Table t;
    t.name = name;
    for (const char* c : columns) {
      t.columns.emplace_back();
      t.columns.back().name = c;
    }
    t.primary_key = std::move(key);
    schema.tables.push_back(std::move(t));
  };
  add("OCRD", {"CardCode", "Balance"}, {"CardCode"});
  add("Visitors", {"Tourist_ID", "Tourist_Details"}, {"Tourist_ID"});
  add("OXRV", {"CardCode", "LineNum"}, {"CardCode", "LineNum"});
  SchemaIndex index(schema, st, &ShippedExpander(), wn->get());
  auto table_score = [&](const char* question, const std::string& table) {
    double score = 0;
    for (const auto& m : Link(index, Tokenize(question, st))) {
      const auto& e = index.Elements()[m.element];
      if (e.table == table && e.column.empty()) score = std::max(score, m.score);
    }
    return score;
  };
  EXPECT_GT(table_score("Which card has the largest balance?", "OCRD"), 0.0);
  EXPECT_LE(table_score("Which card has the largest balance?", "OCRD"), kAliasPhraseWeight + 1e-9);
  EXPECT_EQ(table_score("How many tourists came?", "Visitors"), 0.0);
  EXPECT_EQ(table_score("Which card has the largest balance?", "OXRV"), 0.0);
}

// Every case of data/initial_word.tsv: a name of one initial and a whole word, read from two question words.
TEST(Linker, InitialAndWordCases) {
  CheckCaseFile("initial_word.tsv", [](const std::string& letters, const std::vector<std::string>& words) {
    std::string got;
    for (size_t b : InitialAndWord(letters, words)) got += (got.empty() ? "" : " ") + std::to_string(b);
    return got;
  });
}

// A name of one repeated letter against many words of it: each (position, word) is tried once, not every split.
TEST(Linker, AbbreviatedSpansStayPolynomial) {
  const std::string letters(24, 'a');
  const std::vector<std::string> words(30, std::string(25, 'a'));
  auto spans = AbbreviatedSpans(letters, words);
  ASSERT_EQ(spans.size(), 29u);
  EXPECT_EQ(spans[0], std::make_pair(size_t{0}, size_t{2}));  // 22 letters, then 2
  EXPECT_TRUE(AbbreviatedSpans("", words).empty());
}

// Every case of data/scattered_abbreviations.tsv: the words, in any order, a cryptic name's pieces abbreviate.
TEST(Linker, ScatteredAbbreviationCases) {
  CheckCaseFile("scattered_abbreviations.tsv", [](const std::string& letters, const std::vector<std::string>& words) {
    std::string got;
    for (size_t w : ScatteredAbbreviation(letters, words)) {
      got += (got.empty() ? "" : " ") + std::to_string(w);
    }
    return got;
  });
}

// Every case of data/glued_to_table.tsv: the word a column's name glues onto its table's name.
TEST(Linker, GluedToTableCases) {
  CheckCaseFile("glued_to_table.tsv", [](const std::string& table, const std::vector<std::string>& column) {
    return GluedToTable(table, column.at(0));
  });
}

// Every case of data/writes_year.tsv: whether a question writes a year or a date.
TEST(Linker, WritesYearOrDateCases) {
  CheckCaseFile("writes_year.tsv", [](const std::string& question, const std::vector<std::string>&) {
    return std::string(WritesYearOrDate(question) ? "yes" : "no");
  });
}

// Every case of data/measured_by.tsv and data/kinds_named.tsv: whether WordNet says an adjective of the question
// measures a noun, and whether a thing it names is of a kind.
TEST(Linker, MeasuredByAndKindsNamedCases) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  Stemmer st;
  CheckCaseFile("measured_by.tsv", [&](const std::string& question, const std::vector<std::string>& noun) {
    return std::string(MeasuredBy(Tokenize(question, st), **wn).count(noun.at(0)) ? "yes" : "no");
  });
  CheckCaseFile("kinds_named.tsv", [&](const std::string& question, const std::vector<std::string>& noun) {
    return std::string(KindsNamed(question, Tokenize(question, st), **wn).count(noun.at(0)) ? "yes" : "no");
  });
}

// Every case of data/quoted_names.tsv: the name words of a quoted value, or none.
TEST(Linker, QuotedNameWordsCases) {
  CheckCaseFile("quoted_names.tsv", [](const std::string& quoted, const std::vector<std::string>&) {
    std::string got;
    for (const auto& w : QuotedNameWords(quoted)) got += (got.empty() ? "" : " ") + w;
    return got;
  });
}

// Every case of data/best_column.tsv: names that differ only in a function word ("active_to_date",
// "active_from_date") are told apart by the function word the question writes; a verb names its event's date when
// the question writes a year ("hired after 2020": hire_date).
TEST(Linker, BestColumnCases) {
  Stemmer st;
  auto schema = ConcertsWith({"active_from_date", "active_to_date", "date_of_birth", "birth_date", "Has_Pet",
                              "opened_year", "IS_OPEN", "hire_date"});
  SchemaIndex index(schema, st);
  CheckCaseFile("best_column.tsv", [&](const std::string& question, const std::vector<std::string>&) {
    const auto links = Link(index, Tokenize(question, st));
    std::string best;
    double top = 0;
    for (const auto& c : schema.tables[2].columns) {
      const double score = BestScore(index, links, c.name);
      if (score > top + 1e-9) {
        top = score;
        best = c.name;
      } else if (score > 0 && score > top - 1e-9) {
        best = "tie";
      }
    }
    return best;
  });
}

// Every case of data/description_names.tsv: what a short description calls its element.
TEST(Linker, DescriptionNameCases) {
  CheckCaseFile("description_names.tsv", [](const std::string& description, const std::vector<std::string>&) {
    return NameInDescription(description);
  });
}

// Cryptic tables and columns whose comments a data dictionary filled (described_links.tsv lists them).
catalog::Schema DescribedPlant() {
  catalog::Schema s;
  auto table = [&](std::string name, std::string comment, std::vector<std::pair<std::string, std::string>> columns) {
    catalog::Table t;
    t.name = std::move(name);
    t.comment = std::move(comment);
    for (auto& [c, note] : columns) {
      catalog::Column col;
      col.name = c;
      col.type = "text";
      col.comment = note;
      t.columns.push_back(std::move(col));
    }
    s.tables.push_back(std::move(t));
  };
  table("TB_MO", "Maintenance orders: one row per maintenance order",
        {{"MO_ID", "Maintenance order number"},
         {"CRT_DT", "Creation date of the maintenance order"},
         {"CMPL_DT", "Completion date"},
         {"FINAL_CONF", "Final confirmation flag: 1 when finished"},
         {"ZZ1", "1 when the order is open"},
         {"RB", "Person who reported the problem"}});
  table("TB_EQ", "Equipment installed at a plant",
        {{"EQ_ID", ""}, {"EQ_DESC", "Description of the equipment"}, {"XQ7", "Serial number"}});
  return s;
}

// Every case of data/described_links.tsv: the element the links covering a word of the question reach best.
TEST(Linker, DescribedNamesCases) {
  Stemmer st;
  const auto schema = DescribedPlant();
  SchemaIndex index(schema, st, &ShippedExpander());
  CheckCaseFile("described_links.tsv", [&](const std::string& question, const std::vector<std::string>& word) {
    const auto tokens = Tokenize(question, st);
    size_t at = tokens.size();
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].lower == word.at(0)) at = i;
    }
    if (at == tokens.size()) return std::string("no word ") + word.at(0);
    std::string best;
    double top = 0;
    for (const auto& m : Link(index, tokens)) {
      if (m.begin > at || m.end <= at) continue;
      const auto& el = index.Elements()[m.element];
      const std::string name = el.column.empty() ? el.table : el.table + "." + el.column;
      if (m.score > top + 1e-9) {
        top = m.score;
        best = name;
      } else if (m.score > top - 1e-9 && name != best) {
        best = "tie";
      }
    }
    return best;
  });
}

// Without the comments the cryptic names are not read as the question's words.
TEST(Linker, UndescribedNamesAreNotRead) {
  Stemmer st;
  auto schema = DescribedPlant();
  for (auto& t : schema.tables) {
    t.comment.clear();
    for (auto& c : t.columns) c.comment.clear();
  }
  SchemaIndex index(schema, st, &ShippedExpander());
  for (const auto& m : Link(index, Tokenize("List the maintenance orders with a serial number.", st))) {
    const auto& el = index.Elements()[m.element];
    EXPECT_NE(el.column, "XQ7");
    EXPECT_FALSE(el.column.empty() && el.table == "TB_MO") << m.score;
  }
}

// Every case of data/unquote_names.tsv: the quoted strings of a question still read as values once the names are
// unquoted.
TEST(Linker, UnquoteNamesCases) {
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st);
  CheckCaseFile("unquote_names.tsv", [&](const std::string& question, const std::vector<std::string>& stored) {
    std::vector<Token> tokens = Tokenize(question, st);
    UnquoteNames(index, question, st, tokens,
                 [&](const Token& t) { return std::find(stored.begin(), stored.end(), t.text) != stored.end(); });
    std::string got;
    for (const Token& t : tokens) {
      if (t.kind == TokenKind::kQuoted) got += (got.empty() ? "" : "|") + t.text;
      // An unquoted word keeps its place in the question.
      if (t.kind == TokenKind::kWord && question.compare(t.offset, t.text.size(), t.text) != 0)
        return "offset of " + t.text;
    }
    return got;
  });
}

// A name of one repeated letter against many words of it gives up within its step bound instead of trying every split.
TEST(Linker, ScatteredAbbreviationStaysBounded) {
  // No split exists (no word has the last letter), and the pieces of the 39 others can be chosen in countless ways.
  const std::string letters = std::string(39, 'a') + "b";
  const std::vector<std::string> words(64, std::string(3, 'a'));
  EXPECT_TRUE(ScatteredAbbreviation(letters, words).empty());
  const std::vector<std::string> long_words(64, std::string(40, 'a'));
  // 38 letters, then 2: the longest piece first.
  EXPECT_EQ(ScatteredAbbreviation(std::string(40, 'a'), long_words).size(), 2u);
}

// With LinkOptions::scattered_abbreviations a cryptic column (a word of it no dictionary word) links to words the
// question has out of order, above what its expansion's single words give it; a column of dictionary words gains
// nothing, and nothing does without the option.
TEST(Linker, ScatteredAbbreviationOnlyForCrypticNamesWhenAsked) {
  Stemmer st;
  auto schema = Concerts();
  catalog::Column cryptic_column, plain_column;
  cryptic_column.name = "BELTUSE";
  plain_column.name = "UseBelt";
  schema.tables[2].columns.push_back(cryptic_column);  // TB_MO
  schema.tables[1].columns.push_back(plain_column);    // concert
  const naturalness::Expander& expander = ShippedExpander();
  SchemaIndex index(schema, st, &expander);
  auto tokens = Tokenize("How many drivers did not use a seat belt?", st);
  auto best = [&](const std::vector<LinkMatch>& links, const std::string& column) {
    return BestScore(index, links, column);
  };
  auto without = Link(index, tokens, {.abbreviations = true});
  auto links = Link(index, tokens, {.abbreviations = true, .scattered_abbreviations = true});
  EXPECT_LT(best(without, "BELTUSE"), best(links, "BELTUSE"));
  EXPECT_LT(best(links, "BELTUSE"), 1.0);  // below a written match of one word
  EXPECT_EQ(best(links, "UseBelt"), best(without, "UseBelt")) << "UseBelt is two dictionary words: not cryptic";
  EXPECT_TRUE(std::any_of(links.begin(), links.end(), [&](const LinkMatch& m) {
    return index.Elements()[m.element].column == "BELTUSE" && m.related && tokens[m.begin].lower == "use" &&
           tokens[m.end - 1].lower == "belt";
  }));
}

// A column whose name glues a word onto its table's name links to that word alone, below a column named by it.
TEST(Linker, AColumnGluedToItsTableLinksToItsOwnWord) {
  Stemmer st;
  auto schema = Concerts();
  catalog::Table cdc;
  cdc.name = "CDC";
  for (const char* name : {"CDCPLANE", "CDCPLANEID"}) {
    catalog::Column c;
    c.name = name;
    cdc.columns.push_back(c);
  }
  schema.tables.push_back(cdc);
  catalog::Column plane;
  plane.name = "Plane";
  schema.tables[1].columns.push_back(plane);  // concert
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("Count the vehicles by plane of impact", st);
  std::map<std::string, double> best;
  for (const auto& m : Link(index, tokens)) {
    auto& b = best[index.Elements()[m.element].column];
    b = std::max(b, m.score);
  }
  ASSERT_TRUE(best.count("CDCPLANE"));
  EXPECT_GT(best["CDCPLANE"], 0.5);
  EXPECT_LT(best["CDCPLANE"], best["Plane"]);
  // "PLANEID" is no word the question has: the column is not named by "plane" alone.
  EXPECT_LT(best["CDCPLANEID"], best["CDCPLANE"]);
}

// With LinkOptions::abbreviations a cryptic column links to the words it abbreviates, marked as not written so.
TEST(Linker, AbbreviationMatchesOnlyWhenAsked) {
  Stemmer st;
  auto schema = Concerts();
  catalog::Column c;
  c.name = "LIGHTCOND";
  schema.tables[2].columns.push_back(c);
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("Count the crashes by lighting condition", st);
  auto finds = [&](const std::vector<LinkMatch>& links) {
    return std::any_of(links.begin(), links.end(),
                       [&](const LinkMatch& m) { return index.Elements()[m.element].column == "LIGHTCOND"; });
  };
  EXPECT_FALSE(finds(Link(index, tokens)));
  auto links = Link(index, tokens, {.abbreviations = true});
  ASSERT_TRUE(finds(links));
  for (const auto& m : links) {
    if (index.Elements()[m.element].column != "LIGHTCOND") continue;
    EXPECT_TRUE(m.related);
    EXPECT_LT(m.score, 1.35);  // below a written two-word match
    EXPECT_EQ(tokens[m.begin].lower, "lighting");
  }
}

// A name of an initial and a whole word (InitialAndWord) links to the two question words with the abbreviations, above
// a name that has only one of them written ("last" in last_update).
TEST(Linker, AnInitialAndAWholeWordLinkTwoQuestionWords) {
  Stemmer st;
  auto schema = ConcertsWith({"LName", "last_update"});
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("What is the last name of the youngest singer?", st);
  auto best = [&](const std::vector<LinkMatch>& links, const std::string& column) {
    return BestScore(index, links, column);
  };
  auto links = Link(index, tokens, {.abbreviations = true});
  EXPECT_GT(best(links, "LName"), best(links, "last_update"));
  EXPECT_TRUE(std::any_of(links.begin(), links.end(), [&](const LinkMatch& m) {
    return index.Elements()[m.element].column == "LName" && tokens[m.begin].lower == "last" &&
           tokens[m.end - 1].lower == "name";
  }));
  auto plain = Link(index, tokens);
  EXPECT_FALSE(std::any_of(plain.begin(), plain.end(), [&](const LinkMatch& m) {
    return index.Elements()[m.element].column == "LName" && tokens[m.begin].lower == "last";
  }));
}

// With LinkOptions::identifiers a question word that writes a multi-word name as one ("numge1500" for NumGE1500,
// "bordercolor" for border_color) links to it as a written match of all its words.
TEST(Linker, IdentifierWrittenAsOneWordOnlyWhenAsked) {
  Stemmer st;
  auto schema = ConcertsWith({"NumGE1500", "border_color", "q1"});
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("Excellence rate = NumGE1500 / total; cards with BORDERCOLOR white; the Q1 time", st);
  auto best = [&](const std::vector<LinkMatch>& links, const std::string& column) {
    return BestScore(index, links, column);
  };
  auto plain = Link(index, tokens);
  EXPECT_EQ(best(plain, "NumGE1500"), 0.0);
  EXPECT_EQ(best(plain, "border_color"), 0.0);
  auto links = Link(index, tokens, {.identifiers = true});
  EXPECT_NEAR(best(links, "NumGE1500"), 1.7, 1e-9);  // three words: num, ge, 1500
  EXPECT_NEAR(best(links, "border_color"), 1.35, 1e-9);
  // Two characters are enough when one is a number ("Q1" for q1).
  EXPECT_NEAR(best(links, "q1"), 1.35, 1e-9);
  EXPECT_EQ(best(plain, "q1"), 0.0);
  for (const auto& m : links) {
    if (index.Elements()[m.element].column == "border_color") {
      EXPECT_TRUE(m.whole);
      EXPECT_FALSE(m.related);
      EXPECT_EQ(tokens[m.begin].text, "BORDERCOLOR");
    }
  }
}

// A numbered name is told apart from its siblings by the number after its words: "street 2" links street_2 as a
// whole and street_1 not at all; an abbreviated one (CRDLMT2) likewise with LinkOptions::abbreviations.
TEST(Linker, NumberedNamesFollowTheQuestionsNumber) {
  Stemmer st;
  auto schema = ConcertsWith({"street_1", "street_2", "CRDLMT1", "CRDLMT2"});
  SchemaIndex index(schema, st);
  auto best = [&](const std::vector<LinkMatch>& links, const std::string& column) {
    return BestScore(index, links, column);
  };
  auto links =
      Link(index, Tokenize("Show street 2 and the credit limit 02 of every stadium", st), {.abbreviations = true});
  EXPECT_NEAR(best(links, "street_2"), 1.35, 1e-9);  // two words: street, 2
  EXPECT_EQ(best(links, "street_1"), 0.0);
  EXPECT_GT(best(links, "CRDLMT2"), best(links, "CRDLMT1"));
  // Without the number the siblings are alike.
  auto plain = Link(index, Tokenize("Show the credit limit of every stadium", st), {.abbreviations = true});
  EXPECT_DOUBLE_EQ(best(plain, "CRDLMT2"), best(plain, "CRDLMT1"));
}

TEST(Lexicon, TextRoundTripAndErrors) {
  std::vector<LexiconEntry> entries = {{"youngest", "age", 13, 7, 0.65}, {"tallest", "height", 3, 3, 1.0}};
  auto back = Lexicon::Parse(Lexicon::Format(entries, "a header"));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->Entries().size(), 2u);
  EXPECT_EQ(back->Entries()[0].question_stem, "youngest");
  EXPECT_EQ(back->Entries()[0].count, 13u);
  EXPECT_EQ(back->Entries()[0].databases, 7u);
  EXPECT_DOUBLE_EQ(back->Entries()[0].share, 0.65);
  ASSERT_EQ(back->ForSchemaStem("height").size(), 1u);
  EXPECT_EQ(back->ForSchemaStem("height")[0]->question_stem, "tallest");
  EXPECT_TRUE(back->ForSchemaStem("nothing").empty());
  auto short_line = Lexicon::Parse("# c\nyoungest\tage\t13\n");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.error().message.find("line 2"), std::string::npos);
  EXPECT_FALSE(Lexicon::Parse("youngest\tage\tmany\t7\t0.5\n").ok());
}

TEST(Linker, LearnedWordsLinkAsAlternatives) {
  // The shipped lexicon (data/lexicon.tsv) holds "old" for age, learned from Spider train and its paraphrases: given
  // it, the question links to Age without WordNet, below a written match. It is the default (no PLAINSQL_LEXICON); an
  // index given no learned words does not link it.
  ASSERT_FALSE(Lexicon::Builtin().ForSchemaStem("age").empty());
  if (std::getenv("PLAINSQL_LEXICON") == nullptr) {
    EXPECT_EQ(Lexicon::Active().Entries().size(), Lexicon::Builtin().Entries().size());
  }
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st, nullptr, nullptr, nullptr, &Lexicon::Builtin());
  const auto& alts = index.AlternativesFor(st.Stem("old"));
  auto age = std::find_if(alts.begin(), alts.end(), [](const Alternative& a) { return a.schema_stem == "age"; });
  ASSERT_NE(age, alts.end());
  EXPECT_EQ(age->relation, retrieval::Relation::kLearned);
  EXPECT_DOUBLE_EQ(age->weight, Lexicon::kWeight);
  auto linked = [&](const SchemaIndex& ix) {
    for (const auto& m : Link(ix, Tokenize("How old is the singer?", st))) {
      if (ix.Elements()[m.element].column == "Age") return m.score;
    }
    return 0.0;
  };
  EXPECT_GT(linked(index), 0.0);
  EXPECT_LT(linked(index), 1.0);
  const Lexicon none;
  SchemaIndex plain(schema, st, nullptr, nullptr, nullptr, &none);
  EXPECT_TRUE(plain.AlternativesFor(st.Stem("old")).empty());
  EXPECT_EQ(linked(plain), 0.0);
}

TEST(Linker, WholeAndPartialMatchesRankedBestFirst) {
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st);
  auto tokens = Tokenize("Show the song names and ages of all singers", st);
  auto links = Link(index, tokens);
  ASSERT_FALSE(links.empty());
  auto name_of = [&](const LinkMatch& m) {
    const auto& e = index.Elements()[m.element];
    return e.column.empty() ? e.table : e.table + "." + e.column;
  };
  // The best match is the two-word column; the table and "Age" match whole words.
  EXPECT_EQ(name_of(links[0]), "singer.Song_Name");
  EXPECT_TRUE(links[0].whole);
  EXPECT_EQ(links[0].end - links[0].begin, 2u);
  std::vector<std::string> whole;
  for (const auto& m : links) {
    if (m.whole) whole.push_back(name_of(m));
  }
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer"), whole.end());
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer.Age"), whole.end());
  // "names" alone is also the head of concert_Name and the whole of singer.Name.
  EXPECT_NE(std::find(whole.begin(), whole.end(), "singer.Name"), whole.end());
  bool partial_concert_name = false;
  for (const auto& m : links) partial_concert_name |= !m.whole && name_of(m) == "concert.concert_Name";
  EXPECT_TRUE(partial_concert_name);
  EXPECT_TRUE(Link(index, Tokenize("Nothing relevant here", st)).empty());
}

// A schema of one table whose columns are text columns of these names.
catalog::Schema OneTextTable(const std::string& table, std::initializer_list<const char*> columns) {
  catalog::Schema schema;
  catalog::Table t;
  t.name = table;
  for (const char* name : columns) {
    catalog::Column c;
    c.name = name;
    c.type = "text";
    t.columns.push_back(c);
  }
  schema.tables.push_back(t);
  return schema;
}

TEST(Linker, TheLastWordsOfALongerNameArePartOfIt) {
  // "first name" names customer_first_name: a partial match of two words, above a whole one-word name ("name") and
  // below a whole two-word one.
  Stemmer st;
  const catalog::Schema schema = OneTextTable("customer", {"customer_first_name", "name", "last_name"});
  SchemaIndex index(schema, st);
  auto links = Link(index, Tokenize("the first name and last name", st));
  auto find = [&](const std::string& column, size_t begin) {
    return std::find_if(links.begin(), links.end(), [&](const LinkMatch& m) {
      return index.Elements()[m.element].column == column && m.begin == begin;
    });
  };
  auto first = find("customer_first_name", 1);
  ASSERT_NE(first, links.end());
  EXPECT_FALSE(first->whole);
  EXPECT_EQ(first->end, 3u);
  auto name = find("name", 2);
  ASSERT_NE(name, links.end());
  EXPECT_GT(first->score, name->score);
  auto last = find("last_name", 4);
  ASSERT_NE(last, links.end());
  EXPECT_TRUE(last->whole);
  EXPECT_GT(last->score, first->score);
}

TEST(Linker, TheWordBeforeOfHeadsAName) {
  // "date_of_notes" is a date (of notes): "dates" alone is its head word, as "date" is of "notes_date"; "birth date"
  // reads "date_of_birth" whole. "notes" alone stays a head match of the name as written.
  Stemmer st;
  const catalog::Schema schema = OneTextTable("assessment_notes", {"date_of_notes", "date_of_birth", "text"});
  SchemaIndex index(schema, st);
  auto has = [&](const std::string& question, const std::string& column, bool whole) {
    auto links = Link(index, Tokenize(question, st));
    return std::any_of(links.begin(), links.end(), [&](const LinkMatch& m) {
      return index.Elements()[m.element].column == column && m.whole == whole;
    });
  };
  EXPECT_TRUE(has("the dates of the assessments", "date_of_notes", false));
  EXPECT_TRUE(has("their birth dates", "date_of_birth", true));
  EXPECT_TRUE(has("the notes", "date_of_notes", false));
  EXPECT_FALSE(has("the texts", "date_of_notes", false));
}

TEST(Linker, ATableNamedForItsGenericHeadIsNamedByTheWordsBefore) {
  // "festival_detail" holds festivals: "festivals" names the table whole, below its full name; a column so named
  // ("product_details") is not named by "products" alone.
  Stemmer st;
  catalog::Schema schema = OneTextTable("festival_detail", {"festival_name", "product_details"});
  SchemaIndex index(schema, st);
  auto whole = [&](const std::string& question, const std::string& column) {
    auto links = Link(index, Tokenize(question, st));
    for (const LinkMatch& m : links) {
      const auto& el = index.Elements()[m.element];
      if (el.column == column && m.whole) return m.score;
    }
    return 0.0;
  };
  EXPECT_GT(whole("the festivals", ""), 0.0);
  EXPECT_GT(whole("the festival details", ""), whole("the festivals", ""));
  EXPECT_EQ(whole("the products", "product_details"), 0.0);
}

TEST(Linker, ModifiersAreSharedByACoordinatedHeadWord) {
  // "the color code and description": the color's description, matched as if written whole; "the code and
  // description" shares nothing, nor do words apart from "and" / "or".
  Stemmer st;
  const catalog::Schema schema = OneTextTable("products", {"color_code", "color_description", "product_description"});
  SchemaIndex index(schema, st);
  auto whole_at_description = [&](const std::string& question) {
    auto tokens = Tokenize(question, st);
    size_t d = 0;
    while (d < tokens.size() && tokens[d].lower != "description") ++d;
    auto links = Link(index, tokens);
    return std::any_of(links.begin(), links.end(), [&](const LinkMatch& m) {
      return m.begin == d && m.end == d + 1 && m.whole && index.Elements()[m.element].column == "color_description";
    });
  };
  EXPECT_TRUE(whole_at_description("the color code and description"));
  EXPECT_TRUE(whole_at_description("the color code or description"));
  EXPECT_FALSE(whole_at_description("the code and description"));
  EXPECT_FALSE(whole_at_description("the color code with its description"));
}

// A crosswalk's other readings of a name (catalog::Column::aliases) link a question too, below the name itself: "pil"
// read as "pilot" by one and "pill" by another reader is found by "pilots" and by "pills", and a column really named
// pilot wins over the alias.
TEST(Linker, AliasesLinkBelowTheNameItself) {
  Stemmer st;
  auto schema = OneTextTable("flight", {"pil", "dest", "pilot"});
  schema.tables[0].columns[0].aliases = {"pilot_name", "pill"};
  schema.tables[0].aliases = {"flight_log"};
  SchemaIndex index(schema, st);
  EXPECT_EQ(index.Elements()[1].aliases_from, 1u);
  auto best = [&](const std::string& question, const std::string& column) {
    double score = 0;
    for (const auto& m : Link(index, Tokenize(question, st))) {
      if (index.Elements()[m.element].column == column) score = std::max(score, m.score);
    }
    return score;
  };
  EXPECT_GT(best("How many pills were counted?", "pil"), 0);
  EXPECT_GT(best("List the pilot names", "pil"), 0);
  EXPECT_GT(best("List every pilot", "pilot"), best("List every pilot", "pil"));
  EXPECT_NEAR(best("List every pill", "pil"), kAliasPhraseWeight, 1e-9);
  EXPECT_EQ(best("Show the destinations", "pil"), 0);
  bool table = false;
  for (const auto& m : Link(index, Tokenize("Show the flight logs", st))) {
    table |= index.Elements()[m.element].column.empty() && m.end - m.begin == 2;
  }
  EXPECT_TRUE(table) << "the table's alias flight_log";
  // An alias adds no schema word: WordNet's relatives of "pill" stay alternatives of nothing here.
  EXPECT_TRUE(index.AlternativesFor(st.Stem("pill")).empty());
}

TEST(Linker, ExpansionsOfCrypticNamesAreIndexed) {
  const naturalness::Expander& expander = ShippedExpander();
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex index(schema, st, &expander);
  auto links = Link(index, Tokenize("How many statuses are there?", st));
  bool status = false;
  for (const auto& m : links) status |= index.Elements()[m.element].column == "MO_ST";
  EXPECT_TRUE(status) << "MO_ST should be found through its expansion";
}

// With LinkOptions::abbreviated_words a word of a name that is no dictionary word links to the question word it
// abbreviates ("Cty" for "cities", "Fndd" for "founded"), below a written match; a dictionary word of a name never
// does ("Age" is no abbreviation of "average").
TEST(Linker, CrypticWordsOfNamesAbbreviateQuestionWords) {
  const naturalness::Expander& expander = ShippedExpander();
  Stemmer st;
  auto schema = Concerts();
  for (const char* name : {"Cty", "Yr_of_Fndd"}) {
    catalog::Column c;
    c.name = name;
    schema.tables[0].columns.push_back(c);
  }
  SchemaIndex index(schema, st, &expander);
  ASSERT_NE(index.CrypticWord(st.Stem("cty")), nullptr);
  EXPECT_EQ(index.CrypticWord(st.Stem("age")), nullptr);
  auto best = [&](const std::string& question, const LinkOptions& options, const std::string& word) {
    auto tokens = Tokenize(question, st);
    for (const auto& m : Link(index, tokens, options)) {
      if (tokens[m.begin].lower == word)
        return index.Elements()[m.element].column + " " + fmt::format("{:.2f}", m.score);
    }
    return std::string("none");
  };
  const std::string question = "Which cities had singers in the year the orchestra was founded?";
  EXPECT_EQ(best(question, {}, "cities"), "none");
  EXPECT_EQ(best(question, {.abbreviated_words = true}, "cities"), fmt::format("Cty {:.2f}", kAbbreviatedWordWeight));
  EXPECT_EQ(best(question, {.abbreviated_words = true}, "founded").substr(0, 10), "Yr_of_Fndd");
  EXPECT_EQ(best("What is the average of their ages?", {.abbreviated_words = true}, "average"), "none");
}

// With LinkOptions::truncated_words a dictionary word of three to six letters of a name links to a question word it
// starts ("Nam" for "names", "Cod" for "code"), at least a third of its letters, below a written match, except in a
// table with a name that is the question word alone: singer's own Name answers "names" there, not its Nam; concert's
// concert_Name does not stand in the way.
TEST(Linker, TruncatedDictionaryWordsOfNames) {
  const naturalness::Expander& expander = ShippedExpander();
  Stemmer st;
  auto schema = ConcertsWith({"Nam", "Cod"});
  catalog::Column nam;
  nam.name = "Nam";
  schema.tables[0].columns.push_back(nam);  // singer has Name too
  schema.tables[1].columns.push_back(nam);  // concert has concert_Name
  SchemaIndex index(schema, st, &expander);
  EXPECT_EQ(index.CrypticWord(st.Stem("nam")), nullptr);  // a word: abbreviated_words does not read it
  ASSERT_NE(index.ShortWordStem("nam"), nullptr);
  auto score = [&](const std::string& question, const LinkOptions& options, const std::string& table,
                   const std::string& column) {
    double best = 0;
    for (const auto& m : Link(index, Tokenize(question, st), options)) {
      const auto& el = index.Elements()[m.element];
      if (el.table == table && el.column == column) best = std::max(best, m.score);
    }
    return best;
  };
  const std::string question = "List the names and codes of every mo.";
  EXPECT_EQ(score(question, {.abbreviated_words = true}, "TB_MO", "Nam"), 0.0);
  EXPECT_DOUBLE_EQ(score(question, {.truncated_words = true}, "TB_MO", "Nam"), kAbbreviatedWordWeight);
  EXPECT_DOUBLE_EQ(score(question, {.truncated_words = true}, "TB_MO", "Cod"), kAbbreviatedWordWeight);
  EXPECT_EQ(score(question, {.truncated_words = true}, "singer", "Nam"), 0.0);
  EXPECT_EQ(score(question, {.truncated_words = true}, "singer", "Name"), 1.0);
  EXPECT_DOUBLE_EQ(score(question, {.truncated_words = true}, "concert", "Nam"), kAbbreviatedWordWeight);
  // Fewer than a third of the word's letters: "cod" is no "codification".
  EXPECT_EQ(score("Show the codification of each mo.", {.truncated_words = true}, "TB_MO", "Cod"), 0.0);
}

TEST(Linker, SynonymsAndHypernymsThroughWordNet) {
  auto wn = WordNet::Open();
  ASSERT_TRUE(wn.ok()) << wn.error().message;
  Stemmer st;
  auto schema = Concerts();
  SchemaIndex plain(schema, st);
  SchemaIndex related(schema, st, nullptr, wn->get());
  auto tokens = Tokenize("How many vocalists do we have?", st);
  EXPECT_TRUE(Link(plain, tokens).empty());
  auto links = Link(related, tokens);
  ASSERT_FALSE(links.empty());
  EXPECT_EQ(related.Elements()[links[0].element].table, "singer");
  EXPECT_TRUE(links[0].related);
  EXPECT_LT(links[0].score, 1.0);  // below a match as written
  // A word the schema has is not replaced by a synonym (unless asked: see the next test).
  for (const auto& a : related.AlternativesFor(st.Stem("singer"))) EXPECT_TRUE(a.written) << a.schema_stem;
  EXPECT_FALSE(related.AlternativesFor(st.Stem("musicians")).empty());
  // A name's WordNet synonyms name it whole ("forename" for first_name), below a match as written; their words are no
  // schema words ("family", of last_name's "family name", still stands for household).
  catalog::Schema people;
  people.tables.push_back({});
  people.tables.back().name = "household";
  people.tables.push_back({});
  people.tables[1].name = "people";
  for (const char* c : {"first_name", "last_name"}) {
    people.tables[1].columns.push_back({});
    people.tables[1].columns.back().name = c;
  }
  SchemaIndex pi(people, st, nullptr, wn->get());
  auto forename = Link(pi, Tokenize("the forename of each person", st));
  ASSERT_FALSE(forename.empty());
  EXPECT_EQ(pi.Elements()[forename[0].element].column, "first_name");
  EXPECT_TRUE(forename[0].whole);
  EXPECT_LT(forename[0].score, 1.0);
  auto family = Link(pi, Tokenize("their family name", st));
  ASSERT_FALSE(family.empty());
  EXPECT_EQ(pi.Elements()[family[0].element].column, "last_name");
  EXPECT_FALSE(pi.AlternativesFor(st.Stem("family")).empty());
  // Two words in the other order.
  catalog::Schema claims;
  claims.tables.push_back({});
  claims.tables[0].name = "claims";
  claims.tables[0].columns.push_back({});
  claims.tables[0].columns[0].name = "amount_claimed";
  SchemaIndex ci(claims, st);
  auto swapped = Link(ci, Tokenize("the largest claim amount", st));
  ASSERT_FALSE(swapped.empty());
  EXPECT_EQ(ci.Elements()[swapped[0].element].column, "amount_claimed");
  EXPECT_TRUE(swapped[0].whole);
}

TEST(Joins, ShortestForeignKeyPathsWithIntermediateTables) {
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema.ok());
  auto t = ConnectTables(*schema, {"tb_mo", "PLANT"});
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->Tables(), (std::vector<std::string>{"TB_MO", "TB_EQUIP", "plant"}));
  ASSERT_EQ(t->edges.size(), 2u);
  EXPECT_EQ(t->edges[0].left_columns, (std::vector<std::string>{"EQ_ID"}));
  EXPECT_EQ(t->edges[0].right_columns, (std::vector<std::string>{"EQ_ID"}));
  EXPECT_EQ(t->edges[1].left_columns, (std::vector<std::string>{"PLNT_ID"}));
  EXPECT_EQ(t->edges[1].right_columns, (std::vector<std::string>{"plant_id"}));
  // Three tables: the status codes join the order directly.
  auto three = ConnectTables(*schema, {"plant", "TB_MO", "MO_ST_CD"});
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->Tables().size(), 4u);
  EXPECT_EQ(three->Tables().back(), "MO_ST_CD");
  auto one = ConnectTables(*schema, {"plant", "plant"});
  ASSERT_TRUE(one.has_value());
  EXPECT_TRUE(one->edges.empty());
  EXPECT_FALSE(ConnectTables(*schema, {"plant", "open_orders"}).has_value());  // a view: no foreign keys
  EXPECT_FALSE(ConnectTables(*schema, {"plant", "nope"}).has_value());
  EXPECT_FALSE(ConnectTables(*schema, {}).has_value());
  // From the plant, two paths of two keys reach the orders: through the equipment (EQ_ID = EQ_ID, PLNT_ID =
  // plant_id, same names) and through the technician who reported it ("Reported By" = technician_id, a role): the
  // same-named keys win.
  auto from_plant = ConnectTables(*schema, {"plant", "TB_MO"});
  ASSERT_TRUE(from_plant.has_value());
  EXPECT_EQ(from_plant->Tables(), (std::vector<std::string>{"plant", "TB_EQUIP", "TB_MO"}));
}

// Between shortest paths, the one whose keys name the same thing on both sides wins whatever the keys' order: a
// treatment's stay is Undergoes.Stay = Stay.StayID, not any stay of the same patient.
TEST(Joins, SameNamedKeysWinAmongShortestPaths) {
  auto fk = [](std::string column, std::string table, std::string ref) {
    catalog::ForeignKey k;
    k.columns = {std::move(column)};
    k.ref_table = std::move(table);
    k.ref_columns = {std::move(ref)};
    return k;
  };
  catalog::Schema schema;
  catalog::Table patient, stay, undergoes;
  patient.name = "Patient";
  stay.name = "Stay";
  stay.foreign_keys = {fk("Patient", "Patient", "SSN")};
  undergoes.name = "Undergoes";
  undergoes.foreign_keys = {fk("Patient", "Patient", "SSN"), fk("Stay", "Stay", "StayID")};
  schema.tables = {patient, stay, undergoes};
  auto t = ConnectTables(schema, {"Undergoes", "Patient", "Stay"});
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->edges.size(), 2u);
  EXPECT_EQ(t->edges[1].right_table, "Stay");
  EXPECT_EQ(t->edges[1].left_table, "Undergoes");
  EXPECT_EQ(t->edges[1].right_columns, (std::vector<std::string>{"StayID"}));
}

}  // namespace
}  // namespace plainsql::linking
