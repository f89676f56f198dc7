#include <autosched/store/trace_file.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <string_view>

namespace autosched {

namespace {
std::string csv_quoted(const char* s) {
  std::string q = "\"";
  for (const char* c = s; *c != '\0'; ++c) q += *c == '"' ? std::string("\"\"") : std::string(1, *c);
  return q + "\"";
}
std::string json_quoted(const char* s) {
  std::string q = "\"";
  for (const char* c = s; *c != '\0'; ++c) {
    if (*c == '"' || *c == '\\') q += '\\';
    q += *c;
  }
  return q + "\"";
}
/// Warns once per file when its writes failed (a full disk, /dev/full): the
/// trace is incomplete and the user must hear of it, but not once per row.
void check_written(std::FILE* f, const std::string& path, bool& warned) {
  if (warned || f == nullptr || std::ferror(f) == 0) return;
  const int error = errno;
  warned = true;
  detail::warn("trace " + path + ": writing failed (" + (error != 0 ? std::strerror(error) : "write error") +
               "); rows from here on are lost, the trace is incomplete");
}
/// A reward in full precision, or `none` when the selector has no reward.
std::string reward_text(double reward, const char* none) {
  if (std::isnan(reward)) return none;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", reward);
  return buf;
}
}  // namespace

TraceFile::TraceFile(std::string path) : path_(std::move(path)) {
  json_ = path_.size() >= 5 && path_.compare(path_.size() - 5, 5, ".json") == 0;
  std::string why;
  file_ = files::open_for_writing(path_, &why);
  if (file_ == nullptr) detail::throw_error("AUTOSCHED_TRACE=" + path_ + ": cannot write this file (" + why + ")");
  if (json_) {
    std::fputs("[\n", file_);
  } else {
    std::fputs(
        "loop,instance,selector,explored,technique,chunk,exp_chunk,n,p,loop_time_ns,lib,percent_imbalance,cov,"
        "stddev,skewness,kurtosis,selector_ns,selector_state,reward,cut_short,failed\n",
        file_);
  }
}

void TraceFile::write(std::span<const InstanceRow> rows) {
  if (closed_ && json_) {
    // A loop ran after the writer shut down (from a static destructor):
    // reopen the array so that the file stays valid JSON with this row in it.
    std::fseek(file_, -3, SEEK_END);
    closed_ = false;
    write(rows);
    close();
    return;
  }
  for (const InstanceRow& r : rows) {
    const LoopMetrics& m = r.metrics;
    const std::string_view technique = technique_info(r.technique_id).name;
    const int technique_size = static_cast<int>(technique.size());
    if (json_) {
      std::fprintf(file_,
                   "%s{\"loop\": %s, \"instance\": %" PRIu64
                   ", \"selector\": %s, \"explored\": %s, "
                   "\"technique\": \"%.*s\", \"chunk\": %" PRId64 ", \"exp_chunk\": %s, \"n\": %" PRId64
                   ", \"p\": %d, \"loop_time_ns\": %.0f, \"lib\": %.4f, \"percent_imbalance\": %.4f, \"cov\": %.6f, "
                   "\"stddev\": %.1f, \"skewness\": %.6f, \"kurtosis\": %.6f, \"selector_ns\": %.0f, "
                   "\"selector_state\": %s, \"reward\": %s, \"cut_short\": %s, \"failed\": %s}",
                   first_ ? "" : ",\n", json_quoted(r.loop).c_str(), r.instance, json_quoted(r.selector).c_str(),
                   r.explored ? "true" : "false", technique_size, technique.data(), r.chunk,
                   r.exp_chunk ? "true" : "false", r.n, r.p, m.loop_time_ns, m.lib, m.percent_imbalance, m.cov,
                   m.stddev, m.skewness, m.kurtosis, r.selector_ns, json_quoted(r.selector_state).c_str(),
                   reward_text(r.reward, "null").c_str(), r.cut_short ? "true" : "false", r.failed ? "true" : "false");
      first_ = false;
    } else {
      std::fprintf(file_,
                   "%s,%" PRIu64 ",%s,%d,%.*s,%" PRId64 ",%d,%" PRId64
                   ",%d,%.0f,%.4f,%.4f,%.6f,%.1f,%.6f,%.6f,%.0f,%s,%s,%d,%d\n",
                   csv_quoted(r.loop).c_str(), r.instance, r.selector, r.explored ? 1 : 0, technique_size,
                   technique.data(), r.chunk, r.exp_chunk ? 1 : 0, r.n, r.p, m.loop_time_ns, m.lib, m.percent_imbalance,
                   m.cov, m.stddev, m.skewness, m.kurtosis, r.selector_ns, csv_quoted(r.selector_state).c_str(),
                   reward_text(r.reward, "").c_str(), r.cut_short ? 1 : 0, r.failed ? 1 : 0);
    }
  }
  check_written(file_, path_, warned_);
}

void TraceFile::write_threads(const std::string& loop, std::uint64_t instance, const std::vector<ThreadStats>& threads,
                              std::int64_t start_ns) {
  if (threads_ == nullptr) {
    if (threads_failed_) return;
    const std::string threads_path = path_ + ".threads.csv";
    std::string why;
    threads_ = files::open_for_writing(threads_path, &why);
    if (threads_ == nullptr) {
      threads_failed_ = true;
      detail::warn("AUTOSCHED_TRACE_THREADS: cannot write " + threads_path + " (" + why + "); no per-thread rows");
      return;
    }
    std::fputs("loop,instance,thread,start_ns,finish_ns,busy_ns,chunks,iterations\n", threads_);
  }
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const ThreadStats& s = threads[t];
    std::fprintf(threads_, "%s,%" PRIu64 ",%zu,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                 csv_quoted(loop.c_str()).c_str(), instance, t, s.start_ns - start_ns, s.finish_ns - start_ns,
                 s.busy_ns, s.chunks, s.iterations);
  }
  check_written(threads_, path_ + ".threads.csv", threads_warned_);
}

void TraceFile::flush() {
  std::fflush(file_);
  check_written(file_, path_, warned_);
  if (threads_ != nullptr) {
    std::fflush(threads_);
    check_written(threads_, path_ + ".threads.csv", threads_warned_);
  }
}

void TraceFile::close() {
  if (json_ && !closed_) std::fputs("\n]\n", file_);
  closed_ = true;
  flush();
}

}  // namespace autosched
