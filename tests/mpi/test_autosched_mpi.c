/* The C interface of the MPI loops (autosched/mpi/autosched_mpi.h), compiled
 * as C99, under mpiexec with any number of ranks: status codes and messages
 * for bad input and calls out of order; every index exactly once with the
 * DLS4LB call sequence for several techniques, bounds and sizes; a rank that
 * calls autosched_mpi_fail aborts the instance on every rank with a nonzero
 * status, and the handle runs the next instance normally. A plain main():
 * exits nonzero on every rank when any check failed anywhere.
 *   mpiexec -n 4 test_autosched_mpi */
#include <autosched/mpi/autosched_mpi.h>

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank = 0;
static int ranks = 1;
static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "rank %d: FAILED: %s (last error: '%s')\n", rank, what, autosched_mpi_last_error());
  }
}

static int error_mentions(const char* text) { return strstr(autosched_mpi_last_error(), text) != NULL; }

static void check_null_and_bad_arguments(void) {
  autosched_mpi_loop* loop = NULL;
  int64_t start = 0, size = 0;
  int done = 0;
  autosched_mpi_loop_result result;

  expect(autosched_mpi_setup(MPI_COMM_WORLD, "c_api/x", NULL) == AUTOSCHED_MPI_EINVAL, "setup: NULL out");
  expect(autosched_mpi_setup(MPI_COMM_WORLD, NULL, &loop) == AUTOSCHED_MPI_EINVAL && loop == NULL, "setup: NULL name");
  expect(autosched_mpi_setup(MPI_COMM_WORLD, "", &loop) == AUTOSCHED_MPI_EINVAL && error_mentions("name"),
         "setup: empty name");
  expect(
      autosched_mpi_setup(MPI_COMM_NULL, "c_api/x", &loop) == AUTOSCHED_MPI_EINVAL && error_mentions("MPI_COMM_NULL"),
      "setup: MPI_COMM_NULL");

  expect(autosched_mpi_set_schedule(NULL, "fac2") == AUTOSCHED_MPI_EINVAL && error_mentions("NULL"),
         "set_schedule: NULL handle");
  expect(autosched_mpi_start_loop(NULL, 0, 10) == AUTOSCHED_MPI_EINVAL, "start_loop: NULL handle");
  expect(autosched_mpi_terminated(NULL, &done) == AUTOSCHED_MPI_EINVAL, "terminated: NULL handle");
  expect(autosched_mpi_start_chunk(NULL, &start, &size) == AUTOSCHED_MPI_EINVAL, "start_chunk: NULL handle");
  expect(autosched_mpi_end_chunk(NULL) == AUTOSCHED_MPI_EINVAL, "end_chunk: NULL handle");
  expect(autosched_mpi_fail(NULL, "x") == AUTOSCHED_MPI_EINVAL, "fail: NULL handle");
  expect(autosched_mpi_end_loop(NULL, NULL, NULL) == AUTOSCHED_MPI_EINVAL, "end_loop: NULL handle");
  expect(autosched_mpi_last_result(NULL, &result) == AUTOSCHED_MPI_EINVAL, "last_result: NULL handle");
  expect(autosched_mpi_finalize(NULL) == AUTOSCHED_MPI_EINVAL, "finalize: NULL pointer");
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_OK, "finalize: NULL handle is nothing to do");

  expect(autosched_mpi_setup(MPI_COMM_WORLD, "c_api/order", &loop) == AUTOSCHED_MPI_OK && loop != NULL, "setup");
  expect(autosched_mpi_set_schedule(loop, "fastest") == AUTOSCHED_MPI_EINVAL && error_mentions("fastest"),
         "set_schedule: an unknown technique is rejected and named");
  expect(autosched_mpi_set_schedule(loop, "gss,chunk=-3") == AUTOSCHED_MPI_EINVAL, "set_schedule: a bad chunk");
  expect(autosched_mpi_set_parameters(NULL, NULL, 0, 0) == AUTOSCHED_MPI_EINVAL, "set_parameters: NULL handle");
  expect(autosched_mpi_set_parameters(loop, "mpi-3", 0, 0) == AUTOSCHED_MPI_EINVAL && error_mentions("mpi-3"),
         "set_parameters: an unknown protocol is rejected and named");
  expect(autosched_mpi_set_parameters(loop, "rma", -1, 0) == AUTOSCHED_MPI_EINVAL, "set_parameters: request_when < 0");

  /* Out of order before any instance. */
  expect(autosched_mpi_start_chunk(loop, &start, &size) == AUTOSCHED_MPI_ESTATE && error_mentions("start_loop"),
         "start_chunk before start_loop");
  expect(autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_ESTATE, "terminated before start_loop");
  expect(autosched_mpi_end_chunk(loop) == AUTOSCHED_MPI_ESTATE, "end_chunk before start_loop");
  expect(autosched_mpi_end_loop(loop, NULL, NULL) == AUTOSCHED_MPI_ESTATE, "end_loop before start_loop");
  expect(autosched_mpi_fail(loop, "x") == AUTOSCHED_MPI_ESTATE, "fail before start_loop");
  expect(autosched_mpi_last_result(loop, &result) == AUTOSCHED_MPI_ESTATE, "last_result before an instance ended");

  /* Bounds the library rejects: every rank gets the error, no instance runs. */
  expect(autosched_mpi_start_loop(loop, INT64_MIN, INT64_MAX) == AUTOSCHED_MPI_EINVAL && error_mentions("2^62"),
         "start_loop: more than 2^62 iterations");
  expect(autosched_mpi_start_chunk(loop, &start, &size) == AUTOSCHED_MPI_ESTATE, "no instance after a rejected start");

  /* Out of order inside an instance. */
  expect(autosched_mpi_set_schedule(loop, "fac2") == AUTOSCHED_MPI_OK, "set_schedule fac2");
  expect(autosched_mpi_start_loop(loop, 0, 1000) == AUTOSCHED_MPI_OK, "start_loop");
  expect(autosched_mpi_start_loop(loop, 0, 1000) == AUTOSCHED_MPI_ESTATE, "start_loop twice");
  expect(autosched_mpi_set_schedule(loop, "gss") == AUTOSCHED_MPI_ESTATE, "set_schedule inside an instance");
  expect(autosched_mpi_set_parameters(loop, "rma", 0, 0) == AUTOSCHED_MPI_ESTATE, "set_parameters inside an instance");
  expect(autosched_mpi_end_chunk(loop) == AUTOSCHED_MPI_ESTATE, "end_chunk without a chunk");
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_ESTATE && loop != NULL, "finalize inside an instance");
  expect(autosched_mpi_terminated(loop, NULL) == AUTOSCHED_MPI_EINVAL, "terminated: NULL done");
  expect(autosched_mpi_start_chunk(loop, NULL, &size) == AUTOSCHED_MPI_EINVAL, "start_chunk: NULL start");
  int64_t ran = 0;
  for (;;) {
    if (autosched_mpi_terminated(loop, &done) != AUTOSCHED_MPI_OK || done) break;
    if (autosched_mpi_start_chunk(loop, &start, &size) != AUTOSCHED_MPI_OK) break;
    if (ran == 0) {
      expect(autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_ESTATE, "terminated inside a chunk");
      expect(autosched_mpi_start_chunk(loop, &start, &size) == AUTOSCHED_MPI_ESTATE, "start_chunk inside a chunk");
    }
    ran += size;
    expect(autosched_mpi_end_chunk(loop) == AUTOSCHED_MPI_OK, "end_chunk");
  }
  /* Terminated: further chunks are empty. */
  expect(autosched_mpi_start_chunk(loop, &start, &size) == AUTOSCHED_MPI_OK && size == 0, "start_chunk after the end");
  int64_t iterations = -1;
  double seconds = -1;
  expect(autosched_mpi_end_loop(loop, &iterations, &seconds) == AUTOSCHED_MPI_OK, "end_loop");
  expect(iterations == ran && seconds >= 0, "end_loop reports this rank's iterations and time");
  expect(autosched_mpi_last_result(loop, &result) == AUTOSCHED_MPI_OK && result.iterations == 1000 &&
             strcmp(result.technique, "fac2") == 0,
         "last_result: 1000 iterations of fac2");
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_OK && loop == NULL, "finalize");
}

/* One instance of [first, first + n) with the DLS4LB call sequence; 1 when
 * every index ran exactly once over all ranks (the same answer everywhere). */
static int covered_once(autosched_mpi_loop* loop, int64_t first, int64_t n, int pull_with_terminated) {
  unsigned char* seen = calloc((size_t)(n > 0 ? n : 1), 1);
  unsigned char* total = calloc((size_t)(n > 0 ? n : 1), 1);
  int ok = seen != NULL && total != NULL;
  int status = autosched_mpi_start_loop(loop, first, first + n);
  ok = ok && status == AUTOSCHED_MPI_OK;
  int64_t own = 0;
  while (status == AUTOSCHED_MPI_OK) {
    int64_t start = 0, size = 0;
    if (pull_with_terminated) {
      int done = 0;
      status = autosched_mpi_terminated(loop, &done);
      if (status != AUTOSCHED_MPI_OK || done) break;
    }
    status = autosched_mpi_start_chunk(loop, &start, &size);
    if (status != AUTOSCHED_MPI_OK || size == 0) {
      ok = ok && (status != AUTOSCHED_MPI_OK || !pull_with_terminated); /* terminated() said there was more */
      break;
    }
    if (start < first || size < 0 || start + size > first + n) {
      ok = 0;
    } else {
      for (int64_t i = start; i < start + size; ++i) ++seen[i - first];
      own += size;
    }
    status = autosched_mpi_end_chunk(loop);
  }
  ok = ok && status == AUTOSCHED_MPI_OK;
  int64_t iterations = -1;
  double seconds = 0;
  ok = autosched_mpi_end_loop(loop, &iterations, &seconds) == AUTOSCHED_MPI_OK && ok;
  ok = ok && iterations == own;
  if (n > 0) {
    MPI_Allreduce(seen, total, (int)n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    for (int64_t i = 0; i < n && ok; ++i) ok = total[i] == 1;
  }
  autosched_mpi_loop_result r;
  ok = ok && autosched_mpi_last_result(loop, &r) == AUTOSCHED_MPI_OK && r.iterations == n;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  free(seen);
  free(total);
  return all_ok;
}

static void check_coverage(const char* protocol) {
  const char* schedules[] = {"static", "ss", "gss", "tss", "fac2", "awf-b", "af", "auto"};
  const int64_t firsts[] = {-5, (int64_t)1 << 40};
  const int64_t sizes[] = {0, 1, ranks - 1, 20011};
  autosched_mpi_loop* loop = NULL;
  expect(autosched_mpi_setup(MPI_COMM_WORLD, "c_api/coverage", &loop) == AUTOSCHED_MPI_OK, "setup coverage");
  expect(autosched_mpi_set_parameters(loop, protocol, 0, 0) == AUTOSCHED_MPI_OK, protocol);
  for (size_t s = 0; s < sizeof schedules / sizeof *schedules; ++s) {
    expect(autosched_mpi_set_schedule(loop, schedules[s]) == AUTOSCHED_MPI_OK, schedules[s]);
    for (size_t f = 0; f < 2; ++f) {
      for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
        char what[160];
        snprintf(what, sizeof what, "%s (%s): [%lld, %lld + %lld) exactly once (%s)", schedules[s], protocol,
                 (long long)firsts[f], (long long)firsts[f], (long long)sizes[k],
                 k % 2 ? "start_chunk alone" : "terminated");
        expect(covered_once(loop, firsts[f], sizes[k], k % 2 == 0), what);
      }
    }
  }
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_OK, "finalize coverage");
}

/* The last rank fails inside its first chunk (or, when the others took every
 * chunk before it asked, right after terminated): every rank's end_loop
 * reports the abort with the failing rank's message; then the next instance runs. */
static void check_failing_rank(const char* schedule, const char* protocol) {
  autosched_mpi_loop* loop = NULL;
  expect(autosched_mpi_setup(MPI_COMM_WORLD, "c_api/failing", &loop) == AUTOSCHED_MPI_OK, "setup failing");
  expect(autosched_mpi_set_schedule(loop, schedule) == AUTOSCHED_MPI_OK, "set_schedule failing");
  expect(autosched_mpi_set_parameters(loop, protocol, 0, 0) == AUTOSCHED_MPI_OK, "set_parameters failing");
  const int failing = ranks - 1;
  expect(autosched_mpi_start_loop(loop, 0, 50000) == AUTOSCHED_MPI_OK, "start_loop failing");
  int done = 0;
  int64_t start = 0, size = 0;
  if (rank == failing) {
    if (autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_OK && !done) {
      expect(autosched_mpi_start_chunk(loop, &start, &size) == AUTOSCHED_MPI_OK, "start_chunk before failing");
    }
    expect(autosched_mpi_fail(loop, "planted failure in chunk") == AUTOSCHED_MPI_OK, "fail");
    expect(autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_OK && done, "terminated reports done after fail");
  } else {
    while (autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_OK && !done) {
      if (autosched_mpi_start_chunk(loop, &start, &size) != AUTOSCHED_MPI_OK) break;
      autosched_mpi_end_chunk(loop);
    }
  }
  const int status = autosched_mpi_end_loop(loop, NULL, NULL);
  char what[160];
  snprintf(what, sizeof what, "%s (%s): end_loop returns AUTOSCHED_MPI_EABORTED on every rank", schedule, protocol);
  expect(status == AUTOSCHED_MPI_EABORTED, what);
  snprintf(what, sizeof what, "%s (%s): the message names the failing rank and its reason", schedule, protocol);
  char rank_text[32];
  snprintf(rank_text, sizeof rank_text, "rank %d failed", failing);
  expect(error_mentions("planted failure in chunk") && error_mentions(rank_text), what);
  snprintf(what, sizeof what, "%s (%s): the handle runs the next instance after an abort", schedule, protocol);
  expect(covered_once(loop, 0, 5000, 1), what);
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_OK, "finalize failing");
}

/* A rank with other bounds: the instance fails on every rank. */
static void check_mismatched_bounds(void) {
  autosched_mpi_loop* loop = NULL;
  expect(autosched_mpi_setup(MPI_COMM_WORLD, "c_api/mismatch", &loop) == AUTOSCHED_MPI_OK, "setup mismatch");
  int status = autosched_mpi_start_loop(loop, 0, rank == ranks - 1 ? 99 : 100);
  int done = 0;
  while (status == AUTOSCHED_MPI_OK && autosched_mpi_terminated(loop, &done) == AUTOSCHED_MPI_OK && !done) {
    int64_t start = 0, size = 0;
    if (autosched_mpi_start_chunk(loop, &start, &size) != AUTOSCHED_MPI_OK) break;
    autosched_mpi_end_chunk(loop);
  }
  status = autosched_mpi_end_loop(loop, NULL, NULL);
  if (ranks > 1) {
    expect(status == AUTOSCHED_MPI_EABORTED && error_mentions("bounds"), "other bounds: aborted on every rank");
  }
  expect(autosched_mpi_finalize(&loop) == AUTOSCHED_MPI_OK, "finalize mismatch");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  check_null_and_bad_arguments();
  check_coverage("auto");
  check_coverage("master-worker");
  check_failing_rank("fac2", "rma");
  check_failing_rank("fac2", "master-worker");
  check_failing_rank("awf-b", "auto");
  check_failing_rank("static", "auto");
  check_failing_rank("ss", "auto");
  check_mismatched_bounds();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("test_autosched_mpi: %d ranks, %d failed checks\n", ranks, all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
