#pragma once
// A seeded generator of hostile inputs for the grammar tests: each input is a
// valid example mutated a few times with the grammar's own tokens, random
// bytes (control characters, invalid UTF-8) and extreme numbers. Fixed seeds:
// a failure names its input and repeats on every run.
#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <random>
#include <string>
#include <vector>

namespace autosched::testing {

class FuzzInput {
 public:
  FuzzInput(std::vector<std::string> seeds, std::uint64_t seed) : seeds_(std::move(seeds)), rng_(seed) {}

  std::string next() {
    std::string s = seeds_[pick(seeds_.size())];
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits; ++e) mutate(s);
    return s;
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  void mutate(std::string& s) {
    static const std::vector<std::string> tokens = {
        ",",   "=",    ":",     ";",       "auto", "auto:", "chunk=", "expert", "portfolio=", "-1",
        "0",   "1e308", "nan",  "inf",     "-0",   "99999999999999999999999", "0x10", " ", "\t", "\n",
        "\x01", "\xff", "\xc3", "\xe2\x82", "gss",  "static", "ss",   "qlearn", "policy=", "replay=",
        "depth=", "variant=", "trees=", "==", ",,", "::",  "'",    "\"",     "\\",      "%s"};
    const std::size_t at = s.empty() ? 0 : pick(s.size() + 1);
    switch (pick(5)) {
      case 0:  // insert a token
        s.insert(at, tokens[pick(tokens.size())]);
        break;
      case 1:  // delete a run
        if (!s.empty() && at < s.size()) s.erase(at, 1 + pick(4));
        break;
      case 2:  // replace a byte by any byte
        if (!s.empty() && at < s.size()) s[at] = static_cast<char>(pick(256));
        break;
      case 3:  // duplicate the input (long values, repeated keys)
        if (s.size() < 4096) s += "," + s;
        break;
      default:  // splice another seed in
        s.insert(at, seeds_[pick(seeds_.size())]);
        break;
    }
  }

  std::vector<std::string> seeds_;
  std::mt19937_64 rng_;
};

/// Feeds `inputs` fuzzed inputs to `parse`: each must be accepted (then
/// `check(text, value)` runs) or rejected with autosched::Error carrying a
/// bounded message; any other exception fails the test. Both outcomes must
/// occur, so acceptance is exercised too.
template <class Parse, class Check>
void fuzz_grammar(std::uint64_t seed, const std::vector<std::string>& seeds, int inputs, Parse parse, Check check) {
  FuzzInput input(seeds, seed);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < inputs; ++i) {
    const std::string text = input.next();
    try {
      check(text, parse(text));
      ++accepted;
    } catch (const Error& e) {
      ASSERT_LT(std::string(e.what()).size(), 4096u) << "input " << i;
      ++rejected;
    } catch (const std::exception& e) {
      FAIL() << "input " << i << " threw a non-autosched exception: " << e.what();
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace autosched::testing
