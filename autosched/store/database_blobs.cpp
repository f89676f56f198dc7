// Front-ends' own state (pinning strategies, DAG models): opaque bytes the
// store keeps without reading them.
#include <autosched/store/database.hpp>

#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>

namespace autosched {

using detail::Statement;

void Database::save_blob(const BlobKey& key, std::string_view bytes, std::int64_t run) {
  if (read_only()) return;
  const auto lock = use();
  Statement s(db_,
              "INSERT INTO blobs (kind, key, fingerprint, bytes, run, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
              "ON CONFLICT (kind, key, fingerprint) DO UPDATE SET bytes = excluded.bytes, run = excluded.run, "
              "updated_at = excluded.updated_at");
  s.bind(1, key.kind).bind(2, key.key).bind(3, key.fingerprint).bind_bytes(4, bytes);
  s.bind(5, run).bind(6, detail::utc_now());
  s.step();
}

std::optional<std::string> Database::load_blob(const BlobKey& key) {
  const auto lock = use();
  // A store opened for inspection is not given the table.
  if (!detail::has_table(db_, "blobs")) return std::nullopt;
  Statement s(db_, "SELECT bytes FROM blobs WHERE kind = ? AND key = ? AND fingerprint = ?");
  s.bind(1, key.kind).bind(2, key.key).bind(3, key.fingerprint);
  if (s.step()) return s.bytes(0);
  return std::nullopt;
}

std::vector<std::string> Database::blob_keys_holding(const std::string& kind, std::string_view bytes) {
  const auto lock = use();
  std::vector<std::string> out;
  if (!detail::has_table(db_, "blobs")) return out;
  Statement s(db_, "SELECT DISTINCT key FROM blobs WHERE kind = ? AND bytes = ? ORDER BY key");
  s.bind(1, kind).bind_bytes(2, bytes);
  while (s.step()) out.push_back(s.text(0));
  return out;
}

std::vector<Database::BlobSummary> Database::blobs() {
  const auto lock = use();
  std::vector<BlobSummary> out;
  if (!detail::has_table(db_, "blobs")) return out;
  Statement s(db_,
              "SELECT kind, key, fingerprint, length(bytes), coalesce(updated_at, '') FROM blobs "
              "ORDER BY kind, key, fingerprint");
  while (s.step()) {
    out.push_back({.key = {s.text(0), s.text(1), s.text(2)}, .bytes = s.integer(3), .updated_at = s.text(4)});
  }
  return out;
}

}  // namespace autosched
