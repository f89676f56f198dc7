#include <autosched/store/detail/sqlite_transaction.hpp>

#include <autosched/store/detail/sqlite_statement.hpp>

#include <sqlite3.h>

namespace autosched::detail {

WriteTransaction::WriteTransaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
  exec_sql(db_, "BEGIN IMMEDIATE", path_);
}

WriteTransaction::~WriteTransaction() {
  // Its own failure is of no interest: the error being thrown says more.
  if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void WriteTransaction::commit() {
  exec_sql(db_, "COMMIT", path_);
  done_ = true;
}

}  // namespace autosched::detail
