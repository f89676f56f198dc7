#pragma once
// Helpers of the AUTOSCHED_PINNING tests of the loop runtime's teams. Each
// setting needs its own process (the teams' manager is process-wide), hence
// one small executable per setting.
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace autosched::testing {

/// Runs a parallel loop of `n` iterations on `threads` threads and returns
/// how many iterations did not run exactly once.
inline std::int64_t run_counted_loop(std::int64_t n, int threads, const std::string& schedule = "static") {
  auto hits = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) hits[i].store(0, std::memory_order_relaxed);
  parallel_for(std::int64_t{0}, n,
               [&](std::int64_t i) {
                 volatile std::int64_t sink = 0;
                 for (int k = 0; k < 50; ++k) sink = sink + k * i;
                 hits[i].fetch_add(1, std::memory_order_relaxed);
               },
               {.name = "team-pinning/" + schedule, .schedule = schedule, .threads = threads});
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) wrong += hits[i].load(std::memory_order_relaxed) != 1;
  return wrong;
}

}  // namespace autosched::testing
