#include <autosched/select/arm_corrections.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace autosched {

void ArmCorrections::learn(const Portfolio& arms, std::span<const double> predicted,
                           std::span<const RunningStats> measured) {
  std::vector<std::pair<std::size_t, double>> ratios;  // arm, log(measured / predicted)
  for (std::size_t a = 0; a < arms.size() && a < predicted.size() && a < measured.size(); ++a) {
    if (measured[a].count > 0 && measured[a].mean > 0 && std::isfinite(predicted[a]) && predicted[a] > 0) {
      ratios.emplace_back(a, std::log(measured[a].mean / predicted[a]));
    }
  }
  if (ratios.size() < 2) return;
  std::vector<double> logs;
  for (const auto& r : ratios) logs.push_back(r.second);
  std::sort(logs.begin(), logs.end());
  const double level = logs.size() % 2 ? logs[logs.size() / 2] : (logs[logs.size() / 2 - 1] + logs[logs.size() / 2]) / 2;
  std::lock_guard lock(mutex_);
  for (const auto& [a, log_ratio] : ratios) log_deviation_[arms[a].label()].add(log_ratio - level);
  changed_ = true;
}

double ArmCorrections::factor(const TechniqueSpec& arm) const {
  std::lock_guard lock(mutex_);
  const auto it = log_deviation_.find(arm.label());
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
  for (const auto& [label, s] : log_deviation_) out << '\n' << label << ' ' << s.count << ' ' << s.mean << ' ' << s.m2;
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
