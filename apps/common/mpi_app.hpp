#pragma once
/// @file
/// What the MPI time-stepping apps share (apps/*/<app>_mpi.cpp, docs/mpi-apps.md):
/// their command line, one autosched::mpi::parallel_for per loop instance over
/// replicated data, a per-step report, an exactly-once check of every
/// instance, and the cost model: `--record` writes what each iteration cost,
/// `--costs` replays it (natively by spinning on MPI_Wtime, under SimGrid SMPI
/// by charging it to the simulated host).
///
/// Common options:
///   --steps T              time steps
///   --schedule S           schedule text for every loop (default: AUTOSCHED_SCHEDULE, else auto)
///   --protocol P           auto | master-worker | rma
///   --record FILE          write the cost model (rank 0)
///   --record-block B       iterations per recorded value (default 1: one value per iteration)
///   --costs FILE           replay a recorded cost model instead of computing
///   --quiet                no per-step lines
/// plus each app's own options (`--help`).
///
/// Clock: MPI_Wtime everywhere (simulated time under SMPI).

#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "smpi_cost.hpp"

namespace autosched::apps::mpi {

/// An app option `--name value` (a non-negative number).
struct Option {
  std::string name;
  double value;  ///< the default, replaced by the command line
  std::string help;
  bool integer = true;
};

/// One recorded loop instance: `block` iterations per value, each value the
/// summed seconds of its block's iterations (the last block may be shorter).
struct CostRow {
  std::int64_t n = 0;
  std::int64_t block = 1;
  std::vector<double> prefix;  ///< prefix[k] = seconds of blocks [0, k)

  /// Seconds of iterations [first, last), a partial block pro rata.
  [[nodiscard]] double seconds(std::int64_t first, std::int64_t last) const noexcept;
};

/// A cost model file (docs/mpi-apps.md): rows per loop and step.
class CostModel {
 public:
  /// Reads `path`; exits with a message naming the file and line on bad input.
  void load(const std::string& path, const std::string& program);
  /// The row of `loop` at `step`, else the loop's last row before it;
  /// nullptr when the loop has none or the row's n differs.
  [[nodiscard]] const CostRow* find(const std::string& loop, int step, std::int64_t n) const;

 private:
  std::map<std::string, std::map<int, CostRow>> rows_;
};

class MpiApp {
 public:
  /// Parses the command line (the same on every rank; rank 0 prints). On
  /// --help: usage and exit 0; on bad input: a message naming the option
  /// and exit 2. Call after MPI_Init.
  MpiApp(std::string name, std::string description, int argc, char** argv, std::vector<Option> options,
         int default_steps);
  ~MpiApp();
  MpiApp(const MpiApp&) = delete;
  MpiApp& operator=(const MpiApp&) = delete;

  [[nodiscard]] long integer(const std::string& option) const;
  [[nodiscard]] double real(const std::string& option) const;
  [[nodiscard]] int steps() const noexcept { return steps_; }
  [[nodiscard]] int step() const noexcept { return step_; }
  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] int ranks() const noexcept { return ranks_; }
  [[nodiscard]] MPI_Comm comm() const noexcept { return MPI_COMM_WORLD; }
  /// --costs was given: bodies should not compute, the recorded cost is charged.
  [[nodiscard]] bool replaying() const noexcept { return !costs_path_.empty(); }

  /// Instance `step()` of loop `loop` over [0, n): body(i) for this rank's
  /// iterations; when replaying, each chunk is also charged its recorded
  /// seconds; when recording, each iteration is timed. Collective.
  template <class Body>
  autosched::mpi::LoopResult loop(const std::string& loop, std::int64_t n, Body&& body) {
    const CostRow* replay = replaying() ? replay_row(loop, n) : nullptr;
    std::vector<double>* record = recording() ? record_buffer(loop, n) : nullptr;
    Tally tally;
    const autosched::mpi::LoopOptions options{.name = loop, .schedule = schedule_, .protocol = protocol_};
    const auto result = autosched::mpi::parallel_for_chunks(
        comm(), 0, n,
        [&](std::int64_t first, std::int64_t last) {
          tally.add(first, last);
          if (record != nullptr) {
            // One clock read per (chunk ∩ block): per iteration when block is 1.
            for (std::int64_t b = first; b < last;) {
              const std::int64_t stop = std::min(last, (b / record_block_ + 1) * record_block_);
              const double t0 = MPI_Wtime();
              for (std::int64_t i = b; i < stop; ++i) body(i);
              (*record)[static_cast<std::size_t>(b / record_block_)] += MPI_Wtime() - t0;
              b = stop;
            }
          } else {
            for (std::int64_t i = first; i < last; ++i) body(i);
          }
          if (replay != nullptr) autosched::smpi::inject_seconds(replay->seconds(first, last));
        },
        options);
    finish_instance(loop, n, result, tally, record);
    return result;
  }

  /// Ends a time step (the loops run since the last call belong to it).
  void end_step() noexcept { ++step_; }

  /// Collective: combines every rank's verdict (`verified` on rank 0 and the
  /// exactly-once checks of every instance), prints the totals and the
  /// selection overhead share on rank 0; returns 0 when right, 1 otherwise.
  int finish(bool verified, const std::string& what);

 private:
  /// Count and index hash of the iterations a rank ran in one instance.
  struct Tally {
    std::uint64_t count = 0;
    std::uint64_t hash = 0;
    void add(std::int64_t first, std::int64_t last) noexcept;
  };
  [[nodiscard]] bool recording() const noexcept { return recording_; }
  const CostRow* replay_row(const std::string& loop, std::int64_t n);
  std::vector<double>* record_buffer(const std::string& loop, std::int64_t n);
  void finish_instance(const std::string& loop, std::int64_t n, const autosched::mpi::LoopResult& r, const Tally& t,
                       std::vector<double>* record);
  /// A bad argument, found while parsing: the constructor collects it on
  /// every rank before any rank ends (the lowest rank with one says why).
  struct UsageError {
    std::string message;
  };
  [[noreturn]] void usage_error(const std::string& message) const;

  std::string name_;
  std::vector<Option> options_;
  int rank_ = 0, ranks_ = 1;
  int steps_ = 0;
  int step_ = 0;
  std::string schedule_;
  autosched::mpi::Protocol protocol_ = autosched::mpi::Protocol::automatic;
  bool quiet_ = false;
  bool recording_ = false;
  std::FILE* record_ = nullptr;  ///< rank 0 only
  std::int64_t record_block_ = 1;
  std::vector<double> record_values_;
  std::string costs_path_;
  CostModel costs_;
  double start_ = 0;
  // Totals (rank 0's view; loop results are the same on every rank).
  double loop_seconds_ = 0;
  double selection_seconds_ = 0;
  long instances_ = 0;
  std::map<std::string, long> technique_instances_;  ///< "technique/protocol" → instances
  bool once_ = true;                                 ///< every instance ran every index exactly once
  std::string once_failure_;
  std::map<std::int64_t, std::uint64_t> expected_hash_;
};

}  // namespace autosched::apps::mpi
