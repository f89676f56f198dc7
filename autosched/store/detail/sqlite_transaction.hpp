#pragma once
/// @file
/// A write transaction that takes the store's write lock at once (BEGIN
/// IMMEDIATE) and rolls back unless committed. Taking the lock first matters
/// when a transaction reads before it writes: a deferred one could read,
/// then find another process writing and fail instead of waiting. Private to
/// the store.

#include <string>

struct sqlite3;

namespace autosched::detail {

class WriteTransaction {
 public:
  /// Begins; waits for other writers up to the connection's busy timeout.
  /// Failures name the store `path`.
  WriteTransaction(sqlite3* db, const std::string& path);
  /// Rolls back if commit() was not reached (an exception is on its way).
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;

  void commit();

 private:
  sqlite3* db_;
  const std::string& path_;
  bool done_ = false;
};

}  // namespace autosched::detail
