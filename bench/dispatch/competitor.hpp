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
  std::string name;    ///< e.g. "omp dynamic,1" or "autosched ss,chunk=1"
  std::string group;   ///< "baseline" or "autosched"
  std::function<std::int64_t(std::int64_t n, int p, Body body)> run;
};

/// The array the tiny body updates (one double per iteration).
std::vector<double>& tiny_data(std::int64_t n);

void add_openmp_baselines(std::vector<Competitor>& out);
void add_fetch_add_baseline(std::vector<Competitor>& out);
void add_autosched_techniques(std::vector<Competitor>& out);

}  // namespace bench
