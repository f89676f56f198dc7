#include <autosched/select/selectors/auto/regimes.hpp>

#include <algorithm>
#include <cmath>
#include <istream>
#include <limits>
#include <ostream>

namespace autosched::autoselect {

namespace {

/// Numbers a regime keeps are read back only by this code: six digits are
/// plenty for shares and predictions, and keep a state small.
void write_numbers(std::ostream& out, const std::vector<double>& v) {
  for (const double x : v) out << ' ' << (std::isfinite(x) ? x : 0.0);
}

bool read_numbers(std::istream& in, std::size_t count, std::vector<double>& v) {
  v.assign(count, 0.0);
  for (double& x : v) {
    if (!(in >> x) || !std::isfinite(x) || x < 0) return false;
  }
  return true;
}

}  // namespace

std::vector<double> RegimeBook::shape_of(const CostProfile& profile) {
  if (profile.empty()) return {};
  return profile.shares(static_cast<int>(std::min<std::int64_t>(shape_parts, profile.n())));
}

double RegimeBook::distance(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || a.size() != b.size()) return 1.0;
  double l1 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) l1 += std::abs(a[i] - b[i]);
  return std::min(1.0, l1 / 2.0);
}

void RegimeBook::set_current(std::vector<double> shape, double profile_ns) {
  current_.shape = std::move(shape);
  current_.profile_ns = profile_ns;
}

void RegimeBook::archive(const std::vector<double>& predicted, const ArmBook& book) {
  if (current_.shape.empty()) return;
  Regime r = current_;
  r.predicted = predicted;
  r.arms = book.states();
  for (ArmState& a : r.arms) a.session = {};  // this process's samples stay with the process
  archived_.push_back(std::move(r));
  if (archived_.size() > static_cast<std::size_t>(max_archived)) archived_.erase(archived_.begin());
}

int RegimeBook::find(const std::vector<double>& shape, double threshold) const {
  int found = -1;
  double closest = threshold;
  for (int i = 0; i < static_cast<int>(archived_.size()); ++i) {
    const double d = distance(shape, archived_[static_cast<std::size_t>(i)].shape);
    if (d <= closest) {
      closest = d;
      found = i;
    }
  }
  return found;
}

Regime RegimeBook::take(int index) {
  Regime r = std::move(archived_[static_cast<std::size_t>(index)]);
  archived_.erase(archived_.begin() + index);
  return r;
}

bool RegimeBook::changed_at(std::int64_t instance) {
  changes_.push_back(instance);
  if (changes_.size() > static_cast<std::size_t>(unsteady_changes)) changes_.erase(changes_.begin());
  if (changes_.size() == static_cast<std::size_t>(unsteady_changes) &&
      instance - changes_.front() <= unsteady_window) {
    unsteady_ = true;
  }
  return unsteady_;
}

std::vector<double> RegimeBook::robust_scores(const std::vector<double>& predicted) const {
  // The total predicted time over the regimes seen: what running one arm
  // through all of them would cost. Regimes where the loop is slow weigh
  // most, as they do in the run.
  std::vector<double> score(predicted.size(), 0.0);
  const auto add = [&](const std::vector<double>& p) {
    if (p.size() != predicted.size()) return;
    for (std::size_t a = 0; a < p.size(); ++a) {
      score[a] += std::isfinite(p[a]) && p[a] > 0 ? p[a] : std::numeric_limits<double>::infinity();
    }
  };
  for (const Regime& r : archived_) add(r.predicted);
  add(predicted);
  return score;
}

void RegimeBook::write(std::ostream& out) const {
  const auto old = out.precision(6);
  out << ' ' << unsteady_ << ' ' << archived_.size() << ' ' << current_.shape.size();
  write_numbers(out, current_.shape);
  out << ' ' << current_.profile_ns;
  for (const Regime& r : archived_) {
    out << ' ' << r.shape.size();
    write_numbers(out, r.shape);
    out << ' ' << r.profile_ns;
    write_numbers(out, r.predicted);
    for (const ArmState& a : r.arms) out << ' ' << a.all.count << ' ' << a.all.mean << ' ' << a.all.m2 << ' ' << a.retired;
  }
  out.precision(old);
}

bool RegimeBook::read(std::istream& in, std::size_t arms) {
  std::size_t count = 0, parts = 0;
  RegimeBook r;
  if (!(in >> r.unsteady_ >> count >> parts) || count > static_cast<std::size_t>(max_archived) ||
      parts > static_cast<std::size_t>(shape_parts)) {
    return false;
  }
  if (!read_numbers(in, parts, r.current_.shape) || !(in >> r.current_.profile_ns)) return false;
  for (std::size_t k = 0; k < count; ++k) {
    Regime g;
    if (!(in >> parts) || parts == 0 || parts > static_cast<std::size_t>(shape_parts)) return false;
    if (!read_numbers(in, parts, g.shape) || !(in >> g.profile_ns) || !read_numbers(in, arms, g.predicted)) return false;
    for (double& p : g.predicted) {
      if (p == 0) p = std::numeric_limits<double>::infinity();
    }
    if (!ArmBook::read(in, arms, g.arms, nullptr) || !ArmBook::plausible(g.arms)) return false;
    r.archived_.push_back(std::move(g));
  }
  *this = std::move(r);
  return true;
}

}  // namespace autosched::autoselect
