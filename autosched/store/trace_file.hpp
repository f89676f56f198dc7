#pragma once
/// @file
/// AUTOSCHED_TRACE=<file>.csv|<file>.json: one row per loop instance (loop,
/// instance, selector, whether it explored, technique, chunk, N, P, loop
/// time, the metrics, selector cost, whether a guarded trial was cut), written
/// by the background writer. AUTOSCHED_TRACE_THREADS=1 adds per-thread rows
/// to <file>.threads.csv.

#include <autosched/measure/thread_stats.hpp>
#include <autosched/store/background_writer.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace autosched {

class TraceFile final : public RowSink {
 public:
  /// Opens `path` for writing; throws autosched::Error if it cannot or if it
  /// names something other than a regular file (a FIFO would block, a device
  /// is no trace). A write that fails later (full disk) is warned about once.
  explicit TraceFile(std::string path);
  void write(std::span<const InstanceRow> rows) override;
  void flush() override;
  void close() override;

  /// Writes one instance's per-thread rows (posted as a task; opt-in).
  void write_threads(const std::string& loop, std::uint64_t instance, const std::vector<ThreadStats>& threads,
                     std::int64_t start_ns);

  [[nodiscard]] const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  bool json_ = false;
  bool first_ = true;
  bool closed_ = false;  ///< close() ran; JSON: the array is terminated
  std::FILE* file_ = nullptr;
  std::FILE* threads_ = nullptr;
  bool warned_ = false;          ///< a failed write was reported (once per file)
  bool threads_warned_ = false;
  bool threads_failed_ = false;  ///< the per-thread file could not be opened (reported)
};

}  // namespace autosched
