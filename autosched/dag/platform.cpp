#include <autosched/dag/platform.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cctype>

namespace autosched::dag {

std::string_view to_string(ResourceKind kind) noexcept { return kind == ResourceKind::gpu ? "gpu" : "cpu"; }

int Platform::count(ResourceKind k) const noexcept {
  return static_cast<int>(std::count(processors.begin(), processors.end(), k));
}

bool Platform::homogeneous() const noexcept { return count(ResourceKind::cpu) == 0 || count(ResourceKind::gpu) == 0; }

int Platform::memory(std::size_t p) const noexcept {
  if (processors[p] == ResourceKind::cpu) return 0;
  int g = 0;
  for (std::size_t q = 0; q < p; ++q) g += processors[q] == ResourceKind::gpu ? 1 : 0;
  return 1 + g;
}

std::string Platform::describe() const {
  std::string out;
  for (ResourceKind k : {ResourceKind::cpu, ResourceKind::gpu}) {
    if (count(k) == 0) continue;
    if (!out.empty()) out += "+";
    out += std::to_string(count(k)) + std::string(to_string(k));
  }
  return out;
}

Platform platform(std::string_view spec) {
  auto fail = [&](const std::string& why) -> Platform {
    detail::throw_error("platform '" + std::string(spec) + "': " + why +
                        "; expected counts of cpu and gpu joined by '+', e.g. 2cpu+2gpu or 4cpu");
  };
  std::string s(spec);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  int cpus = 0, gpus = 0;
  std::size_t at = 0;
  if (s.empty()) return fail("empty");
  while (at <= s.size()) {
    const std::size_t plus = std::min(s.find('+', at), s.size());
    const std::string part = s.substr(at, plus - at);
    std::size_t digits = 0;
    while (digits < part.size() && std::isdigit(static_cast<unsigned char>(part[digits]))) ++digits;
    const std::string kind = part.substr(digits);
    if (digits > 6) return fail("'" + part + "' asks for too many processors");
    const int n = digits == 0 ? 1 : std::stoi(part.substr(0, digits));
    if (kind == "cpu" || kind == "cpus") {
      cpus += n;
    } else if (kind == "gpu" || kind == "gpus") {
      gpus += n;
    } else {
      return fail("'" + part + "' is not <count>cpu or <count>gpu");
    }
    at = plus + 1;
  }
  if (cpus + gpus == 0) return fail("no processor");
  if (cpus + gpus > 1024) return fail("more than 1024 processors");
  Platform p;
  p.processors.assign(static_cast<std::size_t>(gpus), ResourceKind::gpu);
  p.processors.insert(p.processors.end(), static_cast<std::size_t>(cpus), ResourceKind::cpu);
  return p;
}

}  // namespace autosched::dag
