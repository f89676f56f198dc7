#pragma once
/// @file
/// The process's recording session: the one place that wires the driver and
/// the selection engine (which know nothing of files) to the store, the trace
/// and the selectors' logs (which know nothing of loops). Every front-end
/// starts it before its first instance; one exit handler serves them all.
///
/// What it does once started:
///   - attaches an observer to the driver that turns each closed instance
///     into a store/trace row (posted to the background writer, never
///     written on the hot path) and, with AUTOSCHED_TRACE_THREADS=1, the
///     per-thread rows;
///   - connects the decision engine to the store (opened when the first
///     decision point needs it) and to the selectors' log files;
///   - at exit (or flush()): every decision point's selector state and every
///     front-end's own state (regions' models, …) go to the store, then the
///     writer drains.

#include <autosched/store/store.hpp>

namespace autosched::session {

/// Starts the session; idempotent and cheap after the first call.
void start();

/// The process's store through the session (opened on first call); nullptr
/// when AUTOSCHED_DB is off or the store is unusable (warned once).
autosched::detail::Store* store();

/// Registers `save`, called at exit and by flush() before the writer drains,
/// so a front-end's state reaches the store with everything else.
void on_finish(void (*save)());

/// Saves every decision point's and front-end's state and waits until
/// everything recorded so far is written.
void flush();

}  // namespace autosched::session
