// Feature extraction (see features.h).
#include "naturalness/features.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "common/strings.h"
#include "naturalness/identifier.h"

namespace plainsql::naturalness {

namespace {

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Every n-gram (n = from..to) of `text` as "<prefix><n>:<gram>".
void NGrams(std::string_view prefix, std::string_view text, size_t from, size_t to, std::string& key,
            FeatureSink& sink) {
  for (size_t n = from; n <= to; ++n) {
    for (size_t i = 0; i + n <= text.size(); ++i) {
      key.assign(prefix);
      key += static_cast<char>('0' + n);
      key += ':';
      key.append(text.substr(i, n));
      sink.Add(key, 1.0);
    }
  }
}

// The case shape of a character: 'X' upper, 'x' lower, '9' digit, '_' anything else. The shape of a name tells an
// SAP code ("BPCtry": XXXxxx) from camel-cased words ("DueDate": XxxXxxx), which the lower-cased n-grams and the SNAILS
// tags (vowel / consonant) cannot.
char CaseShape(char c) {
  if (c >= 'A' && c <= 'Z') return 'X';
  if (c >= 'a' && c <= 'z') return 'x';
  if (c >= '0' && c <= '9') return '9';
  return '_';
}

// Python's str.isupper (`upper`) or str.islower on ASCII: some letter of that case, and none of the other.
bool AllOneCase(std::string_view s, bool upper) {
  bool cased = false;
  for (char c : s) {
    bool is_upper = c >= 'A' && c <= 'Z', is_lower = c >= 'a' && c <= 'z';
    if (upper ? is_lower : is_upper) return false;
    cased |= upper ? is_upper : is_lower;
  }
  return cased;
}

}  // namespace

void ExtractFeatures(std::string_view identifier, const WordList& words, FeatureSink& sink) {
  std::string key;
  std::string lower(identifier.size(), ' ');
  std::transform(identifier.begin(), identifier.end(), lower.begin(), Lower);
  NGrams("c", "<" + lower + ">", 1, 5, key, sink);
  NGrams("t", "<" + CharTags(identifier) + ">", 1, 4, key, sink);
  std::string shape(identifier.size(), ' ');
  std::transform(identifier.begin(), identifier.end(), shape.begin(), CaseShape);
  NGrams("s", "<" + shape + ">", 2, 5, key, sink);

  std::vector<std::string_view> parts = SplitWords(identifier);
  sink.Add("ntok=" + std::to_string(std::min<size_t>(parts.size(), 6)), 1.0);
  sink.Add("len=" + std::to_string(std::min<size_t>(identifier.size() / 3, 10)), 1.0);

  std::map<std::string, int> kinds;    // kind name -> words of that kind
  std::vector<std::string> seq_items;  // one code per word
  for (std::string_view part : parts) {
    std::string w(part.size(), ' ');
    std::transform(part.begin(), part.end(), w.begin(), Lower);
    WordInfo info = AnalyzeWord(w, words);
    size_t len = w.size();
    switch (info.kind) {
      case WordKind::kNumber:
        ++kinds["digit"];
        seq_items.emplace_back("D");
        break;
      case WordKind::kWord:
        ++kinds["word" + std::to_string(info.tier)];
        sink.Add("tokw_len" + std::to_string(std::min<size_t>(len, 8)), 1.0);
        seq_items.emplace_back("W");
        break;
      case WordKind::kSegmented:
        ++kinds["seg" + std::to_string(info.segments)];
        seq_items.emplace_back("S");
        break;
      case WordKind::kPrefix:
        ++kinds["prefix"];
        sink.Add("pre_len" + std::to_string(std::min<size_t>(len, 6)), 1.0);
        seq_items.emplace_back("P");
        break;
      case WordKind::kSkeleton:
        ++kinds["skel"];
        seq_items.emplace_back("K");
        break;
      case WordKind::kPartial:
        ++kinds["partseg"];
        seq_items.emplace_back("Q");
        break;
      case WordKind::kUnknown: {
        bool upper = AllOneCase(part, true);
        seq_items.emplace_back(upper ? "Uu" : "U");
        ++kinds["unk"];
        sink.Add("unk_len" + std::to_string(std::min<size_t>(len, 6)), 1.0);
        if (upper) sink.Add("unk_upper", 1.0);
        break;
      }
    }
    sink.Add("tok:" + w, 1.0);
    // The word's kind with its length and its share of vowels (in quarters): "K4v0" for "amnt", "W6v2" for "amount".
    size_t vowels = static_cast<size_t>(std::count_if(
        w.begin(), w.end(), [](char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }));
    sink.Add(fmt::format("kl:{}{}v{}", seq_items.back(), std::min<size_t>(len, 8), len ? 4 * vowels / len : 0), 1.0);
    // The word's kind with its case shape, runs cut to two ("Uu:XX" for "BP", "P:Xxx" for "Ctry").
    std::string word_shape;
    for (char c : part) {
      char k = CaseShape(c);
      size_t n = word_shape.size();
      if (n < 2 || word_shape[n - 1] != k || word_shape[n - 2] != k) word_shape += k;
    }
    sink.Add("ws:" + seq_items.back() + ":" + word_shape, 1.0);
    NGrams("k", "[" + w + "]", 2, 4, key, sink);
  }
  double n = static_cast<double>(std::max<size_t>(parts.size(), 1));
  std::string all;
  for (const auto& [kind, count] : kinds) {
    sink.Add("cat:" + kind, count / n);
    sink.Add("has:" + kind, 1.0);
    if (!all.empty()) all += '|';
    all += kind;
  }
  sink.Add("allcat:" + all, 1.0);
  sink.Add("seq:" + Join(seq_items, ""), 1.0);
  for (size_t i = 1; i < seq_items.size(); ++i) sink.Add("bi:" + seq_items[i - 1] + seq_items[i], 1.0);
  if (AllOneCase(identifier, true)) sink.Add("upper", 1.0);
  if (AllOneCase(identifier, false)) sink.Add("lower", 1.0);
}

}  // namespace plainsql::naturalness
