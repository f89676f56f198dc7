#include "worker_speeds.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

namespace autosched::cli {

std::vector<double> worker_speeds(const std::string& text, int workers, const char* option) {
  if (text.empty()) return {};
  std::vector<double> pattern;
  for (std::string_view item : text::split(text, ':')) {
    const auto v = text::to_double(item);
    if (!v || !(*v > 0)) {
      detail::throw_error(std::string(option) + "=" + text + ": expected positive speeds separated by ':', got '" +
                          std::string(item) + "'");
    }
    pattern.push_back(*v);
  }
  std::vector<double> out(static_cast<std::size_t>(workers));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = pattern[i % pattern.size()];
  return out;
}

std::vector<int> worker_counts(const std::string& text, const char* option) {
  std::vector<int> out;
  for (std::string_view item : text::split(text, ',')) {
    const auto v = text::to_int(item);
    if (!v || *v < 1 || *v > 1'000'000) {
      detail::throw_error(std::string(option) + "=" + text + ": expected worker counts >= 1 separated by ',', got '" +
                          std::string(item) + "'");
    }
    out.push_back(static_cast<int>(*v));
  }
  return out;
}

}  // namespace autosched::cli
