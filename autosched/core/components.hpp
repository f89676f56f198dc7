#pragma once
/// @file
/// Optional components and the fallbacks in use: each is found,
/// unavailable on this machine, or not part of this build, and says what
/// autosched does instead. `autosched info` prints this list.

#include <string>
#include <vector>

namespace autosched {

struct Component {
  enum class Status { found, unavailable, not_built };
  std::string name;
  Status status = Status::not_built;
  std::string detail;    ///< version, path or reason
  std::string fallback;  ///< what is used instead; empty when found
};

/// The components this build knows about, probed once per process.
const std::vector<Component>& components();

/// True when the kernel lets this process count CPU instructions
/// (perf_event_open); false in most VMs, which have no PMU.
bool hardware_counters_available();

}  // namespace autosched
