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

}  // namespace autosched
