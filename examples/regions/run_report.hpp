#pragma once
// What the region examples share: their command line and the report each
// prints at its end. The report's lines are read by tests/examples, so their
// shape is fixed:
//   trained after 12 executions (min_train 12)      or: model from the store
//   learned n=8 -> insertion (after 12 executions)  one line per feature vector
//   first decision: explore                         or: exploit
//   stats: executions=400 explored=12 trainings=1 drifts=0 vectors=4 covered_pairs=12 trained=yes
#include <autosched/regions/region.hpp>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

namespace examples {

struct RunOptions {
  int steps = 0;
  bool quiet = false;  ///< only the report, no per-step lines
  /// The region learns from a cost the example computes from the features and
  /// the variant (RegionScope::end(metric)) instead of the measured time. The
  /// work still runs and is still checked, but what the region learns, and
  /// whether it ever sees a drift, no longer depends on the machine or its
  /// load: tests/examples uses it to check the learning cycle exactly.
  bool planted_costs = false;
};

/// `--steps N` (N ≥ 1), `--quiet`, and `--planted-costs` where the example
/// has a cost model (`plants_costs`); anything else prints the usage and exits 2.
inline RunOptions parse_run_options(int argc, char** argv, int default_steps, bool plants_costs = false) {
  RunOptions options{.steps = default_steps};
  const auto usage = [&](const std::string& why) {
    std::fprintf(stderr, "%s\nusage: %s [--steps N] [--quiet]%s   (default %d steps)\n", why.c_str(), argv[0],
                 plants_costs ? " [--planted-costs]" : "", default_steps);
    std::exit(2);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quiet") {
      options.quiet = true;
    } else if (arg == "--planted-costs" && plants_costs) {
      options.planted_costs = true;
    } else if (arg == "--steps") {
      if (i + 1 == argc) usage("--steps: expected a number of steps");
      const std::string_view text = argv[++i];
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), options.steps);
      if (error != std::errc{} || end != text.data() + text.size() || options.steps < 1)
        usage("--steps " + std::string(text) + ": expected an integer >= 1");
    } else {
      usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  return options;
}

/// Follows one run of a region: whether its first execution explored and
/// after how many executions the region first trained in this run.
class RunLog {
 public:
  /// Call once per execution, after its scope ended.
  void executed(const autosched::Region& region, bool explored) {
    ++executions_;
    if (executions_ == 1) first_explored_ = explored;
    if (trained_after_ == 0 && region.stats().trainings > 0) trained_after_ = executions_;
  }

  /// Prints the report; `vectors` are the raw feature values the run cycled
  /// over (one feature, called `feature`).
  void report(const autosched::Region& region, std::string_view feature, std::span<const double> vectors,
              int min_train) const {
    const autosched::RegionStats stats = region.stats();
    std::string when;
    if (trained_after_ > 0) {
      when = "after " + std::to_string(trained_after_) + " executions";
      std::printf("trained %s (min_train %d)\n", when.c_str(), min_train);
    } else if (stats.trained) {
      when = "from the store";  // an earlier run left its model; this run did not train
      std::printf("model from the store (min_train %d)\n", min_train);
    } else {
      when = "not trained";
      std::printf("not trained: fewer than min_train %d (vector, variant) pairs covered\n", min_train);
    }
    const autosched::VariantSpace& space = region.variants();
    for (const double v : vectors) {
      const int variant = region.predict(std::span<const double>(&v, 1));
      std::string label = variant < 0 ? "?" : space.label(variant);
      if (variant >= 0 && space.knobs().size() == 1 && space.knobs()[0].kind() != autosched::Knob::Kind::labels)
        label = space.knobs()[0].name() + "=" + label;  // "threads=2" rather than "2"
      std::printf("learned %.*s=%.0f -> %s (%s)\n", static_cast<int>(feature.size()), feature.data(), v, label.c_str(),
                  when.c_str());
    }
    std::printf("first decision: %s\n", first_explored_ ? "explore" : "exploit");
    std::printf(
        "stats: executions=%lld explored=%lld trainings=%lld drifts=%lld vectors=%lld covered_pairs=%lld "
        "trained=%s\n",
        static_cast<long long>(stats.executions), static_cast<long long>(stats.explored),
        static_cast<long long>(stats.trainings), static_cast<long long>(stats.drifts),
        static_cast<long long>(stats.vectors), static_cast<long long>(stats.covered_pairs),
        stats.trained ? "yes" : "no");
  }

 private:
  std::int64_t executions_ = 0;
  std::int64_t trained_after_ = 0;
  bool first_explored_ = false;
};

}  // namespace examples
