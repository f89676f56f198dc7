#include <autosched/regions/variant_space.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace autosched {

namespace {
std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // The shortest text that reads back as v ("0.3", not "0.29999999999999999").
  for (int digits = 1; digits <= 17; ++digits) {
    char shorter[40];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buf;
}

void check_name(const std::string& name) {
  if (name.empty() || name.find_first_of("{}[]|;,=:\n ") != std::string::npos) {
    detail::throw_error(text::bad_value("knob name", name, "a non-empty name without blanks or {}[]|;,=:"));
  }
}
}  // namespace

Knob Knob::labels(std::string name, std::vector<std::string> labels) {
  check_name(name);
  for (const auto& l : labels) {
    if (l.empty() || l.find_first_of("{}|\n") != std::string::npos)
      detail::throw_error(text::bad_value("knob '" + name + "' label", l, "a non-empty label without {}| or newlines"));
  }
  Knob k;
  k.name_ = std::move(name);
  k.kind_ = Kind::labels;
  k.labels_ = std::move(labels);
  return k;
}

Knob Knob::integers(std::string name, std::vector<std::int64_t> values) {
  check_name(name);
  Knob k;
  k.name_ = std::move(name);
  k.kind_ = Kind::integers;
  for (auto v : values) k.values_.push_back(static_cast<double>(v));
  return k;
}

Knob Knob::reals(std::string name, std::vector<double> values) {
  check_name(name);
  for (double v : values)
    if (!std::isfinite(v))
      detail::throw_error(text::bad_value("knob '" + name + "' value", number_text(v), "finite numbers"));
  Knob k;
  k.name_ = std::move(name);
  k.kind_ = Kind::reals;
  k.values_ = std::move(values);
  return k;
}

Knob Knob::range(std::string name, std::int64_t low, std::int64_t high, std::int64_t step) {
  // The width in unsigned arithmetic: high - low may not fit an int64.
  const auto width = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  if (step <= 0 || low > high || width / static_cast<std::uint64_t>(step) >= (1 << 20)) {
    detail::throw_error(
        text::bad_value("knob '" + name + "' range",
                        std::to_string(low) + ".." + std::to_string(high) + " step " + std::to_string(step),
                        "step > 0, low <= high and at most 2^20 values"));
  }
  std::vector<std::int64_t> values;
  const auto count = width / static_cast<std::uint64_t>(step) + 1;
  for (std::uint64_t i = 0; i < count; ++i) values.push_back(low + static_cast<std::int64_t>(i) * step);
  return integers(std::move(name), std::move(values));
}

Knob Knob::range(std::string name, double low, double high, double step) {
  const double count = std::floor((high - low) / step + 1e-9) + 1;
  if (!(step > 0) || !(low <= high) || !std::isfinite(count) || count > 1e6) {
    detail::throw_error(text::bad_value("knob '" + name + "' range",
                                        number_text(low) + ".." + number_text(high) + " step " + number_text(step),
                                        "finite step > 0, low <= high and at most 1e6 values"));
  }
  std::vector<double> values;
  // low + i·step (not repeated addition), so 0:1:0.1 gives 0.3, not 0.30000000000000004.
  for (int i = 0; i < static_cast<int>(count); ++i) {
    const double v = low + i * step;
    values.push_back(std::strtod(number_text(std::round(v * 1e12) / 1e12).c_str(), nullptr));
  }
  return reals(std::move(name), std::move(values));
}

int Knob::size() const noexcept { return static_cast<int>(kind_ == Kind::labels ? labels_.size() : values_.size()); }

std::string Knob::text(int i) const {
  return kind_ == Kind::labels ? labels_[static_cast<std::size_t>(i)]
                               : number_text(values_[static_cast<std::size_t>(i)]);
}

double Knob::number(int i) const { return kind_ == Kind::labels ? i : values_[static_cast<std::size_t>(i)]; }

const std::string& Knob::label(int i) const {
  static const std::string none;
  return kind_ == Kind::labels ? labels_[static_cast<std::size_t>(i)] : none;
}

std::string Knob::describe() const {
  std::string s = name_ + (kind_ == Kind::labels ? "{" : kind_ == Kind::integers ? ":int{" : ":real{");
  for (int i = 0; i < size(); ++i) {
    if (i > 0) s += '|';
    s += text(i);
  }
  return s + "}";
}

VariantSpace::VariantSpace(std::vector<Knob> knobs) : knobs_(std::move(knobs)) {
  if (knobs_.empty()) detail::throw_error("a variant space needs at least one knob (or variant labels)");
  std::int64_t size = 1;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (knobs_[k].size() == 0) detail::throw_error("knob '" + knobs_[k].name() + "' has no values");
    for (std::size_t j = 0; j < k; ++j)
      if (knobs_[j].name() == knobs_[k].name())
        detail::throw_error("knob '" + knobs_[k].name() + "' is declared twice");
    size *= knobs_[k].size();
    if (size > (1 << 20)) detail::throw_error("the variant space has more than 2^20 variants; use fewer knob values");
  }
  size_ = static_cast<int>(size);
  stride_.assign(knobs_.size(), 1);
  for (std::size_t k = knobs_.size() - 1; k > 0; --k) stride_[k - 1] = stride_[k] * knobs_[k].size();
}

VariantSpace VariantSpace::count(int count) {
  if (count < 1) detail::throw_error(text::bad_value("variant count", std::to_string(count), "at least 1"));
  std::vector<std::int64_t> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = i;
  return VariantSpace({Knob::integers("variant", std::move(values))});
}

VariantSpace VariantSpace::labels(std::vector<std::string> labels) {
  return VariantSpace({Knob::labels("variant", std::move(labels))});
}

int VariantSpace::knob_index(std::string_view name) const {
  for (std::size_t k = 0; k < knobs_.size(); ++k)
    if (knobs_[k].name() == name) return static_cast<int>(k);
  std::vector<std::string_view> names;
  for (const auto& k : knobs_) names.push_back(k.name());
  detail::throw_error(text::bad_value("knob", name, "one of " + text::join(names)));
}

int VariantSpace::position(int variant, int knob) const noexcept {
  const auto k = static_cast<std::size_t>(knob);
  return variant / stride_[k] % knobs_[k].size();
}

std::string VariantSpace::label(int variant) const {
  if (knobs_.size() == 1) return knobs_[0].text(position(variant, 0));
  std::string s;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (k > 0) s += ',';
    s += knobs_[k].name() + "=" + knobs_[k].text(position(variant, static_cast<int>(k)));
  }
  return s;
}

std::string VariantSpace::signature() const {
  std::string s;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (k > 0) s += ';';
    s += knobs_[k].describe();
  }
  return s;
}

}  // namespace autosched
