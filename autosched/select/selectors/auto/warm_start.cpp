// AutoSelector across runs: the state it saves to the store (auto5: the
// arms' samples and predictions, the trials still queued, the instances
// learned from, the loop's phases; then its first instances, "once …",
// the change test's back-off, "backoff K", and the trip count its times are
// at, "n N"; once1: a loop that ran once per
// process, its first instances alone),
// loads back (auto3/auto4 from older stores too), adopts from a
// neighbouring size class, or is seeded with.
// What the first instances after a warm start do is choose()'s resume phase.
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include <sstream>
#include <string>
#include <utility>

namespace autosched {

using autoselect::ArmState;
using autoselect::RegimeBook;

std::string autosched::detail::AutoSelector::save_state() const {
  std::ostringstream out;
  out.precision(17);
  if (!loop_arms().empty() && plan_.has_predictions(book_.size())) {
    // auto5: the instances learned from, the trials still queued (a loop
    // that runs once per process continues them in the next run), each
    // arm's statistics and prediction, and the loop's regimes. Saved even
    // before any arm has a sample: a profile's ranking is worth keeping.
    const std::vector<int> pending = plan_.pending();
    out << "auto5 " << book_.size() << ' ' << resumed_instances_ + instances_ << ' ' << pending.size();
    for (const int a : pending) out << ' ' << a;
    book_.write(out, &plan_.predicted());
    regimes_.write(out);
    write_tail(out);
    return out.str();
  }
  // Arms without samples (a sweep cut off by the end of the run) are swept
  // by the run that loads this.
  if (book_.best() < 0) {
    if (first_.empty()) return {};
    // once1: a loop that ran once per process so far: its first instances
    // alone, which the next run's first instance chooses from.
    out << "once1 " << book_.size();
    first_.write(out);
    return out.str();
  }
  // auto4 adds each arm's predicted time (0: none), so that a warm start
  // knows which arms the simulator calls equal without profiling again.
  const bool predicted = plan_.has_predictions(book_.size());
  out << (predicted ? "auto4 " : "auto3 ") << book_.size();
  book_.write(out, predicted ? &plan_.predicted() : nullptr);
  write_tail(out);
  return out.str();
}

void autosched::detail::AutoSelector::write_tail(std::ostream& out) const {
  if (!first_.empty()) first_.write(out);
  // A loop whose cost drifts (a zoom that restarts every few dozen steps)
  // taught this process's change test to want more evidence; the next run
  // starts there instead of re-learning it with a profile per alarm.
  if (change_.backoff > 0) out << " backoff " << change_.backoff;
  // The samples are times at this trip count (observe()): a warm start or a
  // neighbouring size class reads its own times at the same one.
  if (reference_n_ > 0) out << " n " << reference_n_;
}

namespace {

/// The optional sections after the arms: " once …", " backoff K" then
/// " n N", each at most once and in that order; anything else is damage.
bool read_tail(std::istream& in, autoselect::FirstInstances& first, int& backoff, std::int64_t& reference_n) {
  std::string word;
  if (!(in >> word)) return true;
  if (word == "once") {
    if (!first.read(in)) return false;
    if (!(in >> word)) return true;
  }
  if (word == "backoff") {
    if (!(in >> backoff) || backoff < 0 || backoff > autoselect::ChangeTest::max_backoff) return false;
    if (!(in >> word)) return true;
  }
  if (word != "n" || !(in >> reference_n) || reference_n <= 0) return false;
  return !(in >> word);
}

}  // namespace

bool autosched::detail::AutoSelector::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag;
  std::size_t arms = 0;
  if (!(in >> tag >> arms) || (tag != "auto3" && tag != "auto4" && tag != "auto5" && tag != "once1") ||
      arms != static_cast<std::size_t>(book_.size())) {
    return false;
  }
  autoselect::FirstInstances first(static_cast<int>(arms));
  if (tag == "once1") {
    // First instances only: this process's first instance chooses from
    // them (still pending); nothing else was learned.
    std::string once, rest;
    if (loop_arms().empty() || instances_ > 0 || !(in >> once) || once != "once" || !first.read(in) || (in >> rest)) {
      return false;
    }
    first_ = std::move(first);
    resumed_instances_ = first_.count();
    return true;
  }
  long instances = 0;
  std::vector<int> pending;
  if (tag == "auto5") {
    std::size_t count = 0;
    if (!(in >> instances >> count) || instances < 0 || instances > RunningStats::max_loaded_count || count > arms) {
      return false;
    }
    pending.resize(count);
    for (int& a : pending) {
      if (!(in >> a) || a < 0 || a >= static_cast<int>(arms)) return false;
    }
  }
  std::vector<ArmState> loaded;
  std::vector<double> predicted;
  if (!autoselect::ArmBook::read(in, arms, loaded, tag == "auto3" ? nullptr : &predicted)) return false;
  RegimeBook regimes;
  if (tag == "auto5" && !regimes.read(in, arms)) return false;
  int backoff = 0;
  std::int64_t reference_n = 0;
  if (!read_tail(in, first, backoff, reference_n)) return false;
  if (tag != "auto5") {
    for (const ArmState& a : loaded) instances += static_cast<long>(a.all.count);
  }
  const bool trials_left = !pending.empty() && !loop_arms().empty();
  if (!resume(std::move(loaded), trials_left)) return false;
  if (!loop_arms().empty()) plan_.predicted() = std::move(predicted);
  if (trials_left) {
    // The last run stopped during its trials (a loop that runs once per
    // process stops after each): this one continues them, in their order.
    // Its first instance is learned from, cold as it is: in such a loop
    // every run's instance is a first one, so the trials compare alike, and
    // a warm-up would discard the only sample each run has.
    plan_.queue(std::move(pending));
    phase_ = Phase::trials;
    warmup_left_ = 0;
  }
  regimes_ = std::move(regimes);
  first_ = std::move(first);
  change_.backoff = backoff;
  if (reference_n > 0) reference_n_ = reference_n;
  resumed_instances_ = instances;
  return true;
}

bool autosched::detail::AutoSelector::adopt_state(std::string_view state, Neighbour from) {
  if (loop_arms().empty() || instances_ > 0) return false;
  // A state that does not load, or that measured no arm yet, is no start:
  // this size profiles and ranks on its own. One still trying its
  // shortlist is: a loop that shrinks every step (a blocked LU) leaves each
  // size class after a few instances, mid-trials, and starting over at
  // every class spent most of its instances on first instances, profiles
  // and the same trials again.
  autosched::detail::AutoSelector probe(shared_arms_, config_);
  if (!probe.load_state(state)) return false;
  const bool mid_trials = probe.phase_ == Phase::trials && probe.book_.best() >= 0;
  if ((probe.phase_ != Phase::resume && !mid_trials) || !load_state(state)) return false;
  resumed_instances_ = 0;  // another point's history, not this one's
  if (from == Neighbour::this_process) {
    // Its pending trials (load_state queued them) run after the rescaling
    // instance.
    phase_ = Phase::resume;
    rescale_first_ = true;
    return true;
  }
  profile_first_ = true;
  if (mid_trials) {
    phase_ = Phase::resume;  // the profile first, as for any neighbour
    continue_trials_ = true;
  }
  return true;
}

bool autosched::detail::AutoSelector::seed(std::span<const RunningStats> samples) {
  if (samples.size() != static_cast<std::size_t>(book_.size())) return false;
  std::vector<ArmState> seeded(samples.size());
  for (std::size_t i = 0; i < seeded.size(); ++i) seeded[i].all = samples[i];
  return resume(std::move(seeded));
}

bool autosched::detail::AutoSelector::resume(std::vector<ArmState> arms, bool trials_left) {
  if (!autoselect::ArmBook::valid(arms) || !(trials_left || autoselect::ArmBook::in_play(arms))) return false;
  book_.states() = std::move(arms);
  settled_.deactivate();  // the next choice runs the stored best
  first_pending_ = false;  // not a first instance to choose: what was learned runs
  // No sweep: the stored samples stand in for it, except for arms the last
  // run did not reach. Prediction mode runs no arm blind: arms the last run
  // never tried stay untried unless this run's profile and ranking call for
  // them.
  std::vector<int> unsampled;
  for (int i = 0; i < book_.size() && loop_arms().empty(); ++i) {
    if (book_[i].all.count == 0 && !book_[i].retired) unsampled.push_back(i);
  }
  plan_.queue(std::move(unsampled));
  plan_.skip_recheck();
  change_.watched = -1;
  phase_ = Phase::resume;
  return true;
}

}  // namespace autosched
