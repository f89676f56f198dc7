#include <autosched/loops/loop_registry.hpp>

#include <autosched/drive/loop.hpp>
#include <autosched/session/session.hpp>

namespace autosched {

std::optional<InstanceRecord> last_instance(std::string_view loop) {
  const drive::Loop* record = drive::find_loop(loop);
  return record != nullptr ? record->last() : std::nullopt;
}

std::string call_site_id(const SourceLocation& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" + std::to_string(where.column());
}

std::vector<std::string> loop_ids() { return drive::loop_ids(); }

void flush_records() { session::flush(); }

}  // namespace autosched
