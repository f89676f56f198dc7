#pragma once
// What the tests of `auto` with loop arms share: a loop whose profile only
// small chunks spread, a portfolio of four arms, and an outcome with a time
// and, for a profiling instance, its profile.
#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/grammar/auto_config.hpp>
#include <autosched/select/grammar/outcome.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <string_view>
#include <vector>

namespace autosched::testing {

inline TechniqueSpec arm(std::string_view text) { return parse_technique_spec(text, "test"); }

/// 4096 iterations; the first 512 cost 100× the others. Only small chunks
/// spread that head over the workers: static, gss and fac2 all hand it to
/// one worker (their first chunk holds it), ss:16 cuts it into 32 chunks.
inline CostProfile heavy_head() {
  std::vector<double> blocks(64);
  for (std::size_t b = 0; b < blocks.size(); ++b) blocks[b] = (b < 8 ? 100.0 : 1.0) * 64 * 100;
  return CostProfile::from_blocks(4096, blocks, 5);
}

inline Portfolio four_arms() { return {arm("static"), arm("gss"), arm("fac2"), arm("ss:16")}; }

/// The tests of profiling and ranking start at the profile: the process's
/// first instance, which runs a safe arm and profiles nothing
/// (AutoConfig::safe_first, tested in test_auto_phases.cpp), is left out.
inline AutoConfig profile_first(AutoConfig config = {}) {
  config.safe_first = false;
  return config;
}

inline Outcome measured(double ns, const CostProfile* profile = nullptr) {
  Outcome o;
  o.time_ns = ns;
  o.metrics.loop_time_ns = ns;
  o.profile = profile;
  return o;
}

}  // namespace autosched::testing
