#pragma once
// bench/dispatch: what one competitor is. A competitor runs one loop of n
// iterations on p threads with a body of the given kind and reports how many
// chunks it handed out (0 when the runtime does not say).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

enum class Body { empty, tiny };

struct Competitor {
  std::string name;   ///< e.g. "omp dynamic,1" or "autosched ss,chunk=1"
  std::string group;  ///< "baseline" or "autosched"
  std::function<std::int64_t(std::int64_t n, int p, Body body)> run;
};

/// The tiny body: four dependent multiply-adds on the index (about 5 ns) and
/// no memory traffic, so that neighbouring iterations on different threads do
/// not share cache lines and the timing shows dispatch, not false sharing.
inline void tiny_work(std::int64_t i) {
  double v = static_cast<double>(i);
  for (int k = 0; k < 4; ++k) v = v * 1.0000001 + 0.5;
  asm volatile("" : : "x"(v));
}

void add_openmp_baselines(std::vector<Competitor>& out);
void add_fetch_add_baseline(std::vector<Competitor>& out);
void add_autosched_techniques(std::vector<Competitor>& out);

}  // namespace bench
