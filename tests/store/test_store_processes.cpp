// The store and traces as applications meet them: whole processes (the
// store_probe program) run in sequence and side by side on one file.
#include <autosched/store/database.hpp>

#include "temp_dir.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace autosched {
namespace {

using testing::read_file;
using testing::TempDir;

struct ProbeRun {
  int rc = -1;
  std::string out, err;
  long explored = -1;
  std::string first;
};

// Runs store_probe with `env` (arguments of env(1)) and `args`; the schedule
// variables of the calling environment are removed so that only `env` counts.
// `shell` runs first in the same shell (limits, traps); the probe is killed
// after 120 s (rc 137), so that a probe that hangs fails its test instead of
// hanging the suite.
ProbeRun probe(const TempDir& dir, const std::string& env, const std::string& args, const std::string& shell = "") {
  static int count = 0;
  const std::string tag = std::to_string(++count);
  const std::string out = dir.file("probe" + tag + ".out"), err = dir.file("probe" + tag + ".err");
  const std::string command = (shell.empty() ? "" : shell + "; ") +
                              "timeout -s KILL 120 env -u AUTOSCHED_SCHEDULE -u OMP_SCHEDULE -u AUTOSCHED_TRACE " +
                              env + " " + STORE_PROBE + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  ProbeRun r;
  // A probe killed by a signal exits the shell with 128 + the signal: 139
  // for SIGSEGV, 134 for SIGABRT, 137 when the timeout killed it.
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  r.out = read_file(out);
  r.err = read_file(err);
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex("instances=\\d+ explored=(\\d+) first=(\\S+)"))) {
    r.explored = std::stol(m[1]);
    r.first = m[2];
  }
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A loop with one clearly best arm, in virtual time (1 µs per chunk, 1 ns per
// iteration): static runs one chunk per thread, self-scheduling 2^18 chunks
// of one iteration (its trial is cut short and the arm retired). Every static
// instance costs the same, so no change test fires, however busy the machine.
constexpr const char* stable_loop = "stable 40 262144 auto,portfolio=static,ss";

TEST(StoreProcesses, SecondRunResumesWithoutExploring) {
  TempDir dir;
  const std::string env = "STORE_PROBE_CHUNK_NS=1000 AUTOSCHED_DB=" + dir.file("s.db");
  const ProbeRun first = probe(dir, env, stable_loop);
  ASSERT_EQ(first.rc, 0) << first.err;
  // The profiling instance; ss's trial is not counted: in virtual time the
  // chunk cost is charged inside the body, so the profile sees it as
  // iteration time and predicts ss equal to static (a real profile sees h).
  EXPECT_GE(first.explored, 1) << first.out;
  const ProbeRun second = probe(dir, env, stable_loop);
  ASSERT_EQ(second.rc, 0) << second.err;
  EXPECT_EQ(second.first, "static") << second.out;
  // No sweep, no re-check: in virtual time every instance exploits the stored arm.
  EXPECT_EQ(second.explored, 0) << second.out;
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 80);
  const auto points = db.points();
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].loop, "stable");
  EXPECT_EQ(points[0].portfolio, "static,ss");
  EXPECT_EQ(points[0].selectors, std::vector<std::string>{"auto,portfolio=static,ss"});
}

// Runs two store_probe processes at once on `db`; both must succeed.
void run_side_by_side(const TempDir& dir, const std::string& db, const std::string& args) {
  // Two 2-thread teams share the cores: threads that wait should sleep, not spin.
  const std::string one =
      std::string("env OMP_WAIT_POLICY=passive AUTOSCHED_DB=") + db + " " + STORE_PROBE + " " + args;
  const std::string command = "env -u AUTOSCHED_SCHEDULE -u OMP_SCHEDULE -u AUTOSCHED_TRACE sh -c '" + one + " >" +
                              dir.file("a.out") + " 2>&1 & first=$!; " + one + " >" + dir.file("b.out") +
                              " 2>&1 & second=$!; wait $first && wait $second'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << read_file(dir.file("a.out")) << read_file(dir.file("b.out"));
}

TEST(StoreProcesses, ConcurrentWritersLoseNoRecord) {
  TempDir dir;
  // Both processes create the file at once and flush every 25 instances, so
  // their transactions interleave.
  run_side_by_side(dir, dir.file("s.db"), "shared 400 4096 auto:random,portfolio=static,gss,ss:16 25");
  const std::string output = read_file(dir.file("a.out")) + read_file(dir.file("b.out"));
  EXPECT_EQ(output.find("warning"), std::string::npos) << output;
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 800) << output;
  const std::string csv = db.export_csv();
  // Each process's rows, under its own run (short instances share rows).
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n\"shared\",13,2,[^,]+,1,[0-9]+,")));
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n\"shared\",13,2,[^,]+,2,[0-9]+,")));
}

TEST(StoreProcesses, ConcurrentProcessesMoveACorruptFileAsideOnce) {
  TempDir dir;
  testing::write_file(dir.file("s.db"), testing::damaged_sqlite_file(9000));
  run_side_by_side(dir, dir.file("s.db"), "shared 200 4096 auto:random,portfolio=static,gss,ss:16 25");
  const std::string output = read_file(dir.file("a.out")) + read_file(dir.file("b.out"));
  EXPECT_EQ(dir.count_starting_with("s.db.unusable-"), 1) << output;
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 400) << output;
}

// A process that forks after recording: the child neither hangs nor writes
// to the parent's store (SQLite connections do not survive a fork); the
// parent's rows all arrive.
TEST(StoreProcesses, AForkedChildRecordsNothingAndDoesNotHang) {
  TempDir dir;
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=" + dir.file("s.db"), "forking 20 1000 auto 0 fork");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("a child process forked while the program ran loops"), std::string::npos) << r.err;
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 20);
  EXPECT_EQ(db.runs(), 1);
}

TEST(StoreProcesses, OffKeepsNothing) {
  TempDir dir;
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=off XDG_CACHE_HOME=" + dir.file("cache") + " HOME=" + dir.file("home"),
                           "quiet 10 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("cache")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("home")));
  EXPECT_EQ(r.err, "");
}

TEST(StoreProcesses, DefaultsToTheCacheDirectory) {
  TempDir dir;
  const ProbeRun r = probe(dir, "-u AUTOSCHED_DB XDG_CACHE_HOME=" + dir.file("cache"), "cached 10 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string path = dir.file("cache") + "/autosched/autosched.db";
  ASSERT_TRUE(std::filesystem::exists(path));
  Database db(path);
  EXPECT_EQ(db.recorded_instances(), 10);
}

TEST(StoreProcesses, FixedSchedulesNeverOpenTheStore) {
  TempDir dir;
  const ProbeRun r = probe(dir, "-u AUTOSCHED_DB XDG_CACHE_HOME=" + dir.file("cache"), "fixed 10 1000 gss");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("cache")));
}

TEST(StoreProcesses, ACorruptFileIsMovedAsideAndTheRunGoesOn) {
  TempDir dir;
  testing::write_file(dir.file("s.db"), testing::damaged_sqlite_file(5000));
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=" + dir.file("s.db"), "after 10 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("autosched: warning: store " + dir.file("s.db") + " is unreadable"), std::string::npos) << r.err;
  EXPECT_EQ(dir.count_starting_with("s.db.unusable-"), 1);
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 10);
}

TEST(StoreProcesses, AnUnusablePathTurnsTheStoreOffWithAWarning) {
  TempDir dir;
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=/proc/autosched-not-here/s.db", "nowhere 10 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;  // the probe checks that every iteration ran
  EXPECT_NE(r.err.find("the store is off for this run"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("AUTOSCHED_DB"), std::string::npos) << r.err;
}

TEST(Traces, CsvHasOneRowPerInstanceWithTheRlReward) {
  TempDir dir;
  const std::string trace = dir.file("t.csv");
  const ProbeRun r =
      probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE_THREADS=1 AUTOSCHED_TRACE=" + trace, "traced 12 5000 auto:qlearn");
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto rows = lines(read_file(trace));
  ASSERT_EQ(rows.size(), 13u);
  EXPECT_EQ(rows[0],
            "loop,instance,selector,explored,technique,chunk,exp_chunk,n,p,loop_time_ns,lib,percent_imbalance,cov,"
            "stddev,skewness,kurtosis,selector_ns,selector_state,reward,cut_short,failed");
  for (int k = 0; k < 12; ++k) {
    // loop, instance, selector, explored (explore-first: all 12 explore), …, n, p
    const std::regex expected("\"traced\"," + std::to_string(k) + ",qlearn,1,[a-z0-9-]+,\\d+,[01],5000,2,\\d+,.*");
    EXPECT_TRUE(std::regex_match(rows[static_cast<std::size_t>(k) + 1], expected)) << rows[k + 1];
    // the agent's state, and the reward (third from the end) is filled for an RL agent;
    // the agent has already decided the next instance (it decides ahead)
    EXPECT_TRUE(std::regex_search(rows[static_cast<std::size_t>(k) + 1],
                                  std::regex(",\"explore " + std::to_string(k + 1) + "/144\",-?[0-9.e+-]+,0,0$")))
        << rows[k + 1];
  }
  const auto threads = lines(read_file(trace + ".threads.csv"));
  ASSERT_EQ(threads.size(), 1u + 12 * 2);
  EXPECT_EQ(threads[0], "loop,instance,thread,start_ns,finish_ns,busy_ns,chunks,iterations");
}

TEST(Traces, JsonIsOneArrayOfInstances) {
  TempDir dir;
  const std::string trace = dir.file("t.json");
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE=" + trace, "json 7 5000 gss");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string text = read_file(trace);
  ASSERT_GE(text.size(), 4u);
  EXPECT_EQ(text.substr(0, 2), "[\n");
  EXPECT_EQ(text.substr(text.size() - 3), "\n]\n");
  const std::regex object(
      "\\{\"loop\": \"json\", \"instance\": (\\d), \"selector\": \"\", \"explored\": false, \"technique\": \"gss\", "
      "\"chunk\": 0, \"exp_chunk\": false, \"n\": 5000, \"p\": 2, \"loop_time_ns\": \\d+, [^{}]*\"reward\": null, "
      "\"cut_short\": false, \"failed\": false\\}");
  int count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), object); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1], std::to_string(count));
    ++count;
  }
  EXPECT_EQ(count, 7);
  // Objects are separated by exactly one comma.
  EXPECT_EQ(std::count(text.begin(), text.end(), '{'), 7);
  EXPECT_EQ(std::regex_search(text, std::regex("\\}\\s*\\{")), false);
}

// An RL agent's per-step log is complete at exit even when nothing else is
// recorded (no store, no trace): one line per learning step.
TEST(Traces, SelectorLogsAreCompleteWithoutStoreOrTrace) {
  TempDir dir;
  const std::string log = dir.file("agent.log");
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=off", "logged 50 1000 auto:qlearn,stats=" + log);
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto rows = lines(read_file(log));
  // A step is logged when the next choice learns from it; the agent makes
  // that choice as soon as the instance ends, so the last step is logged too.
  ASSERT_EQ(rows.size(), 50u);
  EXPECT_EQ(rows.front().rfind("logged#10/2,0,", 0), 0u) << rows.front();
  EXPECT_EQ(rows.back().rfind("logged#10/2,49,", 0), 0u) << rows.back();
}

TEST(Traces, AnUnwritableTraceIsAWarningNotAFailure) {
  TempDir dir;
  const ProbeRun r =
      probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE=/proc/autosched-not-here/t.csv", "untraced 3 100 gss");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex("AUTOSCHED_TRACE=/proc/autosched-not-here/t.csv: cannot write this file \\(.+\\); no trace")))
      << r.err;
}

// A file that is not SQLite at all is most likely the user's: AUTOSCHED_DB
// named it by mistake. It is left exactly as it was; the run goes on without
// a store.
TEST(StoreProcesses, AUsersFileIsLeftAloneAndTheRunGoesOn) {
  TempDir dir;
  const std::string text = "my notes, not a database\n" + std::string(5000, '#');
  testing::write_file(dir.file("notes.txt"), text);
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=" + dir.file("notes.txt"), "mine 10 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find(dir.file("notes.txt") + " is not an SQLite file; it is left as it is"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the store is off for this run"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir.file("notes.txt")), text);
  EXPECT_EQ(dir.count_starting_with("notes.txt.unusable-"), 0);
}

// The exit handler closes the store after the writer drained: SQLite's last
// checkpoint removes the WAL and its index instead of leaving them behind.
TEST(StoreProcesses, TheStoreIsClosedAtExit) {
  TempDir dir;
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=" + dir.file("s.db"), "closing 20 1000 auto");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("s.db")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.db-wal")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.db-shm")));
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.recorded_instances(), 20);
}

// "off" is spelled several ways; none of them creates a file of that name.
TEST(StoreProcesses, EveryOffSpellingKeepsNothing) {
  TempDir dir;
  for (const char* off : {"false", "no", "OFF", "none", "0"}) {
    const ProbeRun r = probe(dir, std::string("AUTOSCHED_DB=") + off + " AUTOSCHED_TRACE=" + off,
                             "spelled 3 100 auto", "cd " + dir.path().string());
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err, "") << off;
    EXPECT_FALSE(std::filesystem::exists(dir.file(off))) << off;
  }
}

// ThreadSanitizer's runtime itself faults (SIGBUS) in a process under a file
// size limit, so the fault tests that use that seam skip themselves in the
// TSan build; they run in the Release and the ASan + UBSan builds.
constexpr bool under_thread_sanitizer() {
#if defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

// The store on a disk that fills up while the program runs. The seam: a file
// size limit (ulimit -f, 512-byte blocks) with SIGXFSZ ignored, so that the
// store's writes past 64 KiB fail as on a full tmpfs (found on a 256 KiB
// tmpfs: 35 of 37 runs crashed or hung at exit, the writer's last flush
// warning after the warning state had been destroyed). The auto selector
// saves its state at exit, so the writer's last round always fails and
// warns. Expected: warnings, exit status 0, every iteration run, within the
// probe's timeout.
TEST(StoreProcesses, AFullDiskIsAWarningAndACleanExit) {
  if (under_thread_sanitizer()) GTEST_SKIP() << "file size limits break ThreadSanitizer's runtime";
  TempDir dir;
  for (int run = 0; run < 3; ++run) {
    const std::string db = dir.file("full" + std::to_string(run) + ".db");
    const ProbeRun r = probe(dir, "AUTOSCHED_DB=" + db, "filling 1500 1000 auto 100",
                             "trap '' XFSZ; ulimit -f 128");
    ASSERT_EQ(r.rc, 0) << "run " << run << ":\n" << r.err;
    EXPECT_NE(r.out.find("instances=1500"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("autosched: warning: "), std::string::npos) << r.err;
  }
}

// A trace whose writes fail (a full disk) says so once, naming the file, and
// the program exits normally. /dev/full is refused when opened; the full
// disk is the file size limit seam again.
TEST(Traces, AFailingTraceIsOneWarningNamingTheFile) {
  if (under_thread_sanitizer()) GTEST_SKIP() << "file size limits break ThreadSanitizer's runtime";
  TempDir dir;
  const std::string trace = dir.file("t.csv");
  const ProbeRun r = probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE=" + trace, "lost 3000 100 gss",
                           "trap '' XFSZ; ulimit -f 64");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string warning = "autosched: warning: trace " + trace + ": writing failed";
  const auto first = r.err.find(warning);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, first + 1), std::string::npos) << r.err;  // once, not once per row
}

TEST(Traces, DevFullAsATraceOrSelectorLogIsAWarning) {
  TempDir dir;
  const ProbeRun trace = probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE=/dev/full", "devfull 5 100 gss");
  ASSERT_EQ(trace.rc, 0) << trace.err;
  EXPECT_NE(trace.err.find("AUTOSCHED_TRACE=/dev/full: cannot write this file"), std::string::npos) << trace.err;
  for (const char* key : {"stats", "qtable"}) {
    const ProbeRun log = probe(dir, "AUTOSCHED_DB=off", std::string("devfull 5 100 auto:qlearn,") + key + "=/dev/full");
    ASSERT_EQ(log.rc, 0) << log.err;
    EXPECT_NE(log.err.find("selector log /dev/full"), std::string::npos) << key << ": " << log.err;
  }
}

// A FIFO where a trace, a selector log or a replay list is expected used to
// block the program forever (opening a FIFO waits for its other end). Each
// is refused with a warning; the probe's timeout turns a regression into a
// failure.
TEST(Traces, AFifoIsRefusedInsteadOfBlocking) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const ProbeRun trace = probe(dir, "AUTOSCHED_DB=off AUTOSCHED_TRACE=" + fifo, "piped 5 100 gss");
  ASSERT_EQ(trace.rc, 0) << trace.err;
  EXPECT_NE(trace.err.find("AUTOSCHED_TRACE=" + fifo + ": cannot write this file (it is a FIFO"), std::string::npos)
      << trace.err;
  for (const char* key : {"stats", "qtable"}) {
    const ProbeRun log = probe(dir, "AUTOSCHED_DB=off", std::string("piped 5 100 auto:qlearn,") + key + "=" + fifo);
    ASSERT_EQ(log.rc, 0) << log.err;
    EXPECT_NE(log.err.find("selector log " + fifo + " (it is a FIFO"), std::string::npos) << key << ": " << log.err;
  }
  const ProbeRun replay =
      probe(dir, "AUTOSCHED_DB=off", "piped 5 100 auto:qlearn,policy=replay,portfolio=static,gss,replay=" + fifo);
  EXPECT_NE(replay.err.find("it is a FIFO, not a regular file"), std::string::npos) << replay.err;
  EXPECT_NE(replay.rc, 137) << "the probe blocked on the FIFO";
}

}  // namespace
}  // namespace autosched
