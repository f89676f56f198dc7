#include <autosched/core/error.hpp>
#include <autosched/techniques/cost_profile.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace autosched {

CostProfile CostProfile::from_blocks(std::int64_t n, std::vector<double> block_ns, double overhead_ns) {
  const auto blocks = static_cast<std::int64_t>(block_ns.size());
  if (n < 1) detail::throw_error("cost profile: n = " + std::to_string(n) + ", expected at least one iteration");
  if (blocks < 1) detail::throw_error("cost profile: no blocks");
  const std::int64_t size = ceil_div(n, blocks);
  if ((blocks - 1) * size >= n) {
    detail::throw_error("cost profile: " + std::to_string(blocks) + " blocks of " + std::to_string(size) +
                        " iterations leave the last one empty at n = " + std::to_string(n));
  }
  if (!std::isfinite(overhead_ns) || overhead_ns < 0) {
    detail::throw_error("cost profile: overhead " + std::to_string(overhead_ns) + " ns, expected a finite value >= 0");
  }
  CostProfile p;
  p.n_ = n;
  p.block_size_ = size;
  p.overhead_ns_ = overhead_ns;
  for (std::size_t b = 0; b < block_ns.size(); ++b) {
    if (!std::isfinite(block_ns[b]) || block_ns[b] < 0) {
      detail::throw_error("cost profile: block " + std::to_string(b) + " costs " + std::to_string(block_ns[b]) +
                          " ns, expected a finite value >= 0");
    }
  }
  // The running sums replace the times in the same buffer: one vector per
  // profile (each loop name keeps one, 2 KB at 256 blocks).
  std::partial_sum(block_ns.begin(), block_ns.end(), block_ns.begin());
  p.cumulative_ = std::move(block_ns);
  return p;
}

CostProfile CostProfile::uniform(std::int64_t n, double mu_ns, double overhead_ns, int blocks) {
  const std::int64_t b = std::clamp<std::int64_t>(blocks, 1, std::max<std::int64_t>(n, 1));
  const std::int64_t size = ceil_div(n, b);
  const std::int64_t used = ceil_div(n, size);  // every block non-empty
  std::vector<double> times(static_cast<std::size_t>(used));
  for (std::int64_t i = 0; i < used; ++i) {
    times[static_cast<std::size_t>(i)] = mu_ns * static_cast<double>(std::min(size, n - i * size));
  }
  return from_blocks(n, std::move(times), overhead_ns);
}

double CostProfile::before(std::int64_t x) const noexcept {
  if (x <= 0) return 0.0;
  if (x >= n_) return total_ns();
  const std::int64_t b = x / block_size_;
  const std::int64_t first = b * block_size_;
  const std::int64_t size = std::min(block_size_, n_ - first);
  const auto k = static_cast<std::size_t>(b);
  const double earlier = k == 0 ? 0.0 : cumulative_[k - 1];
  return earlier + (cumulative_[k] - earlier) * static_cast<double>(x - first) / static_cast<double>(size);
}

double CostProfile::cost(IndexRange r) const noexcept {
  if (r.empty()) return 0.0;
  return before(r.end) - before(r.begin);
}

void CostProfile::set_dispatch_queues(double counter_ns, double coordinator_ns) noexcept {
  counter_queue_ns_ = std::isfinite(counter_ns) && counter_ns > 0 ? counter_ns : 0.0;
  coordinator_queue_ns_ = std::isfinite(coordinator_ns) && coordinator_ns > 0 ? coordinator_ns : 0.0;
}

void CostProfile::set_owner_dispatch(double ns) noexcept { owner_dispatch_ns_ = std::isfinite(ns) && ns >= 0 ? ns : -1; }

std::vector<double> CostProfile::block_ns() const {
  std::vector<double> times(blocks());
  for (std::size_t b = 0; b < times.size(); ++b) times[b] = block(b);
  return times;
}

CostProfile CostProfile::scaled(double factor) const {
  CostProfile p = *this;
  for (double& t : p.cumulative_) t *= factor;
  return p;
}

CostProfile CostProfile::lower_envelope(const CostProfile& other) const {
  if (empty() || other.n_ != n_ || other.blocks() != blocks()) return other;
  std::vector<double> low(blocks());
  for (std::size_t b = 0; b < low.size(); ++b) low[b] = std::min(block(b), other.block(b));
  CostProfile p = from_blocks(n_, std::move(low), std::min(overhead_ns_, other.overhead_ns_));
  p.counter_queue_ns_ = other.counter_queue_ns_;
  p.coordinator_queue_ns_ = other.coordinator_queue_ns_;
  p.owner_dispatch_ns_ = other.owner_dispatch_ns_;
  return p;
}

std::vector<double> CostProfile::shares(int parts) const {
  std::vector<double> out(static_cast<std::size_t>(parts), 0.0);
  const double total = total_ns();
  if (total <= 0) return out;
  for (int i = 0; i < parts; ++i) {
    const std::int64_t a = n_ * i / parts, b = n_ * (i + 1) / parts;
    out[static_cast<std::size_t>(i)] = cost({a, b}) / total;
  }
  return out;
}

double CostProfile::shape_distance(const CostProfile& other) const {
  if (empty() || other.empty()) return 1.0;
  const int parts = static_cast<int>(std::min(blocks(), other.blocks()));
  const std::vector<double> a = shares(parts), b = other.shares(parts);
  double l1 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) l1 += std::abs(a[i] - b[i]);
  return std::min(1.0, l1 / 2.0);
}

std::string CostProfile::text() const {
  std::ostringstream out;
  out.precision(6);
  out << n_ << ' ' << overhead_ns_;
  for (std::size_t b = 0; b < blocks(); ++b) out << ' ' << block(b);
  return out.str();
}

CostProfile CostProfile::parse(std::string_view text, std::string_view origin) {
  std::istringstream in{std::string(text)};
  std::int64_t n = 0;
  double h = 0;
  if (!(in >> n >> h)) {
    detail::throw_error(std::string(origin) + ": a cost profile starts with `n h`, got '" +
                        std::string(text.substr(0, 40)) + "'");
  }
  std::vector<double> blocks;
  for (double t; in >> t;) blocks.push_back(t);
  if (!in.eof()) {
    detail::throw_error(std::string(origin) + ": block " + std::to_string(blocks.size()) + " is not a number");
  }
  try {
    return from_blocks(n, std::move(blocks), h);
  } catch (const Error& e) {
    detail::throw_error(std::string(origin) + ": " + e.what());
  }
}

}  // namespace autosched
