#pragma once
/// @file
/// Umbrella header of the selection layer.

#include <autosched/select/arm.hpp>
#include <autosched/select/auto_selector.hpp>
#include <autosched/select/binary_selector.hpp>
#include <autosched/select/cost_bandit.hpp>
#include <autosched/select/coverage_sweep.hpp>
#include <autosched/select/decision_point.hpp>
#include <autosched/select/epsilon_greedy_selector.hpp>
#include <autosched/select/exhaustive_selector.hpp>
#include <autosched/select/expert_selector.hpp>
#include <autosched/select/outcome.hpp>
#include <autosched/select/random_selector.hpp>
#include <autosched/select/rl_agent.hpp>
#include <autosched/select/rl_names.hpp>
#include <autosched/select/schedule.hpp>
#include <autosched/select/schedule_environment.hpp>
#include <autosched/select/selector.hpp>
#include <autosched/select/selector_config.hpp>
#include <autosched/select/thompson_selector.hpp>
#include <autosched/select/ucb_selector.hpp>
