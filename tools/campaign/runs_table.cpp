#include "runs_table.hpp"

#include <autosched/core/file_checks.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cstdlib>
#include <fstream>

namespace autosched::campaign {

namespace {

[[noreturn]] void bad_line(const std::string& path, long line, const std::string& why) {
  detail::throw_error(path + ":" + std::to_string(line) + ": " + why);
}

double number(const std::string& text, const std::string& path, long line, const char* column) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0') {
    bad_line(path, line, std::string("column ") + column + ": '" + text + "' is not a number");
  }
  return v;
}

int integer(const std::string& text, const std::string& path, long line, const char* column) {
  const double v = number(text, path, line, column);
  if (v != static_cast<double>(static_cast<int>(v))) {
    bad_line(path, line, std::string("column ") + column + ": '" + text + "' is not an integer");
  }
  return static_cast<int>(v);
}

}  // namespace

OutputFile create_file(const std::filesystem::path& path) {
  std::string why;  // a FIFO left where a table goes would block the campaign
  OutputFile f(files::open_for_writing(path.string(), &why));
  if (!f) detail::throw_error(path.string() + ": " + why);
  return f;
}

const char* runs_header() noexcept {
  return "phase,app,loop,config,kind,arm_label,rep,step,time_ns,arm,explored,selection_ns,cut_short";
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string meta_value(const Metadata& meta, const std::string& key) {
  for (const auto& [k, v] : meta) {
    if (k == key) return v;
  }
  return "";
}

void write_metadata(std::FILE* out, const Metadata& meta) {
  for (const auto& [k, v] : meta) std::fprintf(out, "# %s: %s\n", k.c_str(), v.c_str());
}

void write_row(std::FILE* out, const StepRow& r) {
  std::fprintf(out, "%s,%s,%s,%s,%s,%s,%d,%d,%.0f,%s,%d,%.0f,%d\n", r.phase.c_str(), csv_field(r.app).c_str(),
               csv_field(r.loop).c_str(), csv_field(r.config).c_str(), kind_name(r.kind),
               csv_field(r.arm_label).c_str(), r.rep, r.step, r.time_ns, csv_field(r.arm).c_str(), r.explored ? 1 : 0,
               r.selection_ns, r.cut_short ? 1 : 0);
}

RunsTable read_runs(const std::string& path) {
  std::ifstream in(path);
  if (!in) detail::throw_error(path + ": cannot read this file (run `autosched bench` first)");
  RunsTable t;
  std::string line;
  long n = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    if (line[0] == '#') {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        t.meta.emplace_back(std::string(text::trim(line.substr(1, colon - 1))),
                            std::string(text::trim(line.substr(colon + 1))));
      }
      continue;
    }
    if (!header) {
      if (line != runs_header()) bad_line(path, n, std::string("expected the header '") + runs_header() + "'");
      header = true;
      continue;
    }
    const auto f = split_csv(line);
    if (f.size() != 13) bad_line(path, n, "expected 13 fields, found " + std::to_string(f.size()));
    StepRow r;
    r.phase = f[0];
    r.app = f[1];
    r.loop = f[2];
    r.config = f[3];
    r.kind = parse_kind(f[4]);
    r.arm_label = f[5];
    r.rep = integer(f[6], path, n, "rep");
    r.step = integer(f[7], path, n, "step");
    r.time_ns = number(f[8], path, n, "time_ns");
    r.arm = f[9];
    r.explored = f[10] == "1";
    r.selection_ns = number(f[11], path, n, "selection_ns");
    r.cut_short = f[12] == "1";
    if (r.step < 0 || r.time_ns < 0) bad_line(path, n, "negative step or time");
    t.rows.push_back(std::move(r));
  }
  if (!header) detail::throw_error(path + ": no header line; not a runs.csv written by `autosched bench`");
  return t;
}

std::vector<StepRow> read_app_record(const std::string& path, const StepRow& run) {
  std::ifstream in(path);
  if (!in) detail::throw_error(path + ": the app wrote no record");
  std::vector<StepRow> out;
  std::string line;
  long n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 || line.empty()) continue;
    const auto f = split_csv(line);
    if (f.size() != 7) bad_line(path, n, "expected 7 fields, found " + std::to_string(f.size()));
    StepRow r = run;
    r.step = integer(f[0], path, n, "step");
    r.loop = f[1];
    r.time_ns = number(f[2], path, n, "time_ns");
    r.arm = f[3];
    r.explored = f[4] == "1";
    r.selection_ns = number(f[5], path, n, "selection_ns");
    r.cut_short = f[6] == "1";
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace autosched::campaign
