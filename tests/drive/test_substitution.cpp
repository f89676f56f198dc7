// A technique that cannot run as asked (fsc without a profile) is replaced;
// the record names both, and the selector learns about the arm that ran.
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/drive/observer.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace autosched::drive {
namespace {

void run_once(const char* name, const char* schedule) {
  static const int team = 0;
  static std::uint64_t sequence = 0;
  Instance* inst = loop(name).open_or_attach({&team, ++sequence}, {.n = 1000, .p = 1, .schedule = schedule});
  Cursor cursor(*inst, 0);
  while (!cursor.next().empty()) {
  }
  (void)cursor.leave();
}

TEST(Substitution, TheRecordNamesWhatWasAskedAndWhatRan) {
  run_once("substitution/fixed", "fsc");
  const auto r = find_loop("substitution/fixed")->last();
  EXPECT_EQ(r->requested, "fsc");
  EXPECT_EQ(r->technique, "mfsc");
}

class ArmCounts final : public Observer {
 public:
  std::vector<long> counts;
  void on_instance_closed(const ClosedInstance& c) noexcept override {
    if (std::string(c.loop) != "substitution/selected" || c.decision == nullptr) return;
    counts.clear();
    for (const auto& s : c.decision->point->summaries()) counts.push_back(s.count);
  }
};

TEST(Substitution, TheSelectorIsCreditedWithTheArmThatRan) {
  ArmCounts arms;
  attach(arms);
  // The exhaustive selector tries each arm in turn: fsc first (runs mfsc), then mfsc.
  run_once("substitution/selected", "auto:exhaustive,portfolio=fsc,mfsc");
  detach(arms);
  const auto r = find_loop("substitution/selected")->last();
  EXPECT_EQ(r->requested, "fsc");
  EXPECT_EQ(r->technique, "mfsc");
  ASSERT_EQ(arms.counts.size(), 2u);
  EXPECT_EQ(arms.counts[0], 0);  // fsc never ran
  EXPECT_EQ(arms.counts[1], 1);  // mfsc did
}

}  // namespace
}  // namespace autosched::drive
