// The latest state of each decision point's selector.
#include <autosched/store/database.hpp>

#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>

namespace autosched {

void Database::save_state(const PointKey& point, const std::string& selector, const std::string& state,
                          std::int64_t run) {
  if (read_only()) return;
  const auto lock = use();
  const std::int64_t id = point_id(point);
  const auto s = prepared_.get(db_,
                               "INSERT INTO states (point, selector, state, run, updated_at) VALUES (?, ?, ?, ?, ?) "
                               "ON CONFLICT (point, selector) DO UPDATE SET state = excluded.state, run = "
                               "excluded.run, updated_at = excluded.updated_at");
  s->bind(1, id).bind(2, selector).bind(3, state).bind(4, run).bind(5, detail::utc_now());
  s->step();
}

std::optional<std::string> Database::load_state(const PointKey& point, const std::string& selector) {
  const auto lock = use();
  const auto s = prepared_.get(
      db_,
      "SELECT s.state FROM states s JOIN points p ON s.point = p.id WHERE p.loop = ? AND p.bucket = ? "
      "AND p.p = ? AND p.fingerprint = ? AND p.portfolio = ? AND s.selector = ?");
  s->bind(1, point.loop)
      .bind(2, std::int64_t{point.bucket})
      .bind(3, std::int64_t{point.p})
      .bind(4, point.fingerprint)
      .bind(5, point.portfolio)
      .bind(6, selector);
  if (s->step()) return s->text(0);
  return std::nullopt;
}

}  // namespace autosched
