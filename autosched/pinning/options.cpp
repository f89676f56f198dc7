#include <autosched/pinning/options.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <limits>

namespace autosched::pinning {

const char* to_string(Policy p) noexcept {
  switch (p) {
    case Policy::learn_o1:
      return "learn-o1";
    case Policy::learn_o2:
      return "learn-o2";
    case Policy::round_robin:
      return "round-robin";
    case Policy::autopin:
      return "autopin";
    case Policy::off:
      return "off";
  }
  return "?";
}

void ManagerOptions::validate() const {
  parameters.validate();
  if (!(norm >= 0 && norm <= 1e18))
    detail::throw_error(text::bad_value("pinning norm", std::to_string(norm), "0 (automatic) or a positive number"));
  if (!(autopin_window > 0 && autopin_window <= 3600))
    detail::throw_error(
        text::bad_value("pinning window", std::to_string(autopin_window), "a number of seconds in (0, 3600]"));
  if (!(autopin_phase > 0 && autopin_phase < 1))
    detail::throw_error(text::bad_value("pinning phase", std::to_string(autopin_phase), "a number in (0, 1)"));
}

namespace {

const std::vector<std::string_view> policy_names = {"learn",    "o1",          "learn-o1", "o2",
                                                    "learn-o2", "round-robin", "autopin",  "off"};
const std::vector<std::string_view> keys = {"eps",  "lambda", "nu",     "gamma", "h",     "period",  "start",
                                            "play", "seed",   "norm",   "window", "phase", "force", "pin-self"};

}  // namespace

ManagerOptions parse_options(std::string_view text, std::string_view source) {
  ManagerOptions o;
  const auto parts = text::split(text, ',');
  const std::string head = text::lower(parts.front());
  if (head == "learn" || head == "o1" || head == "learn-o1") {
    o.policy = Policy::learn_o1;
  } else if (head == "o2" || head == "learn-o2") {
    o.policy = Policy::learn_o2;
  } else if (head == "round-robin") {
    o.policy = Policy::round_robin;
  } else if (head == "autopin") {
    o.policy = Policy::autopin;
  } else if (head == "off") {
    o.policy = Policy::off;
  } else {
    detail::throw_error(text::bad_value(
        source, text, "a policy (" + text::join(policy_names) + ") optionally followed by ,<key>=<value> items"));
  }
  const std::vector<std::string_view> items(parts.begin() + 1, parts.end());
  const text::KeyRules rules{"pinning", keys, {}, {}};
  Parameters& p = o.parameters;
  text::read_key_values(source, text, items, rules, [&](const std::string& key, std::string_view value) {
    auto number = [&](double low, double high) { return text::number_in(source, text, key, value, low, high); };
    auto yes_no = [&] {
      static const std::vector<std::string_view> answers = {"yes", "no"};
      return text::one_of(source, text, key, text::lower(value), answers) == 0;
    };
    if (key == "eps") {
      p.eps = number(1e-9, 1);
    } else if (key == "lambda") {
      p.lambda = number(0, 1);
    } else if (key == "nu") {
      p.nu = number(1e-9, 1);
    } else if (key == "gamma") {
      p.gamma = number(0, 1e6);
    } else if (key == "h") {
      p.h = number(1e-9, 1e6);
    } else if (key == "period") {
      p.period = number(0.001, 3600);
    } else if (key == "play") {
      static const std::vector<std::string_view> plays = {"sample", "stable"};
      p.stable_play = text::one_of(source, text, key, text::lower(value), plays) == 1;
    } else if (key == "start") {
      static const std::vector<std::string_view> starts = {"round-robin", "uniform"};
      p.uniform_start = text::one_of(source, text, key, text::lower(value), starts) == 1;
    } else if (key == "seed") {
      o.seed = static_cast<std::uint64_t>(
          text::integer_in(source, text, key, value, 0, std::numeric_limits<std::int64_t>::max()));
    } else if (key == "norm") {
      o.norm = number(0, 1e18);
    } else if (key == "window") {
      o.autopin_window = number(0.001, 3600);
    } else if (key == "phase") {
      o.autopin_phase = number(0.01, 0.99);
    } else if (key == "force") {
      o.force = yes_no();
    } else if (key == "pin-self") {
      o.pin_self = yes_no();
    }
  });
  o.validate();
  return o;
}

std::optional<ManagerOptions> options_from_environment() {
  const auto value = environment::get("AUTOSCHED_PINNING");
  if (!value) return std::nullopt;
  return parse_options(*value, "AUTOSCHED_PINNING");
}

}  // namespace autosched::pinning
