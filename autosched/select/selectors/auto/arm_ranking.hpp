#pragma once
/// @file
/// Predicts every arm of a loop portfolio from one measured CostProfile by
/// simulating it (techniques/loop_simulator.hpp), so that `auto` tries only
/// the arms predicted to be good, best-predicted first, instead of running
/// each one.
///
///   std::vector<double> t = predict_arms(arms, profile, /*workers=*/2);
///   std::vector<int> order = rank_by(t);   // best-predicted first

#include <autosched/select/grammar/arm.hpp>
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

/// predict_arms() for a team whose workers are not all available all the
/// time, as real ones are not (a preempted or descheduled thread, a busy
/// core): the mean of two simulations in which one worker, the first and
/// then the last, runs `jitter` slower (0.05: 5% of its time lost). A
/// dynamic arm spreads that loss over the team; a static one waits for it.
/// On equal, always-available workers static and the good dynamic arms tie
/// (a balanced loop), yet on the 2-core machine static was 1–4 points
/// slower on every app: the perturbation is what tells them apart
/// (docs/design/0005-auto-predicts.md). workers < 2 or jitter <= 0: the
/// plain prediction. `dispatches`: as predict_arms().
std::vector<double> predict_arms_robust(const Portfolio& arms, const CostProfile& profile, int workers, double jitter,
                                        std::vector<std::int64_t>* dispatches = nullptr);

/// Arm indices by predicted time, lowest first. Ties (one long chunk decides
/// both loop times, say): fewer `dispatches` first where given, since every
/// dispatch is a risk the simulator prices only at its mean; then the lower
/// index.
std::vector<int> rank_by(const std::vector<double>& predicted, std::span<const std::int64_t> dispatches = {});

}  // namespace autosched
