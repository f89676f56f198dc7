#pragma once
/// @file
/// The MPI front-end (autosched::mpi): loops self-scheduled across the ranks
/// of a communicator with the thread runtime's techniques and selectors.

#include <autosched/mpi/distributed_for.hpp>
#include <autosched/mpi/execution.hpp>
#include <autosched/mpi/loop_options.hpp>
#include <autosched/mpi/parallel_for.hpp>
#include <autosched/mpi/steal_ratio.hpp>
