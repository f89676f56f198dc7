#pragma once
/// @file
/// Umbrella header of the core layer.

#include <autosched/core/components.hpp>
#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/core/hash.hpp>
#include <autosched/core/index_range.hpp>
#include <autosched/core/running_stats.hpp>
#include <autosched/core/shared_values.hpp>
#include <autosched/core/source_location.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/core/version.hpp>
