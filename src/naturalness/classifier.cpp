// The naturalness classifier (see classifier.h).
#include "naturalness/classifier.h"

#include <fmt/format.h>
#include <linear.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/csv.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/strings.h"
#include "naturalness/features.h"

namespace plainsql::naturalness {

namespace {

// Feature names are written percent-escaped (they hold any byte of an identifier), one per line.
std::string Escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c <= 0x20 || c >= 0x7f || c == '%') {
      out += fmt::format("%{:02X}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::optional<std::string> Unescape(std::string_view s) {
  if (s.find('%') == std::string_view::npos) return std::string(s);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int v = 0;
    for (size_t k = 1; k <= 2; ++k) {
      char c = s[i + k];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + d;
    }
    out += static_cast<char>(v);
    i += 2;
  }
  return out;
}

// Accumulates the three decision values of a model directly from the features, without materialising them.
template <typename Index>
class ScoringSink : public FeatureSink {
 public:
  explicit ScoringSink(const Index& index) : index_(index) {}
  void Add(std::string_view feature, double value) override {
    const std::array<float, 3>* row = index_.Find(Hash64(feature));
    if (!row) return;
    for (int k = 0; k < 3; ++k) dec[k] += value * (*row)[k];
  }
  std::array<double, 3> dec{};

 private:
  const Index& index_;
};

// The key a slot keeps: the hash's upper half (its lower half chose the slot), never 0 (an empty slot).
uint32_t UpperKey(uint64_t h) {
  auto key = static_cast<uint32_t>(h >> 32);
  return key ? key : 1;
}

Prediction FromDecisions(const std::array<double, 3>& dec) {
  // The label is the class with the largest decision value (the ordinal learner's (-a, 0, b), or one per level: see
  // Learner). Probabilities are the softmax of the decision values, which keeps their order; liblinear's normalised
  // sigmoids (one-vs-rest) saturate and turn long repetitive names into exact ties (two classes at sigmoid 1.0).
  Prediction p;
  int best = 0;
  for (int k = 1; k < 3; ++k) {
    if (dec[k] > dec[best]) best = k;
  }
  double sum = 0;
  for (int k = 0; k < 3; ++k) {
    p.p[k] = std::exp(dec[k] - dec[best]);
    sum += p.p[k];
  }
  for (int k = 0; k < 3; ++k) p.p[k] /= sum;
  p.level = kLevels[best];
  return p;
}

}  // namespace

void Model::FlatIndex::Build(const std::vector<uint64_t>& hashes, const std::vector<std::array<float, 3>>& weights) {
  size_t size = 16;
  while (size < 2 * hashes.size()) size *= 2;
  slots.assign(size, Slot{});
  for (size_t i = 0; i < hashes.size(); ++i) {
    uint32_t key = UpperKey(hashes[i]);
    size_t slot = hashes[i] & (size - 1);
    while (slots[slot].key != 0 && slots[slot].key != key) slot = (slot + 1) & (size - 1);
    if (slots[slot].key == key) continue;  // a collision: the first feature keeps the slot
    slots[slot] = Slot{key, weights[i]};
  }
}

const std::array<float, 3>* Model::FlatIndex::Find(uint64_t hash) const {
  if (slots.empty()) return nullptr;
  uint32_t key = UpperKey(hash);
  size_t mask = slots.size() - 1;
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    if (slots[slot].key == key) return &slots[slot].w;
    if (slots[slot].key == 0) return nullptr;
  }
}

void Model::Reindex() {
  std::vector<uint64_t> hashes;
  hashes.reserve(names_.size());
  for (const auto& n : names_) hashes.push_back(Hash64(n));
  index_.Build(hashes, weights_);
}

class ModelBuilder {
 public:
  // Add features, then Reindex() once.
  static void Add(Model& m, std::string name, const std::array<float, 3>& w) {
    m.weights_.push_back(w);
    m.names_.push_back(std::move(name));
  }
  static void Reindex(Model& m) { m.Reindex(); }
  static void SetBias(Model& m, const std::array<double, 3>& b) { m.bias_ = b; }
  static void Info(Model& m, std::string key, std::string value) {
    m.info_.emplace_back(std::move(key), std::move(value));
  }
};

Prediction Model::Classify(std::string_view identifier, const WordList& words) const {
  ScoringSink<FlatIndex> sink(index_);
  ExtractFeatures(identifier, words, sink);
  for (int k = 0; k < 3; ++k) sink.dec[k] += bias_[k];
  return FromDecisions(sink.dec);
}

std::string Model::Serialize() const {
  std::string out = "# plainsql naturalness model: logistic regression over named features (info solver).\n";
  out +=
      "# Lines: 'format', 'info KEY VALUE', 'bias B1 B2 B3', then 'f NAME W1 W2 W3' (Regular, Low, Least; a name's\n";
  out += "# level has the largest sum of its features' weights and the bias).\n";
  out += "# feature names are percent-escaped. Written by `plainsql naturalness train`.\n";
  out += "format plainsql-naturalness 1\n";
  for (const auto& [k, v] : info_) out += "info " + k + " " + v + "\n";
  out += fmt::format("bias {:.9g} {:.9g} {:.9g}\n", bias_[0], bias_[1], bias_[2]);
  for (size_t i = 0; i < weights_.size(); ++i) {
    out +=
        fmt::format("f {} {:.7g} {:.7g} {:.7g}\n", Escape(names_[i]), weights_[i][0], weights_[i][1], weights_[i][2]);
  }
  return out;
}

namespace {

// The space- or tab-separated fields of `line`, into `out` (cleared; its capacity is kept from line to line).
void Fields(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
}

// `field` read whole as a number (std::from_chars, not a stream: a model has tens of thousands of lines and is read by
// every command that links or classifies names, where a stream per line cost about a third of the load).
template <typename T>
bool ReadNumber(std::string_view field, T& value) {
  const char* end = field.data() + field.size();
  auto [at, ec] = std::from_chars(field.data(), end, value);
  return ec == std::errc() && at == end;
}

}  // namespace

Result<Model> Model::Parse(std::string_view text, std::string_view source_name) {
  Model m;
  bool format_seen = false, bias_seen = false;
  int n = 0;
  std::vector<std::string_view> f;
  // Line by line as views into `text` (a model has tens of thousands of lines; a string per line showed in the load).
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++n;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    auto bad = [&](std::string_view why) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: {}", source_name, n, why));
    };
    Fields(line, f);
    const std::string_view kind = f.empty() ? std::string_view() : f[0];
    if (kind == "format") {
      int version = 0;
      if (f.size() < 3 || f[1] != "plainsql-naturalness" || !ReadNumber(f[2], version) || version != 1) {
        return bad("not a plainsql naturalness model (version 1)");
      }
      format_seen = true;
    } else if (kind == "info") {
      if (f.size() < 2) return bad("expected 'info KEY VALUE'");
      const size_t value_at = static_cast<size_t>(f[1].data() + f[1].size() - line.data());
      m.info_.emplace_back(std::string(f[1]), std::string(Trim(line.substr(value_at))));
    } else if (kind == "bias") {
      if (f.size() < 4 || !ReadNumber(f[1], m.bias_[0]) || !ReadNumber(f[2], m.bias_[1]) ||
          !ReadNumber(f[3], m.bias_[2])) {
        return bad("expected three bias values");
      }
      bias_seen = true;
    } else if (kind == "f") {
      std::array<float, 3> w{};
      if (f.size() < 5 || !ReadNumber(f[2], w[0]) || !ReadNumber(f[3], w[1]) || !ReadNumber(f[4], w[2])) {
        return bad("expected 'f NAME W1 W2 W3'");
      }
      auto unescaped = Unescape(f[1]);
      if (!unescaped) return bad("bad escape in feature name");
      ModelBuilder::Add(m, std::move(*unescaped), w);
    } else {
      return bad(fmt::format("unknown line kind '{}'", kind));
    }
  }
  if (!format_seen || !bias_seen) {
    return MakeError(ErrorCode::kFormat,
                     fmt::format("{}: not a plainsql naturalness model (no 'format' or 'bias' line)", source_name));
  }
  m.Reindex();
  return m;
}

Result<Model> Model::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read naturalness model {}", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return Parse(ss.str(), path);
}

std::string DefaultDataDir() { return DataDir(); }

Result<Classifier> Classifier::Load(const std::string& data_dir) {
  auto words = WordList::Load(data_dir + "/words.tsv");
  if (!words) return words.error();
  auto model = Model::Load(data_dir + "/naturalness.model");
  if (!model) return model.error();
  return Classifier(std::make_shared<const WordList>(std::move(*words)), std::move(*model));
}

Result<std::vector<LabeledIdentifier>> LoadLabeled(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
  std::string line;
  if (!std::getline(in, line)) return MakeError(ErrorCode::kFormat, fmt::format("{}: empty file", path));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  std::vector<std::string> header = ParseCsvRecord(line);
  int text_col = -1, cat_col = -1, label_col = -1;
  for (size_t i = 0; i < header.size(); ++i) {
    std::string h = ToLower(Trim(header[i]));
    if (h == "text") text_col = static_cast<int>(i);
    if (h == "category") cat_col = static_cast<int>(i);
    if (h == "label") label_col = static_cast<int>(i);
  }
  if (text_col < 0 || (cat_col < 0 && label_col < 0)) {
    return MakeError(
        ErrorCode::kFormat,
        fmt::format("{}: expected a header with 'text' and 'category' (N1/N2/N3) or 'label' (0/1/2)", path));
  }
  std::vector<LabeledIdentifier> out;
  int n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> f = ParseCsvRecord(line);
    auto bad = [&](const std::string& why) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: {}", path, n, why));
    };
    int need = std::max({text_col, cat_col, label_col});
    if (static_cast<int>(f.size()) <= need) return bad(fmt::format("expected at least {} fields", need + 1));
    std::optional<Level> level;
    if (cat_col >= 0) {
      std::string_view c = Trim(f[cat_col]);
      if (c == "N1") level = Level::kRegular;
      if (c == "N2") level = Level::kLow;
      if (c == "N3") level = Level::kLeast;
      if (!level) return bad(fmt::format("category '{}' is not N1, N2 or N3", c));
    }
    if (label_col >= 0) {
      std::string_view l = Trim(f[label_col]);
      if (l != "0" && l != "1" && l != "2") return bad(fmt::format("label '{}' is not 0, 1 or 2", l));
      Level from_label = kLevels[l[0] - '0'];
      if (level && *level != from_label) return bad("category and label disagree");
      level = from_label;
    }
    out.push_back({f[text_col], *level});
  }
  return out;
}

namespace {

// Collects the features of one identifier as (index, value), growing the feature index while `grow`.
class IndexingSink : public FeatureSink {
 public:
  IndexingSink(std::unordered_map<std::string, int>& index, std::vector<std::string>& names, bool grow)
      : index_(index), names_(names), grow_(grow) {}
  void Add(std::string_view feature, double value) override {
    auto it = index_.find(std::string(feature));
    if (it == index_.end()) {
      if (!grow_) return;
      it = index_.emplace(std::string(feature), static_cast<int>(names_.size()) + 1).first;  // liblinear: 1-based
      names_.emplace_back(feature);
    }
    values[it->second] += value;
  }
  std::map<int, double> values;

 private:
  std::unordered_map<std::string, int>& index_;
  std::vector<std::string>& names_;
  bool grow_;
};

struct SparseSet {
  std::vector<std::vector<feature_node>> rows;
  std::vector<double> y;
};

SparseSet Vectorize(const std::vector<LabeledIdentifier>& data, const WordList& words,
                    std::unordered_map<std::string, int>& index, std::vector<std::string>& names, bool grow) {
  SparseSet out;
  for (const auto& item : data) {
    IndexingSink sink(index, names, grow);
    ExtractFeatures(item.text, words, sink);
    std::vector<feature_node> row;
    for (const auto& [i, v] : sink.values) {
      if (v != 0) row.push_back({i, v});
    }
    out.rows.push_back(std::move(row));
    out.y.push_back(LevelIndex(item.level));
  }
  return out;
}

void Quiet(const char*) {}

// One liblinear L2-regularised logistic regression over `rows` (each ending with the bias feature and the -1 index) for
// the labels `y`; the caller frees it.
model* FitRegression(std::vector<feature_node*>& x, int n_features, std::vector<double>& y, double c) {
  problem prob{};
  prob.l = static_cast<int>(x.size());
  prob.n = n_features + 1;
  prob.y = y.data();
  prob.x = x.data();
  prob.bias = -1;  // the bias column is added by hand (Fit), so it is regularised like liblinear's own
  parameter param{};
  param.solver_type = L2R_LR;
  param.eps = 0.01;
  param.C = c;
  set_print_string_function(Quiet);
  return train(&prob, &param);
}

// A fitted learner's weights, one row per feature in our class order, and its bias.
struct Weights {
  std::vector<std::array<float, 3>> rows;
  std::array<double, 3> bias{};
};

// The weights of one regression per level.
Weights OneVsRest(std::vector<feature_node*>& x, int n_features, std::vector<double> y, double c) {
  model* lm = FitRegression(x, n_features, y, c);
  std::array<int, 3> slot{};  // liblinear's class order -> ours
  std::vector<int> labels(static_cast<size_t>(get_nr_class(lm)));
  get_labels(lm, labels.data());
  for (size_t i = 0; i < labels.size() && i < 3; ++i) slot[i] = labels[i];
  Weights w;
  w.rows.resize(static_cast<size_t>(n_features));
  for (int k = 0; k < static_cast<int>(labels.size()) && k < 3; ++k) {
    const auto level = static_cast<size_t>(slot[static_cast<size_t>(k)]);
    for (int f = 1; f <= n_features; ++f) {
      w.rows[static_cast<size_t>(f - 1)][level] = static_cast<float>(get_decfun_coef(lm, f, k));
    }
    w.bias[level] = get_decfun_coef(lm, n_features + 1, k);
  }
  free_and_destroy_model(&lm);
  return w;
}

// The weights of the two boundaries of the levels' order (see Learner::kOrdinal): Regular's are minus those of "past
// Regular", Least's those of "Least", Low's zero.
Weights Ordinal(std::vector<feature_node*>& x, int n_features, const std::vector<double>& y, double c) {
  Weights w;
  w.rows.resize(static_cast<size_t>(n_features));
  for (const int boundary : {1, 2}) {
    std::vector<double> past(y.size());
    for (size_t i = 0; i < y.size(); ++i) past[i] = y[i] >= boundary ? 1 : 0;
    model* lm = FitRegression(x, n_features, past, c);
    std::array<int, 2> labels{};
    get_labels(lm, labels.data());
    // A two-class model keeps one decision function, positive for its first label; ours is "past the boundary".
    const double toward_past = labels[0] == 1 ? 1 : -1;
    const double sign = boundary == 1 ? -toward_past : toward_past;
    const auto level = static_cast<size_t>(boundary == 1 ? 0 : 2);
    for (int f = 1; f <= n_features; ++f) {
      w.rows[static_cast<size_t>(f - 1)][level] = static_cast<float>(sign * get_decfun_coef(lm, f, 0));
    }
    w.bias[level] = sign * get_decfun_coef(lm, n_features + 1, 0);
    free_and_destroy_model(&lm);
  }
  return w;
}

// Trains the learner's regressions; the returned model owns its weights.
Model Fit(SparseSet& set, const std::vector<std::string>& names, double c, Learner learner) {
  int n_features = static_cast<int>(names.size());
  // liblinear wants each row terminated by index -1, and the bias as an extra feature.
  std::vector<std::vector<feature_node>> rows = set.rows;
  for (auto& r : rows) {
    r.push_back({n_features + 1, 1.0});
    r.push_back({-1, 0});
  }
  std::vector<feature_node*> x;
  x.reserve(rows.size());
  for (auto& r : rows) x.push_back(r.data());
  const Weights w =
      learner == Learner::kOrdinal ? Ordinal(x, n_features, set.y, c) : OneVsRest(x, n_features, set.y, c);
  Model m;
  for (int f = 1; f <= n_features; ++f) {
    const auto& row = w.rows[static_cast<size_t>(f - 1)];
    if (row[0] != 0 || row[1] != 0 || row[2] != 0) ModelBuilder::Add(m, names[f - 1], row);
  }
  ModelBuilder::SetBias(m, w.bias);
  ModelBuilder::Reindex(m);
  return m;
}

}  // namespace

std::string_view LearnerName(Learner learner) { return learner == Learner::kOrdinal ? "ordinal" : "one-vs-rest"; }

std::optional<Learner> ParseLearner(std::string_view name) {
  for (Learner l : {Learner::kOrdinal, Learner::kOneVsRest}) {
    if (name == LearnerName(l)) return l;
  }
  return std::nullopt;
}

EvalReport Evaluate(const Model& model, const WordList& words, const std::vector<LabeledIdentifier>& rows) {
  EvalReport r;
  r.n = rows.size();
  size_t correct = 0;
  for (const auto& item : rows) {
    int gold = LevelIndex(item.level), pred = LevelIndex(model.Classify(item.text, words).level);
    ++r.confusion[gold][pred];
    correct += gold == pred;
  }
  r.accuracy = rows.empty() ? 0 : static_cast<double>(correct) / static_cast<double>(rows.size());
  for (int k = 0; k < 3; ++k) {
    int tp = r.confusion[k][k], predicted = 0, actual = 0;
    for (int j = 0; j < 3; ++j) {
      predicted += r.confusion[j][k];
      actual += r.confusion[k][j];
    }
    r.precision[k] = predicted ? static_cast<double>(tp) / predicted : 0;
    r.recall[k] = actual ? static_cast<double>(tp) / actual : 0;
    double pr = r.precision[k] + r.recall[k];
    r.f1[k] = pr > 0 ? 2 * r.precision[k] * r.recall[k] / pr : 0;
    r.macro_precision += r.precision[k] / 3;
    r.macro_recall += r.recall[k] / 3;
    r.macro_f1 += r.f1[k] / 3;
  }
  return r;
}

EvalReport Evaluate(const Classifier& classifier, const std::vector<LabeledIdentifier>& rows) {
  return Evaluate(classifier.GetModel(), classifier.Words(), rows);
}

Result<Model> Train(const std::vector<LabeledIdentifier>& train_rows, const std::vector<LabeledIdentifier>& validation,
                    const WordList& words, const TrainOptions& options, TrainReport* report,
                    const std::function<void(const std::string&)>& progress) {
  if (train_rows.empty()) return MakeError(ErrorCode::kInvalidArgument, "no training examples");
  if (options.c_values.empty()) return MakeError(ErrorCode::kInvalidArgument, "no C values to try");
  std::unordered_map<std::string, int> index;
  std::vector<std::string> names;
  SparseSet set = Vectorize(train_rows, words, index, names, true);
  TrainReport local;
  TrainReport& rep = report ? *report : local;
  rep = TrainReport{};
  rep.train_size = train_rows.size();
  rep.validation_size = validation.size();
  rep.features = names.size();
  if (progress) progress(fmt::format("{} training identifiers, {} features", train_rows.size(), names.size()));
  std::optional<Model> best;
  EvalReport chosen;
  for (double c : options.c_values) {
    Model m = Fit(set, names, c, options.learner);
    EvalReport ev = Evaluate(m, words, validation.empty() ? train_rows : validation);
    rep.candidates.push_back({c, ev});
    if (progress) {
      progress(fmt::format("C = {:g}: validation accuracy {:.4f}, macro-F1 {:.4f}", c, ev.accuracy, ev.macro_f1));
    }
    if (!best || ev.accuracy > chosen.accuracy) {
      chosen = ev;
      rep.chosen_c = c;
      best = std::move(m);
    }
  }
  ModelBuilder::Info(*best, "solver", fmt::format("liblinear-L2R_LR-{}", LearnerName(options.learner)));
  ModelBuilder::Info(*best, "C", fmt::format("{:g}", rep.chosen_c));
  ModelBuilder::Info(*best, "train_size", std::to_string(rep.train_size));
  ModelBuilder::Info(*best, "validation_size", std::to_string(rep.validation_size));
  ModelBuilder::Info(*best, "validation_accuracy", fmt::format("{:.4f}", chosen.accuracy));
  ModelBuilder::Info(*best, "validation_macro_f1", fmt::format("{:.4f}", chosen.macro_f1));
  ModelBuilder::Info(*best, "word_list_size", std::to_string(words.Size()));
  return std::move(*best);
}

}  // namespace plainsql::naturalness
