#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/chunk_sequence.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/weighted_factoring.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

void AwfHistory::reset(int p, const std::vector<double>& initial) {
  const auto n = static_cast<std::size_t>(p);
  steps = 0;
  weights = initial.size() == n ? initial : std::vector<double>(n, 1.0);
  weighted_work.assign(n, 0.0);
  weighted_time.assign(n, 0.0);
}

IndexRange SequencePlan::chunk(std::int64_t k) const noexcept {
  if (k < 0 || k >= chunk_count()) return {};
  const auto it = std::upper_bound(runs.begin(), runs.end(), k,
                                   [](std::int64_t key, const ChunkRun& r) { return key < r.first; });
  const ChunkRun& r = *(it - 1);
  const std::int64_t begin = r.begin + (k - r.first) * r.size;
  return {begin, std::min(begin + r.size, n)};
}

std::vector<std::int64_t> SequencePlan::sizes() const {
  std::vector<std::int64_t> out;
  for (std::int64_t k = 0; k < chunk_count(); ++k) out.push_back(chunk(k).size());
  return out;
}

void WeightedFactoring::close(LoopMemory& memory) noexcept {
  if (step_ == 0) return;  // wf: nothing to learn
  AwfHistory& h = memory.awf;
  // Another instance of this loop may have restarted the history for a
  // different team size since this one opened: start over for ours.
  if (h.weights.size() != static_cast<std::size_t>(p_)) {
    h.reset(p_, std::vector<double>(weights_.begin(), weights_.end()));
    h.steps = step_;
  }
  const auto k = static_cast<double>(step_);
  for (int i = 0; i < p_; ++i) {
    h.weighted_work[i] += k * slots_[i].claimed;
    h.weighted_time[i] += k * slots_[i].elapsed_ns;
  }
  awf_reweight(h.weighted_work, h.weighted_time, h.weights);
}

}  // namespace autosched
