#pragma once
/// @file
/// The factory of every selector: what a parsed configuration
/// (grammar/selector_config.hpp) makes for one decision point. It sits above
/// the grammar and the selectors, so that the grammar knows no selector.

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <cstdint>
#include <memory>
#include <string_view>

namespace autosched {

/// A fresh selector for a decision point with `arms`. `seed` is used unless
/// the configuration sets one; `log` (may be null) receives the RL logs.
std::unique_ptr<Selector> make_selector(const SelectorConfig& config, const Portfolio& arms, std::uint64_t seed,
                                        SelectorLog* log, std::string_view point);
/// The same with a shared portfolio (share_portfolio()): `auto` keeps a
/// reference to it, not a copy.
std::unique_ptr<Selector> make_selector(const SelectorConfig& config, const std::shared_ptr<const SharedPortfolio>& arms,
                                        std::uint64_t seed, SelectorLog* log, std::string_view point);

}  // namespace autosched
