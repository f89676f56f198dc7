#pragma once
/// @file
/// What a region chooses between, described by meaning (Kokkos tuning
/// metadata): one or more knobs, each a list of labels, integer or real
/// values, or a range with a step. A variant is one value per knob; the
/// library numbers variants in mixed radix (the last knob varies fastest) so
/// that users never pack or unpack indices by hand.
///
///   VariantSpace space({Knob::labels("kernel", {"csr", "ell"}), Knob::range("tile", 8, 64, 8)});
///   space.size();                    // 16
///   space.value<int>(5, "tile");     // 48 (kernel csr, sixth tile)

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace autosched {

class Knob {
 public:
  enum class Kind : std::uint8_t { labels, integers, reals };

  static Knob labels(std::string name, std::vector<std::string> labels);
  static Knob integers(std::string name, std::vector<std::int64_t> values);
  static Knob reals(std::string name, std::vector<double> values);
  /// low, low + step, … up to high inclusive. Throws autosched::Error unless
  /// step > 0 and low ≤ high (and, for reals, at most 1e6 values).
  static Knob range(std::string name, std::int64_t low, std::int64_t high, std::int64_t step);
  static Knob range(std::string name, double low, double high, double step);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  [[nodiscard]] int size() const noexcept;
  /// The i-th value as text ("csr", "48", "0.3").
  [[nodiscard]] std::string text(int i) const;
  [[nodiscard]] double number(int i) const;  ///< labels: the index
  [[nodiscard]] const std::string& label(int i) const;
  /// "kernel{csr|ell}", "tile[8,16,…]" style description, in signatures.
  [[nodiscard]] std::string describe() const;

  friend bool operator==(const Knob&, const Knob&) = default;

 private:
  std::string name_;
  Kind kind_ = Kind::labels;
  std::vector<std::string> labels_;
  std::vector<double> values_;
};

class VariantSpace {
 public:
  VariantSpace() = default;
  /// Throws autosched::Error for no knobs, an empty knob, repeated knob names
  /// or more than 2^20 variants.
  explicit VariantSpace(std::vector<Knob> knobs);
  /// Plain numbered variants 0 … count-1 (the C interface, Apollo's policies).
  static VariantSpace count(int count);
  /// One knob of labels named "variant".
  static VariantSpace labels(std::vector<std::string> labels);

  [[nodiscard]] int size() const noexcept { return size_; }
  [[nodiscard]] const std::vector<Knob>& knobs() const noexcept { return knobs_; }
  /// Index of the knob called `name`; throws autosched::Error listing the knobs.
  [[nodiscard]] int knob_index(std::string_view name) const;
  /// Position of `variant` along knob `knob` (mixed radix, last knob fastest).
  [[nodiscard]] int position(int variant, int knob) const noexcept;

  /// The value of knob `name` in `variant`: an arithmetic T reads the number
  /// (a labels knob gives its index), std::string the text.
  template <class T>
  [[nodiscard]] T value(int variant, std::string_view name) const {
    const int k = knob_index(name);
    const Knob& knob = knobs_[static_cast<std::size_t>(k)];
    const int i = position(variant, k);
    if constexpr (std::is_same_v<T, std::string>) {
      return knob.text(i);
    } else {
      static_assert(std::is_arithmetic_v<T>, "value<T>: T must be arithmetic or std::string");
      return static_cast<T>(knob.number(i));
    }
  }

  /// "csr" for one knob of labels, "kernel=csr,tile=48" otherwise.
  [[nodiscard]] std::string label(int variant) const;
  /// The knobs' descriptions joined: equal signatures, equal spaces.
  [[nodiscard]] std::string signature() const;

  friend bool operator==(const VariantSpace& a, const VariantSpace& b) { return a.knobs_ == b.knobs_; }

 private:
  std::vector<Knob> knobs_;
  std::vector<int> stride_;
  int size_ = 0;
};

}  // namespace autosched
