#pragma once
// The learned policy's model file: `<path>` holds the weights as a libtorch
// pickle (torch::pickle_save) of a dictionary from parameter name
// (policy::parameter_layout()) to float32 tensor (Linear weights [out, in],
// biases [out]), that is a state_dict: Python's torch.load(path) reads it.
// (Not a torch::serialize::OutputArchive nor torch::save(TorchPolicy): those
// write TorchScript classes whose attribute names here, `pass` and `self`,
// are Python keywords, and libtorch cannot read them back.)
// `<path>.json` is its sidecar:
//
//   {
//     "format": "autosched readys policy",
//     "format_version": 1,
//     "observation_version": 1,
//     "features": ["ready", "running", ...],     (policy::feature_name, in order)
//     "hidden": 32, "layers": 2, "window": 1,
//     "family": "cholesky", "platforms": ["2cpu+2gpu"],
//     "training_command": "autosched dag train ...", "created": "2024-05-01",
//     "notes": "", "steps": 20000, "validation_metric": "...", "validation_score": 0.97,
//     "checksum": "fnv1a64:0123456789abcdef"     (weights_checksum())
//   }
//
// A model is trusted only when both files agree with each other and with
// this build: load_model() refuses (autosched::Error naming the file and
// the problem) a missing file, a sidecar of another format, features or an
// observation version other than this build's, a missing or mis-shaped
// parameter, non-finite weights, a checksum mismatch and an archive
// libtorch cannot read. Both files are written atomically (temporary file,
// then rename). This header does not include libtorch's.
#include <autosched/dag/policy/policy_weights.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag::learned {

inline constexpr int model_format_version = 1;
inline constexpr std::string_view model_format = "autosched readys policy";

/// What a model file says about where it came from.
struct ModelInfo {
  std::string family;                  ///< what it was trained on: cholesky, lu, qr or mixed
  std::vector<std::string> platforms;  ///< platform specs ("2cpu+2gpu")
  std::string training_command;        ///< the command line that trained it
  std::string created;                 ///< ISO date
  std::string notes;
  /// load_model(): the file's (always this build's once accepted);
  /// save_model() writes policy::observation_version whatever this says.
  int observation_version = policy::observation_version;
  std::int64_t steps = 0;                 ///< training steps (PPO iterations)
  std::string validation_metric;          ///< what validation_score measures, e.g. "makespan / mct-prio, mean"
  std::optional<double> validation_score; ///< null in the sidecar when absent (or not finite)
};

/// FNV-1a 64 over the weights' float bytes in layout order (host byte order).
std::uint64_t weights_checksum(const policy::PolicyWeights& weights);

/// Writes `path` (libtorch archive) and `path`.json (sidecar). Throws
/// autosched::Error when the weights fail PolicyWeights::check() or a file
/// cannot be written; an existing model is then left as it was.
void save_model(const std::string& path, const policy::PolicyWeights& weights, const ModelInfo& info);

struct LoadedModel {
  policy::PolicyWeights weights;
  ModelInfo info;
};

/// Reads and checks a model written by save_model(). Throws autosched::Error
/// "readys model '<path>': <what is wrong>".
LoadedModel load_model(const std::string& path);
/// The same without throwing: nullopt, and `*why` says what is wrong (the
/// reason alone, without the path).
std::optional<LoadedModel> try_load_model(const std::string& path, std::string* why);

}  // namespace autosched::dag::learned
