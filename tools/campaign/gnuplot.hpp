#pragma once
// Running gnuplot from the tools: whether it is installed, and quoting for
// the shell command that runs it. Campaign reports and `autosched dag`
// Gantt charts both draw their pictures this way.
#include <string>
#include <string_view>

namespace autosched::campaign {

/// Whether `gnuplot` is on the PATH (the pictures are optional: without it
/// the tools write the .gp scripts and say so).
[[nodiscard]] bool have_gnuplot();

/// `s` as one single-quoted shell word.
[[nodiscard]] std::string shell_quoted(std::string_view s);

/// Runs `gnuplot <script>` in `dir` (where the script's data and output
/// are named relative to it), its messages silenced; whether it succeeded.
[[nodiscard]] bool run_gnuplot(const std::string& dir, const std::string& script);

}  // namespace autosched::campaign
