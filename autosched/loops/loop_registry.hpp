#pragma once
/// @file
/// What the runtime knows about the loops this process has run.

#include <autosched/measure/instance_record.hpp>

#include <autosched/core/source_location.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

/// The most recent finished instance of `loop`, or nullopt if it has not
/// finished one. With `nowait`, an instance is finished when its last thread is.
std::optional<InstanceRecord> last_instance(std::string_view loop);

/// The id a loop gets when LoopOptions::name is empty: "file:line:column".
std::string call_site_id(const SourceLocation& where);

/// Ids of every loop run so far, sorted.
std::vector<std::string> loop_ids();

/// Saves every decision point's selector state and waits until everything
/// recorded so far (store history, traces, selector logs) is written.
/// autosched does this at exit by itself; call it to read a trace while the
/// program runs, or before a fork or an abrupt exit (_exit, MPI_Abort).
void flush_records();

}  // namespace autosched
