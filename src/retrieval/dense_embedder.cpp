// The OpenAI-compatible /v1/embeddings embedder and its index: exact below DenseOptions::exact_below texts, an HNSW
// graph (hnswlib, inner product on unit vectors = cosine similarity) above (see embedder.h).
#include <fmt/format.h>
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include "retrieval/embedder.h"

namespace plainsql::retrieval {

bool NormalizeDense(std::vector<float>& v) {
  double norm = 0;
  for (float x : v) norm += static_cast<double>(x) * x;
  if (norm <= 0) return false;
  const auto inv = static_cast<float>(1.0 / std::sqrt(norm));
  for (float& x : v) x *= inv;
  return true;
}

namespace {

float Dot(const float* a, const float* b, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

class DenseIndex final : public TextIndex {
 public:
  DenseIndex(std::shared_ptr<const llm::Client> client, DenseOptions options, size_t dim, std::vector<float> vectors)
      : client_(std::move(client)), options_(options), dim_(dim), vectors_(std::move(vectors)) {}

  // Builds the HNSW graph over the vectors (then dropped: the graph keeps its own copy). hnswlib reports failures by
  // exceptions, which stop here.
  Status BuildGraph() {
    try {
      space_ = std::make_unique<hnswlib::InnerProductSpace>(dim_);
      const size_t n = vectors_.size() / dim_;
      graph_ = std::make_unique<hnswlib::HierarchicalNSW<float>>(space_.get(), n, options_.hnsw_m,
                                                                 options_.hnsw_ef_construction);
      graph_->setEf(options_.hnsw_ef_search);
      for (size_t i = 0; i < n; ++i) graph_->addPoint(vectors_.data() + i * dim_, i);
      size_ = n;
      std::vector<float>().swap(vectors_);
      return {};
    } catch (const std::exception& e) {
      return MakeError(ErrorCode::kResourceLimit, fmt::format("cannot build the vector index: {}", e.what()));
    }
  }

  size_t Size() const override { return graph_ ? size_ : vectors_.size() / dim_; }
  bool Exact() const override { return !graph_; }

  Result<Embedding> Embed(std::string_view text) const override {
    auto reply = client_->Embed({std::string(text)});
    if (!reply) return reply.error();
    Embedding e;
    e.dense = std::move(reply->vectors.at(0));
    if (e.dense.size() != dim_) {
      return MakeError(ErrorCode::kFormat, fmt::format("the embedding endpoint sent {} dimensions for a query, {} for "
                                                       "the indexed texts",
                                                       e.dense.size(), dim_));
    }
    if (!NormalizeDense(e.dense)) e.dense.assign(dim_, 0.0f);
    return e;
  }

  std::vector<Hit> Search(const Embedding& query, size_t limit) const override {
    std::vector<Hit> hits;
    if (query.dense.size() != dim_) return hits;
    if (graph_) {
      if (limit == 0) return hits;  // an approximate index answers only searches with a limit
      auto found = graph_->searchKnn(query.dense.data(), std::min(limit, size_));
      hits.resize(found.size());
      // The queue pops the farthest first; hnswlib's distance for inner product is 1 - dot.
      for (size_t i = found.size(); i-- > 0; found.pop()) {
        hits[i] = {static_cast<uint32_t>(found.top().second), 1.0f - found.top().first};
      }
      return hits;
    }
    const size_t n = Size();
    for (size_t i = 0; i < n; ++i) {
      float s = Dot(query.dense.data(), vectors_.data() + i * dim_, dim_);
      if (s > 0) hits.push_back({static_cast<uint32_t>(i), s});
    }
    return BestHits(std::move(hits), limit);
  }

  float Similarity(const Embedding& query, uint32_t id) const override {
    if (query.dense.size() != dim_ || id >= Size()) return 0;
    if (graph_) {
      std::vector<float> v = graph_->getDataByLabel<float>(id);
      return Dot(query.dense.data(), v.data(), dim_);
    }
    return Dot(query.dense.data(), vectors_.data() + static_cast<size_t>(id) * dim_, dim_);
  }

  size_t MemoryBytes() const override {
    size_t graph = graph_ ? size_ * (dim_ * sizeof(float) + options_.hnsw_m * 2 * sizeof(uint32_t) + 64) : 0;
    return vectors_.capacity() * sizeof(float) + graph;
  }

 private:
  std::shared_ptr<const llm::Client> client_;
  DenseOptions options_;
  size_t dim_ = 0;
  std::vector<float> vectors_;  // row after row, unit length; empty once the graph holds them
  std::unique_ptr<hnswlib::InnerProductSpace> space_;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> graph_;
  size_t size_ = 0;  // texts in the graph
};

class OpenAiEmbedder final : public Embedder {
 public:
  OpenAiEmbedder(std::shared_ptr<const llm::Client> client, DenseOptions options)
      : client_(std::move(client)), options_(options) {}
  std::string Name() const override { return "openai:" + client_->GetConfig().model; }

  Result<std::unique_ptr<TextIndex>> Index(const std::vector<std::string>& texts,
                                           const EmbedProgress& progress) const override {
    std::vector<float> vectors;
    size_t dim = 0;
    const size_t batch = std::max<size_t>(1, options_.batch);
    for (size_t start = 0; start < texts.size(); start += batch) {
      std::vector<std::string> part(texts.begin() + static_cast<std::ptrdiff_t>(start),
                                    texts.begin() + static_cast<std::ptrdiff_t>(std::min(texts.size(), start + batch)));
      auto reply = client_->Embed(part);
      if (!reply) return reply.error();
      for (auto& v : reply->vectors) {
        if (dim == 0) dim = v.size();
        if (v.empty() || v.size() != dim) {
          return MakeError(ErrorCode::kFormat,
                           fmt::format("the embedding endpoint sent vectors of {} and {} dimensions", dim, v.size()));
        }
        if (!NormalizeDense(v)) v.assign(dim, 0.0f);
        vectors.insert(vectors.end(), v.begin(), v.end());
      }
      if (progress) progress(start + part.size(), texts.size());
    }
    if (dim == 0) dim = 1;  // an empty collection
    auto index = std::make_unique<DenseIndex>(client_, options_, dim, std::move(vectors));
    if (texts.size() >= options_.exact_below) {
      Status built = index->BuildGraph();
      if (!built.ok()) return built.error();
    }
    return std::unique_ptr<TextIndex>(std::move(index));
  }

 private:
  std::shared_ptr<const llm::Client> client_;
  DenseOptions options_;
};

}  // namespace

Result<std::shared_ptr<Embedder>> MakeOpenAiEmbedder(llm::Config config, DenseOptions options) {
  auto client = llm::Client::Create(std::move(config));
  if (!client) return client.error();
  return std::shared_ptr<Embedder>(
      std::make_shared<OpenAiEmbedder>(std::make_shared<const llm::Client>(std::move(*client)), options));
}

}  // namespace plainsql::retrieval
