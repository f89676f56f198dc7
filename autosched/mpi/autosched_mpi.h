/* autosched MPI loops, C interface: self-scheduling of a loop's iterations
 * across the ranks of a communicator, shaped like DLS4LB's C API so that a
 * DLS4LB program ports call by call (docs/mpi.md, "C and Fortran
 * interfaces"). Valid C99 and C++; the Fortran module autosched_mpi
 * (autosched_mpi.f90) wraps it.
 *
 *   autosched_mpi_loop* loop;
 *   autosched_mpi_setup(MPI_COMM_WORLD, "pi", &loop);        (once)
 *   autosched_mpi_set_schedule(loop, "fac2");                (optional; default: the environment, else auto)
 *   for (step = 0; step < steps; ++step) {
 *     int done;
 *     autosched_mpi_start_loop(loop, 0, n);                   (collective)
 *     while (autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_OK && !done) {
 *       int64_t start, size;
 *       autosched_mpi_start_chunk(loop, &start, &size);
 *       for (int64_t i = start; i < start + size; ++i) body(i);
 *       autosched_mpi_end_chunk(loop);
 *     }
 *     if (autosched_mpi_end_loop(loop, &iterations, &seconds) != AUTOSCHED_MPI_OK)   (collective)
 *       fprintf(stderr, "%s\n", autosched_mpi_last_error());
 *   }
 *   autosched_mpi_finalize(&loop);
 *
 * Unlike DLS4LB: indices are 64-bit, ranges are half open ([first, last)),
 * a chunk is [start, start + size), every field starts initialised (no
 * parameter call is needed before the first loop), and the schedule is
 * text ("fac2", "gss,chunk=16", "auto", "auto:qlearn"; docs/loops.md, "Schedules").
 * Only the coordinator's (rank 0 of the communicator) schedule counts: it
 * decides and broadcasts each instance's technique.
 *
 * Every function returns AUTOSCHED_MPI_OK or an error code and never aborts
 * or throws; autosched_mpi_last_error() gives this thread's last message.
 * A handle is used by one thread at a time. */
#ifndef AUTOSCHED_MPI_H
#define AUTOSCHED_MPI_H

#include <autosched/core/autosched_status.h>

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The statuses of autosched/core/autosched_status.h under this interface's
 * names: EINVAL a bad argument (NULL, an empty name, a schedule or bounds the
 * library rejects); ESTATE a call out of order (start_chunk before
 * start_loop, end_chunk without a chunk, finalize of a running loop; the
 * message names the call expected); EFAILED anything else (out of memory, MPI
 * not initialised); EABORTED (AUTOSCHED_EBODY) from end_loop: the instance
 * was aborted on every rank because a rank called autosched_mpi_fail (or
 * ended its loop early, or used other bounds); the message names the first
 * such rank and its reason. */
enum {
  AUTOSCHED_MPI_OK = AUTOSCHED_OK,
  AUTOSCHED_MPI_EINVAL = AUTOSCHED_EINVAL,
  AUTOSCHED_MPI_ESTATE = AUTOSCHED_ESTATE,
  AUTOSCHED_MPI_EFAILED = AUTOSCHED_EFAILED,
  AUTOSCHED_MPI_EABORTED = AUTOSCHED_EBODY
};

/* One loop of a program, on one rank: its name, schedule and the instance
 * running now. Opaque. */
typedef struct autosched_mpi_loop autosched_mpi_loop;

/* What the latest successful end_loop measured. */
typedef struct autosched_mpi_loop_result {
  char technique[32];       /* the technique that ran, e.g. "fac2", "profiling" (auto's first instance) */
  char protocol[16];        /* "master-worker" or "rma" */
  double loop_seconds;      /* earliest rank start to latest rank finish (MPI_Wtime) */
  int64_t iterations;       /* over all ranks (== last - first) */
  int64_t own_iterations;   /* run by this rank */
  int64_t own_chunks;       /* chunks this rank received */
  double own_work_seconds;  /* this rank's time inside its chunks */
  double percent_imbalance; /* over the ranks' finish times: (T_max - T_mean) / T_max * P/(P-1) * 100 */
} autosched_mpi_loop_result;

/* DLS_Setup. Creates a handle for loop `loop_name` (non-empty; its learning
 * and records are keyed by it, the same text on every rank) over `comm`.
 * Not collective. The communicator must stay valid until finalize. */
int autosched_mpi_setup(MPI_Comm comm, const char* loop_name, autosched_mpi_loop** loop);

/* The same with a Fortran communicator handle (converted by MPI_Comm_f2c):
 * the entry of the Fortran module. */
int autosched_mpi_setup_fint(MPI_Fint comm, const char* loop_name, autosched_mpi_loop** loop);

/* The schedule of the next instances (between instances only). NULL or "":
 * AUTOSCHED_SCHEDULE_FOR / AUTOSCHED_SCHEDULE, else "auto". Checked here:
 * AUTOSCHED_MPI_EINVAL names an unknown technique or key. */
int autosched_mpi_set_schedule(autosched_mpi_loop* loop, const char* schedule);

/* DLS_Parameters_Setup's protocol knobs (between instances only; none is
 * needed: every one has a default). protocol: "master-worker", "rma", or
 * NULL / "" / "auto" (rma where the technique allows it). request_when: a
 * master-worker worker asks for its next chunk when this many iterations of
 * the current one remain (0: 15% of the chunk). break_after: the coordinator
 * runs its own chunks in pieces of this many iterations, serving requests in
 * between (0: max(1, ceil(chunk / P) / 4)). */
int autosched_mpi_set_parameters(autosched_mpi_loop* loop, const char* protocol, int64_t request_when,
                                 int64_t break_after);

/* DLS_StartLoop. Collective over the communicator: one instance over the
 * iterations [first, last_exclusive) (none when last_exclusive <= first; at
 * most 2^62), the same bounds on every rank. */
int autosched_mpi_start_loop(autosched_mpi_loop* loop, int64_t first, int64_t last_exclusive);

/* DLS_Terminated. *done = 1 once this rank will receive no more chunks of
 * the instance, else 0 (it may wait for the coordinator's answer). */
int autosched_mpi_terminated(autosched_mpi_loop* loop, int* done);

/* DLS_StartChunk. This rank's next chunk: iterations [*start, *start + *size).
 * *size == 0 means the instance has terminated for this rank. */
int autosched_mpi_start_chunk(autosched_mpi_loop* loop, int64_t* start, int64_t* size);

/* DLS_EndChunk. The chunk of the latest start_chunk is done. */
int autosched_mpi_end_chunk(autosched_mpi_loop* loop);

/* This rank cannot go on (its body failed): the other ranks stop receiving
 * work and every rank's end_loop returns AUTOSCHED_MPI_EABORTED with this
 * message. Afterwards terminated() reports done; end_loop must still be
 * called. AUTOSCHED_MPI_ESTATE outside an instance. */
int autosched_mpi_fail(autosched_mpi_loop* loop, const char* message);

/* DLS_EndLoop. Collective: ends the instance; *iterations and *work_seconds
 * (either may be NULL) receive this rank's iteration count and time inside
 * its chunks. AUTOSCHED_MPI_EABORTED on every rank when a rank failed. The
 * handle is ready for the next start_loop either way. */
int autosched_mpi_end_loop(autosched_mpi_loop* loop, int64_t* iterations, double* work_seconds);

/* What the latest successful end_loop measured; AUTOSCHED_MPI_ESTATE before one. */
int autosched_mpi_last_result(const autosched_mpi_loop* loop, autosched_mpi_loop_result* result);

/* DLS_Finalize. Frees *loop and sets it to NULL (nothing to do when *loop is
 * NULL). AUTOSCHED_MPI_ESTATE, and the handle kept, while an instance runs
 * (end_loop first: the other ranks wait for this one). */
int autosched_mpi_finalize(autosched_mpi_loop** loop);

/* This thread's last error message ("" when none). */
const char* autosched_mpi_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* AUTOSCHED_MPI_H */
