// Every autosched technique, at chunk 1 and at its default chunk parameter.
#include "competitor.hpp"

#include <autosched/autosched.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <numeric>

namespace bench {

namespace {

std::string schedule_text(std::string_view name, bool chunk_one) {
  std::string s(name);
  // Profile-based techniques get a profile, so that they run themselves.
  if (name == "fsc") s += ",sigma=30,h=20";
  if (name == "fac" || name == "mfac" || name == "tap") s += ",mu=100,sigma=30";
  if (name == "bold") s += ",mu=100,sigma=30,h=20";
  if (chunk_one) s += ",chunk=1";
  return s;
}

}  // namespace

void add_autosched_techniques(std::vector<Competitor>& out) {
  for (const auto& t : autosched::technique_catalogue()) {
    if (t.id == autosched::TechniqueId::profiling) continue;
    for (bool chunk_one : {true, false}) {
      const std::string schedule = schedule_text(t.name, chunk_one);
      const std::string label = std::string(t.name) + (chunk_one ? ",chunk=1" : "");
      out.push_back({label, "autosched", [schedule, label](std::int64_t n, int p, Body body) {
                       const std::string loop = "bench/" + label;
                       if (body == Body::empty) {
                         autosched::parallel_for(std::int64_t{0}, n,
                                                 [](std::int64_t i) {
                                                   asm volatile("" : : "r"(i));
                                                 },
                                                 {.name = loop, .schedule = schedule, .threads = p});
                       } else {
                         autosched::parallel_for(std::int64_t{0}, n, [](std::int64_t i) { bench::tiny_work(i); },
                                                 {.name = loop, .schedule = schedule, .threads = p});
                       }
                       const auto r = autosched::last_instance(loop);
                       return std::accumulate(
                           r->threads.begin(), r->threads.end(), std::int64_t{0},
                           [](std::int64_t sum, const autosched::ThreadStats& thread) { return sum + thread.chunks; });
                     }});
    }
  }
}

}  // namespace bench
