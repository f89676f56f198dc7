#include <autosched/regions/feature.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cmath>
#include <cstdio>

namespace autosched {

Feature Feature::linear(std::string name, double low, double high, int bins) {
  if (!(low < high) || !std::isfinite(low) || !std::isfinite(high) || bins < 1) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "low=%g, high=%g, bins=%d", low, high, bins);
    detail::throw_error(
        text::bad_value("feature '" + name + "' linear quantisation", buf, "finite low < high and bins >= 1"));
  }
  Feature f(std::move(name));
  f.kind_ = Quantisation::linear;
  f.low_ = low;
  f.high_ = high;
  f.bins_ = bins;
  return f;
}

Feature Feature::log2(std::string name) {
  Feature f(std::move(name));
  f.kind_ = Quantisation::log2;
  return f;
}

double Feature::quantise(double value) const noexcept {
  switch (kind_) {
    case Quantisation::exact:
      return value == 0 ? 0.0 : value;  // -0 and +0 are one key
    case Quantisation::linear: {
      const double bin = std::floor((value - low_) / (high_ - low_) * bins_);
      return std::isnan(bin) ? bin : std::clamp(bin, 0.0, static_cast<double>(bins_ - 1));
    }
    case Quantisation::log2:
      return value > 0 ? std::floor(std::log2(value)) : -1100.0;  // below log2 of the smallest double
  }
  return value;
}

std::string Feature::describe() const {
  switch (kind_) {
    case Quantisation::exact:
      return name_;
    case Quantisation::log2:
      return name_ + ":log2";
    case Quantisation::linear: {
      char buf[96];
      std::snprintf(buf, sizeof buf, ":linear:%.17g:%.17g:%d", low_, high_, bins_);
      return name_ + buf;
    }
  }
  return name_;
}

Feature Feature::parse(std::string_view text) {
  const auto parts = text::split(text, ':');
  const std::string name(parts.front());
  if (name.empty())
    detail::throw_error(text::bad_value("feature", text, "a name, name:log2 or name:linear:low:high:bins"));
  if (parts.size() == 1) return Feature(name);
  if (parts.size() == 2 && parts[1] == "log2") return log2(name);
  if (parts.size() == 5 && parts[1] == "linear") {
    const auto low = text::to_double(parts[2]);
    const auto high = text::to_double(parts[3]);
    const auto bins = text::to_int(parts[4]);
    if (low && high && bins && *bins > 0 && *bins < (1 << 30))
      return linear(name, *low, *high, static_cast<int>(*bins));
  }
  detail::throw_error(text::bad_value("feature", text, "a name, name:log2 or name:linear:low:high:bins"));
}

}  // namespace autosched
