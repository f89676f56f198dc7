#pragma once
/// @file
/// One finished loop instance as the background writer receives it: plain
/// data and pointers to strings that live as long as the process (loop
/// records, catalogue names, decision points), so that posting a row never
/// allocates.

#include <autosched/measure/metrics.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <cstdint>
#include <limits>

namespace autosched {

struct InstanceRow {
  const char* loop = "";  ///< loop id
  std::uint64_t instance = 0;
  /// The technique that ran: with chunk and exp_chunk, the arm the store
  /// labels (TechniqueSpec); the trace prints its catalogue name.
  TechniqueId technique_id = TechniqueId::static_;
  std::int64_t chunk = 0;
  bool exp_chunk = false;
  std::int64_t n = 0;
  int p = 0;
  LoopMetrics metrics;
  double selector_ns = 0;
  double reward = std::numeric_limits<double>::quiet_NaN();  ///< NaN: the selector has none
  const char* selector = "";                                 ///< empty for fixed schedules
  /// The selector's state after this instance ("sweep 3/12", "greedy 4 …"),
  /// filled only while a trace is written.
  char selector_state[48] = "";
  bool explored = false;
  bool cut_short = false;
  bool failed = false;
  // Decision points only (store history); null for fixed schedules.
  const char* portfolio = nullptr;        ///< arm labels, comma separated
  const char* selector_config = nullptr;  ///< the schedule text of the selector
  int bucket = 0;                         ///< ⌊log2 N⌋ + 1
};

}  // namespace autosched
