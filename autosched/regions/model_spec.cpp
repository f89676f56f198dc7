#include <autosched/regions/model_spec.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

namespace autosched {

namespace {

struct Name {
  std::string_view spelling;
  ModelSpec::Kind kind;
};
// Ours first (what errors list), then Apollo's spellings.
constexpr Name names[] = {
    {"static", ModelSpec::Kind::static_},
    {"round-robin", ModelSpec::Kind::round_robin},
    {"random", ModelSpec::Kind::random},
    {"dtree", ModelSpec::Kind::dtree},
    {"rforest", ModelSpec::Kind::rforest},
    {"epsilon-greedy", ModelSpec::Kind::epsilon_greedy},
    {"ucb", ModelSpec::Kind::ucb},
    {"thompson", ModelSpec::Kind::thompson},
    {"auto", ModelSpec::Kind::automatic},
    {"roundrobin", ModelSpec::Kind::round_robin},
    {"decisiontree", ModelSpec::Kind::dtree},
    {"randomforest", ModelSpec::Kind::rforest},
};
constexpr std::size_t our_names = 9;

const std::vector<std::string_view> common_keys = {"min_train",     "coverage", "label", "skip_first",
                                                   "explore_after", "retrain",  "drift", "drift_share",
                                                   "drift_after",   "load"};

std::vector<std::string_view> keys_for(ModelSpec::Kind kind) {
  std::vector<std::string_view> keys = common_keys;
  auto add = [&](std::initializer_list<std::string_view> more) { keys.insert(keys.end(), more); };
  switch (kind) {
    case ModelSpec::Kind::static_:
      add({"variant", "policy"});
      break;
    case ModelSpec::Kind::random:
    case ModelSpec::Kind::thompson:
    case ModelSpec::Kind::automatic:
      add({"seed"});
      break;
    case ModelSpec::Kind::dtree:
      add({"depth", "max_depth", "explore", "seed"});
      break;
    case ModelSpec::Kind::rforest:
      add({"trees", "num_trees", "depth", "max_depth", "seed", "features", "explore"});
      break;
    case ModelSpec::Kind::epsilon_greedy:
      add({"epsilon", "seed"});
      break;
    case ModelSpec::Kind::ucb:
      add({"c"});
      break;
    case ModelSpec::Kind::round_robin:
      break;
  }
  return keys;
}

}  // namespace

std::string_view ModelSpec::name() const noexcept {
  for (std::size_t i = 0; i < our_names; ++i)
    if (names[i].kind == kind) return names[i].spelling;
  return "?";
}

ModelSpec parse_model_spec(std::string_view text, std::string_view source) {
  ModelSpec m;
  m.text = std::string(text::trim(text));
  const auto parts = text::split(text, ',');
  const std::string head = text::lower(parts.front());
  const auto* found =
      std::find_if(std::begin(names), std::end(names), [&](const Name& n) { return n.spelling == head; });
  if (found == std::end(names)) {
    std::vector<std::string_view> accepted;
    for (std::size_t i = 0; i < our_names; ++i) accepted.push_back(names[i].spelling);
    detail::throw_error(text::bad_value(source, text, "a model: " + text::join(accepted) + " (then ,key=value...)"));
  }
  m.kind = found->kind;
  const auto keys = keys_for(m.kind);
  const std::vector<std::string_view> items(parts.begin() + 1, parts.end());
  const text::KeyRules rules{m.name(), keys, {}, {}};
  text::read_key_values(source, text, items, rules, [&](const std::string& key, std::string_view value_view) {
    const std::string value(value_view);
    auto number = [&](double low, double high) { return text::number_in(source, text, key, value, low, high); };
    auto integer = [&](std::int64_t low, std::int64_t high) {
      return text::integer_in(source, text, key, value, low, high);
    };
    const std::string v = text::lower(value);
    constexpr std::int64_t big = std::numeric_limits<int>::max();
    if (key == "variant" || key == "policy") {
      m.variant = static_cast<int>(integer(0, big));
    } else if (key == "depth" || key == "max_depth") {
      m.depth = static_cast<int>(integer(0, 32));
    } else if (key == "trees" || key == "num_trees") {
      m.trees = static_cast<int>(integer(1, 1000));
    } else if (key == "seed") {
      m.seed = static_cast<std::uint64_t>(integer(0, std::numeric_limits<std::int64_t>::max()));
    } else if (key == "features") {
      if (v != "sqrt" && v != "all") detail::throw_error(text::bad_value(source, text, "features = sqrt or all"));
      m.sqrt_features = v == "sqrt";
    } else if (key == "explore") {
      if (v != "round-robin" && v != "roundrobin" && v != "random")
        detail::throw_error(text::bad_value(source, text, "explore = round-robin or random"));
      m.explore_random = v == "random";
    } else if (key == "epsilon") {
      m.epsilon = number(0, 1);
    } else if (key == "c") {
      m.ucb_c = number(0, 100);
    } else if (key == "min_train") {
      m.min_train = static_cast<int>(integer(0, big));
      m.min_train_set = true;
    } else if (key == "coverage") {
      m.coverage = static_cast<int>(integer(1, 1000));
    } else if (key == "label") {
      if (v != "mean" && v != "min") detail::throw_error(text::bad_value(source, text, "label = mean or min"));
      m.label_by_min = v == "min";
    } else if (key == "skip_first") {
      m.skip_first = integer(0, 1) == 1;
    } else if (key == "explore_after") {
      m.explore_after = number(0, 1);
    } else if (key == "retrain") {
      m.retrain = integer(0, std::numeric_limits<std::int64_t>::max());
    } else if (key == "drift") {
      m.drift = number(1, 1e6);
    } else if (key == "drift_share") {
      m.drift_share = number(0, 1);
    } else if (key == "drift_after") {
      m.drift_after = static_cast<int>(integer(1, 1'000'000));
    } else if (key == "load") {
      if (value.empty()) detail::throw_error(text::bad_value(source, text, "load = the path of a model file"));
      m.load = value;
    }
  });
  return m;
}

ModelSpec default_model_spec() {
  static const ModelSpec spec = [] {
    if (auto v = environment::get("AUTOSCHED_REGION_MODEL"); v && !text::trim(*v).empty()) {
      try {
        return parse_model_spec(*v, "AUTOSCHED_REGION_MODEL");
      } catch (const Error& e) {
        detail::warn(std::string(e.what()) + "; regions use 'auto'");
      }
    }
    return parse_model_spec("auto", "default model");
  }();
  return spec;
}

}  // namespace autosched
