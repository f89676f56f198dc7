/* pi by the midpoint rule, written the DLS4LB way: the iterations of each
 * time step are self-scheduled across the ranks through autosched's MPI C
 * interface, and MPI_Reduce adds the ranks' partial sums. Self-verifying:
 * exits nonzero unless every step finds pi to 1e-9 and the ranks together
 * ran every iteration once.
 *   mpirun -np 4 pi_c [schedule [steps]]      (schedule: "fac2", "gss", "auto", ...; default: auto) */
#include <autosched/mpi/autosched_mpi.h>

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const double pi_reference = 3.14159265358979323846;

/* An error is the same on every rank for the collective calls; a local one
 * (a bug here) ends the job. */
static void must(int status, const char* call) {
  if (status != AUTOSCHED_MPI_OK) {
    fprintf(stderr, "%s failed (%d): %s\n", call, status, autosched_mpi_last_error());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* schedule = argc > 1 ? argv[1] : NULL;
  const int steps = argc > 2 ? atoi(argv[2]) : 6;
  const int64_t n = 2000000;
  const double h = 1.0 / (double)n;
  int failures = 0;

  autosched_mpi_loop* loop = NULL;
  must(autosched_mpi_setup(MPI_COMM_WORLD, "pi_c", &loop), "autosched_mpi_setup"); /* DLS_Setup */
  must(autosched_mpi_set_schedule(loop, schedule), "autosched_mpi_set_schedule");
  for (int step = 0; step < steps; ++step) {
    double partial = 0.0;
    int done = 0;
    must(autosched_mpi_start_loop(loop, 0, n), "autosched_mpi_start_loop"); /* DLS_StartLoop */
    for (;;) {
      must(autosched_mpi_terminated(loop, &done), "autosched_mpi_terminated"); /* DLS_Terminated */
      if (done) break;
      int64_t start = 0, size = 0;
      must(autosched_mpi_start_chunk(loop, &start, &size), "autosched_mpi_start_chunk"); /* DLS_StartChunk */
      for (int64_t i = start; i < start + size; ++i) {
        const double x = ((double)i + 0.5) * h;
        partial += 4.0 / (1.0 + x * x);
      }
      must(autosched_mpi_end_chunk(loop), "autosched_mpi_end_chunk"); /* DLS_EndChunk */
    }
    int64_t iterations = 0;
    double work_seconds = 0.0;
    must(autosched_mpi_end_loop(loop, &iterations, &work_seconds), "autosched_mpi_end_loop"); /* DLS_EndLoop */

    double sum = 0.0;
    int64_t all_iterations = 0;
    MPI_Reduce(&partial, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&iterations, &all_iterations, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      autosched_mpi_loop_result r;
      must(autosched_mpi_last_result(loop, &r), "autosched_mpi_last_result");
      const double pi = sum * h;
      const int ok = fabs(pi - pi_reference) < 1e-9 && all_iterations == n;
      failures += !ok;
      printf("step %d: pi = %.12f (error %.1e), %lld iterations, %s over %s, %.2f ms, imbalance %.1f%%%s\n", step, pi,
             fabs(pi - pi_reference), (long long)all_iterations, r.technique, r.protocol, r.loop_seconds * 1e3,
             r.percent_imbalance, ok ? "" : "  WRONG");
    }
  }
  must(autosched_mpi_finalize(&loop), "autosched_mpi_finalize"); /* DLS_Finalize */

  MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
