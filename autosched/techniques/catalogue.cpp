#include <autosched/techniques/catalogue.hpp>

#include <autosched/core/text.hpp>

#include <array>

namespace autosched {

namespace {

using T = TechniqueId;

// clang-format off
constexpr std::array<TechniqueInfo, technique_count + 1> catalogue{{
  {T::static_, "static", "",
   "OpenMP static schedule",
   "one block of N/P per worker (first N mod P get one more); with c: cyclic blocks of c",
   false, "", "", "block size of the cyclic distribution"},
  {T::ss, "ss", "dynamic",
   "Tang & Yew 1986, self-scheduling",
   "chunk = c", false, "", "", "the chunk size (default 1)"},
  {T::fsc, "fsc", "",
   "Kruskal & Weiss 1985, fixed size chunking",
   "chunk = (sqrt(2) N h / (sigma P sqrt(ln P)))^(2/3)", false, "sigma h", "sigma h", "minimum chunk"},
  {T::mfsc, "mfsc", "",
   "LB4OMP (Korndoerfer et al. 2022), FSC without a profile",
   "m = ceil(N/P); chunk = floor(0.55 + m ln2 / ln m)", false, "", "", "minimum chunk"},
  {T::gss, "gss", "",
   "Polychronopoulos & Kuck 1987, guided self-scheduling",
   "chunk = ceil(R/P)", false, "", "", "minimum chunk"},
  {T::guided_llvm, "guided-llvm", "guided guided_iterative",
   "LLVM OpenMP runtime, schedule(guided)",
   "chunk = floor(R/(2P)); SS with c once R < 2P(c+1)", false, "", "", "minimum chunk and SS tail size"},
  {T::auto_llvm, "auto-llvm", "guided_analytical",
   "LLVM OpenMP runtime, schedule(auto) (guided-analytical)",
   "remaining after k chunks = ceil(N x^k), x = 1 - 1/(2P); SS with c at the end", false, "", "",
   "minimum chunk and SS tail size"},
  {T::tss, "tss", "trapezoidal",
   "Tzen & Ni 1993, trapezoid self-scheduling",
   "F = N/(2P), L = c, A = ceil(2N/(F+L)), chunk i = F - i (F-L)/(A-1)", false, "", "",
   "size of the last chunk L (default 1)"},
  {T::static_steal, "static-steal", "static_steal",
   "LLVM OpenMP runtime, static_steal",
   "N/(P c) units of c per owner; an idle worker steals a quarter of a victim's rest", false, "", "",
   "unit of ownership and stealing (default 1)"},
  {T::fac, "fac", "",
   "Flynn Hummel, Schonberg & Flynn 1992, factoring",
   "batch of P chunks ceil(R/(x P)), x = 2 + b^2 + b sqrt(b^2+4), b = P sigma/(2 mu sqrt R)", false,
   "mu sigma", "mu sigma", "minimum chunk"},
  {T::mfac, "mfac", "faca",
   "Kasielke et al. 2019 (LB4OMP), lock-free factoring",
   "same chunk sequence as fac, computed without a lock", false, "mu sigma", "mu sigma", "minimum chunk"},
  {T::fac2, "fac2", "fac2b",
   "Flynn Hummel, Schonberg & Flynn 1992, factoring with x = 2",
   "batch j of P chunks ceil(N / (P 2^(j+1)))", false, "", "", "minimum chunk"},
  {T::mfac2, "mfac2", "fac2a",
   "LB4OMP (Korndoerfer et al. 2022), atomic-counter FAC2 (Auto4OMP portfolio)",
   "batch 0 ceil(N/(2P)), each next batch halves with a ceiling", false, "", "", "minimum chunk"},
  {T::wf, "wf", "",
   "Flynn Hummel, Schmidt, Uma & Wein 1996, weighted factoring",
   "chunk = ceil(w_i * FAC2 batch chunk), fixed weights", false, "", "weights", "minimum chunk"},
  {T::tap, "tap", "",
   "Lucco 1992, tapering",
   "T = R/P, v = alpha sigma/mu; chunk = ceil(T + v^2/2 - v sqrt(2T + v^2/4))", false, "mu sigma",
   "mu sigma alpha", "minimum chunk"},
  {T::bold, "bold", "",
   "Hagerup 1997, BOLD",
   "chunk from remaining work, expected spread and the measured speed of every worker", true,
   "mu sigma h", "mu sigma h", "minimum chunk"},
  {T::awf, "awf", "",
   "Banicescu, Velusamy & Devaprasad 2003, adaptive weighted factoring (time-stepping)",
   "wf with w_i = P (1/pi_i) / sum_j (1/pi_j), pi_i = time-step-weighted time per iteration", true, "",
   "weights", "minimum chunk"},
  {T::awf_b, "awf-b", "awf_b",
   "Carino & Banicescu 2008, AWF-B (batch, execution time)",
   "FAC2 batch chunk * w_i, w_i from chunk-weighted time per iteration measured this instance", true,
   "", "weights", "minimum chunk"},
  {T::awf_c, "awf-c", "awf_c",
   "Carino & Banicescu 2008, AWF-C (chunk, execution time)",
   "ceil(R/(2P)) * w_i, w_i from chunk-weighted time per iteration measured this instance", true, "",
   "weights", "minimum chunk"},
  {T::awf_d, "awf-d", "awf_d",
   "Carino & Banicescu 2008, AWF-D (batch, total time)",
   "as awf-b with times that include the scheduling overhead", true, "", "weights", "minimum chunk"},
  {T::awf_e, "awf-e", "awf_e",
   "Carino & Banicescu 2008, AWF-E (chunk, total time)",
   "as awf-c with times that include the scheduling overhead", true, "", "weights", "minimum chunk"},
  {T::af, "af", "",
   "Banicescu & Liu 2000, adaptive factoring",
   "chunk = (D + 2TR - sqrt(D^2 + 4DTR)) / (2 mu_i), D = sum sigma_j^2/mu_j, T = 1/sum(1/mu_j)", true, "",
   "divider", "minimum sub-chunk"},
  {T::maf, "maf", "af_a",
   "LB4OMP (Korndoerfer et al. 2022), AF measuring total time (Auto4OMP portfolio)",
   "as af with times that include the scheduling overhead", true, "", "divider", "minimum sub-chunk"},
  {T::pls, "pls", "",
   "Shao et al. 2005, performance-based loop scheduling",
   "first P chunks ceil(N swr/P), then GSS on the rest", false, "", "swr", "minimum chunk"},
  {T::tfss, "tfss", "",
   "Chronopoulos et al. 2001, trapezoid factoring self-scheduling",
   "batch of P chunks = mean of the next P TSS chunks", false, "", "", "minimum chunk"},
  {T::fiss, "fiss", "",
   "Philip & Das 1997, fixed increase self-scheduling",
   "batch j of P chunks C0 + j delta, C0 = N/((2+B) P), B stages", false, "", "stages",
   "minimum chunk"},
  {T::viss, "viss", "",
   "Philip & Das 1997, variable increase self-scheduling",
   "C0 = N/(V P); batch j of P chunks floor(2 C0 (1 - 0.5^(j+1)))", false, "", "viss",
   "minimum chunk"},
  {T::rnd, "rnd", "",
   "Ciorba et al. 2018, random chunk sizes",
   "chunk uniform in [start, c] (c defaults to ceil(N/(2P)))", false, "", "start seed",
   "largest chunk"},
  {T::profiling, "profiling", "",
   "LB4OMP profiling tool",
   "SS with chunk 1 while timing every iteration; stores mu, sigma, h for the loop", false, "", "",
   "chunk size (default 1)"},
}};
// clang-format on

}  // namespace

std::span<const TechniqueInfo> technique_catalogue() noexcept { return catalogue; }

const TechniqueInfo& technique_info(TechniqueId id) noexcept { return catalogue[static_cast<std::size_t>(id)]; }

std::optional<TechniqueId> find_technique(std::string_view name_or_alias) {
  const std::string wanted = text::lower(text::trim(name_or_alias));
  for (const auto& t : catalogue) {
    if (t.name == wanted) return t.id;
    for (auto alias : text::split(t.aliases, ' ')) {
      if (!alias.empty() && alias == wanted) return t.id;
    }
  }
  return std::nullopt;
}

}  // namespace autosched
