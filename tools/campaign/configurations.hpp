#pragma once
/// @file
/// What a campaign runs: the Oracle's arms (fixed schedules), the external
/// references (OpenMP's own schedules) and the selection methods, each a
/// short name and the `--schedule` value the benchmark apps take.

#include <string>
#include <vector>

namespace autosched::campaign {

enum class ConfigKind { arm, reference, method };

struct Configuration {
  std::string name;      ///< as it appears in tables: "gss", "gss+exp", "omp:static", "QLearn-LT"
  std::string schedule;  ///< the apps' --schedule value
  ConfigKind kind = ConfigKind::method;
  /// The arm label the apps record for this configuration (arms only):
  /// "gss", "gss:expert". Method steps are compared with it.
  std::string arm_label;
  /// Run through the OpenMP drop-in: the plain OpenMP build of the app
  /// (`autosched-plain-<app>`, schedule(runtime) loops, no autosched API)
  /// with libautosched-omp.so preloaded and AUTOSCHED_SCHEDULE=`schedule`.
  /// Named `dropin:<schedule>` (`dropin:auto`), a method.
  bool dropin = false;
};

[[nodiscard]] const char* kind_name(ConfigKind kind) noexcept;
[[nodiscard]] ConfigKind parse_kind(const std::string& text);

/// The Auto4OMP 12 techniques × {default chunk, expChunk}: the Oracle's arms.
[[nodiscard]] std::vector<Configuration> oracle_arms();
/// `#pragma omp for schedule(static|dynamic|guided)`: reported, never in the Oracle.
[[nodiscard]] std::vector<Configuration> references();
/// The published selectors in their published configurations (explore-first
/// RL with the loop-time and load-imbalance rewards, each selector with and
/// without expChunk, the chunk selector) and autosched's `auto`.
[[nodiscard]] std::vector<Configuration> published_methods();

/// Methods from a ';'- or ','-separated list of names (`QLearn-LT;auto`),
/// `all` (every published method and auto) or `none`. A name that is not a
/// known method is taken as a schedule (`auto:qv` runs as itself), and
/// `dropin:<schedule>` as that schedule through the OpenMP drop-in
/// (Configuration::dropin); anything else is rejected with the list of names.
[[nodiscard]] std::vector<Configuration> select_methods(const std::string& spec);
/// Arms: `all` (the 24), `none`, or a list of arm names (`gss;ss+exp`).
[[nodiscard]] std::vector<Configuration> select_arms(const std::string& spec);
/// References: `all`, `none` or a list (`omp:static`).
[[nodiscard]] std::vector<Configuration> select_references(const std::string& spec);

/// The six benchmark applications, in the evaluation protocol's order.
[[nodiscard]] const std::vector<std::string>& app_names();
/// Apps from a ',' list or `all`; unknown names are rejected.
[[nodiscard]] std::vector<std::string> select_apps(const std::string& spec);

}  // namespace autosched::campaign
