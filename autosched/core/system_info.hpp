#pragma once
/// @file
/// What this process runs on, and the fingerprint that keys everything
/// autosched learns: results measured on one system are not reused on another.

#include <cstdint>
#include <string>

namespace autosched {

struct SystemInfo {
  std::string cpu_model;        ///< /proc/cpuinfo "model name", or "unknown"
  int physical_cores = 0;       ///< distinct (package, core) pairs
  int hardware_threads = 0;     ///< logical CPUs the OS reports
  std::string kernel;           ///< uname release
  std::string compiler;         ///< compiler that built autosched, e.g. "GCC 12.2.0"
  std::string openmp_runtime;   ///< OpenMP runtime loaded in this process: "libgomp", "libomp" or "none"
  std::string openmp_library;   ///< path of that runtime's shared object, when known
  std::string library_version;  ///< autosched version
  /// 16 hex digits hashing CPU model, cores, threads, compiler, OpenMP runtime
  /// and library version.
  std::string fingerprint;
};

/// Read once per process (thread-safe) and cached.
const SystemInfo& system_info();

/// Bytes of memory a new allocation can get now without swapping:
/// /proc/meminfo's MemAvailable, else free physical pages; 0 when neither
/// is known. Read fresh on each call (commands size their work by it).
std::uint64_t available_memory_bytes();

}  // namespace autosched
