#pragma once
// `autosched pin --plot F.png`: the core each managed thread ran on over
// time, drawn from the manager's trace (one step line per thread), so that
// a user sees the pinning decisions rather than reading a CSV of them.
#include <autosched/pinning/manager.hpp>

#include <string>
#include <vector>

namespace autosched::cli {

/// Writes <png without .png>.dat and .gp and, when gnuplot is installed,
/// draws `png`. Returns a line for the user: the picture, or the script and
/// why there is no picture. Throws autosched::Error when the files cannot be
/// written.
std::string draw_pin_cores(const std::string& png, const std::vector<pinning::TraceRow>& rows,
                           const std::string& title);

}  // namespace autosched::cli
