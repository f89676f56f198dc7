#pragma once
/// @file
/// The campaign's raw data, `runs.csv`: one row per loop instance of every
/// run, preceded by `# key: value` lines that say where it was measured
/// (fingerprint, threads, build, command line). Written as runs finish, so a
/// campaign that is stopped keeps what it measured.

#include "configurations.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace autosched::campaign {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
/// A file the campaign writes, closed when it goes out of scope.
using OutputFile = std::unique_ptr<std::FILE, FileCloser>;
/// Creates (or replaces) `path`; an error names it when that fails.
[[nodiscard]] OutputFile create_file(const std::filesystem::path& path);

/// `# key: value` lines, in order.
using Metadata = std::vector<std::pair<std::string, std::string>>;

/// One loop instance: the apps' record row plus which run it came from.
struct StepRow {
  std::string phase = "cold";  ///< "cold", or "warm" for the second run on a populated store
  std::string app;
  std::string loop;
  std::string config;  ///< Configuration::name
  ConfigKind kind = ConfigKind::method;
  std::string arm_label;  ///< for arms: the label their steps are compared by
  int rep = 0;
  int step = 0;
  double time_ns = 0;
  std::string arm;  ///< what ran: "gss", "gss:expert", "ss:1000", "omp-static"
  bool explored = false;
  double selection_ns = 0;
  bool cut_short = false;
};

struct RunsTable {
  Metadata meta;
  std::vector<StepRow> rows;
};

/// The header line of runs.csv (after the metadata).
[[nodiscard]] const char* runs_header() noexcept;
/// Writes the metadata as `# key: value` lines.
void write_metadata(std::FILE* out, const Metadata& meta);
/// One row of runs.csv; fields with commas or quotes are quoted.
void write_row(std::FILE* out, const StepRow& row);
/// Reads runs.csv; a malformed line is an error naming the file and line.
[[nodiscard]] RunsTable read_runs(const std::string& path);
/// Reads an app's --record file (`step,loop,time_ns,arm,explored,selection_ns,cut_short`)
/// into rows with the run's fields from `run` (app, config, kind, rep, phase).
[[nodiscard]] std::vector<StepRow> read_app_record(const std::string& path, const StepRow& run);

/// Splits one CSV line, honouring double quotes.
[[nodiscard]] std::vector<std::string> split_csv(const std::string& line);
/// Quotes a field when it holds a comma or a quote.
[[nodiscard]] std::string csv_field(const std::string& value);
/// The value for `key` in the metadata, or "".
[[nodiscard]] std::string meta_value(const Metadata& meta, const std::string& key);

}  // namespace autosched::campaign
