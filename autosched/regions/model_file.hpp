#pragma once
/// @file
/// The text a region's knowledge is kept in: model files shipped with an
/// application, and the store's region rows (the same text). Versioned and
/// self-describing, so that a file is checked before it is trusted:
///
///   autosched-region-model 1
///   region spmv
///   features 2
///   feature rows
///   feature nnz:log2
///   variants 3 variant{csr|ell|coo}
///   model dtree,depth=3
///   fingerprint 3f2a…            (where it was learned)
///   build autosched 0.1.0, GCC 12.2.0
///   trees 1
///   tree 5                       (flat nodes: threshold feature child)
///   0x1p+10 0 1
///   …
///   samples 2 3 4                (RegionLearner::samples_text)
///   …
///   checksum 9c1d…               (FNV-1a 64 of every byte before this line)
///
/// Reading never trusts the input: every count is bounded by the text that
/// is actually there, so a truncated or damaged file is an error, not a crash.

#include <autosched/regions/models/decision_tree.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

struct ModelFile {
  static constexpr int format_version = 1;
  std::string region;
  std::vector<std::string> features;  ///< Feature::describe()
  int variant_count = 0;
  std::string variants;  ///< VariantSpace::signature()
  std::string model;     ///< model spec text
  std::string fingerprint;
  std::string build;
  std::vector<std::vector<TreeNode>> trees;
  std::string samples;  ///< RegionLearner::samples_text(), may be empty
};

[[nodiscard]] std::string write_model_text(const ModelFile& file);
/// nullopt with the reason in `why` when the text is not a valid model file
/// of a format this autosched reads.
[[nodiscard]] std::optional<ModelFile> read_model_text(std::string_view text, std::string* why);

}  // namespace autosched
