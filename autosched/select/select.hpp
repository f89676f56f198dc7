#pragma once
/// @file
/// Umbrella header of the selection layer.

#include <autosched/select/engine/decision_point.hpp>
#include <autosched/select/engine/selector_factory.hpp>
#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/grammar/outcome.hpp>
#include <autosched/select/grammar/rl_names.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/select/selectors/bandit/cost_bandit.hpp>
#include <autosched/select/selectors/bandit/coverage_sweep.hpp>
#include <autosched/select/selectors/bandit/epsilon_greedy_selector.hpp>
#include <autosched/select/selectors/bandit/thompson_selector.hpp>
#include <autosched/select/selectors/bandit/ucb_selector.hpp>
#include <autosched/select/selectors/expert/binary_selector.hpp>
#include <autosched/select/selectors/expert/exhaustive_selector.hpp>
#include <autosched/select/selectors/expert/expert_selector.hpp>
#include <autosched/select/selectors/expert/random_selector.hpp>
#include <autosched/select/selectors/rl/rl_agent.hpp>
#include <autosched/select/selectors/selector.hpp>
