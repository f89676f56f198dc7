#pragma once
// Helpers shared by the loop runtime's tests.
#include <autosched/techniques/catalogue.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace autosched::testing {

/// A cheap, well-mixed per-index value for random body costs.
inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

/// Burns a pseudo-random amount of work (0..max_spins loop turns) for index i.
inline void random_work(std::int64_t i, unsigned max_spins) {
  volatile unsigned sink = 0;
  const unsigned spins = static_cast<unsigned>(mix(static_cast<std::uint64_t>(i)) % (max_spins + 1));
  for (unsigned k = 0; k < spins; ++k) sink = sink + k;
}

/// Schedule text for technique `name` that runs that technique itself (the
/// profile-based ones get mu, sigma, h so they do not fall back).
inline std::string schedule_for(std::string_view name, const std::string& chunk = "") {
  std::string s(name);
  if (name == "fsc") s += ",sigma=30,h=20";
  if (name == "fac" || name == "mfac" || name == "tap") s += ",mu=100,sigma=30";
  if (name == "bold") s += ",mu=100,sigma=30,h=20";
  if (!chunk.empty()) s += ",chunk=" + chunk;
  return s;
}

/// Names of the 28 techniques plus profiling.
inline std::vector<std::string> all_technique_names() {
  std::vector<std::string> names;
  for (const auto& t : technique_catalogue()) names.emplace_back(t.name);
  return names;
}

/// Test-name suffix for a technique or schedule parameter ("awf-b" → "awf_b").
inline std::string param_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace autosched::testing
