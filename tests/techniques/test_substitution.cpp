// Which technique runs when the one asked for lacks its profile, and why.
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/substitution.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

using T = TechniqueId;

TEST(Substitution, WithoutAProfile) {
  const TechniqueParams none;
  const LoopMemory fresh;
  const std::pair<T, T> expected[] = {
      {T::fsc, T::mfsc}, {T::fac, T::fac2}, {T::mfac, T::fac2}, {T::bold, T::fac2}, {T::tap, T::gss}};
  for (const auto& [asked, ran] : expected) {
    const Substitution s = substitute_for(asked, none, fresh);
    EXPECT_EQ(s.requested, asked);
    EXPECT_EQ(s.ran, ran) << technique_info(asked).name;
    EXPECT_TRUE(s.substituted());
    const std::string why = s.reason();
    EXPECT_NE(why.find(std::string(technique_info(asked).name) + " needs "), std::string::npos) << why;
    EXPECT_NE(why.find("running " + std::string(technique_info(ran).name) + " instead"), std::string::npos) << why;
  }
  EXPECT_EQ(substitute_for(T::fsc, none, fresh).missing, "sigma and h");
  EXPECT_EQ(substitute_for(T::bold, none, fresh).missing, "mu, sigma and h");
}

TEST(Substitution, TechniquesWithoutNeedsRunAsAsked) {
  const TechniqueParams none;
  const LoopMemory fresh;
  for (const TechniqueInfo& t : technique_catalogue()) {
    if (!t.needs.empty()) continue;
    const Substitution s = substitute_for(t.id, none, fresh);
    EXPECT_FALSE(s.substituted()) << t.name;
    EXPECT_EQ(s.reason(), "");
  }
}

TEST(Substitution, ParametersOrTheLoopsProfileSatisfyTheNeeds) {
  TechniqueParams params;
  params.mu_ns = 100;
  params.sigma_ns = 20;
  const LoopMemory fresh;
  EXPECT_EQ(substitute_for(T::fac, params, fresh).ran, T::fac);
  EXPECT_EQ(substitute_for(T::tap, params, fresh).ran, T::tap);
  EXPECT_EQ(substitute_for(T::fsc, params, fresh).ran, T::mfsc);   // h missing
  EXPECT_EQ(substitute_for(T::bold, params, fresh).ran, T::fac2);  // h missing
  LoopMemory profiled;
  profiled.profile = Profile{100, 20, 5, 1000};
  EXPECT_EQ(substitute_for(T::bold, TechniqueParams{}, profiled).ran, T::bold);
  EXPECT_EQ(substitute_for(T::fsc, TechniqueParams{}, profiled).ran, T::fsc);
  // mu <= 0 counts as missing: every formula divides by it.
  TechniqueParams zero_mu;
  zero_mu.mu_ns = 0;
  zero_mu.sigma_ns = 1;
  EXPECT_EQ(substitute_for(T::fac, zero_mu, fresh).ran, T::fac2);
}

// prepare_dispenser runs what substitute_for names and reports its reason.
TEST(Substitution, PrepareDispenserFollowsIt) {
  const TechniqueParams none;
  LoopMemory memory;
  Workspace ws;
  AnyDispenser d;
  const TechniqueSetup setup{T::tap, LoopShape{1000, 4, 0}, &none, 0};
  const PreparedTechnique prepared = prepare_dispenser(d, setup, memory, ws);
  const Substitution s = substitute_for(T::tap, none, memory);
  EXPECT_EQ(prepared.ran, s.ran);
  EXPECT_EQ(prepared.fallback, s.reason());
}

}  // namespace
}  // namespace autosched
