// The MPI runtime's contract, under mpiexec with any number of ranks: every
// index exactly once for every technique, in master-worker and masterless
// (RMA / static) modes; a throwing body aborts the loop on every rank with
// the failing rank's message; ranks that disagree on the bounds fail
// together; selectors run instance after instance. A plain main(): exits
// nonzero on every rank when any check failed anywhere.
//
//   mpiexec -n 4 test_mpi_loops [--quick]
#include <autosched/core/error.hpp>
#include <autosched/mpi/mpi.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace mpi = autosched::mpi;

int rank = 0;
int ranks = 1;
int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
  }
}

/// Runs [begin, begin + n) under `schedule` and checks that the ranks
/// together ran every index exactly once.
void check_coverage(const std::string& schedule, mpi::Protocol protocol, std::int64_t begin, std::int64_t n,
                    std::int64_t request_when = 0, std::int64_t break_after = 0) {
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(n), 0);
  bool outside = false;
  mpi::LoopOptions options;
  options.name = "coverage";
  options.schedule = schedule;
  options.protocol = protocol;
  options.request_when = request_when;
  options.break_after = break_after;
  std::string what = schedule + " (" + std::string(mpi::protocol_name(protocol)) + ") N=" + std::to_string(n);
  try {
    const mpi::LoopResult r = mpi::parallel_for(
        MPI_COMM_WORLD, begin, begin + n,
        [&](std::int64_t i) {
          if (i < begin || i >= begin + n) {
            outside = true;
          } else {
            ++seen[static_cast<std::size_t>(i - begin)];
          }
        },
        options);
    // What ran, for the messages: a selector's arm differs between instances.
    what += " [ran " + r.technique + " over " + std::string(mpi::protocol_name(r.protocol)) +
            (r.cut_short ? ", cut" : "") + "]";
    expect(r.iterations == n, what + ": " + std::to_string(r.iterations) + " iterations reported");
    expect(r.protocol != mpi::Protocol::automatic, what + ": protocol not reported");
  } catch (const std::exception& e) {
    expect(false, what + ": threw " + e.what());
    return;
  }
  expect(!outside, what + ": an index outside the range ran");
  std::vector<std::uint8_t> total(seen.size(), 0);
  MPI_Reduce(seen.data(), total.data(), static_cast<int>(seen.size()), MPI_UINT8_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::int64_t wrong = 0;
    for (std::uint8_t c : total) wrong += c != 1;
    expect(wrong == 0, what + ": " + std::to_string(wrong) + " indices did not run exactly once");
  }
}

void check_all_techniques(bool quick) {
  std::vector<std::int64_t> sizes = {0, 1, ranks - 1, 1000003};
  if (quick) sizes.back() = 10007;
  for (const auto& info : autosched::technique_catalogue()) {
    const std::string name(info.name);
    for (const std::int64_t n : sizes) {
      // ss hands out single iterations: a million round trips per protocol is
      // minutes on an oversubscribed machine, so its large case uses chunk 64.
      const std::string schedule = name == "ss" && n > 100000 ? "ss,chunk=64" : name;
      check_coverage(schedule, mpi::Protocol::master_worker, -7, n);
      check_coverage(schedule, mpi::Protocol::automatic, 5, n);
    }
  }
}

/// The master-worker knobs change where chunks are split, never what runs.
void check_protocol_knobs() {
  for (const char* schedule : {"ss", "fac2", "awf-c", "af", "static"}) {
    for (const std::int64_t request_when : {1, 7, 1000000}) {
      for (const std::int64_t break_after : {1, 5, 1000000}) {
        check_coverage(schedule, mpi::Protocol::master_worker, 3, 20011, request_when, break_after);
      }
    }
  }
}

/// finish() before next() ran dry is a usage error: every rank learns of it.
void check_early_finish() {
  bool threw = false;
  std::string message = "no error";
  try {
    // Master-worker static: the coordinator's own block is surely not done after one piece.
    mpi::Execution ex(MPI_COMM_WORLD, 0, 100000,
                      {.name = "early-finish", .schedule = "static", .protocol = mpi::Protocol::master_worker,
                       .break_after = 10});
    if (rank == 0) (void)ex.next();  // the coordinator stops after one range
    else
      while (!ex.next().empty()) {
      }
    ex.finish();
  } catch (const autosched::Error& e) {
    message = e.what();
    threw = message.find("before next() returned an empty range") != std::string::npos;
  }
  expect(threw, "finish() before the ranges ran out: every rank throws (" + message + ")");
  check_coverage("fac2", mpi::Protocol::automatic, 0, 1000);
}

/// A body that throws at one index aborts the loop on every rank, with the
/// message of the rank that ran it; the loop runs normally afterwards.
void check_throwing_body(mpi::Protocol protocol, const std::string& schedule) {
  bool threw = false;
  bool i_failed = false;
  std::string message;
  mpi::LoopOptions options;
  options.name = "throwing";
  options.schedule = schedule;
  options.protocol = protocol;
  try {
    mpi::parallel_for(
        MPI_COMM_WORLD, 0, 100000,
        [&](std::int64_t i) {
          if (i == 4242) {
            i_failed = true;
            throw std::runtime_error("planted failure in the body");
          }
        },
        options);
  } catch (const autosched::Error& e) {
    threw = true;
    message = e.what();
  }
  const std::string what = "throwing body, " + schedule + " (" + std::string(mpi::protocol_name(protocol)) + ")";
  expect(threw, what + ": no error on this rank");
  expect(message.find(" failed: planted failure in the body") != std::string::npos, what + ": message '" + message + "'");
  if (i_failed) expect(message.find("rank " + std::to_string(rank) + " failed") != std::string::npos, what + ": names the failing rank");
  check_coverage(schedule, protocol, 0, 5000);  // nothing left over from the aborted instance
}

void check_bounds_mismatch() {
  if (ranks == 1) return;  // nobody to disagree with
  bool threw = false;
  try {
    mpi::parallel_for(MPI_COMM_WORLD, 0, rank == ranks - 1 ? 99 : 100, [](std::int64_t) {}, {.name = "mismatch"});
  } catch (const autosched::Error& e) {
    threw = std::string(e.what()).find("bounds") != std::string::npos;
  }
  expect(threw, "ranks with different bounds: every rank throws naming the bounds");
}

void check_bad_schedule() {
  bool threw = false;
  try {
    mpi::parallel_for(MPI_COMM_WORLD, 0, 10, [](std::int64_t) {}, {.name = "bad", .schedule = "fastest"});
  } catch (const autosched::Error& e) {
    threw = std::string(e.what()).find("fastest") != std::string::npos;
  }
  expect(threw, "an unknown technique: every rank throws naming it");
}

void check_selectors(bool quick) {
  const int steps = quick ? 20 : 40;
  // Every selector of the thread level, the chunk-parameter agent included.
  for (const char* schedule : {"auto", "auto:random", "auto:exhaustive", "auto:binary", "auto:expert", "auto:qlearn",
                               "auto:sarsa", "auto:doubleq", "auto:qv", "auto:expected-sarsa", "auto:chunk"}) {
    for (int s = 0; s < steps; ++s) check_coverage(schedule, mpi::Protocol::automatic, 0, 20000);
  }
}

/// auto's second instance profiles the loop over the ranks (the first, which
/// may be the only one, runs static; master-worker:
/// every chunk's time must reach the coordinator, the last ones included),
/// and the ranking that follows tries a handful of arms. A lost chunk time
/// leaves no cost profile, and auto then sweeps its whole portfolio (24 arms).
void check_auto_profiles() {
  std::set<std::string> tried;
  std::string first, second;
  for (int step = 0; step < 25; ++step) {
    const mpi::LoopResult r = mpi::parallel_for(
        MPI_COMM_WORLD, 0, 30000,
        [](std::int64_t i) {
          volatile double x = 0;
          for (std::int64_t k = 0; k < i / 1000; ++k) x = x + 1.0;
        },
        {.name = "auto-profiles", .schedule = "auto"});
    if (step == 0) first = r.technique;
    if (step == 1) second = r.technique;
    tried.insert(r.technique);
  }
  expect(first == "gss" || first == "guided-llvm", "auto's first instance runs guided (ran " + first + ")");
  expect(second == "profiling", "auto's second instance profiles the loop (ran " + second + ")");
  // guided + profiling + at most 4 shortlisted + 2 extra arms (+1 for a re-profile after a false alarm).
  expect(tried.size() <= 9, "auto tried " + std::to_string(tried.size()) + " techniques in 25 steps: no ranking?");
}

/// How many indices the ranks together ran other than exactly once, from
/// each rank's count per index (the same answer on every rank).
std::int64_t not_run_once(const std::vector<std::int64_t>& seen) {
  std::vector<std::int64_t> all(seen.size(), 0);
  MPI_Allreduce(seen.data(), all.data(), static_cast<int>(seen.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  std::int64_t wrong = 0;
  for (const std::int64_t c : all) wrong += c != 1;
  return wrong;
}

/// A trial that runs past auto's budget is cut, as at the thread level: the
/// coordinator takes the unclaimed rest from it and the rest runs on the best
/// arm so far, every index still exactly once. Each range a rank receives
/// costs 1 ms, so static takes a few ms and ss, one index per range, would
/// take 3000 ms / ranks; cut at twice static's time it hands out a few dozen
/// ranges per rank (573 in all with 8 ranks on 2 cores; uncut: 3000).
void check_guard_cuts_a_slow_trial() {
  const std::int64_t n = 3000;
  mpi::LoopOptions options;
  options.name = "guarded";
  options.schedule = "auto,predict=no,guard=2,portfolio=static,ss";
  options.protocol = mpi::Protocol::master_worker;
  int trials = 0;
  for (int step = 0; step < 4; ++step) {
    std::vector<std::int64_t> seen(static_cast<std::size_t>(n), 0);
    const mpi::LoopResult r = mpi::parallel_for_chunks(
        MPI_COMM_WORLD, 0, n,
        [&](std::int64_t first, std::int64_t last) {
          for (std::int64_t i = first; i < last; ++i) ++seen[static_cast<std::size_t>(i)];
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        options);
    const std::int64_t wrong = not_run_once(seen);
    std::int64_t chunks = 0;
    MPI_Allreduce(&r.own_chunks, &chunks, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    const std::string what = "guarded trial, step " + std::to_string(step) + " (" + r.technique + ")";
    expect(wrong == 0, what + ": " + std::to_string(wrong) + " indices not run exactly once");
    if (r.technique == "ss") {
      ++trials;
      expect(chunks < n / 2, what + ": " + std::to_string(chunks) + " ranges handed out: the trial was not cut");
      if (rank == 0) expect(r.cut_short, what + ": the coordinator reports no cut");
    } else if (rank == 0) {
      expect(!r.cut_short, what + ": an unguarded instance was cut");
    }
  }
  // static, static again (the first instance of a process is not judged), then the ss trial.
  expect(trials == 1, "guarded trial: ss ran " + std::to_string(trials) + " times in 4 steps, expected once");
}

/// Every technique as a cut trial, and as the fallback that runs the rest:
/// whatever the pair, every index exactly once. The trial's ranges cost 1 ms
/// each and static's few ranges set a budget the trial overruns, so its rest
/// is taken over (where the technique can give it back) at a point that
/// depends on the machine's load: that is what went wrong once under load.
void check_every_cut_covers_once() {
  const std::int64_t n = 2000;
  int cuts = 0, trials = 0;
  for (const auto& info : autosched::technique_catalogue()) {
    const std::string name(info.name);
    if (name == "static" || name == "profiling") continue;  // profiling is auto's own step, not an arm
    for (const std::string& portfolio : {"static," + name, name + ",static"}) {
      // LoopOptions holds views: the strings must outlive the loops.
      const std::string name_text = "cut/" + portfolio;
      const std::string schedule_text = "auto,predict=no,guard=1.5,portfolio=" + portfolio;
      mpi::LoopOptions options;
      options.name = name_text;
      options.schedule = schedule_text;
      options.protocol = mpi::Protocol::master_worker;
      for (int step = 0; step < 4; ++step) {
        std::vector<std::int64_t> seen(static_cast<std::size_t>(n), 0);
        bool outside = false;
        const mpi::LoopResult r = mpi::parallel_for_chunks(
            MPI_COMM_WORLD, 0, n,
            [&](std::int64_t first, std::int64_t last) {
              if (first < 0 || last > n || first >= last) {
                outside = true;
                return;
              }
              for (std::int64_t i = first; i < last; ++i) ++seen[static_cast<std::size_t>(i)];
              std::this_thread::sleep_for(std::chrono::microseconds(300));
            },
            options);
        const std::int64_t wrong = not_run_once(seen);
        const std::string what = "cut trial " + portfolio + ", step " + std::to_string(step) + " (ran " + r.technique +
                                 (r.cut_short ? ", cut" : "") + ")";
        expect(!outside, what + ": a range outside [0, n) or empty");
        expect(wrong == 0, what + ": " + std::to_string(wrong) + " indices not run exactly once");
        expect(r.iterations == n, what + ": " + std::to_string(r.iterations) + " iterations reported");
        trials += r.technique == name;
        cuts += r.cut_short;
      }
    }
  }
  // How many are cut depends on the machine's load (static-steal never is:
  // it cannot give its rest back), but with none this would check nothing.
  if (rank == 0) {
    std::printf("cut trials: %d of %d instances of the trial arms\n", cuts, trials);
    expect(cuts > 0, "no trial was cut in " + std::to_string(trials) + " instances");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool quick = argc > 1 && std::string_view(argv[1]) == "--quick";
  check_all_techniques(quick);
  for (const char* s : {"fac2", "awf-b", "static", "ss"}) {
    check_throwing_body(mpi::Protocol::master_worker, s);
    check_throwing_body(mpi::Protocol::automatic, s);
  }
  check_bounds_mismatch();
  check_protocol_knobs();
  check_early_finish();
  check_bad_schedule();
  check_selectors(quick);
  check_auto_profiles();
  check_guard_cuts_a_slow_trial();
  check_every_cut_covers_once();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("test_mpi_loops: %d ranks, %d failed checks\n", ranks, all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
