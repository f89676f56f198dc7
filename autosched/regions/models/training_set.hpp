#pragma once
/// @file
/// What the region models learn from: feature vectors with the class (the
/// technique) that was best for them. Kept as one flat row-major array so a
/// tree's split search reads it without indirection.

#include <autosched/core/error.hpp>

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace autosched {

/// Rows for a classifier: feature vectors (row-major, `features` doubles each) and their labels.
struct TrainingSet {
  int features = 0;         ///< F
  int classes = 0;          ///< labels are in [0, classes)
  std::vector<double> x{};  ///< rows() * features values
  std::vector<int> y{};     ///< one label per row

  [[nodiscard]] std::size_t rows() const noexcept { return y.size(); }

  /// Appends one row. Throws autosched::Error unless `row` has `features`
  /// values, all finite (a NaN has no place in a sorted split search), and
  /// `label` is in [0, classes).
  void add(std::span<const double> row, int label) {
    if (row.size() != static_cast<std::size_t>(features))
      detail::throw_error("TrainingSet::add: a row of " + std::to_string(row.size()) + " values: expected " +
                          std::to_string(features) + " (features)");
    if (label < 0 || label >= classes)
      detail::throw_error("TrainingSet::add: label " + std::to_string(label) + ": expected a class in [0, " +
                          std::to_string(classes) + ")");
    for (std::size_t f = 0; f < row.size(); ++f)
      if (!std::isfinite(row[f]))
        detail::throw_error("TrainingSet::add: feature " + std::to_string(f) + " = " + std::to_string(row[f]) +
                            ": expected a finite number");
    x.insert(x.end(), row.begin(), row.end());
    y.push_back(label);
  }

  [[nodiscard]] const double* row(std::size_t i) const noexcept {
    return x.data() + i * static_cast<std::size_t>(features);
  }
};

}  // namespace autosched
