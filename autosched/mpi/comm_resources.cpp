#include <autosched/mpi/detail/comm_resources.hpp>

#include <algorithm>
#include <vector>

namespace autosched::mpi::detail {

namespace {

int keyval = MPI_KEYVAL_INVALID;
std::vector<CommResources*> live;  // creation order

void release(CommResources* r) {
  if (r->counter != MPI_WIN_NULL) MPI_Win_free(&r->counter);
  if (r->comm != MPI_COMM_NULL) MPI_Comm_free(&r->comm);
  live.erase(std::remove(live.begin(), live.end(), r), live.end());
  delete r;
}

int on_delete(MPI_Comm, int, void* value, void*) {
  release(static_cast<CommResources*>(value));
  return MPI_SUCCESS;
}

/// MPI_Finalize deletes MPI_COMM_SELF's attributes first: every cached
/// resource goes then, while MPI still works.
[[maybe_unused]] int on_finalize(MPI_Comm, int, void*, void*) {
  while (!live.empty()) MPI_Comm_delete_attr(live.front()->user, keyval);  // calls on_delete
  return MPI_SUCCESS;
}

}  // namespace

CommResources& resources(MPI_Comm user) {
  if (keyval == MPI_KEYVAL_INVALID) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &keyval, nullptr);
#ifndef SMPI_H
    // SimGrid SMPI (its mpi.h defines SMPI_H) runs COMM_SELF's deleters
    // after it has shut MPI down, where every MPI call aborts; the simulator
    // reclaims windows and communicators itself.
    int finalize_key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &finalize_key, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, nullptr);
#endif
  }
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(user, keyval, &value, &found);
  if (found) return *static_cast<CommResources*>(value);
  auto* r = new CommResources;
  r->user = user;
  MPI_Comm_dup(user, &r->comm);
  live.push_back(r);
  MPI_Comm_set_attr(user, keyval, r);
  return *r;
}

MPI_Win CommResources::rma_counter() {
  if (counter == MPI_WIN_NULL) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const MPI_Aint bytes = rank == 0 ? static_cast<MPI_Aint>(sizeof(std::int64_t)) : 0;
    MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, comm, &counter_memory, &counter);
    if (rank == 0) reset_counter();
    MPI_Barrier(comm);  // nobody fetches before the counter holds 0
  }
  return counter;
}

void CommResources::end_instance() {
#ifdef SMPI_H
  if (counter != MPI_WIN_NULL) {
    MPI_Win_free(&counter);
    counter_memory = nullptr;
  }
#endif
}

CommResources::DispatchQueues CommResources::dispatch_queues() {
  if (queues_measured) return queues;
  constexpr int rounds = 4;
  constexpr int tag = 7301;  // this communicator is the runtime's own duplicate: nothing else is in flight now
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double mine[2] = {0, 0}, longest[2] = {0, 0};

  // The counter: the same access as a chunk request (masterless.cpp).
  const MPI_Win w = rma_counter();  // holds 0 or the last instance's count: only contention matters here
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, w);
  for (int k = 0; k < rounds; ++k) {
    const std::int64_t one = 1;
    std::int64_t previous = 0;
    MPI_Fetch_and_op(&one, &previous, MPI_INT64_T, 0, 0, MPI_SUM, w);
    MPI_Win_flush(0, w);
  }
  MPI_Win_unlock(0, w);
  mine[0] = MPI_Wtime() - start;
  end_instance();

  // The coordinator: a request and its answer, rank 0 serving in arrival order.
  MPI_Barrier(comm);
  start = MPI_Wtime();
  std::int64_t message = 0;
  if (rank == 0) {
    for (int k = 0; k < rounds * (size - 1); ++k) {
      MPI_Status status;
      MPI_Recv(&message, 1, MPI_INT64_T, MPI_ANY_SOURCE, tag, comm, &status);
      MPI_Send(&message, 1, MPI_INT64_T, status.MPI_SOURCE, tag, comm);
    }
  } else {
    for (int k = 0; k < rounds; ++k) {
      MPI_Send(&message, 1, MPI_INT64_T, 0, tag, comm);
      MPI_Recv(&message, 1, MPI_INT64_T, 0, tag, comm, MPI_STATUS_IGNORE);
    }
  }
  mine[1] = MPI_Wtime() - start;

  MPI_Allreduce(mine, longest, 2, MPI_DOUBLE, MPI_MAX, comm);
  queues.counter_ns = longest[0] * 1e9 / (rounds * static_cast<double>(size));
  // With one rank the coordinator computes alone: nobody queues.
  queues.coordinator_ns = size > 1 ? longest[1] * 1e9 / (rounds * static_cast<double>(size - 1)) : 0.0;
  queues_measured = true;
  return queues;
}

void CommResources::reset_counter() {
  const std::int64_t zero = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, counter);
  MPI_Put(&zero, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, counter);
  MPI_Win_unlock(0, counter);
}

}  // namespace autosched::mpi::detail
