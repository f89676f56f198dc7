#pragma once
/// @file
/// One-statement adaptive regions, the role `#pragma omp begin adaptation`
/// plays in the adaptive-OpenMP paper (the compiler extension is out of scope).
///
/// A function: run the variant the region picks among callables.
///   autosched::adapt(region, {double(n)}, [&] { sort_insertion(v); },
///                                         [&] { sort_merge(v); }, [&] { sort_radix(v); });
///
/// A macro: a region per call site (created on first execution, kept for the
/// program's life) and a scope named by the caller, whose decision any number
/// of consumers inside the statement read; it is measured once, at its end.
///   AUTOSCHED_ADAPTATION(s, "axpy", ({double(n)}), {.features = {"n"}, .variants = {"serial", "parallel"}}) {
///     prepare(s.variant());          // consumer 1
///     compute(s.variant());          // consumer 2, same decision
///   }

#include <autosched/core/error.hpp>
#include <autosched/regions/region.hpp>

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

namespace autosched {

namespace detail {
template <class F, class... Fs>
decltype(auto) run_variant(int k, F&& first, Fs&&... rest) {
  if constexpr (sizeof...(Fs) == 0) {
    return std::forward<F>(first)();
  } else {
    if (k == 0) return std::forward<F>(first)();
    return run_variant(k - 1, std::forward<Fs>(rest)...);
  }
}
}  // namespace detail

/// Runs the callable the region chooses for `features` and returns its
/// result (the callables must return the same type). Throws autosched::Error
/// when the number of callables differs from the region's variants. An
/// exception from the variant reaches the caller; that execution is not
/// learned from.
template <class... Fs>
decltype(auto) adapt(Region& region, std::initializer_list<double> features, Fs&&... variants) {
  static_assert(sizeof...(Fs) > 0, "adapt needs at least one variant");
  if (region.variants().size() != static_cast<int>(sizeof...(Fs))) {
    detail::throw_error("adapt: region '" + region.id() + "' has " + std::to_string(region.variants().size()) +
                        " variants but " + std::to_string(sizeof...(Fs)) + " callables were given");
  }
  RegionScope scope = region.begin(features);  // not learned from if the variant throws
  return detail::run_variant(scope.variant(), std::forward<Fs>(variants)...);
}

}  // namespace autosched

/// The region of this call site, created on its first execution.
#define AUTOSCHED_SITE_REGION(id, ...)                                                             \
  ([]() -> ::autosched::Region& {                                                                  \
    static ::autosched::Region autosched_site_region_{id, ::autosched::RegionOptions __VA_ARGS__}; \
    return autosched_site_region_;                                                                 \
  }())

/// `AUTOSCHED_ADAPTATION(scope, id, (features), options) statement`: the
/// statement runs inside `scope`, an execution of the call site's region.
#define AUTOSCHED_ADAPTATION(scope, id, features, ...) \
  if (::autosched::RegionScope scope = AUTOSCHED_SITE_REGION(id, __VA_ARGS__).begin features; true)
