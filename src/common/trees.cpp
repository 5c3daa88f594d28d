#include "common/trees.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace plainsql {

double TreeEnsemble::Margin(const std::vector<double>& x) const {
  double margin = base_margin;
  for (const auto& tree : trees) {
    size_t at = 0;
    while (tree[at].feature >= 0) {
      const auto f = static_cast<size_t>(tree[at].feature);
      // XGBoost compares its inputs as floats: the same cast takes the same branch.
      const float v = f < x.size() ? static_cast<float>(x[f]) : 0.0F;
      at = static_cast<size_t>(v < tree[at].threshold ? tree[at].left : tree[at].right);
    }
    margin += tree[at].value;
  }
  return margin;
}

std::vector<double> TreeEnsemble::Margins(const std::vector<const std::vector<double>*>& rows) const {
  std::vector<double> out(rows.size(), base_margin);
  if (rows.empty()) return out;
  // The inputs as XGBoost compares them (floats), row-major, a row's missing inputs 0 as in Margin.
  size_t width = 0;
  for (const auto& tree : trees) {
    for (const auto& node : tree) width = std::max(width, static_cast<size_t>(std::max(node.feature + 1, 0)));
  }
  std::vector<float> x(rows.size() * width, 0.0F);
  for (size_t r = 0; r < rows.size(); ++r) {
    const size_t n = std::min(width, rows[r]->size());
    for (size_t f = 0; f < n; ++f) x[r * width + f] = static_cast<float>((*rows[r])[f]);
  }
  for (const auto& tree : trees) {
    for (size_t r = 0; r < rows.size(); ++r) {
      const float* row = x.data() + r * width;
      size_t at = 0;
      while (tree[at].feature >= 0) {
        at = static_cast<size_t>(row[tree[at].feature] < tree[at].threshold ? tree[at].left : tree[at].right);
      }
      out[r] += tree[at].value;
    }
  }
  return out;
}

std::string TreeEnsemble::Serialize(const std::string& prefix, const std::vector<std::string>& inputs) const {
  std::string out = fmt::format("{}_base\t{}\n", prefix, base_margin);
  for (size_t t = 0; t < trees.size(); ++t) {
    for (size_t n = 0; n < trees[t].size(); ++n) {
      const TreeNode& node = trees[t][n];
      if (node.feature < 0) {
        out += fmt::format("{}_leaf\t{}\t{}\t{}\n", prefix, t, n, node.value);
      } else {
        out += fmt::format("{}_node\t{}\t{}\t{}\t{}\t{}\t{}\n", prefix, t, n,
                           inputs.at(static_cast<size_t>(node.feature)), node.threshold, node.left, node.right);
      }
    }
  }
  return out;
}

namespace {

bool Number(const std::string& s, double& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && errno == 0 && std::isfinite(out);
}

// A node or tree index: a whole number, at most a million (no model here is near that; a bigger one is a bad file).
bool Index(const std::string& s, size_t& out) {
  double v = 0;
  if (!Number(s, v) || v < 0 || v > 1e6 || v != std::floor(v)) return false;
  out = static_cast<size_t>(v);
  return true;
}

}  // namespace

Status TreeEnsemble::ParseLine(const std::vector<std::string>& f, const std::vector<std::string>& inputs) {
  auto bad = [](const std::string& why) { return MakeError(ErrorCode::kFormat, "trees: " + why); };
  if (f.empty()) return bad("empty line");
  double v = 0;
  if (f[0] == "base") {
    if (f.size() != 2 || !Number(f[1], v)) return bad("expected base<TAB>MARGIN");
    base_margin = v;
    return Status::Ok();
  }
  size_t tree = 0, node = 0;
  const bool leaf = f[0] == "leaf";
  if ((leaf && f.size() != 4) || (!leaf && (f[0] != "node" || f.size() != 7)) || !Index(f[1], tree) ||
      !Index(f[2], node)) {
    return bad(
        "expected leaf<TAB>TREE<TAB>NODE<TAB>VALUE or node<TAB>TREE<TAB>NODE<TAB>INPUT<TAB>THRESHOLD<TAB>LEFT<TAB>"
        "RIGHT");
  }
  if (tree >= trees.size()) trees.resize(tree + 1);
  if (node >= trees[tree].size()) trees[tree].resize(node + 1, TreeNode{-2, 0, -1, -1, 0});  // -2: not given yet
  TreeNode& n = trees[tree][node];
  if (n.feature != -2) return bad(fmt::format("tree {} node {} given twice", tree, node));
  if (leaf) {
    if (!Number(f[3], v)) return bad("a leaf's value is not a number");
    n = TreeNode{-1, 0, -1, -1, static_cast<float>(v)};
    return Status::Ok();
  }
  auto it = std::find(inputs.begin(), inputs.end(), f[3]);
  if (it == inputs.end()) return bad("unknown input " + f[3]);
  size_t left = 0, right = 0;
  if (!Number(f[4], v) || !Index(f[5], left) || !Index(f[6], right)) return bad("a split's numbers do not read");
  n = TreeNode{static_cast<int32_t>(it - inputs.begin()), static_cast<float>(v), static_cast<int32_t>(left),
               static_cast<int32_t>(right), 0};
  return Status::Ok();
}

Status TreeEnsemble::Check() const {
  for (size_t t = 0; t < trees.size(); ++t) {
    if (trees[t].empty()) return MakeError(ErrorCode::kFormat, fmt::format("trees: tree {} has no node", t));
    for (size_t n = 0; n < trees[t].size(); ++n) {
      const TreeNode& node = trees[t][n];
      if (node.feature == -2) return MakeError(ErrorCode::kFormat, fmt::format("trees: tree {} lacks node {}", t, n));
      if (node.feature < 0) continue;
      for (int32_t child : {node.left, node.right}) {
        // Children after their parent: a walk always ends.
        if (child <= static_cast<int32_t>(n) || static_cast<size_t>(child) >= trees[t].size()) {
          return MakeError(ErrorCode::kFormat, fmt::format("trees: tree {} node {} has a bad child {}", t, n, child));
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace plainsql
