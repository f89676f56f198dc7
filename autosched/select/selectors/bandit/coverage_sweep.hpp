#pragma once
/// @file
/// The opening of a sample-based choice: every arm runs until it has enough
/// samples to be compared, before any rule looks at means (a mean of nothing
/// compares with nothing). The cost bandits open this way, and so does a
/// tunable region's learner on each feature vector before it trains.

#include <random>

namespace autosched {

class CoverageSweep {
 public:
  /// The next arm for which `covered(arm)` is false: in turn, starting after
  /// the last arm this sweep handed out (round-robin), or, given `random`,
  /// drawn uniformly among the uncovered arms. -1 once every arm is covered.
  ///   CoverageSweep sweep;
  ///   int arm = sweep.next(4, [&](int a) { return count[a] >= 1; });
  template <class Covered>
  int next(int arms, Covered covered, std::mt19937_64* random = nullptr) {
    if (random != nullptr) {
      int uncovered = 0;
      for (int a = 0; a < arms; ++a) uncovered += covered(a) ? 0 : 1;
      if (uncovered == 0) return -1;
      int pick = std::uniform_int_distribution<int>(0, uncovered - 1)(*random);
      for (int a = 0; a < arms; ++a)
        if (!covered(a) && pick-- == 0) return a;
      return -1;
    }
    for (int i = 0; i < arms; ++i) {
      const int a = (next_ + i) % arms;
      if (!covered(a)) {
        next_ = (a + 1) % arms;
        return a;
      }
    }
    return -1;
  }

 private:
  int next_ = 0;  ///< where the round-robin resumes
};

}  // namespace autosched
