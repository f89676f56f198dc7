// What `autosched db` reads (summaries, CSV export) and forget.
#include <autosched/store/database.hpp>

#include <autosched/core/error.hpp>
#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>
#include <autosched/store/detail/sqlite_transaction.hpp>

#include <sqlite3.h>

#include <cstdio>

namespace autosched {

using detail::Statement;

std::vector<Database::PointSummary> Database::points() {
  const auto lock = use();
  std::vector<PointSummary> out;
  const std::string k = detail::history_instances(db_, "h.");
  const std::string summary = "SELECT p.id, p.name, p.loop, p.fingerprint, p.portfolio, p.bucket, p.p, coalesce(sum(" +
                              k + "), 0), coalesce(sum(h.explored * " + k +
                              "), 0) FROM points p LEFT JOIN history h ON h.point = p.id "
                              "GROUP BY p.id ORDER BY p.loop, p.bucket, p.p";
  Statement s(db_, summary.c_str());
  while (s.step()) {
    PointSummary ps;
    ps.id = s.integer(0);
    ps.name = s.text(1);
    ps.loop = s.text(2);
    ps.fingerprint = s.text(3);
    ps.portfolio = s.text(4);
    ps.bucket = static_cast<int>(s.integer(5));
    ps.p = static_cast<int>(s.integer(6));
    ps.instances = s.integer(7);
    ps.explored = s.integer(8);
    out.push_back(std::move(ps));
  }
  // Means weighted by the instances each row stands for.
  const std::string n = detail::history_instances(db_);
  const std::string mean = "sum(time_ns * " + n + ") / sum(" + n + ")";
  // auto's profiling instances (arm `profiling:<chunk>`) measure the loop; they are no arm
  const std::string best_sql = "SELECT arm, " + mean +
                               " AS mean FROM history WHERE point = ? AND cut_short = 0 "
                               "AND arm NOT LIKE 'profiling%' GROUP BY arm ORDER BY mean LIMIT 1";
  for (PointSummary& ps : out) {
    Statement best(db_, best_sql.c_str());
    best.bind(1, ps.id);
    if (best.step()) {
      ps.best_arm = best.text(0);
      ps.best_mean_ns = best.real(1);
    }
    Statement states(db_, "SELECT selector FROM states WHERE point = ? ORDER BY selector");
    states.bind(1, ps.id);
    while (states.step()) ps.selectors.push_back(states.text(0));
  }
  return out;
}

std::vector<Database::ArmSummary> Database::arms(std::int64_t point) {
  const auto lock = use();
  std::vector<ArmSummary> out;
  // Weighted by the instances each row stands for; the minimum is over the
  // rows, so of a folded row its mean.
  const std::string n = detail::history_instances(db_);
  const std::string sql = "SELECT arm, sum(" + n + "), sum(time_ns * " + n + ") / sum(" + n +
                          ") AS mean, min(time_ns), sum(lib * " + n + ") / sum(" + n +
                          ") FROM history WHERE point = ? AND cut_short = 0 GROUP BY arm ORDER BY mean";
  Statement s(db_, sql.c_str());
  s.bind(1, point);
  while (s.step()) out.push_back({s.text(0), s.integer(1), s.real(2), s.real(3), s.real(4)});
  return out;
}

std::vector<Database::SavedState> Database::states(std::int64_t point) {
  const auto lock = use();
  std::vector<SavedState> out;
  Statement s(db_, "SELECT selector, state, updated_at FROM states WHERE point = ? ORDER BY selector");
  s.bind(1, point);
  while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2)});
  return out;
}

std::int64_t Database::runs() {
  const auto lock = use();
  return detail::single_integer(db_, "SELECT count(*) FROM runs");
}

std::int64_t Database::history_rows() {
  const auto lock = use();
  return detail::single_integer(db_, "SELECT count(*) FROM history");
}

std::int64_t Database::recorded_instances() {
  const auto lock = use();
  const std::string sql = "SELECT coalesce(sum(" + detail::history_instances(db_) + "), 0) FROM history";
  return detail::single_integer(db_, sql.c_str());
}

std::string Database::export_csv() {
  const auto lock = use();
  std::string out =
      "loop,bucket,point_p,fingerprint,run,instance,arm,n,p,time_ns,lib,percent_imbalance,cov,stddev,skewness,"
      "kurtosis,selector,selector_ns,reward,explored,cut_short,instances\n";
  // instances: how many instances the row stands for (short ones are folded,
  // their figures then means; `instance` is the first of them).
  const std::string sql =
      std::string(
          "SELECT p.loop, p.bucket, p.p, p.fingerprint, h.run, h.instance, h.arm, h.n, h.p, h.time_ns, h.lib, "
          "h.percent_imbalance, h.cov, h.stddev, h.skewness, h.kurtosis, h.selector, h.selector_ns, h.reward, "
          "h.explored, h.cut_short, ") +
      detail::history_instances(db_, "h.") + " FROM history h JOIN points p ON h.point = p.id ORDER BY h.id";
  Statement s(db_, sql.c_str());
  auto quoted = [](const std::string& v) {
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  char buf[512];
  while (s.step()) {
    std::snprintf(buf, sizeof buf, ",%lld,%lld,%s,%lld,%lld,%s,%lld,%lld,%.0f,%.4f,%.4f,%.6f,%.1f,%.6f,%.6f,",
                  static_cast<long long>(s.integer(1)), static_cast<long long>(s.integer(2)), s.text(3).c_str(),
                  static_cast<long long>(s.integer(4)), static_cast<long long>(s.integer(5)), s.text(6).c_str(),
                  static_cast<long long>(s.integer(7)), static_cast<long long>(s.integer(8)), s.real(9), s.real(10),
                  s.real(11), s.real(12), s.real(13), s.real(14), s.real(15));
    out += quoted(s.text(0)) + buf + s.text(16);
    std::snprintf(buf, sizeof buf, ",%.0f,", s.real(17));
    out += buf;
    if (!s.null(18)) {  // no reward: an empty field
      std::snprintf(buf, sizeof buf, "%.9g", s.real(18));
      out += buf;
    }
    std::snprintf(buf, sizeof buf, ",%lld,%lld,%lld\n", static_cast<long long>(s.integer(19)),
                  static_cast<long long>(s.integer(20)), static_cast<long long>(s.integer(21)));
    out += buf;
  }
  return out;
}

Database::Forgotten Database::forget_entries(const std::string& name) {
  if (read_only()) detail::throw_error("store " + path_ + " is read-only for this process: nothing was forgotten");
  const auto lock = use();
  Forgotten gone;
  detail::WriteTransaction forget(db_, path_);
  {
    Statement s(db_, "DELETE FROM points WHERE name = ? OR loop = ?");  // history and states cascade
    s.bind(1, name).bind(2, name);
    s.step();
    gone.points = sqlite3_changes(db_);
  }
  // A store opened for inspection may predate the later tables.
  if (detail::has_table(db_, "regions")) {
    Statement s(db_, "DELETE FROM regions WHERE region = ?");
    s.bind(1, name);
    s.step();
    gone.regions = sqlite3_changes(db_);
  }
  if (detail::has_table(db_, "blobs")) {
    Statement s(db_, "DELETE FROM blobs WHERE key = ?");
    s.bind(1, name);
    s.step();
    gone.blobs = sqlite3_changes(db_);
  }
  forget.commit();
  return gone;
}

int Database::forget(const std::string& name) { return forget_entries(name).total(); }

}  // namespace autosched
