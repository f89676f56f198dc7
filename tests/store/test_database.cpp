// The SQLite file behind the store: schema, history, states, blobs,
// inspection, and what happens to files it cannot use.
#include <autosched/core/error.hpp>
#include <autosched/store/database.hpp>

#include "temp_dir.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>
#include <vector>

namespace autosched {
namespace {

using testing::TempDir;

// Collects warnings for the duration of a test.
struct Warnings {
  std::vector<std::string> seen;
  Warnings() {
    detail::set_warning_sink([this](std::string_view m) { seen.emplace_back(m); });
  }
  ~Warnings() { detail::set_warning_sink({}); }
};

InstanceRow row(const char* loop, TechniqueId technique, double time_ns, std::uint64_t instance) {
  InstanceRow r;
  r.loop = loop;
  r.instance = instance;
  r.technique_id = technique;
  r.n = 1000;
  r.p = 2;
  r.metrics.loop_time_ns = time_ns;
  r.metrics.lib = 5;
  r.selector = "auto";
  r.portfolio = "static,ss";
  r.selector_config = "auto,portfolio=static,ss";
  r.bucket = 10;
  r.explored = instance < 2;
  return r;
}

void sql(const std::string& path, const char* statement) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, statement, nullptr, nullptr, &message);
  const std::string m = message != nullptr ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << m;
}

TEST(Database, KeepsHistoryPerPointAndSummarisesIt) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog --x");
  std::vector<InstanceRow> rows{row("L", TechniqueId::static_, 100, 0), row("L", TechniqueId::ss, 300, 1),
                                row("L", TechniqueId::static_, 110, 2), row("M", TechniqueId::ss, 50, 0)};
  rows[3].portfolio = "ss";
  InstanceRow fixed = row("F", TechniqueId::gss, 1, 0);
  fixed.portfolio = nullptr;  // a fixed schedule: not a decision point, not kept
  rows.push_back(fixed);
  InstanceRow failed = row("L", TechniqueId::static_, 1, 3);
  failed.failed = true;  // partial work: not kept
  rows.push_back(failed);
  db.insert_history(rows, run, "fp");
  EXPECT_EQ(db.history_rows(), 4);

  const auto points = db.points();
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].name, "L#10/2");
  EXPECT_EQ(points[0].instances, 3);
  EXPECT_EQ(points[0].explored, 2);
  EXPECT_EQ(points[0].best_arm, "static");
  EXPECT_DOUBLE_EQ(points[0].best_mean_ns, 105);
  const auto arms = db.arms(points[0].id);
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(arms[0].arm, "static");
  EXPECT_EQ(arms[0].instances, 2);
  EXPECT_DOUBLE_EQ(arms[0].min_ns, 100);
  EXPECT_EQ(arms[1].arm, "ss");

  EXPECT_EQ(db.forget("L"), 1);
  EXPECT_EQ(db.history_rows(), 1);  // M's row stays
  EXPECT_EQ(db.forget("nothing-called-this"), 0);
}

TEST(Database, ExportsEveryRowAsCsvWithRewardsWhereThereAreAny) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  std::vector<InstanceRow> rows{row("L", TechniqueId::static_, 100, 0), row("L", TechniqueId::ss, 300, 1)};
  rows[1].reward = -0.25;
  db.insert_history(rows, run, "fp");
  const std::string csv = db.export_csv();
  std::istringstream in(csv);
  std::string header, first, second, extra;
  std::getline(in, header);
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(header,
            "loop,bucket,point_p,fingerprint,run,instance,arm,n,p,time_ns,lib,percent_imbalance,cov,stddev,skewness,"
            "kurtosis,selector,selector_ns,reward,explored,cut_short,instances");
  EXPECT_EQ(first.rfind("\"L\",10,2,fp,1,0,static,1000,2,100,", 0), 0u) << first;
  EXPECT_NE(first.find(",auto,0,,1,0"), std::string::npos) << first;  // no reward: empty
  EXPECT_NE(second.find(",auto,0,-0.25,1,0"), std::string::npos) << second;
}

TEST(Database, StatesAreKeyedByPointAndSelectorAndReplaced) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  const PointKey key{"L#10/2", "L", 10, 2, "fp", "static,ss"};
  EXPECT_FALSE(db.load_state(key, "auto"));
  db.save_state(key, "auto", "state one", run);
  db.save_state(key, "auto", "state two", run);
  db.save_state(key, "auto:qlearn", "q", run);
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "state two");
  EXPECT_EQ(db.load_state(key, "auto:qlearn").value_or(""), "q");
  PointKey other = key;
  other.fingerprint = "another machine";
  EXPECT_FALSE(db.load_state(other, "auto"));
  other = key;
  other.p = 4;
  EXPECT_FALSE(db.load_state(other, "auto"));
  other = key;
  other.portfolio = "static";
  EXPECT_FALSE(db.load_state(other, "auto"));
}

TEST(Database, AStatementItKeepsPreparedHoldsNoSnapshotBetweenCalls) {
  // The lookups a program repeats per loop stay compiled between calls; a
  // state found (its statement stopped at the row) must not keep a read
  // open: another process's checkpoint could not then empty the log, and
  // this connection would not see that process's later writes.
  TempDir dir;
  const std::string path = dir.file("s.db");
  Database db(path);
  const PointKey key{"L#10/2", "L", 10, 2, "fp", "static,ss"};
  db.save_state(key, "auto", "one", db.begin_run("fp", "prog"));
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "one");
  {
    Database other(path);
    other.save_state(key, "auto", "two", other.begin_run("fp", "other"));
  }
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "two") << "the first connection sees the later write";
  sqlite3* peer = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &peer), SQLITE_OK);
  int log = -1, moved = -1;
  EXPECT_EQ(sqlite3_wal_checkpoint_v2(peer, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &log, &moved), SQLITE_OK)
      << sqlite3_errmsg(peer) << ": a reader holds the log";
  sqlite3_close(peer);
}

TEST(Database, SurvivesReopening) {
  TempDir dir;
  const PointKey key{"L#10/2", "L", 10, 2, "fp", "static,ss"};
  {
    Database db(dir.file("s.db"));
    db.save_state(key, "auto", "kept", db.begin_run("fp", "prog"));
  }
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "kept");
}

TEST(Database, LabelsHistoryWithTheArmThatRanChunkIncluded) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  std::vector<InstanceRow> rows{row("L", TechniqueId::gss, 100, 0), row("L", TechniqueId::ss, 200, 1),
                                row("L", TechniqueId::awf_b, 300, 2)};
  rows[0].chunk = 16;
  rows[1].exp_chunk = true;
  db.insert_history(rows, run, "fp");
  const auto points = db.points();
  ASSERT_EQ(points.size(), 1u);
  const auto arms = db.arms(points[0].id);
  ASSERT_EQ(arms.size(), 3u);
  EXPECT_EQ(arms[0].arm, "gss:16");
  EXPECT_EQ(arms[1].arm, "ss:expert");
  EXPECT_EQ(arms[2].arm, "awf-b");
}

// Short instances of one point, arm and trip count share a row; counts and
// the per-arm means stay exact; an instance of 1 ms or more keeps its own.
TEST(Database, FoldsShortInstancesIntoRowsThatCountThem) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  std::vector<InstanceRow> rows;
  for (int i = 0; i < 10; ++i) {
    InstanceRow r = row("L", i % 2 ? TechniqueId::ss : TechniqueId::static_, 100 + 10 * i, 2 + i);
    r.explored = false;
    r.reward = i % 2 ? -1.0 : std::numeric_limits<double>::quiet_NaN();
    rows.push_back(r);
  }
  rows.push_back(row("L", TechniqueId::static_, 2e6, 12));  // long: alone
  db.insert_history(rows, run, "fp");
  EXPECT_EQ(db.history_rows(), 3);
  EXPECT_EQ(db.recorded_instances(), 11);
  const auto points = db.points();
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].instances, 11);
  const auto arms = db.arms(points[0].id);
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(arms[0].arm, "ss");  // 110, 130, …, 190: mean 150
  EXPECT_EQ(arms[0].instances, 5);
  EXPECT_DOUBLE_EQ(arms[0].mean_ns, 150);
  EXPECT_EQ(arms[1].arm, "static");  // 100, 120, …, 180 and 2e6
  EXPECT_EQ(arms[1].instances, 6);
  EXPECT_DOUBLE_EQ(arms[1].mean_ns, (100 + 120 + 140 + 160 + 180 + 2e6) / 6);
  // The folded ss row: first instance 3, five instances, reward the mean of
  // the rewards given; the static row: no reward.
  const std::string csv = db.export_csv();
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n\"L\",10,2,fp,1,3,ss,1000,2,150,[^\n]*,auto,0,-1,0,0,5\n")))
      << csv;
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n\"L\",10,2,fp,1,2,static,1000,2,140,[^\n]*,auto,0,,0,0,5\n")))
      << csv;
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n\"L\",10,2,fp,1,12,static,1000,2,2000000,[^\n]*,1\n")))
      << csv;
}

// A store written before rows were folded: inspection counts a row as one
// instance; a writer adds the column and goes on.
TEST(Database, ReadsAndExtendsAStoreWithoutInstanceCounts) {
  TempDir dir;
  {
    Database db(dir.file("s.db"));
    db.insert_history(std::vector<InstanceRow>{row("L", TechniqueId::static_, 100, 0)}, db.begin_run("fp", "p"),
                      "fp");
  }
  sql(dir.file("s.db"), "ALTER TABLE history DROP COLUMN instances");
  {
    Database inspect(dir.file("s.db"), Database::Access::inspect);
    EXPECT_EQ(inspect.recorded_instances(), 1);
    EXPECT_EQ(inspect.points().at(0).instances, 1);
    EXPECT_NE(inspect.export_csv().find(",1,0,1\n"), std::string::npos);
  }
  Database db(dir.file("s.db"));
  std::vector<InstanceRow> rows{row("L", TechniqueId::static_, 100, 5), row("L", TechniqueId::static_, 100, 6)};
  rows[0].explored = rows[1].explored = false;
  db.insert_history(rows, db.begin_run("fp", "p"), "fp");
  EXPECT_EQ(db.history_rows(), 2);
  EXPECT_EQ(db.recorded_instances(), 3);
}

TEST(Database, BlobsRoundTripAnyBytes) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  const BlobKey key{"pinning", "solver", "fp"};
  EXPECT_FALSE(db.load_blob(key));
  const std::string bytes("a\0b\xff\n\0", 6);  // zeros and non-text bytes survive
  db.save_blob(key, bytes, run);
  EXPECT_EQ(db.load_blob(key).value_or("missing"), bytes);
  db.save_blob({"pinning", "empty", "fp"}, "", run);
  EXPECT_EQ(db.load_blob({"pinning", "empty", "fp"}).value_or("missing"), "");  // empty, not absent
}

TEST(Database, SavingABlobAgainReplacesIt) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  const BlobKey key{"dag", "graph", "fp"};
  db.save_blob(key, "first version, longer", run);
  db.save_blob(key, "second", run);
  EXPECT_EQ(db.load_blob(key).value_or(""), "second");
  const auto blobs = db.blobs();
  ASSERT_EQ(blobs.size(), 1u);
  EXPECT_EQ(blobs[0].key.kind, "dag");
  EXPECT_EQ(blobs[0].key.key, "graph");
  EXPECT_EQ(blobs[0].key.fingerprint, "fp");
  EXPECT_EQ(blobs[0].bytes, 6);
  EXPECT_TRUE(std::regex_match(blobs[0].updated_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << blobs[0].updated_at;
}

TEST(Database, BlobsAreKeptApartByKindKeyAndSystem) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  db.save_blob({"pinning", "x", "fp"}, "pinning here", run);
  db.save_blob({"pinning", "x", "other machine"}, "pinning there", run);
  db.save_blob({"dag", "x", "fp"}, "dag here", run);
  db.save_blob({"pinning", "y", "fp"}, "y here", run);
  EXPECT_EQ(db.load_blob({"pinning", "x", "fp"}).value_or(""), "pinning here");
  EXPECT_EQ(db.load_blob({"pinning", "x", "other machine"}).value_or(""), "pinning there");
  EXPECT_EQ(db.load_blob({"dag", "x", "fp"}).value_or(""), "dag here");
  EXPECT_EQ(db.load_blob({"pinning", "y", "fp"}).value_or(""), "y here");
  EXPECT_FALSE(db.load_blob({"dag", "x", "other machine"}));
  EXPECT_FALSE(db.load_blob({"dag", "y", "fp"}));
  const auto blobs = db.blobs();  // by kind, then key, then system
  ASSERT_EQ(blobs.size(), 4u);
  EXPECT_EQ(blobs[0].key.kind + "/" + blobs[0].key.key, "dag/x");
  EXPECT_EQ(blobs[1].key.fingerprint, "fp");
  EXPECT_EQ(blobs[2].key.fingerprint, "other machine");
  EXPECT_EQ(blobs[3].key.key, "y");
}

TEST(Database, ForgetDeletesTheBlobsWithThatKey) {
  TempDir dir;
  Database db(dir.file("s.db"));
  const auto run = db.begin_run("fp", "prog");
  db.insert_history(std::vector<InstanceRow>{row("L", TechniqueId::static_, 100, 0)}, run, "fp");
  db.save_blob({"pinning", "L", "fp"}, "p", run);
  db.save_blob({"dag", "L", "another machine"}, "d", run);
  db.save_blob({"pinning", "M", "fp"}, "kept", run);
  const Database::Forgotten gone = db.forget_entries("L");
  EXPECT_EQ(gone.points, 1);
  EXPECT_EQ(gone.regions, 0);
  EXPECT_EQ(gone.blobs, 2);  // every kind and system
  EXPECT_EQ(gone.total(), 3);
  EXPECT_FALSE(db.load_blob({"pinning", "L", "fp"}));
  EXPECT_EQ(db.load_blob({"pinning", "M", "fp"}).value_or(""), "kept");
  db.save_blob({"pinning", "only-a-blob", "fp"}, "b", run);
  EXPECT_EQ(db.forget("only-a-blob"), 1);
  EXPECT_EQ(db.forget("only-a-blob"), 0);
}

// A store written before the blobs table existed (schema 1 with or without
// the regions table): opening it for use adds the table and keeps every row;
// opening it for inspection changes nothing and reads it as empty.
TEST(Database, AnOlderStoreGainsTheBlobsTableAndKeepsItsRows) {
  TempDir dir;
  const std::string path = dir.file("s.db");
  const PointKey key{"L#10/2", "L", 10, 2, "fp", "static,ss"};
  {
    Database db(path);
    const auto run = db.begin_run("fp", "prog");
    db.insert_history(std::vector<InstanceRow>{row("L", TechniqueId::static_, 100, 0)}, run, "fp");
    db.save_state(key, "auto", "kept", run);
  }
  sql(path, "DROP TABLE blobs; DROP TABLE regions");
  {
    Database inspect(path, Database::Access::inspect);
    EXPECT_TRUE(inspect.blobs().empty());
    EXPECT_FALSE(inspect.load_blob({"pinning", "L", "fp"}));
    EXPECT_TRUE(inspect.regions().empty());
    EXPECT_EQ(inspect.history_rows(), 1);
  }
  Warnings warnings;
  Database db(path);
  EXPECT_TRUE(warnings.seen.empty());  // not moved aside: it is a good store
  EXPECT_EQ(dir.count_starting_with("s.db.unusable-"), 0);
  EXPECT_EQ(db.history_rows(), 1);
  EXPECT_EQ(db.runs(), 1);
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "kept");
  db.save_blob({"pinning", "L", "fp"}, "new", db.begin_run("fp", "prog"));
  EXPECT_EQ(db.load_blob({"pinning", "L", "fp"}).value_or(""), "new");
  EXPECT_EQ(db.blobs().size(), 1u);
}

// Each unusable file is renamed "<path>.unusable-<stamp>-<pid>" with a warning
// saying why, and a fresh store takes its place.
void expect_moved_aside(const TempDir& dir, const std::string& path, const std::string& reason) {
  Warnings warnings;
  const std::string before = testing::read_file(path);
  Database db(path);
  ASSERT_EQ(warnings.seen.size(), 1u);
  EXPECT_TRUE(std::regex_search(warnings.seen[0], std::regex(reason))) << warnings.seen[0];
  EXPECT_NE(warnings.seen[0].find("moved it to " + path + ".unusable-"), std::string::npos) << warnings.seen[0];
  ASSERT_EQ(dir.count_starting_with("s.db.unusable-"), 1);
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    if (e.path().filename().string().rfind("s.db.unusable-", 0) == 0) {
      EXPECT_EQ(testing::read_file(e.path().string()), before);  // kept as it was, for inspection
    }
  }
  // The fresh store works.
  const PointKey key{"L#1/1", "L", 1, 1, "fp", "static"};
  db.save_state(key, "auto", "fresh", db.begin_run("fp", "prog"));
  EXPECT_EQ(db.load_state(key, "auto").value_or(""), "fresh");
}

TEST(Database, MovesAsideADamagedSqliteFile) {
  TempDir dir;
  testing::write_file(dir.file("s.db"), testing::damaged_sqlite_file(8192));
  expect_moved_aside(dir, dir.file("s.db"), "is unreadable");
}

// Not SQLite at all: a user's file named by mistake is refused, not renamed.
TEST(Database, RefusesAndKeepsAFileThatIsNotSqlite) {
  TempDir dir;
  const std::string text = std::string(8192, 'x');
  testing::write_file(dir.file("s.db"), text);
  Warnings warnings;
  try {
    Database db(dir.file("s.db"));
    ADD_FAILURE() << "opened a file that is not SQLite";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not an SQLite file; it is left as it is"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::read_file(dir.file("s.db")), text);
  EXPECT_EQ(dir.count_starting_with("s.db.unusable-"), 0);
  EXPECT_TRUE(warnings.seen.empty());
}

TEST(Database, AnEmptyFileBecomesAStore) {
  TempDir dir;
  testing::write_file(dir.file("s.db"), "");
  Database db(dir.file("s.db"));
  EXPECT_EQ(db.runs(), 0);
}

// An in-memory database would keep nothing across runs: refused at once.
TEST(Database, RefusesAnInMemoryDatabase) {
  EXPECT_THROW(Database(":memory:"), Error);
  EXPECT_THROW(Database("file::memory:?cache=shared"), Error);
  EXPECT_THROW(Database(""), Error);
}

// Our application id and schema version, but a table or a column gone (an
// edit with the sqlite3 shell, another tool): every history write used to
// fail after one warning. It is moved aside like a corrupt store, and the
// fresh store takes rows.
void expect_schema_mismatch_moved_aside(const char* damage, const std::string& reason) {
  TempDir dir;
  const std::string path = dir.file("s.db");
  {
    Database db(path);
    db.insert_history(std::vector<InstanceRow>{row("L", TechniqueId::static_, 100, 0)}, db.begin_run("fp", "p"), "fp");
  }
  sql(path, damage);
  expect_moved_aside(dir, path, reason);
  Database db(path);
  db.insert_history(std::vector<InstanceRow>{row("L", TechniqueId::static_, 100, 0)}, db.begin_run("fp", "p"), "fp");
  EXPECT_EQ(db.history_rows(), 1);
}

TEST(Database, MovesAsideAStoreThatLacksATable) {
  expect_schema_mismatch_moved_aside("DROP TABLE states", "has our application id but lacks table states");
}

TEST(Database, MovesAsideAStoreThatLacksAColumn) {
  expect_schema_mismatch_moved_aside("ALTER TABLE history DROP COLUMN reward",
                                     "has our application id but lacks column history.reward");
}

// Nothing is written to such a file before it is moved aside: the later
// tables it also lacks are not added to it (expect_moved_aside compares bytes).
TEST(Database, MovesAsideAStoreThatLacksATableUnchanged) {
  expect_schema_mismatch_moved_aside("DROP TABLE states; DROP TABLE blobs; DROP TABLE regions",
                                     "has our application id but lacks table states");
}

TEST(Database, MovesAsideAStoreWhoseLaterTableLacksAColumn) {
  expect_schema_mismatch_moved_aside("ALTER TABLE blobs DROP COLUMN updated_at",
                                     "has our application id but lacks column blobs.updated_at");
}

TEST(Database, MovesAsideAnotherApplicationsDatabase) {
  TempDir dir;
  sql(dir.file("s.db"), "CREATE TABLE accounts (id INTEGER, owner TEXT); INSERT INTO accounts VALUES (1, 'x');");
  expect_moved_aside(dir, dir.file("s.db"), "belongs to another application");
}

TEST(Database, MovesAsideAStoreFromANewerAutosched) {
  TempDir dir;
  { Database db(dir.file("s.db")); }
  sql(dir.file("s.db"), "PRAGMA user_version = 99");
  expect_moved_aside(dir, dir.file("s.db"), "was written by a newer autosched \\(schema 99, this one reads 1\\)");
}

TEST(Database, MovesAsideACorruptStore) {
  TempDir dir;
  {
    Database db(dir.file("s.db"));
    const auto run = db.begin_run("fp", "prog");
    std::vector<InstanceRow> rows;
    for (int i = 0; i < 2000; ++i)  // 1 ms or more: a row each, so the file has many pages
      rows.push_back(row("L", TechniqueId::static_, 1e6 + i, static_cast<std::uint64_t>(i)));
    db.insert_history(rows, run, "fp");
  }
  sql(dir.file("s.db"), "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE");
  // Overwrite the pages after the first with noise: the b-trees no longer parse.
  std::string bytes = testing::read_file(dir.file("s.db"));
  ASSERT_GT(bytes.size(), 16384u);
  for (std::size_t i = 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919) & 0xff);
  testing::write_file(dir.file("s.db"), bytes);
  expect_moved_aside(dir, dir.file("s.db"), "is (corrupt|unreadable)");
}

TEST(Database, ReportsAPathThatCannotBeCreated) {
  EXPECT_THROW(Database("/proc/autosched-cannot-be-here/s.db"), Error);
}

}  // namespace
}  // namespace autosched
