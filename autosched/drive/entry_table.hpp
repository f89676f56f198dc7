#pragma once
/// @file
/// Pull mode: where the threads of a team find the instance that the first of
/// them opened (Loop::open_or_attach). The opener reserves a slot for its
/// ticket under the loop's lock before it builds the instance, and publishes
/// the instance in it; every other thread of the team enters it without a
/// lock, with one compare-and-swap on the slot's state, and the last one to
/// enter frees the slot. A teammate that arrives while the instance is being
/// built polls the slot, not the lock.
///
/// A few slots serve the common cases: one team, or a few teams, entering an
/// instance of the loop at a time. When every slot is taken (many teams, or
/// nowait loops that let threads run far ahead), the loop keeps the rest in a
/// list under its lock, and those threads enter there.

#include <atomic>
#include <cstdint>

namespace autosched::drive {

class Instance;

/// Who is asking to enter an instance in pull mode: the threads of one team
/// entering their `sequence`-th instance of this loop share one instance.
struct TeamTicket {
  const void* team = nullptr;  ///< any address unique to the team while it runs
  std::uint64_t sequence = 0;  ///< per thread: instances of this loop it entered in this team
};

class EntryTable {
 public:
  /// Any thread, lock-free: enters the instance opened for `ticket` and
  /// returns it. nullptr when no slot holds the ticket, or its instance is
  /// still being built (`opening` is then set: the opener publishes it,
  /// after it has let the loop's lock go): the caller asks again.
  Instance* enter(const TeamTicket& ticket, bool& opening) noexcept;

  /// Under the loop's lock: reserves a free slot for `ticket`, which
  /// `attachers` more threads will enter; -1 when every slot is in use.
  int reserve(const TeamTicket& ticket, std::uint32_t attachers) noexcept;
  /// By the thread that reserved the slot, with or without the loop's lock:
  /// the reserved slot's instance is ready.
  void publish(int slot, Instance* instance) noexcept;
  /// The same: the instance could not be opened; waiting teammates take the
  /// lock and try to open it themselves.
  void cancel(int slot) noexcept;

 private:
  // A slot's state in one word, so that entering is one compare-and-swap:
  // bits 0-31 the threads still to enter, bits 32-33 the phase, bits 34-63 a
  // generation that changes at each reservation (a thread that read an older
  // ticket fails its compare-and-swap instead of entering a reused slot).
  static constexpr std::uint64_t vacant = 0, building = 1, open = 2;
  static constexpr std::uint64_t phase(std::uint64_t s) noexcept { return (s >> 32) & 3; }
  static constexpr std::uint64_t generation(std::uint64_t s) noexcept { return s >> 34; }
  static constexpr std::uint64_t waiting(std::uint64_t s) noexcept { return s & 0xffffffffU; }
  static constexpr std::uint64_t make(std::uint64_t generation, std::uint64_t phase, std::uint64_t waiting) noexcept {
    return generation << 34 | phase << 32 | waiting;
  }

  struct alignas(64) Slot {
    std::atomic<std::uint64_t> state{0};
    // Atomics because a thread may read them while the slot is reserved
    // again; the state's generation tells it that it read a stale ticket.
    std::atomic<const void*> team{nullptr};
    std::atomic<std::uint64_t> sequence{0};
    std::atomic<Instance*> instance{nullptr};
  };
  static constexpr int slot_count = 4;
  Slot slots_[slot_count];
};

}  // namespace autosched::drive
