// A target for the `autosched pin` checks: the main thread waits DELAY
// seconds, then starts one thread that prints its kernel tid ("late tid N")
// and spins for WORK seconds; the program then exits with status CODE.
//   pin_probe DELAY WORK CODE
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: pin_probe DELAY_S WORK_S EXIT_CODE\n");
    return 2;
  }
  using clock = std::chrono::steady_clock;
  const auto seconds = [](const char* s) { return std::chrono::duration<double>(std::atof(s)); };
  std::this_thread::sleep_for(seconds(argv[1]));
  const auto work = seconds(argv[2]);
  std::thread late([work] {
    std::printf("late tid %ld\n", static_cast<long>(syscall(SYS_gettid)));
    std::fflush(stdout);
    volatile double x = 0;
    for (const auto end = clock::now() + work; clock::now() < end;) x = x + 1.0;  // busy, so it has a CPU share
  });
  late.join();
  return std::atoi(argv[3]);
}
