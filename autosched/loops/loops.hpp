#pragma once
/// @file
/// Umbrella header of the thread-level loop runtime.

#include <autosched/loops/loop_options.hpp>
#include <autosched/loops/loop_registry.hpp>
#include <autosched/loops/parallel_for.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
