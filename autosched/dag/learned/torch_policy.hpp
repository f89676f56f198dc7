#pragma once
// The learned policy's network as a libtorch module, for training: the same
// parameters, in the same order and under the same names as
// policy::parameter_layout(), computing the same function as
// policy::PolicyEvaluator (the network is written out at the top of
// autosched/dag/policy/policy_weights.hpp). Decisions do not use this
// module: training hands its weights to the plain C++ evaluator
// (to_weights()), and model files carry them (model_file.hpp).
//
// Training evaluates many observations at once as one disjoint graph
// (PolicyBatch): node features stacked, edges renumbered, means over
// successors / predecessors by index_add, per-observation pools by
// index_add (mean) and scatter_reduce (max).
//
// Example:
//   TorchPolicy net(policy::PolicyShape{});
//   PolicyBatch batch = make_batch(observations);
//   PolicyBatchOutput out = net->forward(batch);
//   auto taken = out.log_probs.gather(1, batch.action_columns(actions).unsqueeze(1));
//
// torch::save(TorchPolicy) cannot be read back (its submodules `pass` and
// `self` are Python keywords in TorchScript's archive): save weights with
// model_file.hpp's save_model(to_weights(), ...).
//
// This header includes <torch/torch.h> (about 20 s per translation unit):
// include it only where the network is trained.
#include <autosched/dag/policy/policy_weights.hpp>

#include <torch/torch.h>

#include <cstdint>
#include <span>
#include <vector>

namespace autosched::dag::learned {

/// Many observations as one disjoint graph. Build with make_batch().
struct PolicyBatch {
  torch::Tensor features;                ///< [N, F] float32, the observations' rows one after another
  torch::Tensor edge_from, edge_to;      ///< [E] int64, global node indices
  torch::Tensor succ_scale, pred_scale;  ///< [N] float32: 1 / out-degree and 1 / in-degree in the window (0 when none)
  torch::Tensor node_obs;                ///< [N] int64: the observation of each node
  torch::Tensor nodes_per_obs;           ///< [B] float32
  torch::Tensor candidate_node;          ///< [C] int64: global node index of each candidate
  torch::Tensor candidate_obs;           ///< [C] int64: its observation
  torch::Tensor candidate_column;        ///< [C] int64: its column in the logits matrix (its index among the observation's candidates)
  torch::Tensor pass_column;             ///< scalar int64 = max candidates over the batch (pass is the last column of every row)
  torch::Tensor valid;                   ///< [B, width] bool: true where a column is an action (a candidate or pass)
  std::int64_t observations = 0;         ///< B
  std::int64_t width = 0;                ///< max candidates + 1
  std::vector<std::int64_t> candidates;  ///< per observation: its candidate count

  /// The logits column of each action, one action per observation (a
  /// candidate index, or that observation's candidates.size() for pass).
  /// Throws naming the first action out of range.
  torch::Tensor action_columns(std::span<const std::int32_t> actions) const;  ///< [B] int64
};

/// Stacks `observations` (none empty of candidates, features of
/// policy::feature_count columns) into one batch on the CPU. Throws naming
/// the first malformed observation.
PolicyBatch make_batch(std::span<const policy::Observation* const> observations);

struct PolicyBatchOutput {
  torch::Tensor log_probs;  ///< [B, width]: log_softmax of each row's logits; -inf where no action (padding)
  torch::Tensor value;      ///< [B]: the critic
};

/// One message-passing layer: h + relu(self(h) + successors(mean_succ h) + predecessors(mean_pred h)).
class GraphLayerImpl : public torch::nn::Module {
 public:
  explicit GraphLayerImpl(int hidden);
  torch::nn::Linear self{nullptr}, successors{nullptr}, predecessors{nullptr};
};
TORCH_MODULE(GraphLayer);

/// A two-layer head: out(relu(hidden(x))).
class HeadImpl : public torch::nn::Module {
 public:
  HeadImpl(int in, int hidden);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Head);

/// The policy network (actor, pass head and critic). Its named_parameters()
/// are policy::parameter_layout(shape), in order; parameters are initialised
/// as torch::nn::Linear does.
class TorchPolicyImpl : public torch::nn::Module {
 public:
  explicit TorchPolicyImpl(const policy::PolicyShape& shape);

  /// Log-probabilities of every action of every observation, and the values.
  PolicyBatchOutput forward(const PolicyBatch& batch);

  /// A float copy of the parameters, aligned with parameter_layout(shape()).
  policy::PolicyWeights to_weights() const;
  /// Copies `weights` into the parameters. Throws when the shape differs or
  /// a parameter has the wrong size (naming it).
  void load_weights(const policy::PolicyWeights& weights);
  policy::PolicyShape shape() const { return shape_; }

 private:
  policy::PolicyShape shape_;
  torch::nn::Linear input_{nullptr};
  std::vector<GraphLayer> layers_;
  Head actor_{nullptr}, pass_{nullptr}, critic_{nullptr};
};
TORCH_MODULE(TorchPolicy);

}  // namespace autosched::dag::learned
