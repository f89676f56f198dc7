// `autosched db`: inspect and manage the store (what the decision points
// have learned across runs).
//   autosched db list                 every decision point with its best arm
//   autosched db show <point|loop>    per-arm statistics and saved selector states
//   autosched db export [file]        every history row as CSV (stdout without a file)
//   autosched db forget <name>        delete a point's or loop's history and states, a region's row,
//                                     and the front-ends' blobs under that key
// The store is AUTOSCHED_DB's (or the default path); --db names another,
// before the subcommand or after it.
#include "output_file.hpp"
#include "commands.hpp"
#include "subcommands.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/engine/selector_factory.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/store/database.hpp>
#include <autosched/store/store.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

namespace autosched::cli {

namespace {

struct Options {
  std::string db;
  std::string point;
  bool csv = false;
  bool raw = false;  ///< db show: the saved states as stored
  std::string file;
};

/// The store to inspect; never creates one.
std::unique_ptr<Database> open_store(const Options& o) {
  std::string path = o.db;
  if (path.empty()) {
    const auto from_environment = store_path_from_environment();
    if (!from_environment) {
      detail::throw_error("the store is off (AUTOSCHED_DB=" + std::string(std::getenv("AUTOSCHED_DB")) +
                          "); name a store with --db <path>");
    }
    path = *from_environment;
  }
  if (!std::filesystem::exists(path)) {
    detail::throw_error("no store at " + path + " (nothing recorded yet, or set AUTOSCHED_DB / --db)");
  }
  return std::make_unique<Database>(path, Database::Access::inspect);
}

std::string milliseconds(double ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ns / 1e6);
  return buf;
}

void list(const Options& o) {
  auto db = open_store(o);
  const auto points = db->points();
  std::printf("store %s: %lld runs, %lld instances in %lld history rows, %zu decision points\n", db->path().c_str(),
              static_cast<long long>(db->runs()), static_cast<long long>(db->recorded_instances()),
              static_cast<long long>(db->history_rows()), points.size());
  const auto regions = db->regions();
  if (!regions.empty()) {
    std::printf("\n%-24s %-28s %-24s %8s  %s\n", "region", "features", "model", "bytes", "updated");
    for (const auto& r : regions) {
      std::printf("%-24s %-28s %-24s %8lld  %s\n", r.key.region.c_str(),
                  r.key.features.empty() ? "-" : r.key.features.c_str(), r.model.c_str(),
                  static_cast<long long>(r.bytes), r.updated_at.c_str());
    }
  }
  // The drop-in's loop names are shown with their points (db show), not as blobs.
  std::vector<Database::BlobSummary> blobs;
  for (auto& b : db->blobs()) {
    if (b.key.kind != "loop-name") blobs.push_back(std::move(b));
  }
  if (!blobs.empty()) {
    std::printf("\n%-12s %-40s %8s  %s\n", "blob kind", "key", "bytes", "updated");
    for (const auto& b : blobs) {
      std::printf("%-12s %-40s %8lld  %s\n", b.key.kind.c_str(), b.key.key.c_str(), static_cast<long long>(b.bytes),
                  b.updated_at.c_str());
    }
  }
  if (points.empty()) return;
  std::printf("\n%-32s %9s %9s %-16s %12s  %s\n", "point", "instances", "explored", "best arm", "mean ms",
              "saved states");
  for (const auto& p : points) {
    std::string states;
    for (const auto& s : p.selectors) states += (states.empty() ? "" : "; ") + s;
    std::printf("%-32s %9lld %9lld %-16s %12s  %s\n", p.name.c_str(), static_cast<long long>(p.instances),
                static_cast<long long>(p.explored), p.best_arm.empty() ? "-" : p.best_arm.c_str(),
                p.best_arm.empty() ? "-" : milliseconds(p.best_mean_ns).c_str(), states.empty() ? "-" : states.c_str());
  }
}

/// A saved selector state in words: the selector restored from it says where
/// it stands ("best 0" becomes "best static") and how many instances it has
/// learned from. `--raw` prints the stored text instead.
std::string readable_state(const std::string& portfolio, const std::string& selector, const std::string& state) {
  try {
    Portfolio arms;
    for (std::string_view label : text::split(portfolio, ',')) arms.push_back(parse_technique_spec(label, "portfolio"));
    auto restored = make_selector(parse_selector(selector, "selector"), arms, 1, nullptr, "db show");
    if (!restored->load_state(state)) return "a state this autosched does not read (--raw shows it)";
    std::string where = restored->summary();
    // A trailing arm index names its arm.
    const auto space = where.find_last_of(' ');
    if (const auto index = text::to_int(std::string_view(where).substr(space + 1));
        space != std::string::npos && index && *index >= 0 && *index < static_cast<long long>(arms.size())) {
      where = where.substr(0, space + 1) + arms[static_cast<std::size_t>(*index)].label();
    }
    std::string out = where.empty() ? "restorable" : where;
    if (const long n = restored->resumed_instances(); n > 0)
      out += ", learned from " + std::to_string(n) + (n == 1 ? " instance" : " instances");
    return out + " (--raw shows the stored text)";
  } catch (const Error& e) {
    return std::string("unreadable here: ") + e.what() + " (--raw shows it)";
  }
}

void show(const Options& o) {
  auto db = open_store(o);
  int shown = 0;
  // A readable name the drop-in's report printed stands for its loop's id.
  std::set<std::string> ids;
  for (const std::string& id : db->blob_keys_holding("loop-name", o.point)) ids.insert(id);
  for (const auto& p : db->points()) {
    if (p.name != o.point && p.loop != o.point && ids.count(p.loop) == 0) continue;
    ++shown;
    std::printf("%s\n  loop %s, N bucket %d (N < 2^%d), %d threads\n", p.name.c_str(), p.loop.c_str(), p.bucket,
                p.bucket, p.p);
    if (const auto name = db->load_blob({"loop-name", p.loop, p.fingerprint})) {
      std::printf("  name %s (as the drop-in's report printed it)\n", name->c_str());
    }
    std::printf("  system %s\n  portfolio %s\n", p.fingerprint.c_str(), p.portfolio.c_str());
    std::printf("  %lld instances, %lld explored\n\n", static_cast<long long>(p.instances),
                static_cast<long long>(p.explored));
    std::printf("  %-16s %9s %12s %12s %9s\n", "arm", "instances", "mean ms", "min ms", "mean LIB");
    for (const auto& a : db->arms(p.id)) {
      std::printf("  %-16s %9lld %12s %12s %8.1f%%\n", a.arm.c_str(), static_cast<long long>(a.instances),
                  milliseconds(a.mean_ns).c_str(), milliseconds(a.min_ns).c_str(), a.mean_lib);
    }
    for (const auto& s : db->states(p.id)) {
      std::printf("\n  saved state of %s (%s):\n    %s\n", s.selector.c_str(), s.updated_at.c_str(),
                  o.raw ? s.state.c_str() : readable_state(p.portfolio, s.selector, s.state).c_str());
    }
    std::printf("\n");
  }
  if (shown == 0) {
    detail::throw_error("no decision point, loop or region called '" + o.point + "' in " + db->path() +
                        "; `autosched db list` shows them");
  }
}

void export_rows(const Options& o) {
  auto db = open_store(o);
  const std::string csv = db->export_csv();
  if (o.file.empty() || o.file == "-") {
    std::fwrite(csv.data(), 1, csv.size(), stdout);
    return;
  }
  write_output("db export: --file", o.file, csv);
  std::fprintf(stderr, "wrote %s\n", o.file.c_str());
}

void forget(const Options& o) {
  auto db = open_store(o);
  // Read before they go, to say which kinds of front-end state went.
  std::set<std::string> blob_kinds;
  for (const auto& b : db->blobs()) {
    if (b.key.key == o.point) blob_kinds.insert(b.key.kind);
  }
  const Database::Forgotten gone = db->forget_entries(o.point);
  if (gone.total() == 0) {
    detail::throw_error("no decision point, loop, region or blob called '" + o.point + "' in " + db->path() +
                        "; `autosched db list` shows them");
  }
  const int n = gone.points + gone.regions;
  if (n > 0) {
    std::printf("forgot %d entr%s (decision points, regions) called '%s'\n", n, n == 1 ? "y" : "ies", o.point.c_str());
  }
  if (gone.blobs > 0) {
    std::string kinds;
    for (const auto& k : blob_kinds) kinds += (kinds.empty() ? "" : ", ") + k;
    std::printf("forgot %d blob%s (%s) keyed '%s'\n", gone.blobs, gone.blobs == 1 ? "" : "s", kinds.c_str(),
                o.point.c_str());
  }
}

}  // namespace

void add_db_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* db = app.add_subcommand("db", std::string(description("db")));
  const std::string db_help = "Store file (default: AUTOSCHED_DB, else the user's cache directory)";
  db->add_option("--db", options->db, db_help);
  db->require_subcommand(1);
  // --db after the subcommand too (`autosched db list --db x.db`), as
  // users type it; the same value either way.
  auto* list_cmd = db->add_subcommand("list", "Every decision point with its best arm, the regions and the blobs");
  list_cmd->callback([options] { list(*options); });
  auto* show_cmd = db->add_subcommand("show", "Per-arm statistics and saved selector states of a point or loop");
  show_cmd->add_option("point", options->point, "Decision point (loop#bucket/threads) or loop name")->required();
  show_cmd->add_flag("--raw", options->raw, "the saved selector states as stored, not in words");
  show_cmd->callback([options] { show(*options); });
  auto* export_cmd = db->add_subcommand("export", "Every history row, as CSV");
  export_cmd->add_flag("--csv", options->csv, "As CSV (the default and only format)");
  export_cmd->add_option("file", options->file, "Output file (default: stdout)");
  export_cmd->callback([options] { export_rows(*options); });
  auto* forget_cmd = db->add_subcommand("forget",
                                        "Delete the history and saved states of a point or loop, a region's samples "
                                        "and model, and the blobs under that key");
  forget_cmd
      ->add_option("point", options->point, "Decision point (loop#bucket/threads), loop name, region id or blob key")
      ->required();
  forget_cmd->callback([options] { forget(*options); });
  for (CLI::App* sub : {list_cmd, show_cmd, export_cmd, forget_cmd}) sub->add_option("--db", options->db, db_help);
}

}  // namespace autosched::cli
