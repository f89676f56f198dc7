// fork() while another thread runs loops. A std::thread runs
// schedule(runtime) loops in its own team without pause while the main
// thread forks FORKS times (it runs no team itself in the parent: libgomp's
// own child, forked from a thread whose team threads are gone, hangs); each child runs one schedule(runtime) loop (and
// one more after its first, so that a child's later loops work too), checks
// the sums and exits. The parent waits for each child at most 10 s: a child
// still running then is stuck on a lock the fork left held (the threads that
// held it did not survive). Natively this does not happen; under the drop-in
// it must not either. A plain OpenMP program: it never links autosched.
//
//   usage: omp_fork [forks [child-threads]]   (default 200 2); exit 0 when
//   every child ended well
#include <omp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

/// No reduction clause: libomp guards a reduction with a lock in the
/// program's memory, which a fork can leave held by a thread of the
/// background team (the child then spins natively too, about one child in
/// 800). Each iteration writes its own element instead.
long loop_sum(long n) {
  std::vector<long> values(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = i % 7;
  long sum = 0;
  for (const long v : values) sum += v;
  return sum;
}

long expected(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += i % 7;
  return sum;
}

/// 0: exited 0; 1: exited otherwise; 2: still running after `seconds`.
int wait_for(pid_t child, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int status = 0;
    const pid_t got = waitpid(child, &status, WNOHANG);
    if (got == child) return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    if (got < 0) return 1;
    if (std::chrono::steady_clock::now() > until) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return 2;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int forks = argc > 1 ? std::atoi(argv[1]) : 200;
  const int child_threads = argc > 2 ? std::atoi(argv[2]) : 2;
  const long n = 20000;
  const long want = expected(n);
  // The main thread meets the OpenMP runtime before forking, as any OpenMP
  // program's does: LLVM's libomp registers a thread it has never seen under
  // a lock that fork() can leave held by the background team (its own hang,
  // about one child in 400 natively when the child's thread is new to it).
  omp_set_num_threads(2);
  std::atomic<bool> stop{false};
  std::atomic<long> background_bad{0};
  std::thread background([&] {
    omp_set_num_threads(2);
    while (!stop.load()) {
      if (loop_sum(n) != want) background_bad.fetch_add(1);
    }
  });
  int hung = 0, failed = 0;
  for (int k = 0; k < forks; ++k) {
    const pid_t child = fork();
    if (child < 0) {
      std::perror("fork");
      return 1;
    }
    if (child == 0) {
      omp_set_num_threads(child_threads);
      const bool ok = loop_sum(n) == want && loop_sum(n / 2) == expected(n / 2);
      _exit(ok ? 0 : 3);
    }
    const int result = wait_for(child, 10.0);
    hung += result == 2;
    if (hung == 3) break;  // enough to know; each costs 10 s
    failed += result == 1;
  }
  stop.store(true);
  background.join();
  std::printf("forks %d: %d hung, %d failed; background loops wrong: %ld\n", forks, hung, failed,
              background_bad.load());
  return hung == 0 && failed == 0 && background_bad.load() == 0 ? 0 : 1;
}
