#pragma once
/// @file
/// The selection part of the schedule grammar (docs/selection.md, "The grammar"):
///   auto[:<selector>][,<key>=<value>...]
///   auto                                   autosched's own selector
///   auto:exhaustive,portfolio=static,ss,gss
///   auto:qlearn,policy=softmax,reward=looptime,tau=1.5
///   auto:chunk,agent=sarsa,technique=gss   RL over chunk sizes of one technique
/// Selectors: auto, random, exhaustive, binary, expert, qlearn, sarsa, doubleq,
/// qv, expected-sarsa, chunk. `portfolio=` takes the following comma-separated
/// arms (`gss`, `gss:16`, `ss:expert`) up to the next key; `chunk=expert` gives
/// every arm without its own chunk expChunk. Unknown selectors, keys and bad
/// values are errors that list what is accepted.

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/grammar/auto_config.hpp>
#include <autosched/select/grammar/outcome.hpp>
#include <autosched/select/grammar/rl_config.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

struct SelectorConfig {
  std::string selector = "auto";
  Portfolio portfolio;        ///< empty: Auto4OMP's 12; auto: auto_portfolio() (24); chunk selector: chunk sizes
  bool expert_chunk = false;  ///< chunk=expert for every arm without its own chunk
  std::optional<std::uint64_t> seed;
  AutoConfig automatic;                           ///< auto
  double lib_rise = 10;                           ///< exhaustive: re-search when LIB rises this many points
  double drift = 0.10;                            ///< exhaustive: or loop time drifts by this fraction
  RlConfig rl;                                    ///< RL selectors and chunk
  std::vector<std::string> replay_arms;           ///< policy=replay: arm labels or indices
  TechniqueId chunk_technique = TechniqueId::ss;  ///< chunk: the technique whose minimum chunk is chosen
  std::string chunk_agent = "qlearn";             ///< chunk: the RL agent choosing it
  std::string text;                               ///< the schedule text this came from, as written

  [[nodiscard]] bool is_rl() const noexcept;
  friend bool operator==(const SelectorConfig&, const SelectorConfig&) = default;
};

/// Names of the selectors, in the order `autosched info` lists them.
const std::vector<std::string_view>& selector_names();

/// True when `text` is a selection schedule (starts with "auto" followed by
/// nothing, ':' or ',').
bool is_selection_text(std::string_view text);

/// Parses a selection schedule; `source` names the input in errors.
SelectorConfig parse_selector(std::string_view text, std::string_view source);

/// The copy of `config` every decision point with an equal one holds (a
/// configuration is 600 bytes; 10^4 loop names under `auto` share one).
/// Thread-safe.
std::shared_ptr<const SelectorConfig> share_selector_config(const SelectorConfig& config);

/// The arms a decision point with this configuration chooses from.
Portfolio selector_portfolio(const SelectorConfig& config, const Context& context);

/// The index in `arms` of a replay file's arm, given as an index or a label;
/// -1 when it names none of them.
int replay_index(const std::string& label, const Portfolio& arms);

}  // namespace autosched
