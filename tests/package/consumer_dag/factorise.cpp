// A tiled Cholesky of 2x2 tiles of 16^2 on two worker threads, through the
// installed autosched::dag_exec; exits 1 unless the factorisation verifies.
#include <autosched/dag/executor.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/platform.hpp>

#include <cstdio>

int main() {
  using namespace autosched::dag;
  TiledFactorization f("cholesky", 2, 16);
  const DurationTable table = calibrate("cholesky", 16, 1);
  auto scheduler = make_scheduler("mct-prio");
  const ExecutionResult r = execute(f, platform("2cpu"), *scheduler, table);
  std::printf("cholesky 2x2 tiles: makespan %.3f ms, residual %.2e, %s\n", r.makespan, r.residual,
              r.verified ? "verified" : "NOT verified");
  return r.verified ? 0 : 1;
}
