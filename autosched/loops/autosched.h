/* autosched loops, C interface: self-scheduled parallel loops for C programs,
 * code generators and Fortran (ISO_C_BINDING). Valid C11 and C++.
 *
 *   static void body(int64_t first, int64_t last, void* arg) {
 *     double* y = (double*)arg;
 *     for (int64_t i = first; i < last; ++i) y[i] *= 2.0;
 *   }
 *   ...
 *   autosched_loop_options o;
 *   autosched_loop_options_init(&o);
 *   o.name = "scale";                  (required: learning and records are keyed by it)
 *   o.schedule = "gss";                (NULL: the environment, else "auto")
 *   if (autosched_parallel_for(0, n, body, y, &o) != AUTOSCHED_OK)
 *     fprintf(stderr, "%s\n", autosched_last_error());
 *
 * The body receives chunks [first, last) that together cover [begin, end)
 * exactly once, from the threads of the team (see docs/loops.md, "Teams").
 * Every function returns a status of autosched/core/autosched_status.h
 * (AUTOSCHED_OK, AUTOSCHED_EINVAL for a bad argument, AUTOSCHED_ESTATE from
 * autosched_last_instance for a loop that has not finished an instance,
 * AUTOSCHED_EBODY when the body threw: no further chunks were handed out,
 * the team joined, and the message is the exception's) and never aborts;
 * autosched_last_error() gives this thread's last message. The region
 * interface is autosched/regions/autosched_region.h. */
#ifndef AUTOSCHED_H
#define AUTOSCHED_H

#include <autosched/core/autosched_status.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The earlier name of AUTOSCHED_ESTATE here. */
enum { AUTOSCHED_ENOTFOUND = AUTOSCHED_ESTATE };

/* Which threads run the loop (autosched::Team). */
enum {
  AUTOSCHED_TEAM_AUTOMATIC = 0, /* join the enclosing OpenMP team inside a parallel region, else open one */
  AUTOSCHED_TEAM_JOIN = 1,      /* always work-share with the enclosing team (every thread must call) */
  AUTOSCHED_TEAM_OPEN = 2       /* always open a new team from the calling thread */
};

/* Runs iterations [first, last) with the caller's `arg`. */
typedef void (*autosched_loop_body)(int64_t first, int64_t last, void* arg);

/* How a loop is run. Fill with autosched_loop_options_init, then set fields.
 * The strings are read during the call only. */
typedef struct autosched_loop_options {
  const char* name;     /* the loop's id, non-empty */
  const char* schedule; /* schedule text ("gss,chunk=16", "auto:qlearn", ...); NULL or "": the environment, else auto */
  int threads;          /* team size when a team is opened; 0: OpenMP's (OMP_NUM_THREADS) */
  int team;             /* AUTOSCHED_TEAM_* */
  int nowait;           /* nonzero: in a joined team, threads leave without waiting for each other */
  int time_chunks;      /* nonzero: time every chunk as well as every thread */
} autosched_loop_options;

/* What was measured about one finished instance of a loop. */
typedef struct autosched_loop_instance {
  uint64_t instance;        /* 0-based index among the loop's instances */
  char technique[32];       /* the technique that ran, e.g. "gss" */
  char selector[32];        /* the selector that chose it ("auto", "qlearn", ...); "" for a fixed schedule */
  int64_t chunk;            /* chunk parameter used; 0: the technique's default */
  int64_t n;                /* iterations */
  int p;                    /* threads in the team */
  int failed;               /* nonzero: the body threw; the times cover the work done until then */
  double loop_time_ns;      /* from the loop's start to the last thread's finish */
  double lib;               /* load imbalance %, Auto4OMP's: (T_max - T_mean) / T_max * P/(P-1) * 100 */
  double percent_imbalance; /* load imbalance %, LB4MPI's: (T_max / T_mean - 1) * 100 */
} autosched_loop_instance;

/* Sets the defaults: no name, the environment's schedule, OpenMP's team size,
 * automatic team, wait, threads timed but not chunks. */
void autosched_loop_options_init(autosched_loop_options* options);

/* Calls body(first, last, arg) for chunks covering [begin, end) exactly once
 * (nothing when end <= begin; at most 2^62 iterations). */
int autosched_parallel_for(int64_t begin, int64_t end, autosched_loop_body body, void* arg,
                           const autosched_loop_options* options);

/* The most recent finished instance of loop `name`; AUTOSCHED_ENOTFOUND when none. */
int autosched_last_instance(const char* name, autosched_loop_instance* out);

/* Saves selector states and waits until everything recorded so far (store
 * history, traces, logs) is written. Done at exit by itself; call it before
 * a fork or an abrupt exit (_exit, MPI_Abort), or to read a trace now. */
int autosched_flush_records(void);

/* This thread's last error message ("" when none). */
const char* autosched_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* AUTOSCHED_H */
