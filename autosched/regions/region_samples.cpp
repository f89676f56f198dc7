// A RegionLearner's samples as text (files, the store, collective training):
// writing, parsing, loading and the order-independent merge of all ranks.
#include <autosched/regions/region_learner.hpp>

#include <autosched/regions/detail/learner_entry.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>

namespace autosched {

// Samples text: a header line "samples <F> <V> <rows>", then per vector the
// features and, for each variant with samples, "| v count mean m2 min skipped".
std::string RegionLearner::samples_text(Samples which) const {
  std::string out;
  std::size_t rows = 0;
  std::string body;
  char buf[64];
  // Rows in vector order, not arrival order: equal tables give equal texts
  // (on every rank, in every file).
  std::vector<const Entry*> sorted;
  for (const auto& e : entries_) sorted.push_back(e.get());
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) { return a->x < b->x; });
  for (const Entry* e : sorted) {
    const auto& table = which == Samples::all      ? e->all
                        : which == Samples::own    ? e->own
                        : which == Samples::shared ? e->shared
                                                   : e->unsaved;
    if (std::none_of(table.begin(), table.end(), [](const PairStats& s) { return s.count() > 0 || s.skipped > 0; }))
      continue;
    ++rows;
    for (std::size_t f = 0; f < e->x.size(); ++f) {
      std::snprintf(buf, sizeof buf, f ? " %a" : "%a", e->x[f]);
      body += buf;
    }
    for (int v = 0; v < variants_; ++v) {
      const PairStats& s = table[static_cast<std::size_t>(v)];
      if (s.count() == 0 && s.skipped == 0) continue;
      std::snprintf(buf, sizeof buf, " | %d %lld ", v, static_cast<long long>(s.count()));
      body += buf;
      std::snprintf(buf, sizeof buf, "%a %a ", s.time.mean, s.time.m2);
      body += buf;
      std::snprintf(buf, sizeof buf, "%a %lld", s.count() ? s.min : 0.0, static_cast<long long>(s.skipped));
      body += buf;
    }
    body += '\n';
  }
  std::snprintf(buf, sizeof buf, "samples %d %d %zu\n", features_, variants_, rows);
  out = buf;
  return out + body;
}

namespace {

/// A count of at most max_loaded_count written in decimal, or -1 (also for
/// a number strtoll would saturate at 2^63 - 1); `*end` as strtoll sets it.
long long read_count(const char* p, char** end) {
  errno = 0;
  const long long v = std::strtoll(p, end, 10);
  if (*end == p) return -1;
  if (errno == ERANGE || v > RunningStats::max_loaded_count) return -1;
  return v;
}

struct ParsedRow {
  std::vector<double> x;
  std::vector<std::pair<int, PairStats>> pairs;
};

bool parse_samples(std::string_view text, int features, int variants, std::vector<ParsedRow>& rows, std::string* why) {
  auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  std::istringstream in{std::string(text)};
  std::string line;
  if (!std::getline(in, line)) return fail("no samples header");
  int f = 0, v = 0;
  long long n = 0;
  char extra = 0;
  if (std::sscanf(line.c_str(), "samples %d %d %lld %c", &f, &v, &n, &extra) != 3 || n < 0)
    return fail("bad samples header '" + line + "'");
  if (f != features)
    return fail("samples have " + std::to_string(f) + " features, the region " + std::to_string(features));
  if (v != variants)
    return fail("samples have " + std::to_string(v) + " variants, the region " + std::to_string(variants));
  long long total = 0;  // samples and warm-ups so far, each at most max_loaded_count: no overflow
  for (long long r = 0; r < n; ++r) {
    if (!std::getline(in, line))
      return fail("samples end after " + std::to_string(r) + " of " + std::to_string(n) + " rows");
    ParsedRow row;
    const char* p = line.c_str();
    char* end = nullptr;
    for (int i = 0; i < f; ++i) {
      const double x = std::strtod(p, &end);
      if (end == p || !std::isfinite(x)) return fail("bad feature value in row " + std::to_string(r));
      row.x.push_back(x);
      p = end;
    }
    while (*p == ' ') ++p;
    while (*p == '|') {
      ++p;
      const long vi = std::strtol(p, &end, 10);
      if (end == p || vi < 0 || vi >= variants) return fail("bad variant in row " + std::to_string(r));
      p = end;
      const long long count = read_count(p, &end);
      if (end == p || count < 0) return fail("bad count in row " + std::to_string(r));
      p = end;
      double values[3];
      for (double& value : values) {
        value = std::strtod(p, &end);
        if (end == p || !std::isfinite(value)) return fail("bad statistic in row " + std::to_string(r));
        p = end;
      }
      const long long skipped = read_count(p, &end);
      if (end == p || skipped < 0) return fail("bad warm-up count in row " + std::to_string(r));
      p = end;
      // A damaged count near 2^63 would overflow the counters it is merged
      // into: the whole text may claim at most max_loaded_count samples.
      total += count;
      total += skipped;
      if (total > RunningStats::max_loaded_count)
        return fail("sample counts beyond " + std::to_string(RunningStats::max_loaded_count) + " in row " +
                    std::to_string(r));
      // Any finite mean (a metric may be negative); only a negative spread,
      // a minimum above the mean or an empty pair are impossible.
      const double slack = 1e-9 * std::abs(values[0]);  // the incremental mean may round an ulp low
      if (values[1] < 0 || (count > 0 && values[2] > values[0] + slack) || (count == 0 && skipped == 0))
        return fail("impossible statistics in row " + std::to_string(r));
      PairStats s;
      s.time.count = count;
      s.time.mean = count ? values[0] : 0;
      s.time.m2 = count ? values[1] : 0;
      s.min = count ? values[2] : std::numeric_limits<double>::infinity();
      s.skipped = skipped;
      row.pairs.emplace_back(static_cast<int>(vi), s);
      while (*p == ' ') ++p;
    }
    if (*p != '\0') return fail("unexpected text in row " + std::to_string(r));
    rows.push_back(std::move(row));
  }
  if (std::getline(in, line) && !line.empty()) return fail("text after the last samples row");
  return true;
}

}  // namespace

std::string RegionLearner::take_unsaved(bool& replace) {
  std::string text = samples_text(Samples::unsaved);
  for (auto& e : entries_) std::fill(e->unsaved.begin(), e->unsaved.end(), PairStats{});
  replace = std::exchange(forgotten_since_save_, false);
  return text;
}

bool RegionLearner::load_samples(std::string_view text, std::string* why) {
  std::vector<ParsedRow> rows;
  if (!parse_samples(text, features_, variants_, rows, why)) return false;
  for (const ParsedRow& row : rows) {
    Entry& e = *entries_[static_cast<std::size_t>(entry(row.x))];
    for (const auto& [v, s] : row.pairs) {
      e.shared[static_cast<std::size_t>(v)].merge(s);
      e.all[static_cast<std::size_t>(v)].merge(s);
    }
    e.bandit.reset();
  }
  recount();
  return true;
}

bool RegionLearner::merge_and_train(std::string_view shared, std::span<const std::string> owns, std::string* why) {
  std::vector<ParsedRow> base;
  if (!parse_samples(shared, features_, variants_, base, why)) return false;
  std::vector<std::vector<ParsedRow>> parts(owns.size());
  for (std::size_t r = 0; r < owns.size(); ++r) {
    if (!parse_samples(owns[r], features_, variants_, parts[r], why)) {
      if (why) *why = "the samples of contributor " + std::to_string(r) + " (in rank order): " + *why;
      return false;
    }
  }
  for (auto& e : entries_) {
    for (auto* table : {&e->all, &e->own, &e->shared}) std::fill(table->begin(), table->end(), PairStats{});
    e->bandit.reset();
  }
  auto merge_rows = [&](const std::vector<ParsedRow>& rows) {
    for (const ParsedRow& row : rows) {
      Entry& e = *entries_[static_cast<std::size_t>(entry(row.x))];
      for (const auto& [v, s] : row.pairs) e.shared[static_cast<std::size_t>(v)].merge(s);
    }
  };
  merge_rows(base);
  for (const auto& rows : parts) merge_rows(rows);
  for (auto& e : entries_) e->all = e->shared;
  recount();
  if (spec_.trains()) {
    trained_ = false;
    tree_.reset();
    forest_.reset();
    train();
  }
  return true;
}

}  // namespace autosched
