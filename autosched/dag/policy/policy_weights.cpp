#include <autosched/dag/policy/policy_weights.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>
#include <cmath>
#include <random>

namespace autosched::dag::policy {

std::vector<ParameterSpec> parameter_layout(const PolicyShape& s) {
  const int f = s.features, h = s.hidden;
  std::vector<ParameterSpec> p;
  p.push_back({"input.weight", h, f});
  p.push_back({"input.bias", h, 1});
  for (int l = 0; l < s.layers; ++l) {
    const std::string at = "layer" + std::to_string(l) + ".";
    p.push_back({at + "self.weight", h, h});
    p.push_back({at + "self.bias", h, 1});
    p.push_back({at + "successors.weight", h, h});
    p.push_back({at + "predecessors.weight", h, h});
  }
  p.push_back({"actor.hidden.weight", h, h});
  p.push_back({"actor.hidden.bias", h, 1});
  p.push_back({"actor.out.weight", 1, h});
  p.push_back({"actor.out.bias", 1, 1});
  p.push_back({"pass.hidden.weight", h, 2 * h});
  p.push_back({"pass.hidden.bias", h, 1});
  p.push_back({"pass.out.weight", 1, h});
  p.push_back({"pass.out.bias", 1, 1});
  p.push_back({"critic.hidden.weight", h, 2 * h});
  p.push_back({"critic.hidden.bias", h, 1});
  p.push_back({"critic.out.weight", 1, h});
  p.push_back({"critic.out.bias", 1, 1});
  return p;
}

PolicyWeights PolicyWeights::zeros(const PolicyShape& shape) {
  PolicyWeights w;
  w.shape = shape;
  for (const auto& spec : parameter_layout(shape)) w.values.emplace_back(spec.size(), 0.0f);
  return w;
}

PolicyWeights PolicyWeights::random(const PolicyShape& shape, std::uint64_t seed) {
  PolicyWeights w = zeros(shape);
  std::mt19937_64 rng(seed);
  const auto layout = parameter_layout(shape);
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout[i].cols == 1) continue;  // biases start at zero
    // Uniform in ±1/sqrt(fan_in), as torch::nn::Linear initialises.
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const float bound = 1.0f / std::sqrt(static_cast<float>(layout[i].cols));
    for (float& v : w.values[i]) v = bound * u(rng);
  }
  return w;
}

void PolicyWeights::check() const {
  if (shape.features != feature_count)
    autosched::detail::throw_error("policy weights: " + std::to_string(shape.features) + " features, this build has " +
                                   std::to_string(feature_count));
  if (shape.hidden < 1 || shape.layers < 0 || shape.window < 0)
    autosched::detail::throw_error("policy weights: bad shape (hidden " + std::to_string(shape.hidden) + ", layers " +
                                   std::to_string(shape.layers) + ", window " + std::to_string(shape.window) + ")");
  const auto layout = parameter_layout(shape);
  if (values.size() != layout.size())
    autosched::detail::throw_error("policy weights: " + std::to_string(values.size()) + " parameters, expected " +
                                   std::to_string(layout.size()));
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (values[i].size() != layout[i].size())
      autosched::detail::throw_error("policy weights: parameter '" + layout[i].name + "' has " +
                                     std::to_string(values[i].size()) + " values, expected " +
                                     std::to_string(layout[i].size()));
    for (float v : values[i]) {
      if (!std::isfinite(v))
        autosched::detail::throw_error("policy weights: parameter '" + layout[i].name + "' holds a non-finite value");
    }
  }
}

namespace {

// y = W x (+ b), with W given transposed (cols × rows, row-major): the
// loop runs over inputs and adds a scaled weight row to y, which the
// compiler vectorises without reordering any sum (a dot product would not
// vectorise without -ffast-math). Zero inputs (after ReLU, most) are skipped.
inline void affine(const float* wt, const float* b, const float* x, int rows, int cols, float* y) {
  if (b) {
    std::copy(b, b + rows, y);
  } else {
    std::fill(y, y + rows, 0.0f);
  }
  for (int c = 0; c < cols; ++c) {
    const float xc = x[c];
    if (xc == 0.0f) continue;
    const float* wr = wt + static_cast<std::size_t>(c) * static_cast<std::size_t>(rows);
    for (int r = 0; r < rows; ++r) y[r] += wr[r] * xc;
  }
}
inline void accumulate(const float* wt, const float* x, int rows, int cols, float* y) {
  for (int c = 0; c < cols; ++c) {
    const float xc = x[c];
    if (xc == 0.0f) continue;
    const float* wr = wt + static_cast<std::size_t>(c) * static_cast<std::size_t>(rows);
    for (int r = 0; r < rows; ++r) y[r] += wr[r] * xc;
  }
}
inline void relu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] = std::max(x[i], 0.0f);
}

}  // namespace

PolicyEvaluator::PolicyEvaluator(const PolicyWeights& weights) : w_(weights) {
  w_.check();
  // Every matrix transposed once (see affine()); biases as they are.
  const auto layout = parameter_layout(w_.shape);
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const auto& spec = layout[i];
    if (spec.cols == 1) {
      transposed_.push_back(w_.values[i]);
      continue;
    }
    std::vector<float> t(spec.size());
    for (int r = 0; r < spec.rows; ++r)
      for (int c = 0; c < spec.cols; ++c)
        t[static_cast<std::size_t>(c) * static_cast<std::size_t>(spec.rows) + static_cast<std::size_t>(r)] =
            w_.values[i][static_cast<std::size_t>(r) * static_cast<std::size_t>(spec.cols) + static_cast<std::size_t>(c)];
    transposed_.push_back(std::move(t));
  }
}

const PolicyOutput& PolicyEvaluator::evaluate(const Observation& obs) {
  const int f = w_.shape.features, h = w_.shape.hidden;
  const std::size_t n = obs.nodes;
  const auto hs = static_cast<std::size_t>(h);
  if (obs.candidates.empty()) autosched::detail::throw_error("policy: an observation without candidates");
  h_.assign(n * hs, 0.0f);
  next_.resize(n * hs);
  succ_mean_.resize(n * hs);
  pred_mean_.resize(n * hs);
  hidden_.resize(hs);
  pooled_.resize(2 * hs);
  std::size_t k = 0;
  const float* w_in = transposed_[k++].data();
  const float* b_in = transposed_[k++].data();
  for (std::size_t i = 0; i < n; ++i) {
    affine(w_in, b_in, obs.row(i), h, f, &h_[i * hs]);
    relu(&h_[i * hs], h);
  }
  // In- and out-degrees in the window, for the means.
  succ_count_.assign(n, 0);
  pred_count_.assign(n, 0);
  for (std::size_t e = 0; e < obs.edge_from.size(); ++e) {
    ++succ_count_[static_cast<std::size_t>(obs.edge_from[e])];
    ++pred_count_[static_cast<std::size_t>(obs.edge_to[e])];
  }
  for (int l = 0; l < w_.shape.layers; ++l) {
    const float* w_self = transposed_[k++].data();
    const float* b_self = transposed_[k++].data();
    const float* w_succ = transposed_[k++].data();
    const float* w_pred = transposed_[k++].data();
    std::fill(succ_mean_.begin(), succ_mean_.end(), 0.0f);
    std::fill(pred_mean_.begin(), pred_mean_.end(), 0.0f);
    for (std::size_t e = 0; e < obs.edge_from.size(); ++e) {
      const auto a = static_cast<std::size_t>(obs.edge_from[e]), b = static_cast<std::size_t>(obs.edge_to[e]);
      const float to_a = 1.0f / static_cast<float>(succ_count_[a]);
      const float to_b = 1.0f / static_cast<float>(pred_count_[b]);
      for (std::size_t c = 0; c < hs; ++c) {
        succ_mean_[a * hs + c] += to_a * h_[b * hs + c];
        pred_mean_[b * hs + c] += to_b * h_[a * hs + c];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      float* y = &next_[i * hs];
      affine(w_self, b_self, &h_[i * hs], h, h, y);
      if (succ_count_[i]) accumulate(w_succ, &succ_mean_[i * hs], h, h, y);
      if (pred_count_[i]) accumulate(w_pred, &pred_mean_[i * hs], h, h, y);
      relu(y, h);
      for (std::size_t c = 0; c < hs; ++c) y[c] += h_[i * hs + c];
    }
    h_.swap(next_);
  }
  const float* a1 = transposed_[k++].data();
  const float* a1b = transposed_[k++].data();
  const float* a2 = transposed_[k++].data();
  const float* a2b = transposed_[k++].data();
  out_.logits.resize(obs.candidates.size() + 1);
  for (std::size_t j = 0; j < obs.candidates.size(); ++j) {
    affine(a1, a1b, &h_[static_cast<std::size_t>(obs.candidates[j]) * hs], h, h, hidden_.data());
    relu(hidden_.data(), h);
    affine(a2, a2b, hidden_.data(), 1, h, &out_.logits[j]);
  }
  // Pools: max over the candidates and mean over every node (pass head),
  // mean and max over every node (critic).
  float* first = pooled_.data();
  float* second = pooled_.data() + hs;
  std::fill(first, first + hs, -std::numeric_limits<float>::infinity());
  std::fill(second, second + hs, 0.0f);
  for (std::int32_t c : obs.candidates) {
    const float* x = &h_[static_cast<std::size_t>(c) * hs];
    for (std::size_t i = 0; i < hs; ++i) first[i] = std::max(first[i], x[i]);
  }
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < hs; ++i) second[i] += h_[v * hs + i];
  }
  for (std::size_t i = 0; i < hs; ++i) second[i] /= static_cast<float>(n);
  const float* p1 = transposed_[k++].data();
  const float* p1b = transposed_[k++].data();
  const float* p2 = transposed_[k++].data();
  const float* p2b = transposed_[k++].data();
  affine(p1, p1b, pooled_.data(), h, 2 * h, hidden_.data());
  relu(hidden_.data(), h);
  affine(p2, p2b, hidden_.data(), 1, h, &out_.logits.back());
  // Critic: [mean ; max] over every node.
  std::copy(second, second + hs, first);
  std::fill(second, second + hs, -std::numeric_limits<float>::infinity());
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < hs; ++i) second[i] = std::max(second[i], h_[v * hs + i]);
  }
  const float* c1 = transposed_[k++].data();
  const float* c1b = transposed_[k++].data();
  const float* c2 = transposed_[k++].data();
  const float* c2b = transposed_[k++].data();
  affine(c1, c1b, pooled_.data(), h, 2 * h, hidden_.data());
  relu(hidden_.data(), h);
  affine(c2, c2b, hidden_.data(), 1, h, &out_.value);
  return out_;
}

}  // namespace autosched::dag::policy
