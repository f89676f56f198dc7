#pragma once
/// @file
/// The store's tables. Schema 1 is what a fresh store is created with; the
/// tables added since (regions, blobs) extend it without changing what
/// schema 1 means, so they are created on open instead of by a version bump:
/// older autosched builds open such a file and ignore them. Private to the
/// store.

#include <string>

struct sqlite3;

namespace autosched::detail {

/// PRAGMA application_id of an autosched store: "auts".
inline constexpr int store_application_id = 0x61757473;

/// Creates the schema-1 tables and stamps the file (application id, schema
/// `version`). Runs inside the caller's write transaction.
void create_schema(sqlite3* db, const std::string& path, int version);

/// Creates the tables and columns added after schema 1 where they are
/// missing; a store that has them is not written to.
void add_later_tables(sqlite3* db, const std::string& path);

/// Whether `table` has `column`.
bool has_column(sqlite3* db, const char* table, const char* column);

/// How many instances a history row stands for, as an SQL expression over
/// the history table: its `instances` column, or 1 in a store from before
/// short instances were folded (opened for inspection, so not migrated).
/// `prefix`: the table's alias with its dot ("h."), or empty.
std::string history_instances(sqlite3* db, const std::string& prefix = "");

/// What keeps the file's tables from being the ones the store uses ("lacks
/// table history", "lacks column history.reward"); empty when they match.
/// Tables added after schema 1 are only checked where present: an older
/// store lacks them until add_later_tables() creates them.
std::string schema_mismatch(sqlite3* db);

/// Whether the file has table `name` (a store opened for inspection may
/// predate the later tables).
bool has_table(sqlite3* db, const char* name);

/// Now in UTC, as the *_at columns hold it ("2026-01-31T12:00:00Z").
std::string utc_now();

}  // namespace autosched::detail
