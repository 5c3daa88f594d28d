// The built-in sparse embedder and its inverted index (see embedder.h).
#include "retrieval/embedder.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <thread>
#include <unordered_map>
#include <utility>

#include "common/hash.h"
#include "retrieval/text.h"

namespace plainsql::retrieval {

std::vector<Hit> BestHits(std::vector<Hit> hits, size_t limit) {
  if (limit == 0) return hits;
  auto better = [](const Hit& a, const Hit& b) {
    return a.similarity > b.similarity || (a.similarity == b.similarity && a.id < b.id);
  };
  if (hits.size() > limit) {
    std::nth_element(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(limit), hits.end(), better);
    hits.resize(limit);
  }
  std::sort(hits.begin(), hits.end(), better);
  return hits;
}

namespace {

constexpr std::string_view kPlaceholders[] = {"<mask>", "<value>"};
// Two-character operators read as one token; any other punctuation character is a token by itself.
constexpr std::string_view kOperators[] = {">=", "<=", "<>", "!=", "||", "=="};

bool IsWordByte(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// The tokens of a text (see SparseFeatures).
std::vector<std::string> Tokens(std::string_view text, Stemmer& stemmer) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    auto placeholder = std::find_if(std::begin(kPlaceholders), std::end(kPlaceholders),
                                    [&](std::string_view p) { return text.substr(i).starts_with(p); });
    if (placeholder != std::end(kPlaceholders)) {
      out.emplace_back(*placeholder);
      i += placeholder->size();
      continue;
    }
    if (IsWordByte(c)) {
      size_t start = i;
      while (i < text.size() && IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
      std::string word(text.substr(start, i - start));
      std::transform(word.begin(), word.end(), word.begin(), [](unsigned char ch) { return std::tolower(ch); });
      out.push_back(stemmer.Stem(word));
      continue;
    }
    auto op = std::find_if(std::begin(kOperators), std::end(kOperators),
                           [&](std::string_view p) { return text.substr(i).starts_with(p); });
    size_t n = op != std::end(kOperators) ? op->size() : 1;
    out.emplace_back(text.substr(i, n));
    i += n;
  }
  return out;
}

// A feature's 64-bit key: the hash of its first token, folded with the hash of each further one.
uint64_t Fold(uint64_t key, uint64_t token_hash) {
  key ^= token_hash + 0x9e3779b97f4a7c15ULL + (key << 6) + (key >> 2);
  return key * 0xff51afd7ed558ccdULL;
}

// The feature keys of a text with their counts, sorted by key.
std::vector<std::pair<uint64_t, uint32_t>> FeatureKeys(std::string_view text, int max_ngram, Stemmer& stemmer) {
  std::vector<std::string> tokens = Tokens(text, stemmer);
  std::vector<uint64_t> hashes;
  hashes.reserve(tokens.size());
  for (const auto& t : tokens) hashes.push_back(Hash64(t));
  std::vector<uint64_t> keys;
  keys.reserve(tokens.size() * static_cast<size_t>(std::max(1, max_ngram)));
  for (size_t i = 0; i < hashes.size(); ++i) {
    uint64_t key = hashes[i];
    keys.push_back(key);
    for (size_t n = 2; n <= static_cast<size_t>(max_ngram) && i + n <= hashes.size(); ++n) {
      key = Fold(key, hashes[i + n - 1]);
      keys.push_back(key);
    }
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::pair<uint64_t, uint32_t>> out;
  for (uint64_t k : keys) {
    if (!out.empty() && out.back().first == k) {
      ++out.back().second;
    } else {
      out.emplace_back(k, 1);
    }
  }
  return out;
}

float TermWeight(uint32_t count, bool sublinear) {
  return sublinear ? 1.0f + std::log(static_cast<float>(count)) : static_cast<float>(count);
}

// Postings in compressed-row form: feature f's texts are docs[offsets[f] .. offsets[f + 1]), ascending, with their
// weights (the text's unit-length TF-IDF vector's component for f).
class SparseIndex final : public TextIndex {
 public:
  SparseIndex(SparseOptions options, std::unordered_map<uint64_t, uint32_t> vocabulary, std::vector<float> idf,
              std::vector<uint64_t> offsets, std::vector<uint32_t> docs, std::vector<float> weights, size_t size)
      : options_(options),
        vocabulary_(std::move(vocabulary)),
        idf_(std::move(idf)),
        offsets_(std::move(offsets)),
        docs_(std::move(docs)),
        weights_(std::move(weights)),
        size_(size) {}

  size_t Size() const override { return size_; }
  bool Exact() const override { return true; }

  Result<Embedding> Embed(std::string_view text) const override {
    thread_local Stemmer stemmer;
    Embedding e;
    double norm = 0;
    for (const auto& [key, count] : FeatureKeys(text, options_.max_ngram, stemmer)) {
      auto it = vocabulary_.find(key);
      if (it == vocabulary_.end()) continue;  // in no indexed text: it cannot make two texts alike
      float w = TermWeight(count, options_.sublinear_tf) * idf_[it->second];
      if (w <= 0) continue;
      e.ids.push_back(it->second);
      e.weights.push_back(w);
      norm += static_cast<double>(w) * w;
    }
    NormalizeAndSort(e, norm);
    return e;
  }

  std::vector<Hit> Search(const Embedding& query, size_t limit) const override {
    // One accumulator per thread, left all zero after each search; only the texts touched are reset.
    thread_local std::vector<float> acc;
    thread_local std::vector<uint32_t> touched;
    if (acc.size() < size_) acc.resize(size_, 0.0f);
    touched.clear();
    for (size_t k = 0; k < query.ids.size(); ++k) {
      const uint32_t f = query.ids[k];
      const float qw = query.weights[k];
      for (uint64_t p = offsets_[f], end = offsets_[f + 1]; p < end; ++p) {
        float& a = acc[docs_[p]];
        if (a == 0.0f) touched.push_back(docs_[p]);
        a += qw * weights_[p];
      }
    }
    std::vector<Hit> hits;
    hits.reserve(touched.size());
    for (uint32_t d : touched) {
      hits.push_back({d, std::min(acc[d], 1.0f)});
      acc[d] = 0.0f;
    }
    return BestHits(std::move(hits), limit);
  }

  float Similarity(const Embedding& query, uint32_t id) const override {
    float sum = 0;
    for (size_t k = 0; k < query.ids.size(); ++k) {
      const uint32_t f = query.ids[k];
      auto begin = docs_.begin() + static_cast<std::ptrdiff_t>(offsets_[f]);
      auto end = docs_.begin() + static_cast<std::ptrdiff_t>(offsets_[f + 1]);
      auto it = std::lower_bound(begin, end, id);
      if (it != end && *it == id) sum += query.weights[k] * weights_[static_cast<size_t>(it - docs_.begin())];
    }
    return std::min(sum, 1.0f);
  }

  size_t MemoryBytes() const override {
    return vocabulary_.size() * (sizeof(uint64_t) + sizeof(uint32_t) + 2 * sizeof(void*)) +
           vocabulary_.bucket_count() * sizeof(void*) + idf_.capacity() * sizeof(float) +
           offsets_.capacity() * sizeof(uint64_t) + docs_.capacity() * sizeof(uint32_t) +
           weights_.capacity() * sizeof(float);
  }

  static void NormalizeAndSort(Embedding& e, double norm) {
    if (norm <= 0) return;
    const auto inv = static_cast<float>(1.0 / std::sqrt(norm));
    std::vector<size_t> order(e.ids.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return e.ids[a] < e.ids[b]; });
    Embedding sorted;
    sorted.ids.reserve(order.size());
    sorted.weights.reserve(order.size());
    for (size_t i : order) {
      sorted.ids.push_back(e.ids[i]);
      sorted.weights.push_back(e.weights[i] * inv);
    }
    e = std::move(sorted);
  }

 private:
  SparseOptions options_;
  std::unordered_map<uint64_t, uint32_t> vocabulary_;  // feature key -> feature id
  std::vector<float> idf_;                             // per feature id
  std::vector<uint64_t> offsets_;
  std::vector<uint32_t> docs_;
  std::vector<float> weights_;
  size_t size_ = 0;
};

class SparseEmbedder final : public Embedder {
 public:
  explicit SparseEmbedder(SparseOptions options) : options_(options) {}
  std::string Name() const override { return "sparse"; }

  Result<std::unique_ptr<TextIndex>> Index(const std::vector<std::string>& texts,
                                           const EmbedProgress& progress) const override {
    if (texts.size() >= UINT32_MAX) return MakeError(ErrorCode::kResourceLimit, "too many texts for one index");
    // Each text's features as (feature id, count), numbered in order of first appearance.
    std::unordered_map<uint64_t, uint32_t> vocabulary;  // feature key -> feature id
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> features = Featurize(texts, progress, vocabulary);
    const size_t features_count = vocabulary.size();
    std::vector<uint32_t> df(features_count, 0);
    for (const auto& f : features) {
      for (const auto& [id, count] : f) ++df[id];
    }
    // Smoothed inverse document frequency: a feature every text has weighs log(2) / (1 + log N) of a unique one.
    const double n = static_cast<double>(texts.size());
    std::vector<float> idf(features_count);
    for (size_t f = 0; f < idf.size(); ++f) {
      idf[f] = static_cast<float>(std::log((1.0 + n) / (1.0 + df[f])) + 1.0);
    }
    std::vector<uint64_t> offsets(features_count + 1, 0);
    for (size_t f = 0; f < df.size(); ++f) offsets[f + 1] = offsets[f] + df[f];
    std::vector<uint32_t> docs(offsets.back());
    std::vector<float> weights(offsets.back());
    std::vector<uint64_t> fill(offsets.begin(), offsets.end() - 1);
    for (size_t d = 0; d < features.size(); ++d) {
      double norm = 0;
      for (const auto& [id, count] : features[d]) {
        double w = TermWeight(count, options_.sublinear_tf) * idf[id];
        norm += w * w;
      }
      const double inv = norm > 0 ? 1.0 / std::sqrt(norm) : 0.0;
      for (const auto& [id, count] : features[d]) {
        docs[fill[id]] = static_cast<uint32_t>(d);
        weights[fill[id]++] = static_cast<float>(TermWeight(count, options_.sublinear_tf) * idf[id] * inv);
      }
      std::vector<std::pair<uint32_t, uint32_t>>().swap(features[d]);
    }
    return std::unique_ptr<TextIndex>(std::make_unique<SparseIndex>(options_, std::move(vocabulary), std::move(idf),
                                                                    std::move(offsets), std::move(docs),
                                                                    std::move(weights), texts.size()));
  }

 private:
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> Featurize(
      const std::vector<std::string>& texts, const EmbedProgress& progress,
      std::unordered_map<uint64_t, uint32_t>& vocabulary) const;

  SparseOptions options_;
};

std::vector<std::vector<std::pair<uint32_t, uint32_t>>> SparseEmbedder::Featurize(
    const std::vector<std::string>& texts, const EmbedProgress& progress,
    std::unordered_map<uint64_t, uint32_t>& vocabulary) const {
  // Texts are hashed into feature keys on several threads, in chunks; keys get ids on this thread, chunk by chunk.
  const size_t threads =
      options_.threads > 0 ? static_cast<size_t>(options_.threads) : std::max(1u, std::thread::hardware_concurrency());
  constexpr size_t kChunk = 16384;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out(texts.size());
  for (size_t start = 0; start < texts.size(); start += kChunk * threads) {
    std::vector<std::vector<std::pair<uint64_t, uint32_t>>> keys(std::min(kChunk * threads, texts.size() - start));
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (size_t t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        Stemmer stemmer;
        for (size_t i = t; i < keys.size(); i += threads) {
          keys[i] = FeatureKeys(texts[start + i], options_.max_ngram, stemmer);
        }
      });
    }
    for (auto& w : workers) w.join();
    for (size_t i = 0; i < keys.size(); ++i) {
      auto& f = out[start + i];
      f.reserve(keys[i].size());
      for (const auto& [key, count] : keys[i]) {
        auto it = vocabulary.try_emplace(key, static_cast<uint32_t>(vocabulary.size())).first;
        f.emplace_back(it->second, count);
      }
    }
    if (progress) progress(start + keys.size(), texts.size());
  }
  return out;
}

}  // namespace

std::vector<std::string> SparseFeatures(std::string_view text, int max_ngram) {
  Stemmer stemmer;
  std::vector<std::string> tokens = Tokens(text, stemmer);
  std::vector<std::string> out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string feature = tokens[i];
    out.push_back(feature);
    for (size_t n = 2; n <= static_cast<size_t>(max_ngram) && i + n <= tokens.size(); ++n) {
      feature += ' ' + tokens[i + n - 1];
      out.push_back(feature);
    }
  }
  return out;
}

std::shared_ptr<Embedder> MakeSparseEmbedder(SparseOptions options) {
  return std::make_shared<SparseEmbedder>(options);
}

}  // namespace plainsql::retrieval
