#pragma once
// A platform: the processors a graph runs on, and optionally what moving
// data between memories costs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag {

enum class ResourceKind : std::uint8_t { cpu = 0, gpu = 1 };
inline constexpr int resource_kinds = 2;
std::string_view to_string(ResourceKind kind) noexcept;

/// Communication between memories: every CPU shares one memory, every GPU
/// has its own. A successor on another memory than its predecessor waits
/// latency + bytes / bandwidth for that input (bytes: the edge's, or
/// `default_edge_bytes` when the edge carries none). Off by default, as in
/// READYS.
struct Communication {
  bool enabled = false;
  double latency = 0;            ///< in the duration table's time unit
  double bandwidth = 1;          ///< bytes per time unit
  double default_edge_bytes = 0;
};

struct Platform {
  /// Processor kinds by index. GPUs come first, as in READYS: the order is
  /// the decision order at an event and every scheduler's tie-break.
  std::vector<ResourceKind> processors;
  Communication communication;

  std::size_t size() const noexcept { return processors.size(); }
  ResourceKind kind(std::size_t p) const { return processors[p]; }
  int count(ResourceKind k) const noexcept;
  bool homogeneous() const noexcept;
  /// The memory a processor computes in: 0 for CPUs, 1 + g for the g-th GPU.
  int memory(std::size_t p) const noexcept;
  /// "2cpu+2gpu", GPUs listed first whatever order the spec gave.
  std::string describe() const;
};

/// Parses "2cpu+2gpu", "4cpu", "1gpu+3cpu" (case-insensitive; a bare "cpu"
/// is one). Throws naming the spec and the accepted form.
Platform platform(std::string_view spec);

}  // namespace autosched::dag
