#pragma once
/// @file
/// autosched::pinning, the thread-pinning resource manager: one learning
/// automaton per thread moves threads to the cores where they run fastest
/// (docs/pinning.md). C programs include <autosched/pinning/pinning.h>.

#include <autosched/pinning/affinity.hpp>
#include <autosched/pinning/manager.hpp>
#include <autosched/pinning/options.hpp>
#include <autosched/pinning/speed.hpp>
#include <autosched/pinning/strategy.hpp>
#include <autosched/pinning/team_pinning.hpp>
