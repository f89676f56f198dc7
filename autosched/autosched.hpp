#pragma once
/// @file
/// autosched: self-scheduling loops and tunable regions for repetitive HPC
/// codes. The umbrella of what an application needs: parallel_for and
/// parallel_for_chunks with their options, last_instance and flush_records,
/// Region and the adapt helpers, the pinning manager, and the version. It
/// leaves out the layers below (techniques, selection, store): include their
/// headers by name for white-box work (tests, tools), or
/// <autosched/loops/loops.hpp> for schedule parsing and the schedule
/// environment. C programs include <autosched/loops/autosched.h> (and
/// <autosched/pinning/pinning.h>).

#include <autosched/core/version.hpp>
#include <autosched/dag/dag.hpp>
#include <autosched/loops/loop_options.hpp>
#include <autosched/loops/loop_registry.hpp>
#include <autosched/loops/parallel_for.hpp>
#include <autosched/pinning/pinning.hpp>
#include <autosched/regions/adapt.hpp>
#include <autosched/regions/region.hpp>
