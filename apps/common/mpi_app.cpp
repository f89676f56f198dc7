#include "mpi_app.hpp"

#include "app.hpp"  // mix()

#include <autosched/core/file_checks.hpp>
#include <autosched/core/error.hpp>
#include <autosched/select/grammar/schedule.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace autosched::apps::mpi {

namespace {

constexpr const char* cost_magic = "# autosched-costs 1";

}  // namespace

double CostRow::seconds(std::int64_t first, std::int64_t last) const noexcept {
  // prefix over blocks; a partial block counts pro rata by its iterations.
  auto at = [this](std::int64_t i) {
    const std::int64_t b = i / block;
    if (b >= static_cast<std::int64_t>(prefix.size()) - 1) return prefix.back();
    const std::int64_t len = std::min(block, n - b * block);
    const double in_block = prefix[static_cast<std::size_t>(b) + 1] - prefix[static_cast<std::size_t>(b)];
    return prefix[static_cast<std::size_t>(b)] +
           in_block * static_cast<double>(i - b * block) / static_cast<double>(len);
  };
  return at(last) - at(first);
}

void CostModel::load(const std::string& path, const std::string& program) {
  std::ifstream in(path);
  auto fail = [&](long line, const std::string& why) {
    std::fprintf(stderr, "%s: --costs=%s:%ld: %s\n", program.c_str(), path.c_str(), line, why.c_str());
    std::exit(2);
  };
  if (!in) fail(0, "cannot read this file");
  std::string text;
  long line_no = 0;
  bool magic = false;
  while (std::getline(in, text)) {
    ++line_no;
    if (line_no == 1) {
      magic = text.rfind(cost_magic, 0) == 0;
      if (!magic) fail(1, std::string("expected the header '") + cost_magic + " ...' (a file written by --record)");
      continue;
    }
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    std::string loop;
    int step = -1;
    CostRow row;
    if (!(fields >> loop >> step >> row.n >> row.block) || step < 0 || row.n < 0 || row.block < 1) {
      fail(line_no, "expected '<loop> <step> <n> <block> <seconds>...' with step, n >= 0 and block >= 1");
    }
    const std::int64_t blocks = (row.n + row.block - 1) / row.block;
    row.prefix.reserve(static_cast<std::size_t>(blocks) + 1);
    row.prefix.push_back(0.0);
    double v = 0;
    while (fields >> v) {
      if (!(v >= 0) || !std::isfinite(v)) fail(line_no, "a cost is negative or not a number");
      row.prefix.push_back(row.prefix.back() + v);
    }
    if (!fields.eof()) fail(line_no, "a cost is not a number");
    if (static_cast<std::int64_t>(row.prefix.size()) != blocks + 1) {
      fail(line_no, "expected " + std::to_string(blocks) + " costs (n / block, rounded up), found " +
                        std::to_string(row.prefix.size() - 1));
    }
    rows_[loop][step] = std::move(row);
  }
  if (!magic) fail(0, "the file is empty");
}

const CostRow* CostModel::find(const std::string& loop, int step, std::int64_t n) const {
  const auto l = rows_.find(loop);
  if (l == rows_.end()) return nullptr;
  auto s = l->second.upper_bound(step);  // first row after `step`
  if (s == l->second.begin()) return nullptr;
  --s;
  return s->second.n == n ? &s->second : nullptr;
}

void MpiApp::Tally::add(std::int64_t first, std::int64_t last) noexcept {
  for (std::int64_t i = first; i < last; ++i) hash += autosched::apps::mix(static_cast<std::uint64_t>(i));
  count += static_cast<std::uint64_t>(last - first);
}

MpiApp::MpiApp(std::string name, std::string description, int argc, char** argv, std::vector<Option> options,
               int default_steps)
    : name_(std::move(name)), options_(std::move(options)), steps_(default_steps) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  std::string record_path;
  std::string problem;
  bool help = false;
  try {
    auto number = [&](const std::string& option, const char* text, bool integer) {
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(text, &end);
      if (end == text || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0 || (integer && v != std::floor(v))) {
        usage_error("--" + option + "=" + text + ": expected " +
                    (integer ? "a non-negative integer" : "a non-negative number"));
      }
      return v;
    };
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        help = true;
        break;
      }
      if (arg == "--quiet") {
        quiet_ = true;
        continue;
      }
      if (arg.rfind("--", 0) != 0) usage_error("unexpected argument '" + arg + "'");
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      const std::string option = arg.substr(2);
      const char* value = argv[++i];
      if (option == "steps") {
        steps_ = static_cast<int>(number(option, value, true));
        if (steps_ < 1) usage_error("--steps=0: expected at least one step");
      } else if (option == "schedule") {
        schedule_ = value;
        try {
          (void)parse_schedule(schedule_, "--schedule");
        } catch (const Error& e) {
          usage_error(e.what());
        }
      } else if (option == "protocol") {
        const std::string p = value;
        if (p == "auto") {
          protocol_ = autosched::mpi::Protocol::automatic;
        } else if (p == "master-worker") {
          protocol_ = autosched::mpi::Protocol::master_worker;
        } else if (p == "rma") {
          protocol_ = autosched::mpi::Protocol::rma;
        } else {
          usage_error("--protocol=" + p + ": expected auto, master-worker or rma");
        }
      } else if (option == "record") {
        record_path = value;
      } else if (option == "record-block") {
        record_block_ = static_cast<std::int64_t>(number(option, value, true));
        if (record_block_ < 1) usage_error("--record-block=0: expected at least 1");
      } else if (option == "costs") {
        costs_path_ = value;
      } else {
        bool known = false;
        for (Option& o : options_) {
          if (o.name == option) {
            o.value = number(option, value, o.integer);
            known = true;
          }
        }
        if (!known) usage_error("unknown option --" + option);
      }
    }
    if (!record_path.empty() && !costs_path_.empty()) usage_error("--record and --costs exclude each other");
  } catch (const UsageError& e) {
    problem = e.message;
  }
  // Every rank learns whether any rank cannot start: a rank alone with a bad
  // argument (an MPMD launch) that finalized and left would leave the others
  // waiting in their first collective for ever. The lowest such rank says why.
  int mine[2] = {problem.empty() ? 0 : 1, help ? 1 : 0};
  int any[2] = {0, 0};
  MPI_Allreduce(mine, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int bad_rank = problem.empty() ? ranks_ : rank_;
  int first_bad = ranks_;
  MPI_Allreduce(&bad_rank, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (any[0] != 0) {
    if (rank_ == first_bad) {
      const std::string who = rank_ == 0 ? "" : "rank " + std::to_string(rank_) + ": ";
      std::fprintf(stderr, "autosched-%s: %s%s (--help lists the options)\n", name_.c_str(), who.c_str(),
                   problem.c_str());
    }
    MPI_Finalize();
    std::exit(2);
  }
  if (any[1] != 0) {
    if (rank_ == 0) {
      std::printf("autosched-%s: %s\n\nusage: mpirun -np P autosched-%s [options]\n", name_.c_str(),
                  description.c_str(), name_.c_str());
      std::printf(
          "  --steps T          time steps (default %d)\n"
          "  --schedule S       schedule for every loop (default: AUTOSCHED_SCHEDULE, else auto)\n"
          "  --protocol P       auto | master-worker | rma (default auto)\n"
          "  --record FILE      write the cost model: seconds per block of iterations, per loop and step\n"
          "  --record-block B   iterations per recorded value (default 1)\n"
          "  --costs FILE       replay a recorded cost model instead of computing\n"
          "  --quiet            no per-step lines\n",
          default_steps);
      for (const Option& o : options_) {
        std::printf("  --%-16s %s (default %g)\n", o.name.c_str(), o.help.c_str(), o.value);
      }
    }
    MPI_Finalize();
    std::exit(0);
  }
  if (!costs_path_.empty()) costs_.load(costs_path_, "autosched-" + name_);
  if (!record_path.empty()) {
    int ok = 1;
    std::string why;
    if (rank_ == 0) {
      record_ = files::open_for_writing(record_path, &why);
      ok = record_ != nullptr ? 1 : 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok == 0) {  // every rank knows it: rank 0 says why, all end
      if (rank_ == 0)
        std::fprintf(stderr, "autosched-%s: --record=%s: %s\n", name_.c_str(), record_path.c_str(), why.c_str());
      MPI_Finalize();
      std::exit(2);
    }
    recording_ = true;  // on every rank; only rank 0 writes
    if (rank_ == 0) {
      std::fprintf(record_, "%s app=%s ranks=%d clock=MPI_Wtime\n", cost_magic, name_.c_str(), ranks_);
      std::fputs("# <loop> <step> <n> <block> then ceil(n/block) values: seconds of each block's iterations\n",
                 record_);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  start_ = MPI_Wtime();
}

MpiApp::~MpiApp() {
  if (record_ != nullptr) std::fclose(record_);
}

void MpiApp::usage_error(const std::string& message) const { throw UsageError{message}; }

long MpiApp::integer(const std::string& option) const { return static_cast<long>(real(option)); }

double MpiApp::real(const std::string& option) const {
  for (const Option& o : options_) {
    if (o.name == option) return o.value;
  }
  std::fprintf(stderr, "autosched-%s: internal error: no option %s\n", name_.c_str(), option.c_str());
  std::abort();
}

const CostRow* MpiApp::replay_row(const std::string& loop, std::int64_t n) {
  const CostRow* row = costs_.find(loop, step_, n);
  if (row == nullptr) {
    if (rank_ == 0) {
      std::fprintf(stderr,
                   "autosched-%s: --costs=%s: no row for loop %s with n = %lld at or before step %d (record with "
                   "the same sizes)\n",
                   name_.c_str(), costs_path_.c_str(), loop.c_str(), static_cast<long long>(n), step_);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return row;
}

std::vector<double>* MpiApp::record_buffer(const std::string& /*loop*/, std::int64_t n) {
  record_values_.assign(static_cast<std::size_t>((n + record_block_ - 1) / record_block_), 0.0);
  return &record_values_;
}

void MpiApp::finish_instance(const std::string& loop, std::int64_t n, const autosched::mpi::LoopResult& r,
                             const Tally& t, std::vector<double>* record) {
  // Exactly once: the count and the sum of mix(i) over all ranks must match
  // [0, n)'s (a lost or doubled index changes both, short of a 2^-64 chance).
  std::uint64_t mine[2] = {t.count, t.hash}, all[2] = {0, 0};
  MPI_Reduce(mine, all, 2, MPI_UINT64_T, MPI_SUM, 0, comm());
  if (record != nullptr) {
    std::vector<double> sum(rank_ == 0 ? record->size() : 0);
    MPI_Reduce(record->data(), sum.data(), static_cast<int>(record->size()), MPI_DOUBLE, MPI_SUM, 0, comm());
    if (rank_ == 0) {
      std::fprintf(record_, "%s %d %lld %lld", loop.c_str(), step_, static_cast<long long>(n),
                   static_cast<long long>(record_block_));
      for (const double v : sum) std::fprintf(record_, " %.4e", v);
      std::fputc('\n', record_);
    }
  }
  if (rank_ != 0) return;
  auto [it, fresh] = expected_hash_.try_emplace(n, 0);
  if (fresh) {
    for (std::int64_t i = 0; i < n; ++i) it->second += autosched::apps::mix(static_cast<std::uint64_t>(i));
  }
  if (once_ && (all[0] != static_cast<std::uint64_t>(n) || all[1] != it->second)) {
    once_ = false;
    once_failure_ = loop + " at step " + std::to_string(step_) + ": " + std::to_string(all[0]) + " iterations of " +
                    std::to_string(n) + (all[0] == static_cast<std::uint64_t>(n) ? ", but not each once" : "");
  }
  loop_seconds_ += r.loop_seconds;
  selection_seconds_ += r.selection_seconds;
  ++instances_;
  const std::string arm = r.technique + "/" + std::string(autosched::mpi::protocol_name(r.protocol));
  ++technique_instances_[arm];
  if (!quiet_) {
    std::printf("step %4d %-18s %-14s %-13s %10.3f ms  imbalance %5.1f%%  selection %.1f us\n", step_, loop.c_str(),
                r.technique.c_str(), std::string(autosched::mpi::protocol_name(r.protocol)).c_str(),
                r.loop_seconds * 1e3, r.percent_imbalance, r.selection_seconds * 1e6);
  }
}

int MpiApp::finish(bool verified, const std::string& what) {
  MPI_Barrier(comm());
  const double app_seconds = MPI_Wtime() - start_;
  int ok = (verified && once_) ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm());
  if (rank_ == 0) {
    if (record_ != nullptr) std::fflush(record_);
    if (!once_) {
      std::fprintf(stderr, "autosched-%s: WRONG RESULT: %s\n", name_.c_str(), once_failure_.c_str());
    } else if (!verified) {
      std::fprintf(stderr, "autosched-%s: WRONG RESULT: %s\n", name_.c_str(), what.c_str());
    } else {
      std::printf("autosched-%s: %d steps on %d ranks, schedule %s, protocol %s%s\n", name_.c_str(), steps_, ranks_,
                  schedule_.empty() ? "(default)" : schedule_.c_str(),
                  std::string(autosched::mpi::protocol_name(protocol_)).c_str(),
                  replaying() ? (", replaying " + costs_path_).c_str() : "");
      std::printf("  application %.3f s, loops %.3f s (%ld instances)\n", app_seconds, loop_seconds_, instances_);
      std::printf("  selection %.6f s = %.4f%% of the application time (selection overhead share)\n",
                  selection_seconds_, app_seconds > 0 ? 100.0 * selection_seconds_ / app_seconds : 0.0);
      std::printf("  instances per technique/protocol:");
      for (const auto& [arm, count] : technique_instances_) std::printf(" %s=%ld", arm.c_str(), count);
      std::printf("\n  verified: %s; every instance ran each iteration exactly once\n", what.c_str());
    }
  }
  return ok == 1 ? 0 : 1;
}

}  // namespace autosched::apps::mpi
