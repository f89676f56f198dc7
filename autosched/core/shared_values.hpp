#pragma once
/// @file
/// One copy of equal values for the whole process. Every loop name keeps a
/// decision point, and under `auto` each held its own copy of the same 24
/// arms and the same selector configuration (4 KB a name); they now hold a
/// shared, immutable one:
///
///   static auto* const configs = new SharedValues<SelectorConfig>();   // never destroyed
///   std::shared_ptr<const SelectorConfig> c = configs->share(
///       hash_of(config), [&](const SelectorConfig& held) { return held == config; },
///       [&] { return SelectorConfig(config); });
///
/// The cache holds weak references: a value no holder keeps any more (the
/// arms of a loop size nobody else runs) is freed with its last holder.

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace autosched {

template <class T>
class SharedValues {
 public:
  /// The held value with this `hash` for which `equal(value)` is true, else
  /// `make()` (a T), which is held from then on. Thread-safe.
  template <class Equal, class Make>
  std::shared_ptr<const T> share(std::uint64_t hash, const Equal& equal, const Make& make) {
    const std::lock_guard lock(mutex_);
    auto [first, last] = held_.equal_range(hash);
    for (auto it = first; it != last;) {
      if (auto value = it->second.lock()) {
        if (equal(*value)) return value;
        ++it;
      } else {
        it = held_.erase(it);  // its last holder is gone
      }
    }
    auto made = std::make_shared<const T>(make());
    held_.emplace(hash, made);
    return made;
  }

 private:
  std::mutex mutex_;
  std::unordered_multimap<std::uint64_t, std::weak_ptr<const T>> held_;
};

}  // namespace autosched
