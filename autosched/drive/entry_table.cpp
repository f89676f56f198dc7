#include <autosched/drive/entry_table.hpp>

namespace autosched::drive {

Instance* EntryTable::enter(const TeamTicket& ticket, bool& opening) noexcept {
  opening = false;
  for (Slot& slot : slots_) {
    std::uint64_t s = slot.state.load(std::memory_order_acquire);
    if (phase(s) == vacant) continue;
    // The ticket is read after the state (acquire), so it is at least as new
    // as the state; if it is newer, the compare-and-swap below fails.
    if (slot.team.load(std::memory_order_relaxed) != ticket.team ||
        slot.sequence.load(std::memory_order_relaxed) != ticket.sequence) {
      continue;
    }
    const std::uint64_t g = generation(s);
    while (phase(s) == open && generation(s) == g) {
      Instance* const inst = slot.instance.load(std::memory_order_relaxed);
      // The last teammate to enter frees the slot for the next instance.
      const std::uint64_t entered = waiting(s) == 1 ? make(g, vacant, 0) : s - 1;
      // acq_rel: acquire pairs with publish() (the instance is built);
      // release keeps the ticket's reads above before this.
      if (slot.state.compare_exchange_weak(s, entered, std::memory_order_acq_rel, std::memory_order_acquire)) {
        return inst;
      }
    }
    // Still being built (the caller looks again), or the slot moved on (the
    // opening failed, or the ticket read was a newer one): the lock decides.
    opening = phase(s) == building && generation(s) == g;
    return nullptr;
  }
  return nullptr;
}

int EntryTable::reserve(const TeamTicket& ticket, std::uint32_t attachers) noexcept {
  for (int i = 0; i < slot_count; ++i) {
    Slot& slot = slots_[i];
    // acquire: the teammates who emptied the slot are done reading its ticket.
    const std::uint64_t s = slot.state.load(std::memory_order_acquire);
    if (phase(s) != vacant) continue;
    slot.team.store(ticket.team, std::memory_order_relaxed);
    slot.sequence.store(ticket.sequence, std::memory_order_relaxed);
    slot.state.store(make(generation(s) + 1, building, attachers), std::memory_order_release);
    return i;
  }
  return -1;
}

void EntryTable::publish(int i, Instance* instance) noexcept {
  Slot& slot = slots_[i];
  slot.instance.store(instance, std::memory_order_relaxed);
  // Nobody changes a slot being built but its opener.
  const std::uint64_t s = slot.state.load(std::memory_order_relaxed);
  slot.state.store(make(generation(s), open, waiting(s)), std::memory_order_release);
}

void EntryTable::cancel(int i) noexcept {
  Slot& slot = slots_[i];
  const std::uint64_t s = slot.state.load(std::memory_order_relaxed);
  slot.state.store(make(generation(s), vacant, 0), std::memory_order_release);
}

}  // namespace autosched::drive
