// AUTOSCHED_PINNING and the options it maps to; the OpenMP-binding guard.
#include <autosched/core/error.hpp>
#include <autosched/pinning/manager.hpp>
#include <autosched/pinning/options.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

namespace p = autosched::pinning;

std::string error_of(const char* text) {
  try {
    (void)p::parse_options(text, "AUTOSCHED_PINNING");
  } catch (const autosched::Error& e) {
    return e.what();
  }
  return "";
}

TEST(PinningOptions, PoliciesAndKeys) {
  EXPECT_EQ(p::parse_options("learn").policy, p::Policy::learn_o1);
  EXPECT_EQ(p::parse_options("o1").policy, p::Policy::learn_o1);
  EXPECT_EQ(p::parse_options("O2").policy, p::Policy::learn_o2);
  EXPECT_EQ(p::parse_options("round-robin").policy, p::Policy::round_robin);
  EXPECT_EQ(p::parse_options("autopin").policy, p::Policy::autopin);
  EXPECT_EQ(p::parse_options("off").policy, p::Policy::off);

  const auto o = p::parse_options(
      "o2, eps=0.1,lambda=0.01,nu=0.2,gamma=0.04,h=0.5,period=0.2,start=uniform,seed=7,force=yes,pin-self=no,"
      "norm=1000,window=2,phase=0.7,play=stable");
  EXPECT_EQ(o.policy, p::Policy::learn_o2);
  EXPECT_DOUBLE_EQ(o.parameters.eps, 0.1);
  EXPECT_DOUBLE_EQ(o.parameters.lambda, 0.01);
  EXPECT_DOUBLE_EQ(o.parameters.nu, 0.2);
  EXPECT_DOUBLE_EQ(o.parameters.gamma, 0.04);
  EXPECT_DOUBLE_EQ(o.parameters.h, 0.5);
  EXPECT_DOUBLE_EQ(o.parameters.period, 0.2);
  EXPECT_TRUE(o.parameters.uniform_start);
  EXPECT_TRUE(o.parameters.stable_play);
  EXPECT_FALSE(p::parse_options("learn").parameters.stable_play);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_TRUE(o.force);
  EXPECT_FALSE(o.pin_self);
  EXPECT_DOUBLE_EQ(o.norm, 1000);
  EXPECT_DOUBLE_EQ(o.autopin_window, 2);
  EXPECT_DOUBLE_EQ(o.autopin_phase, 0.7);
}

TEST(PinningOptions, BadInputIsNamedWithTheAcceptedValues) {
  EXPECT_EQ(error_of("fast"),
            "AUTOSCHED_PINNING=fast: expected a policy (learn, o1, learn-o1, o2, learn-o2, round-robin, autopin, "
            "off) optionally followed by ,<key>=<value> items");
  EXPECT_EQ(error_of("learn,eps=2"), "AUTOSCHED_PINNING=learn,eps=2: expected eps = a number in [1e-09, 1], got '2'");
  EXPECT_EQ(error_of("learn,start=compact"),
            "AUTOSCHED_PINNING=learn,start=compact: expected start = one of round-robin, uniform, got 'compact'");
  EXPECT_EQ(error_of("learn,play=greedy"),
            "AUTOSCHED_PINNING=learn,play=greedy: expected play = one of sample, stable, got 'greedy'");
  EXPECT_NE(error_of("learn,speed=1").find("a key pinning accepts (eps, lambda"), std::string::npos);
  EXPECT_NE(error_of("learn,eps=0.1,eps=0.2").find("'eps' repeats"), std::string::npos);
  EXPECT_NE(error_of("learn,0.1").find("has no '='"), std::string::npos);
  EXPECT_NE(error_of("learn,period=0").find("period = a number in [0.001, 3600], got '0'"), std::string::npos);
}

TEST(PinningOptions, FromTheEnvironment) {
  ::unsetenv("AUTOSCHED_PINNING");
  EXPECT_FALSE(p::options_from_environment().has_value());
  ::setenv("AUTOSCHED_PINNING", "autopin,window=0.5", 1);
  const auto o = p::options_from_environment();
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->policy, p::Policy::autopin);
  EXPECT_DOUBLE_EQ(o->autopin_window, 0.5);
  ::setenv("AUTOSCHED_PINNING", "sometimes", 1);
  EXPECT_THROW((void)p::options_from_environment(), autosched::Error);
  ::unsetenv("AUTOSCHED_PINNING");
}

TEST(PinningOptions, AnExplicitOpenMpBindingIsRespectedUnlessForced) {
  // setenv is safe here: this test executable starts no threads of its own.
  std::string warned;
  auto old = autosched::detail::set_warning_sink([&](std::string_view m) { warned = m; });
  ::setenv("OMP_PROC_BIND", "close", 1);
  {
    p::Manager pm(p::ManagerOptions{});
    EXPECT_EQ(pm.policy(), p::Policy::off);
    EXPECT_NE(pm.status().find("OMP_PROC_BIND=close"), std::string::npos) << pm.status();
    EXPECT_NE(warned.find("pinning stays off"), std::string::npos) << warned;
  }
  {
    p::ManagerOptions forced;
    forced.force = true;
    p::Manager pm(forced);
    EXPECT_EQ(pm.policy(), p::Policy::learn_o1);
  }
  ::setenv("OMP_PROC_BIND", "false", 1);
  {
    p::Manager pm(p::ManagerOptions{});
    EXPECT_EQ(pm.policy(), p::Policy::learn_o1);
  }
  ::unsetenv("OMP_PROC_BIND");
  autosched::detail::set_warning_sink(old);
}

TEST(PinningOptions, CoresOutsideTheProcessMaskAreRejected) {
  p::ManagerOptions o;
  o.cores = {100000};
  try {
    p::Manager pm(o);
    FAIL() << "accepted a core outside the mask";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("core 100000 is outside this process's affinity mask"), std::string::npos)
        << e.what();
  }
  p::ManagerOptions bad;
  bad.parameters.lambda = 2;
  EXPECT_THROW(p::Manager{bad}, autosched::Error);
}

}  // namespace
