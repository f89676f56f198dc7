// The process's store as the selection engine and the front-ends see it:
// through StateStore, with writes on the background writer.
#include <autosched/core/system_info.hpp>
#include <autosched/store/background_writer.hpp>
#include <autosched/store/store.hpp>

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace autosched {
namespace {

using testing::TempDir;

// Store::instance() is opened once per process, from AUTOSCHED_DB; ctest runs
// each test in a process of its own.
autosched::detail::Store* open_store(const std::string& path) {
  setenv("AUTOSCHED_DB", path.c_str(), 1);
  autosched::detail::Store* store = autosched::detail::Store::instance();
  return store != nullptr && store->database().path() == path ? store : nullptr;
}

TEST(Store, ATildeInTheStorePathMeansHome) {
  const char* home = std::getenv("HOME");
  const std::string saved_home = home != nullptr ? home : "";
  setenv("HOME", "/home/someone", 1);
  setenv("AUTOSCHED_DB", "~/runs/x.db", 1);
  EXPECT_EQ(store_path_from_environment().value_or("off"), "/home/someone/runs/x.db");
  setenv("AUTOSCHED_DB", " ~/x.db ", 1);
  EXPECT_EQ(store_path_from_environment().value_or("off"), "/home/someone/x.db");
  setenv("AUTOSCHED_DB", "runs/~/x.db", 1);
  EXPECT_EQ(store_path_from_environment().value_or("off"), "runs/~/x.db") << "only a leading tilde";
  setenv("AUTOSCHED_DB", "~other/x.db", 1);
  EXPECT_EQ(store_path_from_environment().value_or("off"), "~other/x.db") << "another user's home is not guessed";
  unsetenv("AUTOSCHED_DB");
  if (home != nullptr) {
    setenv("HOME", saved_home.c_str(), 1);
  } else {
    unsetenv("HOME");
  }
}

TEST(Store, SavesBlobsThroughTheWriterAndLoadsThemForThisSystem) {
  TempDir dir;
  autosched::detail::Store* store = open_store(dir.file("s.db"));
  if (store == nullptr) GTEST_SKIP() << "the store was opened by an earlier test in this process (run this test alone)";
  StateStore& states = *store;
  EXPECT_FALSE(states.load_blob("pinning", "solver"));
  const std::string bytes("compact\0spread", 14);
  states.save_blob("pinning", "solver", bytes);
  BackgroundWriter::instance().drain();
  EXPECT_EQ(states.load_blob("pinning", "solver").value_or("missing"), bytes);
  states.save_blob("pinning", "solver", "replaced");
  BackgroundWriter::instance().drain();
  EXPECT_EQ(states.load_blob("pinning", "solver").value_or("missing"), "replaced");
  EXPECT_FALSE(states.load_blob("dag", "solver"));

  const auto blobs = store->database().blobs();
  ASSERT_EQ(blobs.size(), 1u);
  EXPECT_EQ(blobs[0].key.fingerprint, system_info().fingerprint);
  EXPECT_EQ(store->database().load_blob({"pinning", "solver", "another machine"}), std::nullopt);
}

TEST(Store, SavesSelectorStatesThroughTheWriter) {
  TempDir dir;
  autosched::detail::Store* store = open_store(dir.file("s.db"));
  if (store == nullptr) GTEST_SKIP() << "the store was opened by an earlier test in this process (run this test alone)";
  StateStore& states = *store;
  const PointKey key{"L#10/2", "L", 10, 2, "", "static,ss"};  // the store fills in the fingerprint
  EXPECT_FALSE(states.load_state(key, "auto"));
  states.save_state(key, "auto", "greedy 1");
  BackgroundWriter::instance().drain();
  EXPECT_EQ(states.load_state(key, "auto").value_or(""), "greedy 1");
}

}  // namespace
}  // namespace autosched
