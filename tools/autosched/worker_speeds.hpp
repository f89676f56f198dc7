#pragma once
// `--speeds 1:0.5`: relative worker speeds, repeated over the team (1, 0.5,
// 1, 0.5, …), for the simulated scenarios of `simulate` and `select-sim`.
#include <string>
#include <vector>

namespace autosched::cli {

/// Empty text: all workers equal (an empty vector). Throws autosched::Error
/// naming `option` for a value that is not a positive number.
std::vector<double> worker_speeds(const std::string& text, int workers, const char* option);

/// "2,20,56,128" → {2, 20, 56, 128}; throws for a count < 1.
std::vector<int> worker_counts(const std::string& text, const char* option);

}  // namespace autosched::cli
