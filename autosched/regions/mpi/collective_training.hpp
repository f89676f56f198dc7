#pragma once
/// @file
/// Collective training of tunable regions over MPI (optional component
/// autosched::regions_mpi, built when CMake finds MPI). Each rank explores part
/// of the feature space; one collective call gives every rank the samples of
/// all ranks and the same model.
///
///   MPI_Init(&argc, &argv);
///   autosched::Region r("solve", {.features = {"n"}, .variants = {"cg", "gmres"}, .model = "dtree"});
///   for (...) { auto s = r.begin({n}); solve(s.variant()); }
///   autosched::mpi::train_regions_collectively(MPI_COMM_WORLD);  // on every rank
///
/// Apollo allgathers raw rows and merges them through an EMA in arrival
/// order, so ranks can end with different models (as Apollo's does).
/// Here ranks exchange compact per-(vector, variant) statistics and every rank
/// merges them in rank order onto one base table, so the result does not
/// depend on timing and is bit-identical wherever the same ranks share a region.

#include <mpi.h>

namespace autosched::mpi {

/// Collective over `comm` (every rank must call it, at the same point): each
/// rank contributes the samples its regions gathered since the last collective
/// training; every rank merges all ranks' samples for each region id it has, in
/// rank order, and trains. Ranks end with identical sample tables and identical
/// models for the regions they share.
///
/// Returns the number of regions trained here (a region whose merged samples
/// cover no feature vector yet, or whose model does not learn, merges its
/// samples but is not counted). A region whose merge fails, or whose features
/// or variants differ on other ranks, is warned about (autosched::detail::warn):
/// a failed region keeps its local state, and ranks declaring a region
/// differently are left out of each other's merge. A region that some ranks
/// lack is trained by the ranks that have it. Two live regions with one id on a
/// rank: the first created takes part, the other is warned about and skipped.
///
/// The regions taking part are locked from the moment their samples are read
/// until their new model is installed, so executions on other threads of this
/// rank wait for the call and no sample is lost or counted twice.
/// Throws autosched::Error when MPI is not initialised (or already finalised),
/// `comm` is MPI_COMM_NULL or an intercommunicator, or another rank sent a
/// record this version cannot read (all ranks throw alike then).
int train_regions_collectively(MPI_Comm comm);

}  // namespace autosched::mpi
