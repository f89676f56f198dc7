#pragma once
/// @file
/// The drop-in's account at exit (`autosched run --report`, or
/// AUTOSCHED_OMP_REPORT=stderr|<file>): a row per loop it scheduled — where
/// it is, instances, the arm it settled on, mean time, the share of explored
/// instances, and the time saved against the arm the program's own runtime
/// would have run, where that arm was measured — then every entry it passed
/// on to the runtime, by reason.

#include <cstdio>

namespace autosched::omp {

/// Writes the report to `out`.
void write_report(std::FILE* out);
/// Writes it where AUTOSCHED_OMP_REPORT says, once per process (the
/// session's exit hook, or the library's unload when no loop was taken).
void write_report_once();

}  // namespace autosched::omp
