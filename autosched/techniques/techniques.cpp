#include <autosched/techniques/chunk_sequence.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/weighted_factoring.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <cmath>

namespace autosched {

double RunningStats::sample_stddev() const noexcept {
  return count > 1 ? std::sqrt(m2 / static_cast<double>(count - 1)) : 0.0;
}

void AwfHistory::reset(int p, const std::vector<double>& initial) {
  const auto n = static_cast<std::size_t>(p);
  steps = 0;
  weights = initial.size() == n ? initial : std::vector<double>(n, 1.0);
  weighted_work.assign(n, 0.0);
  weighted_time.assign(n, 0.0);
}

std::vector<std::int64_t> SequencePlan::sizes() const {
  std::vector<std::int64_t> out;
  for (std::int64_t k = 0;; ++k) {
    const IndexRange c = chunk(k);
    if (c.empty()) return out;
    out.push_back(c.size());
  }
}

void WeightedFactoring::close(LoopMemory&) noexcept {
  if (history_ == nullptr) return;
  AwfHistory& h = *history_;
  // Workers that never ran anything have no throughput: they keep their
  // weight, and the others share the rest of the total P.
  double throughput_sum = 0, kept = 0;
  int learned = 0;
  for (int i = 0; i < p_; ++i) {
    if (h.weighted_work[i] > 0 && h.weighted_time[i] > 0) {
      throughput_sum += h.weighted_work[i] / h.weighted_time[i];  // 1/π_i
      ++learned;
    } else {
      kept += h.weights[i];
    }
  }
  if (learned == 0) return;
  const double share = kept < p_ ? p_ - kept : learned;
  for (int i = 0; i < p_; ++i) {
    if (h.weighted_work[i] > 0 && h.weighted_time[i] > 0) {
      h.weights[i] = share * (h.weighted_work[i] / h.weighted_time[i]) / throughput_sum;
    }
  }
}

}  // namespace autosched
