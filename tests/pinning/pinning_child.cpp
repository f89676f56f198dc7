// A child process for the manager's /proc tests. Reads one-letter commands
// from stdin and answers on stdout, one line each:
//   t  start a spinning-free worker thread; answers its tid
//   e  end that thread and join it; answers "ended"
//   q  quit
// It prints its own main tid first. It sleeps instead of spinning: the test
// is about which threads are seen, not their speed. An alarm ends it if the
// parent goes away without saying q.
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <thread>

int main() {
  alarm(120);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("%ld\n", static_cast<long>(syscall(SYS_gettid)));
  std::atomic<bool> stop{false};
  std::atomic<long> tid{0};
  std::thread worker;
  int c;
  while ((c = std::getchar()) != EOF) {
    if (c == 't' && !worker.joinable()) {
      stop = false;
      tid = 0;
      worker = std::thread([&] {
        tid = static_cast<long>(syscall(SYS_gettid));
        while (!stop.load()) usleep(1000);
      });
      while (tid.load() == 0) usleep(100);
      std::printf("%ld\n", tid.load());
    } else if (c == 'e' && worker.joinable()) {
      stop = true;
      worker.join();
      std::printf("ended\n");
    } else if (c == 'q') {
      break;
    }
  }
  stop = true;
  if (worker.joinable()) worker.join();
  return 0;
}
