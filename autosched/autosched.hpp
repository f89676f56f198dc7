#pragma once
/// @file
/// autosched: self-scheduling loops and tunable regions for repetitive HPC codes. Include this
/// for the whole public API.

#include <autosched/core/core.hpp>
#include <autosched/loops/loops.hpp>
#include <autosched/measure/measure.hpp>
#include <autosched/regions/regions.hpp>
#include <autosched/techniques/techniques.hpp>
