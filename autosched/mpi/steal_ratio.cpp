#include <autosched/mpi/steal_ratio.hpp>

#include <autosched/core/error.hpp>

#include <cmath>
#include <string>

namespace autosched::mpi {

namespace {
constexpr StealRatio arms[] = {StealRatio::quarter, StealRatio::half, StealRatio::three_quarters};
}

double steal_ratio_value(StealRatio r) noexcept {
  switch (r) {
    case StealRatio::quarter:
      return 0.25;
    case StealRatio::half:
      return 0.5;
    case StealRatio::three_quarters:
      return 0.75;
    default:
      return 0;
  }
}

std::string_view steal_ratio_name(StealRatio r) noexcept {
  switch (r) {
    case StealRatio::quarter:
      return "0.25";
    case StealRatio::half:
      return "0.5";
    case StealRatio::three_quarters:
      return "0.75";
    default:
      return "auto";
  }
}

StealRatio parse_steal_ratio(std::string_view text, std::string_view source) {
  for (StealRatio r : {StealRatio::quarter, StealRatio::half, StealRatio::three_quarters, StealRatio::automatic}) {
    if (text == steal_ratio_name(r)) return r;
  }
  autosched::detail::throw_error(std::string(source) + "=" + std::string(text) +
                                 ": expected a steal ratio 0.25, 0.5, 0.75 or auto");
}

StealRatioSelector::StealRatioSelector(double c) : bandit_(3, c) {}

StealRatio StealRatioSelector::choose() {
  const Decision d = bandit_.choose(Context{0, 1, {}});
  return arms[d.arm >= 0 && d.arm < 3 ? d.arm : 1];
}

void StealRatioSelector::observe(StealRatio ran, double loop_ns) {
  if (ran == StealRatio::automatic || !std::isfinite(loop_ns)) return;
  Decision d;
  d.arm = static_cast<int>(ran);
  Outcome o;
  o.time_ns = loop_ns;
  bandit_.observe(d, o);
}

StealRatio StealRatioSelector::best() const {
  const int b = bandit_.best_arm();
  return b < 0 ? StealRatio::half : arms[b];
}

}  // namespace autosched::mpi
