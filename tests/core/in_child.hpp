#pragma once
// Runs a check in a forked child with a deadline, so that a regression that
// blocks (a FIFO opened without O_NONBLOCK) fails the test instead of
// hanging it. The deadline is a safety net, not a measurement: it is far
// longer than the check needs on any machine.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>

namespace autosched::testing {

/// "ok", "exit <code>", "killed by signal <n>" (SIGALRM: it blocked).
template <class Check>
std::string in_child(Check check, unsigned deadline_s = 60) {
  const pid_t child = fork();
  if (child == 0) {
    alarm(deadline_s);
    _exit(check() ? 0 : 1);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return "fork failed";
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? "ok" : "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) return "blocked past the deadline";
  return "killed by signal " + std::to_string(WTERMSIG(status));
}

}  // namespace autosched::testing
