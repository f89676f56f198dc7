#pragma once
/// @file
/// The drop-in's account at exit (`autosched run --report`, or
/// AUTOSCHED_OMP_REPORT=stderr|<file>): a row per loop it scheduled — where
/// it is, instances ("1 (once)" for a loop that ran once), the arm of its
/// latest instance, mean time, the share of explored instances, the arm the
/// program's own runtime would have run, and, for a loop whose decision
/// points resumed from the store, how many earlier instances they had learned
/// from — then every entry it passed on to the runtime, by reason. No time
/// "saved" against the runtime's arm: under a selector that arm is rarely
/// run, and then on other instances (docs/dropin.md, "The report").

#include <cstdio>

namespace autosched::omp {

/// Writes the report to `out`.
void write_report(std::FILE* out);
/// Writes it where AUTOSCHED_OMP_REPORT says, once per process (the
/// session's exit hook, or the library's unload when no loop was taken).
void write_report_once();

}  // namespace autosched::omp
