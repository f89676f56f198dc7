#pragma once
/// @file
/// A region's feature: a named number describing one execution (problem size,
/// sparsity, a user value) and how it is quantised before the learner sees
/// it. Apollo keys its data set by the exact float, so a continuous feature
/// makes every execution a new key and nothing is ever learned twice;
/// quantisation bounds the number of distinct feature vectors.

#include <cstdint>
#include <string>
#include <string_view>

namespace autosched {

class Feature {
 public:
  enum class Quantisation : std::uint8_t {
    exact,   ///< the value as given
    linear,  ///< bin index in [0, bins) of [low, high), clamped at the ends
    log2,    ///< ⌊log2 v⌋ (values ≤ 0 share one bin below all others)
  };

  /// An exact feature: `{"n"}` in an options list.
  Feature(std::string name) : name_(std::move(name)) {}  // NOLINT(google-explicit-constructor)
  Feature(const char* name) : name_(name) {}             // NOLINT(google-explicit-constructor)

  static Feature exact(std::string name) { return Feature(std::move(name)); }
  /// `bins` equal bins over [low, high); throws autosched::Error unless
  /// low < high and bins ≥ 1.
  static Feature linear(std::string name, double low, double high, int bins);
  static Feature log2(std::string name);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] Quantisation quantisation() const noexcept { return kind_; }
  [[nodiscard]] double low() const noexcept { return low_; }
  [[nodiscard]] double high() const noexcept { return high_; }
  [[nodiscard]] int bins() const noexcept { return bins_; }

  /// The value the learner keys on.
  [[nodiscard]] double quantise(double value) const noexcept;

  /// "n", "x:linear:0:1:10", "n:log2": part of a region's signature and of
  /// model files. parse() reads it back; throws autosched::Error naming `text`.
  [[nodiscard]] std::string describe() const;
  static Feature parse(std::string_view text);

  friend bool operator==(const Feature&, const Feature&) = default;

 private:
  std::string name_;
  Quantisation kind_ = Quantisation::exact;
  double low_ = 0, high_ = 0;
  int bins_ = 0;
};

}  // namespace autosched
