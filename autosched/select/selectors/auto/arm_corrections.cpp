#include <autosched/select/selectors/auto/arm_corrections.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <vector>

namespace autosched {

void ArmCorrections::learn(const Portfolio& arms, std::span<const double> predicted,
                           std::span<const RunningStats> measured) {
  std::vector<std::string> labels;
  for (const TechniqueSpec& arm : arms) labels.push_back(arm.label());
  prepare(labels);
  learn(std::span<const std::string>(labels), predicted, measured);
}

void ArmCorrections::prepare(std::span<const std::string> labels) {
  std::lock_guard lock(mutex_);
  for (const std::string& label : labels) log_deviation_.try_emplace(label);
}

void ArmCorrections::teach(std::span<const std::string> labels, std::span<const std::size_t> arm,
                           std::span<const double> ratio) {
  const std::size_t count = arm.size();
  if (count < 2) return;
  std::array<double, most> logs{};
  std::copy(ratio.begin(), ratio.end(), logs.begin());
  std::sort(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(count));
  const double level = count % 2 ? logs[count / 2] : (logs[count / 2 - 1] + logs[count / 2]) / 2;
  std::lock_guard lock(mutex_);
  for (std::size_t k = 0; k < count; ++k) {
    auto it = log_deviation_.find(std::string_view(labels[arm[k]]));
    if (it == log_deviation_.end()) it = log_deviation_.try_emplace(labels[arm[k]]).first;  // not prepared
    it->second.add(ratio[k] - level);
  }
  changed_ = true;
}

double ArmCorrections::factor(const TechniqueSpec& arm) const {
  std::lock_guard lock(mutex_);
  const auto it = log_deviation_.find(std::string_view(arm.label()));
  if (it == log_deviation_.end() || it->second.count < min_loops) return 1.0;
  return std::exp(it->second.mean);
}

bool ArmCorrections::changed() const {
  std::lock_guard lock(mutex_);
  return changed_;
}

std::string ArmCorrections::text() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  out.precision(17);
  out << "auto-corrections 1";
  for (const auto& [label, s] : log_deviation_) {
    if (s.count > 0) out << '\n' << label << ' ' << s.count << ' ' << s.mean << ' ' << s.m2;  // not the prepared-only
  }
  changed_ = false;
  return out.str();
}

bool ArmCorrections::parse(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string tag;
  int version = 0;
  if (!(in >> tag >> version) || tag != "auto-corrections" || version != 1) return false;
  std::map<std::string, RunningStats> read;
  std::string label;
  RunningStats s;
  while (in >> label >> s.count >> s.mean >> s.m2) {
    if (s.count < 1 || s.count > RunningStats::max_loaded_count || !std::isfinite(s.mean) || !std::isfinite(s.m2) ||
        s.m2 < 0) {
      return false;
    }
    read[label] = s;
  }
  if (!in.eof()) return false;
  std::lock_guard lock(mutex_);
  for (const auto& [l, stats] : read) log_deviation_[l].merge(stats);
  return true;
}

}  // namespace autosched
