#include <autosched/select/engine/decision_engine.hpp>

#include <autosched/core/error.hpp>
#include <autosched/select/engine/selector_factory.hpp>
#include <autosched/core/hash.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>

namespace autosched {

int size_class(std::int64_t n) noexcept {
  return n <= 0 ? 0 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
}

// ---------------------------------------------------------------- DecisionGroup

PointKey DecisionGroup::key(const DecisionSlot& slot) const {
  return {slot.point->name(), identity_, slot.bucket, slot.p, {}, slot.portfolio()};
}

DecisionSlot& DecisionGroup::slot_for(const SelectorConfig& config, std::int64_t n, int p) {
  const int bucket = size_class(n);
  for (const auto& slot : slots_) {
    if (slot->bucket == bucket && slot->p == p && slot->config() == config) return *slot;
  }
  auto slot = std::make_unique<DecisionSlot>();
  slot->bucket = bucket;
  slot->p = p;
  slot->shared_config = share_selector_config(config);
  std::shared_ptr<const SharedPortfolio> arms = share_portfolio(selector_portfolio(config, Context{n, p, {}}));
  // One seed per identity and point: runs repeat, loops differ.
  const std::uint64_t seed =
      fnv1a64(identity_) ^ static_cast<std::uint64_t>(bucket) << 32 ^ static_cast<std::uint64_t>(p);
  std::string point_name = name_of(bucket, p);
  auto selector = make_selector(config, arms, seed, engine_.logs(), point_name);
  if (auto* automatic = dynamic_cast<autosched::detail::AutoSelector*>(selector.get())) automatic->use_prior(engine_.corrections());
  slot->point = std::make_unique<DecisionPoint>(std::move(point_name), std::move(arms), std::move(selector));
  // Warm start: resume from what an earlier run of this program learned here.
  bool resumed = false;
  StateStore* const store = engine_.store();
  if (store != nullptr) {
    if (auto state = store->load_state(key(*slot), config.text)) resumed = slot->point->selector().load_state(*state);
  }
  if (!resumed) adopt_neighbour(*slot, store);
  slots_.push_back(std::move(slot));
  return *slots_.back();
}

std::string DecisionGroup::name_of(int bucket, int p) const {
  return identity_ + "#" + std::to_string(bucket) + "/" + std::to_string(p);
}

void DecisionGroup::adopt_neighbour(DecisionSlot& slot, StateStore* store) {
  // A loop whose trip count changes from instance to instance (a blocked LU
  // shrinks its loops every step) meets a new size class every few steps.
  // What the nearest size class learned, in this process or an earlier
  // run, is a better start than nothing: the selector checks it against
  // this size before trusting it (Selector::adopt_state).
  const DecisionSlot* nearest = nullptr;
  for (const auto& other : slots_) {
    if (other->p != slot.p || !(other->config() == slot.config()) || std::abs(other->bucket - slot.bucket) > 2) continue;
    if (nearest == nullptr || std::abs(other->bucket - slot.bucket) <= std::abs(nearest->bucket - slot.bucket)) {
      nearest = other.get();
    }
  }
  Selector& selector = slot.point->selector();
  if (nearest != nullptr) {
    const std::string state = nearest->point->selector().save_state();
    if (!state.empty() && selector.adopt_state(state, Selector::Neighbour::this_process)) return;
  }
  if (store == nullptr) return;
  for (const int step : {-1, 1}) {
    PointKey near = key(slot);
    near.bucket = slot.bucket + step;
    near.name = name_of(near.bucket, slot.p);
    const auto state = store->load_state(near, slot.config().text);
    if (state && selector.adopt_state(*state, Selector::Neighbour::store)) return;
  }
}

Ticket DecisionGroup::decide(const SelectorConfig& config, std::int64_t n, int p, DecisionSlot** hint) {
  std::lock_guard lock(mutex_);
  DecisionSlot* const hinted = hint != nullptr ? *hint : nullptr;
  DecisionSlot& slot = hinted != nullptr && hinted->bucket == size_class(n) && hinted->p == p ? *hinted
                                                                                              : slot_for(config, n, p);
  if (hint != nullptr) *hint = &slot;
  Ticket t;
  t.slot = &slot;
  if (slot.in_flight) {
    t.decision = Decision{slot.last_arm, 0, -1, false};  // follow, do not decide
  } else {
    t.decision = slot.ahead.next(*slot.point, Context{n, p, {}});
    slot.in_flight = true;
    slot.last_arm = t.decision.arm;
    t.owns = true;
    t.explored = t.decision.exploring;
  }
  const Portfolio& arms = slot.point->arms();
  t.arm = arms[static_cast<std::size_t>(t.decision.arm)];
  if (t.decision.budget_ns > 0 && t.decision.fallback >= 0) {
    t.fallback = arms[static_cast<std::size_t>(t.decision.fallback)];
  }
  t.selector = slot.point->selector().name();
  return t;
}

namespace {
constexpr std::int64_t snapshot_interval_ns = 1'000'000'000;
}  // namespace

DecisionGroup::Learned DecisionGroup::complete(const Ticket& ticket, const Outcome& outcome) {
  Learned learned;
  if (!ticket.owns) return learned;
  std::string snapshot;
  StateStore* const store = engine_.store();  // opened at the point's creation; a pointer read here
  {
    std::lock_guard lock(mutex_);
    DecisionSlot& slot = *ticket.slot;
    slot.in_flight = false;
    if (!slot.ahead.complete(*slot.point, ticket.decision, outcome, slot.p)) return learned;  // held: nothing learned yet
    learned.reward = slot.point->selector().last_reward();
    learned.cost_ns = slot.point->take_cost_ns();
    // A snapshot now and then, so that a crash loses little of what was
    // learned: after 64 instances, then at most once a second. Writing the
    // state costs ~250 000 instructions here, on the instance's own thread,
    // and a store transaction on the writer's: every 64 instances it was a
    // microsecond added to each instance of a microsecond loop.
    if (slot.point->instances() >= slot.next_snapshot) {
      slot.next_snapshot = slot.point->instances() + 64;
      const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count();
      if (store != nullptr && now >= slot.next_snapshot_ns) {
        slot.next_snapshot_ns = now + snapshot_interval_ns;
        snapshot = slot.point->selector().save_state();
      }
    }
  }
  if (!snapshot.empty()) store->save_state(key(*ticket.slot), ticket.slot->config().text, std::move(snapshot));
  return learned;
}

void DecisionGroup::abandon(const Ticket& ticket) {
  if (!ticket.owns) return;
  std::lock_guard lock(mutex_);
  ticket.slot->in_flight = false;
}

std::string DecisionGroup::selector_state(std::int64_t n, int p) const {
  std::lock_guard lock(mutex_);
  const int bucket = size_class(n);
  for (const auto& slot : slots_) {
    if (slot->bucket == bucket && slot->p == p) {
      slot->ahead.learn_held(*slot->point);  // what ran is part of the state
      return slot->point->selector().save_state();
    }
  }
  return {};
}

void DecisionGroup::save_states() const {
  StateStore* store = engine_.store();
  if (store == nullptr) return;
  std::lock_guard lock(mutex_);
  for (const auto& slot : slots_) {
    slot->ahead.learn_held(*slot->point);  // at exit, the batch's last instance may never come
    std::string state = slot->point->selector().save_state();
    if (!state.empty()) store->save_state(key(*slot), slot->config().text, std::move(state));
  }
}

// ---------------------------------------------------------------- DecisionEngine

autosched::detail::DecisionEngine& autosched::detail::DecisionEngine::instance() {
  static auto* engine = new autosched::detail::DecisionEngine;  // never destroyed: loops may run during static destruction
  return *engine;
}

void autosched::detail::DecisionEngine::connect(StoreSource store, SelectorLog* logs) {
  std::lock_guard lock(connect_mutex_);
  store_source_ = std::move(store);
  logs_ = logs;
}

StateStore* autosched::detail::DecisionEngine::store() {
  std::call_once(store_once_, [this] {
    std::lock_guard lock(connect_mutex_);
    if (store_source_) store_ = store_source_();
  });
  return store_;
}

DecisionGroup& autosched::detail::DecisionEngine::group(std::string_view identity) {
  {
    std::shared_lock read(mutex_);
    if (auto it = groups_.find(identity); it != groups_.end()) return *it->second;
  }
  std::unique_lock write(mutex_);
  auto [it, inserted] = groups_.try_emplace(std::string(identity));
  if (inserted) it->second = std::make_unique<DecisionGroup>(std::string(identity), *this);
  return *it->second;
}

void autosched::detail::DecisionEngine::save_states() {
  std::vector<DecisionGroup*> all;
  {
    std::shared_lock read(mutex_);
    for (const auto& [id, g] : groups_) all.push_back(g.get());
  }
  for (DecisionGroup* g : all) g->save_states();
  if (have_corrections_ && corrections_.changed()) {
    if (StateStore* s = store()) s->save_blob("auto", "arm-corrections", corrections_.text());
  }
}

ArmCorrections* autosched::detail::DecisionEngine::corrections() {
  std::call_once(corrections_once_, [this] {
    StateStore* s = store();
    if (s == nullptr) return;
    if (auto text = s->load_blob("auto", "arm-corrections"); text && !corrections_.parse(*text)) {
      detail::warn("store: auto's arm corrections are damaged; starting without them");
    }
    have_corrections_ = true;
  });
  return have_corrections_ ? &corrections_ : nullptr;
}

}  // namespace autosched
