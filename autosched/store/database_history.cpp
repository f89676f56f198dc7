// Runs, the history of decision points (short instances folded, see
// history_rows.hpp), and the ids of the points it is kept under.
#include <autosched/store/database.hpp>

#include <autosched/select/grammar/arm.hpp>
#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>
#include <autosched/store/detail/sqlite_transaction.hpp>
#include <autosched/store/history_rows.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <map>
#include <tuple>

namespace autosched {

using detail::Statement;

std::int64_t Database::begin_run(const std::string& fingerprint, const std::string& command) {
  if (read_only()) return 0;
  const auto lock = use();
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  Statement s(db_, "INSERT INTO runs (fingerprint, command, started_at, pid, host) VALUES (?, ?, ?, ?, ?)");
  s.bind(1, fingerprint)
      .bind(2, command)
      .bind(3, detail::utc_now())
      .bind(4, std::int64_t{getpid()})
      .bind(5, std::string(host));
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

std::int64_t Database::point_id(const PointKey& key) {
  const auto find = prepared_.get(
      db_, "SELECT id FROM points WHERE loop = ? AND bucket = ? AND p = ? AND fingerprint = ? AND portfolio = ?");
  auto bind_key = [&] {
    find->bind(1, key.loop)
        .bind(2, std::int64_t{key.bucket})
        .bind(3, std::int64_t{key.p})
        .bind(4, key.fingerprint)
        .bind(5, key.portfolio);
  };
  bind_key();
  if (find->step()) return find->integer(0);
  // Another process may add the same point between the two statements:
  // OR IGNORE keeps theirs, and the second look finds it either way.
  const auto add = prepared_.get(
      db_, "INSERT OR IGNORE INTO points (name, loop, bucket, p, fingerprint, portfolio) VALUES (?, ?, ?, ?, ?, ?)");
  add->bind(1, key.name)
      .bind(2, key.loop)
      .bind(3, std::int64_t{key.bucket})
      .bind(4, std::int64_t{key.p})
      .bind(5, key.fingerprint)
      .bind(6, key.portfolio);
  add->step();
  find->reset();
  bind_key();
  find->step();
  return find->integer(0);
}

void Database::insert_history(std::span<const InstanceRow> rows, std::int64_t run, const std::string& fingerprint) {
  if (read_only()) return;
  const std::vector<HistoryRow> folded = fold_history(rows);
  if (folded.empty()) return;
  const auto lock = use();
  detail::WriteTransaction batch(db_, path_);
  // A point's id is looked up once per batch, not once per row.
  std::map<std::tuple<std::string, int, int, std::string>, std::int64_t> ids;
  const auto insert =
      prepared_.get(db_,
                    "INSERT INTO history (point, run, instance, arm, n, p, time_ns, lib, percent_imbalance, cov, "
                    "stddev, skewness, kurtosis, selector, selector_ns, reward, explored, cut_short, instances) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const HistoryRow& h : folded) {
    const InstanceRow& r = h.row;
    const auto k = std::make_tuple(std::string(r.loop), r.bucket, r.p, std::string(r.portfolio));
    auto it = ids.find(k);
    if (it == ids.end()) {
      const PointKey key{std::string(r.loop) + "#" + std::to_string(r.bucket) + "/" + std::to_string(r.p),
                         r.loop,
                         r.bucket,
                         r.p,
                         fingerprint,
                         r.portfolio};
      it = ids.emplace(k, point_id(key)).first;
    }
    const std::string arm = TechniqueSpec{r.technique_id, r.chunk, r.exp_chunk, {}}.label();
    const LoopMetrics& m = r.metrics;
    insert->reset();
    insert->bind(1, it->second)
        .bind(2, run)
        .bind(3, static_cast<std::int64_t>(r.instance))
        .bind(4, arm)
        .bind(5, r.n)
        .bind(6, std::int64_t{r.p})
        .bind(7, m.loop_time_ns)
        .bind(8, m.lib)
        .bind(9, m.percent_imbalance)
        .bind(10, m.cov)
        .bind(11, m.stddev)
        .bind(12, m.skewness)
        .bind(13, m.kurtosis)
        .bind(14, std::string(r.selector))
        .bind(15, r.selector_ns)
        .bind(16, r.reward)  // SQLite keeps NaN as NULL
        .bind(17, std::int64_t{r.explored})
        .bind(18, std::int64_t{r.cut_short})
        .bind(19, h.instances);
    insert->step();
  }
  batch.commit();
}

}  // namespace autosched
