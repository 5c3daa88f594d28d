// The `skalpel` subsetting method (issue #18): SKALPEL's hybrid of an LLM and embeddings (Luoma and Kumar, 2026;
// ../shared/seeds/schema-subsetting-skalpel.txt, section 3.4 and appendix D).
//
// Preprocessing, once per schema: the LLM writes a short conceptual description of every table (from its name, its
// columns and, when the schema has them, example values); the descriptions are cached on disk, keyed by the schema's
// structural fingerprint, the model and the prompt version, so a second run asks the model nothing; then they are
// embedded. Per question: the LLM decomposes the question into phrases, one per object or concept it mentions; the
// phrases (and the question itself) are embedded, and every table whose description lies within a cosine distance
// threshold of any of them is kept, with all its columns (the paper's configuration; column retrieval is optional).
//
// Embeddings come from any OpenAI-compatible /embeddings endpoint; without an embedding model, or when the endpoint
// refuses the model, the project's offline sparse embedder (retrieval/embedder.h) stands in, and the subset's notes
// say so.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "catalog/schema.h"
#include "common/status.h"
#include "linking/subset.h"
#include "llm/client.h"

namespace plainsql::linking {

/// Bumped whenever the description prompt changes, so that cached descriptions of an older prompt are not used.
inline constexpr int kSkalpelPromptVersion = 1;

/// Fills `table.columns[*].samples` with a few example values (for the description prompt); may do nothing.
using SampleSource = std::function<void(catalog::Table& table)>;

struct SkalpelOptions {
  llm::Config chat;  // the model that describes tables and decomposes questions (base_url and model required)
  /// The /embeddings endpoint and model; an empty model means the offline sparse embedder.
  llm::Config embedding;
  /// The paper's τ_l: a table is kept when the cosine distance (1 - cosine similarity) between its description and
  /// the question or one of its phrases is at most this. 0.600 is the paper's choice (appendix D.3), for a dense model.
  double max_distance = 0.6;
  /// The same for the offline sparse embedder, whose TF-IDF cosines are smaller than a dense model's: short texts that
  /// share a content word score about 0.2 to 0.5, texts that share only function words about 0.1 to 0.25. A guess,
  /// not calibrated: no model was at hand to compare with.
  double sparse_max_distance = 0.75;
  /// Also match the whole question, not only its phrases (the paper matches the phrases; the question adds recall).
  bool match_question = true;
  /// The paper's optional column retrieval (τ_c, off in its experiments): when set, a kept table keeps only the columns
  /// whose name is within this distance of a phrase, whose name the naturalness classifier finds Low or Least natural,
  /// or that are keys. Unset: every column of a kept table, as in the paper's experiments.
  std::optional<double> column_max_distance;
  std::string cache_dir;  // "" = catalog::DefaultCacheDir(); descriptions go to <dir>/skalpel/
  bool cache = true;
  SampleSource samples;  // example values for the description prompt (may be empty)
  int threads = 4;       // description requests in flight while a schema is preprocessed
};

/// The cache file of the descriptions of `schema` for `options` (whether or not it exists).
std::string SkalpelCacheFile(const catalog::Schema& schema, const SkalpelOptions& options);

/// The skalpel subsetter for `schema` (which must outlive it): describes the tables that the cache does not hold and
/// embeds the descriptions. Errors: the LLM's (unreachable, timeout, refused), a description reply that is neither
/// {"description": "..."} nor plain prose, the embedding endpoint failing for another reason than refusing the model.
/// SubsetOptions::threshold, when given, is the least cosine similarity a table needs (1 - max_distance);
/// SubsetOptions::budget caps the columns (whole tables, closest first).
Result<std::unique_ptr<Subsetter>> MakeSkalpelSubsetter(const catalog::Schema& schema, SkalpelOptions options);

/// The phrases of a decomposition reply: a JSON list of strings, bare or in a ```json fence (non-strings are
/// skipped). Errors (kFormat) when the reply holds no such list.
Result<std::vector<std::string>> ParseDecomposition(const std::string& reply);

/// The description in a reply: {"description": "..."}, bare or in a ```json fence; a reply of plain prose (no braces)
/// is taken as the description itself. Errors (kFormat) for an empty reply or JSON without a description string.
Result<std::string> ParseDescription(const std::string& reply);

}  // namespace plainsql::linking
