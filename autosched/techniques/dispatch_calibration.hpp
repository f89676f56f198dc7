#pragma once
/// @file
/// What a dispatch costs on this machine where a profile cannot see it. The
/// `profiling` technique times every chunk, so its h includes a clock read
/// and a shared counter; static-steal's owner takes its chunks from its own
/// range without either. The loop simulator charges those chunks this
/// instead (CostProfile::set_owner_dispatch).
///
///   const double ns = measured_owner_dispatch_ns();  // first call measures, later calls return it

namespace autosched {

/// One chunk of static-steal's owner path on this machine, in ns: the real
/// StaticSteal object with one worker hands out single iterations from its
/// own range (lock, read, write, unlock on its own slot); the fastest of
/// four rounds of 512 chunks, by the host's clock. Measured on the first
/// call (a few microseconds, thread-safe), then kept for the process.
[[nodiscard]] double measured_owner_dispatch_ns();

}  // namespace autosched
