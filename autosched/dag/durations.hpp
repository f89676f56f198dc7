#pragma once
// Expected task durations per kernel and resource kind, and the noise that
// turns them into actual durations.
#include <autosched/dag/platform.hpp>
#include <autosched/dag/task_graph.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag {

/// Duration of one task on each resource kind; +inf where the kind has no
/// implementation of the kernel.
using KindDurations = std::array<double, resource_kinds>;
inline constexpr double not_available = std::numeric_limits<double>::infinity();

/// Kernel name -> duration per resource kind, in one time unit.
struct DurationTable {
  std::string name;
  std::string unit;  ///< "units" (READYS), "ms", …
  std::map<std::string, KindDurations, std::less<>> kernels;

  /// The expected duration of every task of `g` (throws naming the kernel
  /// the table lacks).
  std::vector<KindDurations> expected(const TaskGraph& g) const;
};

/// "readys": READYS's abstract units (Cholesky, LU and QR kernels);
/// "mirage": StarPU's measured Cholesky models (ms, 960×960 tiles). Any
/// other name is read as a file (duration_table_file()).
DurationTable duration_table(std::string_view name_or_file);

/// A table file: one kernel per line, `<kernel> <cpu> <gpu>`, durations
/// non-negative numbers or `-` for "no implementation"; `# unit: ms` sets
/// the unit; other `#` lines are comments. Errors name the file and line.
DurationTable duration_table_file(const std::string& path);
std::string to_text(const DurationTable& table);

/// How actual durations differ from the expected ones.
struct Noise {
  /// d = max(0, N(E, sigma * E)), drawn per task and per resource kind
  /// (the READYS paper's model).
  double sigma = 0;
  /// READYS's code instead: only GPU durations, d = E + max(N(0, sigma), -2).
  bool readys_additive_gpu = false;
};

/// Actual durations of one episode, deterministic for a seed.
std::vector<KindDurations> sample_durations(const std::vector<KindDurations>& expected, const Noise& noise,
                                            std::uint64_t seed);

}  // namespace autosched::dag
