#include <autosched/select/grammar/selector_config.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/hash.hpp>
#include <autosched/core/shared_values.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/rl_names.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace autosched {

namespace {

const std::vector<std::string_view> common_keys = {"portfolio", "chunk", "seed"};
const std::vector<std::string_view> rl_keys = {
    "policy",      "reward",    "init",      "decay",   "greedy",  "band",   "alpha",    "gamma",  "epsilon", "tau",
    "alpha-decay", "eps-decay", "alpha-min", "eps-min", "rewards", "window", "inv-mult", "replay", "stats",   "qtable"};
const std::vector<std::string_view> auto_keys = {
    "guard", "noise-floor", "change-slack", "change-threshold", "change-cap", "settle", "warmup",
    "clip",  "predict",     "margin",       "trials",           "jitter",     "batch",  "batch-max", "stick", "reprofile",
    "phases", "shape", "affinity", "patience", "first", "once-imbalance"};
const std::vector<std::string_view> exhaustive_keys = {"lib-rise", "drift"};
const std::vector<std::string_view> chunk_keys = {"agent", "technique"};

bool contains(const std::vector<std::string_view>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool is_rl_selector(std::string_view selector) { return find_rl_learner(selector) || selector == "chunk"; }

std::vector<std::string_view> keys_for(std::string_view selector) {
  std::vector<std::string_view> keys = common_keys;
  auto add = [&](const std::vector<std::string_view>& more) { keys.insert(keys.end(), more.begin(), more.end()); };
  if (selector == "auto") add(auto_keys);
  if (selector == "exhaustive") add(exhaustive_keys);
  if (is_rl_selector(selector)) add(rl_keys);
  if (selector == "chunk") add(chunk_keys);
  return keys;
}

/// The enum value `table` names `value`; otherwise the standard message
/// listing the table's names.
template <class Enum>
Enum choice(std::span<const RlOptionName<Enum>> table, std::string_view value, std::string_view key,
            std::string_view source, std::string_view text) {
  std::vector<std::string_view> names;
  for (const auto& n : table) names.push_back(n.name);
  return table[text::one_of(source, text, key, value, names)].value;
}

std::vector<std::string> read_replay(const std::string& path, std::string_view source, std::string_view text) {
  std::string why;
  const auto contents = files::read_regular(path, files::default_read_limit, &why);
  if (!contents) {
    detail::throw_error(
        text::bad_value(source, text, "replay = a readable file (a regular file); '" + path + "': " + why));
  }
  std::istringstream in(*contents);
  std::vector<std::string> arms;
  std::string line;
  int column = -1;  // our trace CSV: take its "arm" column
  bool first = true;
  while (std::getline(in, line)) {
    const auto t = text::trim(line);
    if (t.empty() || t.front() == '#') continue;
    const auto cells = text::split(t, ',');
    if (first) {
      first = false;
      const auto it = std::find(cells.begin(), cells.end(), "arm");
      if (it != cells.end()) {
        column = static_cast<int>(it - cells.begin());
        continue;
      }
    }
    arms.emplace_back(column >= 0 && column < static_cast<int>(cells.size()) ? cells[static_cast<std::size_t>(column)]
                                                                             : cells.front());
  }
  if (arms.empty())
    detail::throw_error(text::bad_value(source, text, "replay = a file with at least one arm: " + path));
  return arms;
}

}  // namespace

int replay_index(const std::string& label, const Portfolio& arms) {
  const int n = static_cast<int>(arms.size());
  if (auto i = text::to_int(label)) return *i >= 0 && *i < n ? static_cast<int>(*i) : -1;
  for (int k = 0; k < n; ++k) {
    if (arms[static_cast<std::size_t>(k)].label() == label) return k;
  }
  return -1;
}

bool SelectorConfig::is_rl() const noexcept { return is_rl_selector(selector); }

const std::vector<std::string_view>& selector_names() {
  static const std::vector<std::string_view> names = {"auto",   "random",         "exhaustive", "binary",
                                                      "expert", "qlearn",         "sarsa",      "doubleq",
                                                      "qv",     "expected-sarsa", "chunk"};
  return names;
}

bool is_selection_text(std::string_view text) {
  const std::string t = text::lower(text::trim(text));
  return t == "auto" || t.starts_with("auto:") || t.starts_with("auto,");
}

SelectorConfig parse_selector(std::string_view text, std::string_view source) {
  SelectorConfig c;
  c.text = std::string(text::trim(text));
  const auto parts = text::split(text, ',');
  const std::string head = text::lower(parts.front());
  if (head != "auto" && !head.starts_with("auto:")) {
    detail::throw_error(text::bad_value(source, text, "auto or auto:<selector>"));
  }
  if (head.size() > 4) c.selector = text::trim(std::string_view(head).substr(5));
  if (!contains(selector_names(), c.selector)) {
    detail::throw_error(text::bad_value(source, text, "a selector after 'auto:': " + text::join(selector_names())));
  }
  const auto keys = keys_for(c.selector);
  text::KeyRules rules{c.selector, keys, {}, "only portfolio= takes a list"};
  bool in_portfolio = false;
  bool batch_max_given = false;  // batch=N alone fixes the batch at N
  auto add_arm = [&](std::string_view arm) {
    TechniqueSpec spec = parse_technique_spec(arm, source, text);
    if (spec.technique == TechniqueId::profiling) {
      detail::throw_error(text::bad_value(source, text,
                                          "an arm <technique>[:<chunk>|:expert], e.g. gss:16, got '" +
                                              std::string(arm) + "'"));
    }
    c.portfolio.push_back(std::move(spec));
  };
  // Items without '=' after portfolio= are its further arms.
  rules.bare = [&](std::size_t, std::string_view item, std::string_view) -> std::optional<std::string> {
    if (!in_portfolio) return std::nullopt;
    add_arm(item);
    return "";
  };
  const std::vector<std::string_view> items(parts.begin() + 1, parts.end());
  text::read_key_values(source, text, items, rules, [&](const std::string& key, std::string_view value_view) {
    in_portfolio = false;
    const std::string value(value_view);
    auto number = [&](double low, double high) { return text::number_in(source, text, key, value, low, high); };
    auto integer = [&](long low, long high) { return text::integer_in(source, text, key, value, low, high); };
    const std::string v = text::lower(value);
    RlConfig& rl = c.rl;
    AutoConfig& a = c.automatic;
    if (key == "portfolio") {
      c.portfolio.clear();
      if (!value.empty()) add_arm(value);
      in_portfolio = true;
    } else if (key == "chunk") {
      if (v != "expert")
        detail::throw_error(
            text::bad_value(source, text, "chunk = expert (per-arm chunks go in portfolio=, e.g. gss:16)"));
      c.expert_chunk = true;
    } else if (key == "seed") {
      c.seed = static_cast<std::uint64_t>(integer(0, std::numeric_limits<long>::max()));
    } else if (key == "guard") {
      a.guard = number(1.01, 1e6);
    } else if (key == "noise-floor") {
      a.noise_floor = number(1e-6, 10);
    } else if (key == "change-slack") {
      a.change_slack = number(0, 100);
    } else if (key == "change-threshold") {
      a.change_threshold = number(1e-6, 1e6);
    } else if (key == "settle") {
      a.settle = static_cast<int>(integer(1, 1000000));
    } else if (key == "change-cap") {
      a.change_cap = number(0.01, 1e6);
    } else if (key == "warmup") {
      a.warmup = static_cast<int>(integer(0, 1000));
    } else if (key == "predict") {
      if (v != "yes" && v != "no") detail::throw_error(text::bad_value(source, text, "predict = yes or no"));
      a.predict = v == "yes";
    } else if (key == "stick") {
      if (v != "yes" && v != "no") detail::throw_error(text::bad_value(source, text, "stick = yes or no"));
      a.stick = v == "yes";
    } else if (key == "margin") {
      a.margin = number(0, 10);
    } else if (key == "jitter") {
      a.jitter = number(0, 0.9);
    } else if (key == "reprofile") {
      a.reprofile = number(0, 1);
    } else if (key == "phases") {
      if (v != "yes" && v != "no") detail::throw_error(text::bad_value(source, text, "phases = yes or no"));
      a.phases = v == "yes";
    } else if (key == "shape") {
      a.shape = number(0, 1);
    } else if (key == "affinity") {
      a.affinity_ns = number(0, 1e9);
    } else if (key == "first") {
      if (v != "safe" && v != "profile") detail::throw_error(text::bad_value(source, text, "first = safe or profile"));
      a.safe_first = v == "safe";
    } else if (key == "once-imbalance") {
      a.once_imbalance = number(0, 1);
    } else if (key == "patience") {
      a.patience = static_cast<int>(integer(0, 1000));
    } else if (key == "trials") {
      a.max_trials = static_cast<int>(integer(2, 1000000));
    } else if (key == "batch") {  // the engine makes at most 32 ahead (DecisionsAhead::max_batch)
      a.settled_batch = static_cast<int>(integer(1, 32));
      if (!batch_max_given) a.settled_batch_max = a.settled_batch;
    } else if (key == "batch-max") {
      a.settled_batch_max = static_cast<int>(integer(1, 32));
      batch_max_given = true;
    } else if (key == "clip") {
      a.clip = v == "off" ? 0.0 : number(1.5, 1e6);
    } else if (key == "lib-rise") {
      c.lib_rise = number(0, 100);
    } else if (key == "drift") {
      c.drift = number(0, 100);
    } else if (key == "policy") {
      rl.policy = choice(rl_policy_names(), v, key, source, text);
    } else if (key == "reward") {
      rl.reward = choice(rl_reward_names(), v, key, source, text);
    } else if (key == "init") {
      rl.init = choice(rl_init_names(), v, key, source, text);
    } else if (key == "decay") {
      rl.decay = choice(rl_decay_names(), v, key, source, text);
    } else if (key == "greedy") {
      rl.greedy = choice(rl_greedy_names(), v, key, source, text);
    } else if (key == "band") {
      rl.band = choice(rl_band_names(), v, key, source, text);
    } else if (key == "alpha") {
      rl.alpha = number(0, 1);
    } else if (key == "gamma") {
      rl.gamma = number(0, 1);
    } else if (key == "epsilon") {
      rl.epsilon = number(0, 1);
    } else if (key == "tau") {
      rl.tau = number(1e-9, 1e9);
    } else if (key == "alpha-decay") {
      rl.alpha_decay = number(0, 1);
    } else if (key == "eps-decay") {
      rl.epsilon_decay = number(0, 1);
    } else if (key == "alpha-min") {
      rl.alpha_min = number(0, 1);
    } else if (key == "eps-min") {
      rl.epsilon_min = number(0, 1);
    } else if (key == "rewards") {
      const auto r = text::split(value, ':');
      double triple[3] = {0, 0, 0};
      bool ok = r.size() == 3;
      for (std::size_t k = 0; ok && k < 3; ++k) {
        const auto x = text::to_double(r[k]);
        ok = x.has_value();
        if (ok) triple[k] = *x;
      }
      if (!ok || !(triple[0] > triple[1] && triple[1] > triple[2])) {
        detail::throw_error(text::bad_value(source, text, "rewards = r+:r0:r- with r+ > r0 > r-, e.g. 0.01:-2:-4"));
      }
      rl.r_plus = triple[0];
      rl.r_zero = triple[1];
      rl.r_minus = triple[2];
    } else if (key == "window") {
      rl.window = static_cast<int>(integer(1, 1000000));
    } else if (key == "inv-mult") {
      rl.inverse_multiplier = number(1e-9, 1e12);
    } else if (key == "replay") {
      c.replay_arms = read_replay(value, source, text);
      rl.policy = RlPolicy::replay;
    } else if (key == "stats") {
      rl.stats_path = value;
    } else if (key == "qtable") {
      rl.qtable_path = value;
    } else if (key == "agent") {
      if (!find_rl_learner(v)) {
        detail::throw_error(
            text::bad_value(source, text, "agent = one of " + rl_learner_list() + ", got '" + value + "'"));
      }
      c.chunk_agent = v;
    } else if (key == "technique") {
      const auto id = find_technique(v);
      if (!id || *id == TechniqueId::profiling) {
        detail::throw_error(text::bad_value(source, text, "technique = a technique name, got '" + value + "'"));
      }
      c.chunk_technique = *id;
    }
  });
  if (c.automatic.settled_batch_max < c.automatic.settled_batch) {
    detail::throw_error(text::bad_value(source, text, "batch-max = at least batch"));
  }
  if (in_portfolio && c.portfolio.empty()) {
    detail::throw_error(text::bad_value(source, text, "portfolio = at least one arm, e.g. portfolio=static,ss,gss"));
  }
  // A replayed arm the portfolio lacks is rejected here, where the schedule is
  // read, not at the first loop. The chunk selector's arms depend on the
  // loop's size: only their indices can be checked, at the loop.
  if (!c.replay_arms.empty() && c.selector != "chunk") {
    const Portfolio arms = selector_portfolio(c, Context{});
    for (std::size_t i = 0; i < c.replay_arms.size(); ++i) {
      if (replay_index(c.replay_arms[i], arms) >= 0) continue;
      std::vector<std::string> labels;
      for (const TechniqueSpec& a : arms) labels.push_back(a.label());
      std::vector<std::string_view> views(labels.begin(), labels.end());
      detail::throw_error(text::bad_value(source, text,
                                          "replay = a file of arms of the portfolio (" + text::join(views) +
                                              ") or their indices 0.." + std::to_string(arms.size() - 1) +
                                              "; arm " + std::to_string(i + 1) + " of the file is '" +
                                              c.replay_arms[i] + "'"));
    }
  }
  return c;
}

Portfolio selector_portfolio(const SelectorConfig& c, const Context& context) {
  Portfolio arms;
  if (c.selector == "chunk") {
    // ChunkParameterSelector: N/(2^(i−1)·P) for i = 1..⌊log2(N/P)⌋ − 1 (the
    // thesis' form), as the minimum chunk of one technique.
    const std::int64_t per_worker = context.n / std::max(1, context.p);
    const int d = per_worker >= 1 ? static_cast<int>(std::bit_width(static_cast<std::uint64_t>(per_worker))) - 2 : 0;
    for (int i = 1; i <= d; ++i)
      arms.push_back({c.chunk_technique, std::max<std::int64_t>(1, per_worker >> (i - 1)), false, {}});
    if (arms.empty()) arms.push_back({c.chunk_technique, 1, false, {}});  // N < 4P: nothing to choose
    return arms;
  }
  if (c.portfolio.empty() && c.selector == "auto" && !c.expert_chunk) return auto_portfolio();
  arms = c.portfolio.empty() ? auto4omp_portfolio() : c.portfolio;
  if (c.expert_chunk) {
    for (TechniqueSpec& a : arms) {
      if (a.chunk == 0) a.expert_chunk = true;
    }
  }
  return arms;
}

std::shared_ptr<const SelectorConfig> share_selector_config(const SelectorConfig& config) {
  static auto* const held = new SharedValues<SelectorConfig>();  // never destroyed: points outlive statics
  return held->share(
      fnv1a64(config.text) ^ fnv1a64(config.selector), [&](const SelectorConfig& c) { return c == config; },
      [&] { return config; });
}

}  // namespace autosched
