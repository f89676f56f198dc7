// Every instance of a decision point reaches the store, also when two
// instances of one loop run at once: the second follows the first's decision
// (it does not teach the selector) but is recorded like any other.
#include <autosched/loops/loops.hpp>
#include <autosched/store/database.hpp>

#include "store/temp_dir.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace autosched {
namespace {

std::int64_t stored_instances(const std::string& path, const std::string& loop) {
  Database db(path, Database::Access::inspect);
  std::int64_t sum = 0;
  for (const auto& p : db.points()) {
    if (p.loop == loop) sum += p.instances;
  }
  return sum;
}

TEST(Recording, InstancesOfOneLoopRunningAtOnceAreAllStored) {
  const testing::TempDir dir;
  const std::string path = dir.file("store.db");
  ::setenv("AUTOSCHED_DB", path.c_str(), 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([] {
      for (int k = 0; k < 300; ++k) parallel_for(0, 64, [](int) {}, {.name = "recording/shared", .threads = 1});
    });
  }
  for (auto& t : threads) t.join();
  flush_records();
  EXPECT_EQ(stored_instances(path, "recording/shared"), 2400);
}

TEST(Recording, ALoopNestedInATwoThreadLoopIsStoredOncePerInstance) {
  const testing::TempDir dir;
  const std::string path = dir.file("store.db");
  ::setenv("AUTOSCHED_DB", path.c_str(), 1);
  omp_set_max_active_levels(2);
  parallel_for(0, 100,
               [](int) { parallel_for(0, 64, [](int) {}, {.name = "recording/inner", .threads = 2}); },
               {.name = "recording/outer", .schedule = "static", .threads = 2});
  flush_records();
  EXPECT_EQ(stored_instances(path, "recording/inner"), 100);
}

}  // namespace
}  // namespace autosched
