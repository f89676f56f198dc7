#pragma once
/// @file
/// Predicts every arm of a loop portfolio from one measured CostProfile by
/// simulating it (techniques/loop_simulator.hpp), so that `auto` tries only
/// the arms predicted to be good, best-predicted first, instead of running
/// each one.
///
///   std::vector<double> t = predict_arms(arms, profile, /*workers=*/2);
///   std::vector<int> order = rank_by(t);   // best-predicted first

#include <autosched/select/arm.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace autosched {

/// Predicted loop time (ns) of each arm with `workers` workers (relative
/// `speeds`, one per worker, or empty: all equal). An arm the simulator
/// cannot run gets +infinity (never tried on a prediction). `dispatches`,
/// when given, receives each arm's simulated chunk count (0: unpredicted).
std::vector<double> predict_arms(const Portfolio& arms, const CostProfile& profile, int workers,
                                 std::span<const double> speeds = {}, std::vector<std::int64_t>* dispatches = nullptr);

/// Arm indices by predicted time, lowest first. Ties (one long chunk decides
/// both loop times, say): fewer `dispatches` first where given, since every
/// dispatch is a risk the simulator prices only at its mean; then the lower
/// index.
std::vector<int> rank_by(const std::vector<double>& predicted, std::span<const std::int64_t> dispatches = {});

}  // namespace autosched
