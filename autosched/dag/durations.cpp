#include <autosched/dag/durations.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

namespace autosched::dag {

namespace {

// READYS's abstract time units (env/utils.py of the released code): one
// table per graph family, all four kernels on CPU and GPU. Cholesky and LU
// share the GEMM row (95 / 3); LU's two triangular solves cost the same.
DurationTable readys_table() {
  DurationTable t{"readys", "units", {}};
  t.kernels = {{"POTRF", {18, 11}}, {"SYRK", {57, 2}},    {"TRSM", {52, 8}},    {"GEMM", {95, 3}},
               {"GETRF", {18, 11}}, {"TRSM_RU", {52, 8}}, {"TRSM_LL", {52, 8}}, {"GEQRT", {4, 3}},
               {"TSQRT", {6, 3}},   {"UNMQR", {6, 1}},    {"TSMQR", {10, 1}}};
  return t;
}

// StarPU's shipped perfmodels for the machine "mirage" (tools/perfmodels/
// sampling/codelets/45/chol_model_{11,21,22}.mirage, 960×960 single-
// precision tiles), in ms. StarPU's Cholesky uses one update codelet, so
// SYRK costs what GEMM costs.
DurationTable mirage_table() {
  DurationTable t{"mirage", "ms", {}};
  t.kernels = {{"POTRF", {18.85, 5.37}}, {"SYRK", {87.78, 2.82}}, {"TRSM", {45.65, 6.4}}, {"GEMM", {87.78, 2.82}}};
  return t;
}

}  // namespace

std::vector<KindDurations> DurationTable::expected(const TaskGraph& g) const {
  std::vector<KindDurations> per_kernel;
  for (const std::string& k : g.kernel_names()) {
    const auto it = kernels.find(k);
    if (it == kernels.end()) {
      std::string have;
      for (const auto& entry : kernels) have += (have.empty() ? "" : ", ") + entry.first;
      detail::throw_error("duration table '" + name + "' has no kernel " + k + " (graph " + g.name() + "); it has " +
                          have);
    }
    per_kernel.push_back(it->second);
  }
  std::vector<KindDurations> out(g.size());
  for (std::size_t t = 0; t < g.size(); ++t) out[t] = per_kernel[g.task(static_cast<TaskId>(t)).kernel];
  return out;
}

/// A duration table is a line per kernel: a megabyte is thousands of kernels.
constexpr std::size_t max_table_bytes = std::size_t{1} << 20;

DurationTable duration_table(std::string_view name) {
  if (name == "readys") return readys_table();
  if (name == "mirage") return mirage_table();
  return duration_table_file(std::string(name));
}

DurationTable duration_table_file(const std::string& path) {
  // Through the one check for user-named files: a FIFO blocked here, and
  // /dev/zero was read to 700 MB before a wrong message.
  std::string refused;
  const auto content = files::read_regular(path, max_table_bytes, &refused);
  if (!content) detail::throw_error("duration table '" + path + "': " + refused + " (built-in tables: readys, mirage)");
  std::istringstream in(*content);
  DurationTable t{path, "units", {}};
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& why) {
    detail::throw_error(path + ":" + std::to_string(number) + ": " + why +
                        "; expected '<kernel> <cpu> <gpu>' with durations >= 0 or '-'");
  };
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      const auto u = line.find("unit:");
      if (u != std::string::npos) {
        std::istringstream unit(line.substr(u + 5));
        unit >> t.unit;
      }
      continue;
    }
    std::istringstream fields(line);
    std::string kernel, cpu, gpu, extra;
    fields >> kernel >> cpu >> gpu;
    if (gpu.empty()) fail("'" + line + "' has fewer than three fields");
    if (fields >> extra) fail("'" + line + "' has more than three fields");
    KindDurations d{};
    const std::string text[2] = {cpu, gpu};
    for (int k = 0; k < resource_kinds; ++k) {
      if (text[k] == "-") {
        d[static_cast<std::size_t>(k)] = not_available;
        continue;
      }
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(text[k], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text[k].size() || !std::isfinite(v) || v < 0) fail("'" + text[k] + "' is not a duration");
      d[static_cast<std::size_t>(k)] = v;
    }
    if (d[0] == not_available && d[1] == not_available) fail("kernel " + kernel + " runs nowhere");
    if (!t.kernels.emplace(kernel, d).second) fail("kernel " + kernel + " is listed twice");
  }
  if (t.kernels.empty()) detail::throw_error("duration table '" + path + "': no kernel in it");
  return t;
}

std::string to_text(const DurationTable& table) {
  std::ostringstream out;
  out << "# duration table " << table.name << "\n# unit: " << table.unit << "\n# kernel cpu gpu\n";
  for (const auto& [kernel, d] : table.kernels) {
    out << kernel;
    for (double v : d) {
      if (v == not_available) {
        out << " -";
      } else {
        out << ' ' << v;
      }
    }
    out << '\n';
  }
  return out.str();
}

std::vector<KindDurations> sample_durations(const std::vector<KindDurations>& expected, const Noise& noise,
                                            std::uint64_t seed) {
  if (!(noise.sigma >= 0) || !std::isfinite(noise.sigma))
    detail::throw_error("noise sigma=" + std::to_string(noise.sigma) + ": expected a finite number >= 0");
  if (noise.sigma == 0) return expected;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<KindDurations> out = expected;
  for (KindDurations& d : out) {
    if (noise.readys_additive_gpu) {
      double& gpu = d[static_cast<std::size_t>(ResourceKind::gpu)];
      const double z = normal(rng);
      if (gpu != not_available) gpu += std::max(noise.sigma * z, -2.0);
      continue;
    }
    for (double& v : d) {
      const double z = normal(rng);  // drawn for every kind, so seeds line up across platforms
      if (v != not_available) v = std::max(0.0, v + noise.sigma * v * z);
    }
  }
  return out;
}

}  // namespace autosched::dag
