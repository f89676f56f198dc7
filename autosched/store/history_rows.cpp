#include <autosched/store/history_rows.hpp>

#include <cmath>
#include <cstring>

namespace autosched {

namespace {

bool same_group(const InstanceRow& a, const InstanceRow& b) noexcept {
  // The strings are the process-lifetime pointers the drop-in and the driver
  // hand out, so equal loops have equal pointers; comparing text as well
  // keeps two copies of one name together.
  auto same_text = [](const char* x, const char* y) { return x == y || std::strcmp(x, y) == 0; };
  return a.technique_id == b.technique_id && a.chunk == b.chunk && a.exp_chunk == b.exp_chunk && a.n == b.n &&
         a.p == b.p && a.bucket == b.bucket && a.explored == b.explored && a.cut_short == b.cut_short &&
         same_text(a.loop, b.loop) && same_text(a.portfolio, b.portfolio) && same_text(a.selector, b.selector);
}

/// Running sums of one folded row.
struct Group {
  std::size_t out = 0;  ///< its index in the result
  LoopMetrics sum;
  double selector_ns = 0, reward = 0;
  std::int64_t rewards = 0;
};

void add(LoopMetrics& s, const LoopMetrics& m) noexcept {
  s.loop_time_ns += m.loop_time_ns;
  s.mean_finish_ns += m.mean_finish_ns;
  s.lib += m.lib;
  s.percent_imbalance += m.percent_imbalance;
  s.stddev += m.stddev;
  s.cov += m.cov;
  s.skewness += m.skewness;
  s.kurtosis += m.kurtosis;
}

LoopMetrics divided(const LoopMetrics& s, double k) noexcept {
  return {s.loop_time_ns / k, s.mean_finish_ns / k, s.lib / k, s.percent_imbalance / k,
          s.stddev / k,       s.cov / k,            s.skewness / k, s.kurtosis / k};
}

}  // namespace

std::vector<HistoryRow> fold_history(std::span<const InstanceRow> rows, double alone_ns) {
  std::vector<HistoryRow> out;
  std::vector<Group> groups;  // a batch holds few loops: a linear search is enough
  for (const InstanceRow& r : rows) {
    if (r.portfolio == nullptr || r.failed) continue;  // only decision points; failed instances are partial
    if (!(r.metrics.loop_time_ns < alone_ns)) {
      out.push_back({r, 1});
      continue;
    }
    Group* g = nullptr;
    for (Group& candidate : groups) {
      if (same_group(out[candidate.out].row, r)) {
        g = &candidate;
        break;
      }
    }
    if (g == nullptr) {
      groups.push_back({out.size(), {}, 0, 0, 0});
      out.push_back({r, 0});
      g = &groups.back();
    }
    add(g->sum, r.metrics);
    g->selector_ns += r.selector_ns;
    if (!std::isnan(r.reward)) {
      g->reward += r.reward;
      ++g->rewards;
    }
    ++out[g->out].instances;
  }
  for (const Group& g : groups) {
    HistoryRow& h = out[g.out];
    const auto k = static_cast<double>(h.instances);
    h.row.metrics = divided(g.sum, k);
    h.row.selector_ns = g.selector_ns / k;
    h.row.reward = g.rewards > 0 ? g.reward / static_cast<double>(g.rewards) : std::nan("");
  }
  return out;
}

}  // namespace autosched
