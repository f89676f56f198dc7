#pragma once
/// @file
/// FNV-1a, 64 bits: the one hash autosched writes into files (the system
/// fingerprint, model-file checksums). Stable across compilers, libraries and
/// runs, unlike std::hash; not cryptographic (it guards against accidents).

#include <cstdint>
#include <string_view>

namespace autosched {

constexpr std::uint64_t fnv1a64(std::string_view bytes) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace autosched
