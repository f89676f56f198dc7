#include <autosched/regions/autosched_region.h>
#include <autosched/core/c_status.hpp>
#include <autosched/core/error.hpp>
#include <autosched/regions/region.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <utility>

struct autosched_region {
  autosched::Region region;
  std::atomic<int> open_scopes{0};  ///< begun and not ended: destroy refuses while any is
};

namespace autosched {

// The C scope is storage for a RegionScope; the public RegionScope type is
// kept small enough (features inline) for that.
struct CScope {
  RegionScope scope;  // first: the storage's address is the scope's
  autosched_region* owner;
};
static_assert(sizeof(CScope) <= sizeof(autosched_region_scope::storage));
static_assert(alignof(CScope) <= alignof(double));

namespace {

constexpr unsigned long long live_mark = 0x6175746f73636f70ULL;  // "autoscop"
using c_api::fail;

/// The shared guard (core/c_status.hpp): an input the library rejects is EINVAL.
template <class F>
int guarded(const char* call, F&& f) noexcept {
  return c_api::guarded(call, std::forward<F>(f));
}

RegionScope* live_scope(autosched_region_scope* s) {
  if (s == nullptr || s->live != live_mark) return nullptr;
  return &std::launder(reinterpret_cast<CScope*>(s->storage))->scope;
}

int ended(const char* call) noexcept {
  try {
    return fail(AUTOSCHED_REGION_ESTATE, std::string(call) + ": the scope is not live (never begun, or ended)");
  } catch (...) {
    return AUTOSCHED_REGION_ESTATE;
  }
}

/// The shared guard; an autosched::Error (a call out of order) is ESTATE.
template <class F>
int in_order(const char* call, F&& f) noexcept {
  return c_api::guarded(call, std::forward<F>(f), AUTOSCHED_ESTATE);
}

void close(autosched_region_scope* s, RegionScope*) {
  CScope* c = std::launder(reinterpret_cast<CScope*>(s->storage));
  autosched_region* owner = c->owner;
  c->~CScope();
  s->live = 0;
  owner->open_scopes.fetch_sub(1, std::memory_order_release);
}

}  // namespace
}  // namespace autosched

using namespace autosched;

extern "C" {

int autosched_region_create(const char* id, int num_features, int num_variants, int min_train, const char* model,
                            autosched_region** out) {
  return guarded("autosched_region_create", [&]() -> int {
    if (out == nullptr) return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_create: out is NULL");
    *out = nullptr;
    if (id == nullptr) return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_create: id is NULL");
    if (num_features < 0 || num_features > Region::max_features) {
      return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_create: num_features=" + std::to_string(num_features) +
                                               ": expected 0 to " + std::to_string(Region::max_features));
    }
    if (num_variants < 1)
      return fail(AUTOSCHED_REGION_EINVAL,
                  "autosched_region_create: num_variants=" + std::to_string(num_variants) + ": expected at least 1");
    if (min_train < 0)
      return fail(AUTOSCHED_REGION_EINVAL,
                  "autosched_region_create: min_train=" + std::to_string(min_train) + ": expected 0 or more");
    RegionOptions o;
    for (int i = 0; i < num_features; ++i) {
      std::string name = "f";  // built in place: g++ 12 warns (-Wrestrict) on "f" + std::to_string(i)
      name += std::to_string(i);
      o.features.emplace_back(std::move(name));
    }
    std::vector<std::int64_t> numbers(static_cast<std::size_t>(num_variants));
    for (int i = 0; i < num_variants; ++i) numbers[static_cast<std::size_t>(i)] = i;
    o.knobs.push_back(Knob::integers("variant", std::move(numbers)));
    o.model = model != nullptr ? model : "";
    o.min_train = min_train;
    *out = new autosched_region{Region(id, std::move(o))};
    return AUTOSCHED_REGION_OK;
  });
}

int autosched_region_begin(autosched_region* region, autosched_region_scope* scope) {
  if (region == nullptr || scope == nullptr)
    return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_begin: NULL argument");
  if (scope->live == live_mark) {
    return fail(AUTOSCHED_REGION_ESTATE,
                "autosched_region_begin: the scope is live (end the execution it holds before beginning another)");
  }
  return guarded("autosched_region_begin", [&]() -> int {
    new (scope->storage) CScope{region->region.begin(), region};
    scope->live = live_mark;
    region->open_scopes.fetch_add(1, std::memory_order_relaxed);
    return AUTOSCHED_REGION_OK;
  });
}

int autosched_region_set_feature(autosched_region_scope* s, double value) {
  RegionScope* scope = live_scope(s);
  if (scope == nullptr) return ended("autosched_region_set_feature");
  if (!std::isfinite(value)) {
    return fail(AUTOSCHED_REGION_EINVAL,
                "autosched_region_set_feature: value=" + std::to_string(value) + ": expected a finite number");
  }
  return in_order("autosched_region_set_feature", [&]() -> int {
    scope->set_feature(value);
    return AUTOSCHED_REGION_OK;
  });
}

int autosched_region_get_variant(autosched_region_scope* s, int* variant) {
  RegionScope* scope = live_scope(s);
  if (scope == nullptr) return ended("autosched_region_get_variant");
  if (variant == nullptr) return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_get_variant: variant is NULL");
  return in_order("autosched_region_get_variant", [&]() -> int {
    *variant = scope->variant();
    return AUTOSCHED_REGION_OK;
  });
}

int autosched_region_end(autosched_region_scope* s) {
  RegionScope* scope = live_scope(s);
  if (scope == nullptr) return ended("autosched_region_end");
  const int rc = guarded("autosched_region_end", [&]() -> int {
    scope->end();
    return AUTOSCHED_REGION_OK;
  });
  close(s, scope);
  return rc;
}

int autosched_region_end_with_metric(autosched_region_scope* s, double metric) {
  RegionScope* scope = live_scope(s);
  if (scope == nullptr) return ended("autosched_region_end_with_metric");
  const int rc = guarded("autosched_region_end_with_metric", [&]() -> int {
    scope->end(metric);
    return AUTOSCHED_REGION_OK;
  });
  close(s, scope);
  return rc;
}

int autosched_region_train(autosched_region* region) {
  if (region == nullptr) return fail(AUTOSCHED_REGION_EINVAL, "autosched_region_train: region is NULL");
  return guarded("autosched_region_train", [&]() -> int {
    region->region.train();
    return AUTOSCHED_REGION_OK;
  });
}

int autosched_region_destroy(autosched_region* region) {
  return guarded("autosched_region_destroy", [&]() -> int {
    // A live scope points into the region: freeing it would leave the scope's
    // end to write freed memory. Refused, and the region stays usable.
    if (const int open = region != nullptr ? region->open_scopes.load(std::memory_order_acquire) : 0; open > 0) {
      return fail(AUTOSCHED_REGION_ESTATE, "autosched_region_destroy: region '" + region->region.id() + "' has " +
                                               std::to_string(open) +
                                               " scope(s) still live; end them first (the region is kept)");
    }
    delete region;
    return AUTOSCHED_REGION_OK;
  });
}

const char* autosched_region_last_error(void) { return c_api::last_error(); }

}  // extern "C"
