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
#include <string>

namespace autosched::omp {

/// AUTOSCHED_OMP_REPORT's file name with `%p` replaced by the process id,
/// `%r` by the MPI rank the launcher exported (0 without one) and `%%` by %.
std::string report_path(const std::string& pattern);

/// Writes the report to `out`.
void write_report(std::FILE* out);
/// Writes it where AUTOSCHED_OMP_REPORT says, once per process (the
/// session's exit hook, or the library's unload when no loop was taken):
/// nothing from a process that ran no parallel region; a file named without
/// %p or %r gets this process's section appended.
void write_report_once();

}  // namespace autosched::omp
