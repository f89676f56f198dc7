// Tunable regions' states (samples and trained models).
#include <autosched/store/database.hpp>

#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>
#include <autosched/store/detail/sqlite_transaction.hpp>

namespace autosched {

using detail::Statement;

void Database::update_region(const RegionKey& key, const std::string& model, const ComposeState& compose,
                             std::int64_t run) {
  if (read_only()) return;
  const auto lock = use();
  detail::WriteTransaction update(db_, path_);  // the read and the write must see no other process in between
  std::optional<std::string> current;
  {
    Statement s(db_,
                "SELECT state FROM regions WHERE region = ? AND features = ? AND variants = ? AND fingerprint = ?");
    s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
    if (s.step()) current = s.text(0);
  }
  const std::string state = compose(current);
  Statement s(db_,
              "INSERT INTO regions (region, features, variants, fingerprint, model, state, run, updated_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (region, features, variants, fingerprint) DO UPDATE SET "
              "model = excluded.model, state = excluded.state, run = excluded.run, updated_at = excluded.updated_at");
  s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
  s.bind(5, model).bind(6, state).bind(7, run).bind(8, detail::utc_now());
  s.step();
  update.commit();
}

std::optional<std::string> Database::load_region(const RegionKey& key) {
  const auto lock = use();
  if (!detail::has_table(db_, "regions")) return std::nullopt;
  Statement s(db_, "SELECT state FROM regions WHERE region = ? AND features = ? AND variants = ? AND fingerprint = ?");
  s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
  if (s.step()) return s.text(0);
  return std::nullopt;
}

std::vector<Database::RegionSummary> Database::regions() {
  const auto lock = use();
  std::vector<RegionSummary> out;
  if (!detail::has_table(db_, "regions")) return out;
  Statement s(db_,
              "SELECT region, features, variants, fingerprint, coalesce(model, ''), length(state), "
              "coalesce(updated_at, '') FROM regions ORDER BY region, fingerprint");
  while (s.step()) {
    out.push_back({.key = {s.text(0), s.text(1), s.text(2), s.text(3)},
                   .model = s.text(4),
                   .bytes = s.integer(5),
                   .updated_at = s.text(6)});
  }
  return out;
}

}  // namespace autosched
