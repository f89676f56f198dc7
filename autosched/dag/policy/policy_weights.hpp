#pragma once
// The learned policy's network, as plain arrays: the shape, the weights in
// one fixed order, and a forward pass in plain C++ (no libtorch on the
// decision path: a decision costs tens of microseconds, docs/dag-policy.md).
// The libtorch module that trains it (learned/torch_policy.hpp) has the same
// parameters in the same order and computes the same function.
//
// Network (H = hidden, L = layers, F = feature_count):
//   h0 = relu(W_in x + b_in)                                  per node
//   h_{l+1} = h_l + relu(W_self h + W_succ mean_succ(h) + W_pred mean_pred(h) + b)
//            (mean over the node's successors / predecessors in the window; 0 when none)
//   actor:  score_i = a2 . relu(A1 h_i + a1) + a2b             per candidate i
//   pass:   a2p . relu(P1 [max_cand h ; mean_all h] + p1) + pb
//   critic: c2 . relu(C1 [mean_all h ; max_all h] + c1) + cb
// Logits are [candidate scores in ascending id..., pass].
#include <autosched/dag/policy/observation.hpp>

#include <string>
#include <vector>

namespace autosched::dag::policy {

struct PolicyShape {
  int features = feature_count;
  int hidden = 32;
  int layers = 2;
  int window = 1;  ///< hops of successors in the observation
  bool operator==(const PolicyShape&) const = default;
};

/// One parameter: a name (the libtorch module's), rows × cols (cols = 1 for
/// a bias).
struct ParameterSpec {
  std::string name;
  int rows = 0, cols = 1;
  std::size_t size() const noexcept { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }
};
/// Every parameter of a shape, in the order the weights hold them.
std::vector<ParameterSpec> parameter_layout(const PolicyShape& shape);

struct PolicyWeights {
  PolicyShape shape;
  std::vector<std::vector<float>> values;  ///< aligned with parameter_layout(shape); Linear weights row-major [out][in]
  /// Zero weights of the right sizes.
  static PolicyWeights zeros(const PolicyShape& shape);
  /// Small deterministic random weights (tests, a fresh model).
  static PolicyWeights random(const PolicyShape& shape, std::uint64_t seed);
  /// Throws naming the first parameter whose size does not match the shape.
  void check() const;
};

struct PolicyOutput {
  std::vector<float> logits;  ///< candidates (ascending id), then pass
  float value = 0;            ///< the critic
};

/// The forward pass with its scratch buffers (one per thread).
class PolicyEvaluator {
 public:
  explicit PolicyEvaluator(const PolicyWeights& weights);
  /// Logits and value for `obs`. `obs.candidates` must not be empty.
  const PolicyOutput& evaluate(const Observation& obs);

 private:
  const PolicyWeights& w_;
  std::vector<std::vector<float>> transposed_;  ///< the weights as the forward pass reads them
  PolicyOutput out_;
  std::vector<float> h_, next_, succ_mean_, pred_mean_, pooled_, hidden_;
  std::vector<std::int32_t> succ_count_, pred_count_;
};

}  // namespace autosched::dag::policy
