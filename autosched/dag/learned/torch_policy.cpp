#include <autosched/dag/learned/torch_policy.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>

namespace autosched::dag::learned {

namespace {

// libtorch 1.13 warns once per process that scatter_reduce() is "in beta"
// (it is what pools over each observation); every training and benchmark
// would print it. This handler drops that one message and passes every
// other warning on.
class QuietScatterReduce final : public c10::WarningHandler {
 public:
  explicit QuietScatterReduce(c10::WarningHandler* next) : next_(next) {}
  void process(const c10::SourceLocation& where, const std::string& message, const bool verbatim) override {
    if (message.find("scatter_reduce() is in beta") != std::string::npos) return;
    if (next_) next_->process(where, message, verbatim);
  }

 private:
  c10::WarningHandler* next_;
};

void quiet_scatter_reduce_warning() {
  static std::once_flag once;
  std::call_once(once, [] {
    static QuietScatterReduce handler(c10::Warning::get_warning_handler());
    c10::Warning::set_warning_handler(&handler);
  });
}

std::string shape_text(const policy::PolicyShape& s) {
  return "features " + std::to_string(s.features) + ", hidden " + std::to_string(s.hidden) + ", layers " +
         std::to_string(s.layers) + ", window " + std::to_string(s.window);
}

/// A host vector as a CPU tensor (copied).
template <class T>
torch::Tensor tensor_of(const std::vector<T>& v, torch::ScalarType type) {
  auto t = torch::empty({static_cast<std::int64_t>(v.size())}, torch::TensorOptions().dtype(type));
  std::copy(v.begin(), v.end(), t.template data_ptr<T>());
  return t;
}

}  // namespace

torch::Tensor PolicyBatch::action_columns(std::span<const std::int32_t> actions) const {
  if (static_cast<std::int64_t>(actions.size()) != observations)
    autosched::detail::throw_error("PolicyBatch::action_columns: " + std::to_string(actions.size()) +
                                   " actions for a batch of " + std::to_string(observations) + " observations");
  std::vector<std::int64_t> columns(actions.size());
  for (std::size_t b = 0; b < actions.size(); ++b) {
    const std::int64_t a = actions[b];
    if (a < 0 || a > candidates[b])
      autosched::detail::throw_error("PolicyBatch::action_columns: action " + std::to_string(a) + " of observation " +
                                     std::to_string(b) + ": expected 0.." + std::to_string(candidates[b]) + " (" +
                                     std::to_string(candidates[b]) + " = pass)");
    columns[b] = a == candidates[b] ? width - 1 : a;
  }
  return tensor_of(columns, torch::kLong);
}

PolicyBatch make_batch(std::span<const policy::Observation* const> observations) {
  constexpr int f = policy::feature_count;
  if (observations.empty()) autosched::detail::throw_error("make_batch: no observations");
  std::int64_t nodes = 0, edges = 0, candidates = 0, widest = 0;
  for (std::size_t b = 0; b < observations.size(); ++b) {
    const policy::Observation* o = observations[b];
    const std::string which = "make_batch: observation " + std::to_string(b);
    if (o == nullptr) autosched::detail::throw_error(which + " is null");
    if (o->nodes == 0 || o->features.size() != o->nodes * static_cast<std::size_t>(f))
      autosched::detail::throw_error(which + " has " + std::to_string(o->features.size()) + " feature values for " +
                                     std::to_string(o->nodes) + " nodes of " + std::to_string(f) + " features");
    if (o->candidates.empty()) autosched::detail::throw_error(which + " has no candidates");
    if (o->edge_from.size() != o->edge_to.size())
      autosched::detail::throw_error(which + " has " + std::to_string(o->edge_from.size()) + " edge sources and " +
                                     std::to_string(o->edge_to.size()) + " edge targets");
    const auto in_range = [&](std::int32_t v) { return v >= 0 && static_cast<std::size_t>(v) < o->nodes; };
    if (!std::all_of(o->candidates.begin(), o->candidates.end(), in_range) ||
        !std::all_of(o->edge_from.begin(), o->edge_from.end(), in_range) ||
        !std::all_of(o->edge_to.begin(), o->edge_to.end(), in_range))
      autosched::detail::throw_error(which + " refers to a node outside its " + std::to_string(o->nodes) + " nodes");
    nodes += static_cast<std::int64_t>(o->nodes);
    edges += static_cast<std::int64_t>(o->edge_from.size());
    candidates += static_cast<std::int64_t>(o->candidates.size());
    widest = std::max(widest, static_cast<std::int64_t>(o->candidates.size()));
  }

  PolicyBatch batch;
  batch.observations = static_cast<std::int64_t>(observations.size());
  batch.width = widest + 1;
  const auto floats = torch::TensorOptions().dtype(torch::kFloat);
  const auto longs = torch::TensorOptions().dtype(torch::kLong);
  batch.features = torch::empty({nodes, f}, floats);
  batch.edge_from = torch::empty({edges}, longs);
  batch.edge_to = torch::empty({edges}, longs);
  batch.succ_scale = torch::zeros({nodes}, floats);
  batch.pred_scale = torch::zeros({nodes}, floats);
  batch.node_obs = torch::empty({nodes}, longs);
  batch.nodes_per_obs = torch::empty({batch.observations}, floats);
  batch.candidate_node = torch::empty({candidates}, longs);
  batch.candidate_obs = torch::empty({candidates}, longs);
  batch.candidate_column = torch::empty({candidates}, longs);
  batch.pass_column = torch::tensor(widest, longs);
  batch.valid = torch::zeros({batch.observations, batch.width}, torch::TensorOptions().dtype(torch::kBool));

  float* features = batch.features.data_ptr<float>();
  std::int64_t* from = batch.edge_from.data_ptr<std::int64_t>();
  std::int64_t* to = batch.edge_to.data_ptr<std::int64_t>();
  float* succ = batch.succ_scale.data_ptr<float>();
  float* pred = batch.pred_scale.data_ptr<float>();
  std::int64_t* node_obs = batch.node_obs.data_ptr<std::int64_t>();
  float* per_obs = batch.nodes_per_obs.data_ptr<float>();
  std::int64_t* cand_node = batch.candidate_node.data_ptr<std::int64_t>();
  std::int64_t* cand_obs = batch.candidate_obs.data_ptr<std::int64_t>();
  std::int64_t* cand_col = batch.candidate_column.data_ptr<std::int64_t>();
  bool* valid = batch.valid.data_ptr<bool>();

  std::int64_t node0 = 0, e = 0, c = 0;
  for (std::size_t b = 0; b < observations.size(); ++b) {
    const policy::Observation& o = *observations[b];
    const auto n = static_cast<std::int64_t>(o.nodes);
    const auto ob = static_cast<std::int64_t>(b);
    std::copy(o.features.begin(), o.features.end(), features + node0 * f);
    std::fill(node_obs + node0, node_obs + node0 + n, ob);
    per_obs[b] = static_cast<float>(n);
    // Degrees first (counted in the scale slots), then their reciprocals.
    for (std::size_t k = 0; k < o.edge_from.size(); ++k) {
      from[e] = node0 + o.edge_from[k];
      to[e] = node0 + o.edge_to[k];
      succ[from[e]] += 1.0f;
      pred[to[e]] += 1.0f;
      ++e;
    }
    for (std::int64_t i = node0; i < node0 + n; ++i) {
      succ[i] = succ[i] > 0 ? 1.0f / succ[i] : 0.0f;
      pred[i] = pred[i] > 0 ? 1.0f / pred[i] : 0.0f;
    }
    for (std::size_t j = 0; j < o.candidates.size(); ++j) {
      cand_node[c] = node0 + o.candidates[j];
      cand_obs[c] = ob;
      cand_col[c] = static_cast<std::int64_t>(j);
      valid[ob * batch.width + static_cast<std::int64_t>(j)] = true;
      ++c;
    }
    valid[ob * batch.width + widest] = true;
    batch.candidates.push_back(static_cast<std::int64_t>(o.candidates.size()));
    node0 += n;
  }
  return batch;
}

GraphLayerImpl::GraphLayerImpl(int hidden) {
  self = register_module("self", torch::nn::Linear(torch::nn::LinearOptions(hidden, hidden)));
  successors = register_module("successors", torch::nn::Linear(torch::nn::LinearOptions(hidden, hidden).bias(false)));
  predecessors =
      register_module("predecessors", torch::nn::Linear(torch::nn::LinearOptions(hidden, hidden).bias(false)));
}

HeadImpl::HeadImpl(int in, int hidden_size) {
  hidden = register_module("hidden", torch::nn::Linear(in, hidden_size));
  out = register_module("out", torch::nn::Linear(hidden_size, 1));
}

torch::Tensor HeadImpl::forward(const torch::Tensor& x) { return out(torch::relu(hidden(x))); }

TorchPolicyImpl::TorchPolicyImpl(const policy::PolicyShape& shape) : shape_(shape) {
  quiet_scatter_reduce_warning();
  if (shape.features != policy::feature_count || shape.hidden < 1 || shape.layers < 0 || shape.window < 0)
    autosched::detail::throw_error("TorchPolicy: bad shape (" + shape_text(shape) + "); this build has " +
                                   std::to_string(policy::feature_count) + " features");
  const int h = shape.hidden;
  // Registration order is parameter_layout()'s order: named_parameters()
  // lists a module's own parameters, then its children's, as registered.
  input_ = register_module("input", torch::nn::Linear(shape.features, h));
  for (int l = 0; l < shape.layers; ++l) layers_.push_back(register_module("layer" + std::to_string(l), GraphLayer(h)));
  actor_ = register_module("actor", Head(h, h));
  pass_ = register_module("pass", Head(2 * h, h));
  critic_ = register_module("critic", Head(2 * h, h));
}

PolicyBatchOutput TorchPolicyImpl::forward(const PolicyBatch& batch) {
  const std::int64_t h_size = shape_.hidden;
  const std::int64_t obs = batch.observations;
  torch::Tensor h = torch::relu(input_(batch.features));
  for (auto& layer : layers_) {
    // Means over the window's successors / predecessors: sums by edge, then
    // the reciprocal degree (0 for a node without any).
    const auto succ_mean = torch::zeros_like(h).index_add(0, batch.edge_from, h.index_select(0, batch.edge_to)) *
                           batch.succ_scale.unsqueeze(1);
    const auto pred_mean = torch::zeros_like(h).index_add(0, batch.edge_to, h.index_select(0, batch.edge_from)) *
                           batch.pred_scale.unsqueeze(1);
    h = h + torch::relu(layer->self(h) + layer->successors(succ_mean) + layer->predecessors(pred_mean));
  }
  const torch::Tensor candidates = h.index_select(0, batch.candidate_node);
  const torch::Tensor scores = actor_(candidates).squeeze(1);
  // Per-observation pools. Every observation has a candidate and a node, so
  // include_self=false leaves no row at its initial zero.
  const auto by_obs = [&](const torch::Tensor& rows, const torch::Tensor& owner) {
    return owner.unsqueeze(1).expand({rows.size(0), h_size});
  };
  const torch::Tensor pooled_zero = torch::zeros({obs, h_size}, h.options());
  const torch::Tensor max_candidates =
      pooled_zero.scatter_reduce(0, by_obs(candidates, batch.candidate_obs), candidates, "amax", false);
  const torch::Tensor max_nodes = pooled_zero.scatter_reduce(0, by_obs(h, batch.node_obs), h, "amax", false);
  const torch::Tensor mean_nodes = pooled_zero.index_add(0, batch.node_obs, h) / batch.nodes_per_obs.unsqueeze(1);
  const torch::Tensor pass = pass_(torch::cat({max_candidates, mean_nodes}, 1)).squeeze(1);
  PolicyBatchOutput out;
  out.value = critic_(torch::cat({mean_nodes, max_nodes}, 1)).squeeze(1);
  torch::Tensor logits = torch::full({obs, batch.width}, -std::numeric_limits<float>::infinity(), h.options());
  logits = logits.index_put({batch.candidate_obs, batch.candidate_column}, scores);
  logits = logits.index_put({torch::arange(obs, batch.candidate_obs.options()), batch.pass_column.expand({obs})}, pass);
  out.log_probs = torch::log_softmax(logits, 1);
  return out;
}

policy::PolicyWeights TorchPolicyImpl::to_weights() const {
  const auto layout = policy::parameter_layout(shape_);
  const auto params = named_parameters(true);
  if (params.size() != layout.size())
    autosched::detail::throw_error("TorchPolicy: " + std::to_string(params.size()) + " parameters, the layout has " +
                                   std::to_string(layout.size()));
  policy::PolicyWeights w;
  w.shape = shape_;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const auto& item = params[i];
    if (item.key() != layout[i].name || static_cast<std::size_t>(item.value().numel()) != layout[i].size())
      autosched::detail::throw_error("TorchPolicy: parameter " + std::to_string(i) + " is '" + item.key() +
                                     "', the layout has '" + layout[i].name + "'");
    const torch::Tensor t = item.value().detach().to(torch::kCPU, torch::kFloat).contiguous();
    const float* data = t.data_ptr<float>();
    w.values.emplace_back(data, data + t.numel());
  }
  return w;
}

void TorchPolicyImpl::load_weights(const policy::PolicyWeights& weights) {
  if (!(weights.shape == shape_))
    autosched::detail::throw_error("TorchPolicy::load_weights: weights of shape (" + shape_text(weights.shape) +
                                   "), the module has (" + shape_text(shape_) + ")");
  const auto layout = policy::parameter_layout(shape_);
  if (weights.values.size() != layout.size())
    autosched::detail::throw_error("TorchPolicy::load_weights: " + std::to_string(weights.values.size()) +
                                   " parameters, expected " + std::to_string(layout.size()));
  auto params = named_parameters(true);
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (weights.values[i].size() != layout[i].size())
      autosched::detail::throw_error("TorchPolicy::load_weights: parameter '" + layout[i].name + "' has " +
                                     std::to_string(weights.values[i].size()) + " values, expected " +
                                     std::to_string(layout[i].size()));
  }
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    torch::Tensor& p = params[i].value();
    // from_blob does not copy or write: the const_cast only fits its signature.
    const auto source = torch::from_blob(const_cast<float*>(weights.values[i].data()), p.sizes(),
                                         torch::TensorOptions().dtype(torch::kFloat));
    p.copy_(source);
  }
}

}  // namespace autosched::dag::learned
