#pragma once
/// @file
/// Umbrella header of the measure layer.

#include <autosched/measure/clock.hpp>
#include <autosched/measure/instance_record.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/measure/thread_stats.hpp>
