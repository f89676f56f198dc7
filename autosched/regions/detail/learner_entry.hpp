#pragma once
/// @file
/// One feature vector of a RegionLearner: its sample tables, its exploration
/// state, its bandit and its drift watch. Shared by the learner's sources
/// (the table, choosing, training, the samples text); not part of the API.

#include <autosched/regions/region_learner.hpp>
#include <autosched/select/selectors/bandit/coverage_sweep.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace autosched {

struct RegionLearner::Entry {
  std::vector<double> x;
  std::vector<PairStats> all;      ///< shared ⊕ own: what decisions and training use
  std::vector<PairStats> own;      ///< this process's, since the last collective training
  std::vector<PairStats> shared;   ///< loaded, or merged from all ranks
  std::vector<PairStats> unsaved;  ///< this process's, not yet in the store
  std::vector<bool> warmed;        ///< skip_first: this process's first sample was discarded
  int next = 0;                    ///< round-robin model: the next variant
  CoverageSweep sweep;             ///< learners: exploration before training
  int predicted = -1;              ///< the model's answer (memo until the next training)
  std::int64_t since_explore = 0;
  int rotate = 0;
  // Drift (Artemis): the time predicted at training for `predicted`.
  double expected = 0;
  int over = 0;
  std::int64_t judged_samples = 0;
  bool judged = false;
  bool drifting = false;
  /// Bandit models: this vector's selector, made from `all` on the first
  /// choice and dropped whenever `all` changes other than by observe().
  std::unique_ptr<Selector> bandit;
};

}  // namespace autosched
