// Text embedders for example selection (issue #17): texts become vectors whose dot product is their cosine similarity,
// and a collection of texts becomes a TextIndex to search by similarity. Two embedders:
//   - the built-in sparse one (MakeSparseEmbedder): offline, no model. A text's features are its stemmed tokens and
//     word n-grams; their weights are TF-IDF learned from the texts it indexes, so what every text shares ("what",
//     "<mask>", "SELECT") weighs little. Its index is an exact inverted index: a search touches only the texts that
//     share a feature with the query.
//   - an OpenAI-compatible /v1/embeddings endpoint (MakeOpenAiEmbedder): dense vectors from a model, searched exactly
//     while the collection is small and through an HNSW graph (hnswlib) beyond that.
// The embedder is chosen once and fitted per collection: masked questions and masked queries are two indexes, each
// with its own vocabulary and weights.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "llm/client.h"

namespace plainsql::retrieval {

/// A text as a vector of unit length: dense (`dense`) or sparse (`ids` ascending with their `weights`).
struct Embedding {
  std::vector<float> dense;
  std::vector<uint32_t> ids;
  std::vector<float> weights;
};

/// An indexed text (its position in the collection indexed) and its cosine similarity to a query.
struct Hit {
  uint32_t id = 0;
  float similarity = 0;
};

/// The `limit` most similar of `hits` (all of them when `limit` is 0, unsorted then), best first, ties by id: the
/// last step of every index's Search.
std::vector<Hit> BestHits(std::vector<Hit> hits, size_t limit);

/// Called now and then while a collection is embedded: texts done, texts in all.
using EmbedProgress = std::function<void(size_t done, size_t total)>;

/// A collection of texts, embedded and indexed. Searching is thread-safe.
class TextIndex {
 public:
  virtual ~TextIndex() = default;
  /// Texts indexed.
  virtual size_t Size() const = 0;
  /// Whether Search with limit 0 returns every text with a positive similarity (an exact index); an approximate index
  /// answers only searches with a limit.
  virtual bool Exact() const = 0;
  /// A text (a query) embedded as the indexed texts were. Errors: a dense embedder's endpoint failing.
  virtual Result<Embedding> Embed(std::string_view text) const = 0;
  /// The indexed texts most similar to `query`: with `limit` > 0, the best `limit` (or fewer), best first; with limit
  /// 0 (exact indexes), every text with a positive similarity, in no particular order.
  virtual std::vector<Hit> Search(const Embedding& query, size_t limit) const = 0;
  /// The cosine similarity of `query` and indexed text `id`.
  virtual float Similarity(const Embedding& query, uint32_t id) const = 0;
  /// Bytes the index holds (vectors, postings, vocabulary), for benchmark reports.
  virtual size_t MemoryBytes() const = 0;
};

class Embedder {
 public:
  virtual ~Embedder() = default;
  /// "sparse", or "openai:<model>".
  virtual std::string Name() const = 0;
  /// Embeds and indexes `texts` (ids are their positions). The sparse embedder learns its vocabulary and weights from
  /// them; a dense embedder sends them to its endpoint in batches.
  virtual Result<std::unique_ptr<TextIndex>> Index(const std::vector<std::string>& texts,
                                                   const EmbedProgress& progress = {}) const = 0;
};

/// The features of a text, as the sparse embedder reads it: lower-case tokens (runs of letters and digits, Snowball
/// stemmed; the placeholders `<mask>` and `<value>` as they are; every other visible character run, such as `>=` or
/// `(`, as a token), then every run of 2..max_ngram consecutive tokens joined by spaces.
std::vector<std::string> SparseFeatures(std::string_view text, int max_ngram);

struct SparseOptions {
  /// Longest word n-gram used as a feature (1: single tokens only). Chosen on a split of Spider train (see
  /// bench/examples_quality.cpp).
  int max_ngram = 2;
  /// Term frequency as 1 + log(tf) instead of the count, so a repeated `<mask>` does not dominate a short text.
  bool sublinear_tf = true;
  /// Threads that featurize a collection (0: the hardware's).
  int threads = 0;
};

/// The built-in offline embedder (see the top of this file).
std::shared_ptr<Embedder> MakeSparseEmbedder(SparseOptions options = {});

struct DenseOptions {
  size_t batch = 64;  // texts per /embeddings request
  /// Collections up to this size are searched exactly (every vector compared); larger ones through an HNSW graph.
  size_t exact_below = 20'000;
  size_t hnsw_m = 16;                 // graph degree (hnswlib's M)
  size_t hnsw_ef_construction = 200;  // candidate list while building
  size_t hnsw_ef_search = 128;        // candidate list while searching (at least the limit)
};

/// Embeddings from an OpenAI-compatible endpoint (`config.base_url` + /embeddings, `config.model`), through
/// llm::Client (retries, timeouts, the API key only in the Authorization header). Errors: the configuration's.
Result<std::shared_ptr<Embedder>> MakeOpenAiEmbedder(llm::Config config, DenseOptions options = {});

/// Scales a dense vector to unit length (so dot products are cosine similarities); false for a zero vector, which has
/// no direction to compare.
bool NormalizeDense(std::vector<float>& v);

}  // namespace plainsql::retrieval
