#include <autosched/techniques/any_dispenser.hpp>

#include <autosched/techniques/auto_llvm.hpp>
#include <autosched/techniques/fac.hpp>
#include <autosched/techniques/fac2.hpp>
#include <autosched/techniques/fiss.hpp>
#include <autosched/techniques/fsc.hpp>
#include <autosched/techniques/gss.hpp>
#include <autosched/techniques/guided_llvm.hpp>
#include <autosched/techniques/mfsc.hpp>
#include <autosched/techniques/pls.hpp>
#include <autosched/techniques/ss.hpp>
#include <autosched/techniques/tap.hpp>
#include <autosched/techniques/tfss.hpp>
#include <autosched/techniques/tss.hpp>
#include <autosched/techniques/viss.hpp>


namespace autosched {

std::span<WorkerSlot> Workspace::slots(int p) {
  if (p > slot_capacity_) {
    slots_ = std::make_unique<WorkerSlot[]>(static_cast<std::size_t>(p));
    slot_capacity_ = p;
  }
  for (int i = 0; i < p; ++i) {
    auto& s = slots_[i];
    s.lo.store(0, std::memory_order_relaxed);
    s.hi.store(0, std::memory_order_relaxed);
    s.rate.store(0.0, std::memory_order_relaxed);
    s.spread.store(0.0, std::memory_order_relaxed);
    s.summary = {};
    s.overhead_sum_ns = 0;
    s.claimed = 0;
    s.elapsed_ns = 0;
  }
  return {slots_.get(), static_cast<std::size_t>(p)};
}

namespace {

using T = TechniqueId;

PlanKey plan_key(T id, const LoopShape& s, const TechniqueParams& p, const ProfileInputs& in) {
  return {id, s.n, s.workers, s.chunk, in.mu.value_or(-1), in.sigma.value_or(-1), in.h.value_or(-1),
          p.alpha, p.swr, p.stages, p.viss};
}

}  // namespace

PreparedTechnique prepare_dispenser(AnyDispenser& out, const TechniqueSetup& setup, LoopMemory& memory, Workspace& ws) {
  const LoopShape& s = setup.shape;
  const TechniqueParams& params = *setup.params;
  const ProfileInputs in(params, memory);
  // Techniques whose profile is missing are replaced before dispatching.
  const Substitution substitution = substitute_for(setup.technique, in);
  const PreparedTechnique result{substitution.ran, substitution.reason()};

  auto sequence = [&](auto make_calculator) {
    const SequencePlan& plan = ws.plan(plan_key(result.ran, s, params, in),
                                       [&](SequencePlan& p) { plan_sequence(make_calculator(), s.n, p); });
    out.emplace<ChunkSequence>(plan);
  };

  using AWF = AdaptiveWeightedFactoring;
  switch (result.ran) {
    case T::static_:
      if (s.chunk > 0) {
        out.emplace<CyclicStatic>(s);
      } else {
        out.emplace<BlockStatic>(s);
      }
      break;
    case T::ss:
      sequence([&] { return Ss(s); });
      break;
    case T::fsc:
      sequence([&] { return Fsc(s, *in.sigma, *in.h); });
      break;
    case T::mfsc:
      sequence([&] { return Mfsc(s); });
      break;
    case T::gss:
      sequence([&] { return Gss(s); });
      break;
    case T::guided_llvm:
      sequence([&] { return GuidedLlvm(s); });
      break;
    case T::auto_llvm:
      sequence([&] { return AutoLlvm(s); });
      break;
    case T::tss:
      sequence([&] { return Tss(s); });
      break;
    case T::fac:
    case T::mfac:
      sequence([&] { return Fac(s, *in.mu, *in.sigma); });
      break;
    case T::fac2:
      sequence([&] { return Fac2(s); });
      break;
    case T::mfac2:
      sequence([&] { return Mfac2(s); });
      break;
    case T::tap:
      sequence([&] { return Tap(s, *in.mu, *in.sigma, params.alpha); });
      break;
    case T::pls:
      sequence([&] { return Pls(s, params.swr); });
      break;
    case T::tfss:
      sequence([&] { return Tfss(s); });
      break;
    case T::fiss:
      sequence([&] { return Fiss(s, params.stages); });
      break;
    case T::viss:
      sequence([&] { return Viss(s, params.viss); });
      break;
    case T::static_steal:
      out.emplace<StaticSteal>(s, ws.slots(s.workers));
      break;
    case T::wf:
      out.emplace<WeightedFactoring>(s, params.weights, ws.slots(s.workers), 0);
      break;
    case T::awf: {
      if (memory.awf.weights.size() != static_cast<std::size_t>(s.workers)) {
        memory.awf.reset(s.workers, params.weights);
      }
      const std::uint64_t step = ++memory.awf.steps;
      out.emplace<WeightedFactoring>(s, ws.copy_weights(memory.awf.weights), ws.slots(s.workers), step);
      break;
    }
    case T::awf_b:
      out.emplace<AWF>(s, AWF::Base::batched, AWF::Clock::execution, params.weights, ws.slots(s.workers));
      break;
    case T::awf_c:
      out.emplace<AWF>(s, AWF::Base::per_request, AWF::Clock::execution, params.weights, ws.slots(s.workers));
      break;
    case T::awf_d:
      out.emplace<AWF>(s, AWF::Base::batched, AWF::Clock::total, params.weights, ws.slots(s.workers));
      break;
    case T::awf_e:
      out.emplace<AWF>(s, AWF::Base::per_request, AWF::Clock::total, params.weights, ws.slots(s.workers));
      break;
    case T::af:
      out.emplace<AdaptiveFactoring>(s, AdaptiveFactoring::Clock::execution, params.divider, ws.slots(s.workers));
      break;
    case T::maf:
      out.emplace<AdaptiveFactoring>(s, AdaptiveFactoring::Clock::total, params.divider, ws.slots(s.workers));
      break;
    case T::bold:
      out.emplace<Bold>(s, *in.mu, *in.sigma, *in.h, setup.start_ns);
      break;
    case T::rnd:
      out.emplace<RandomChunks>(s, params.start, params.seed);
      break;
    case T::profiling:
      // A profile with more blocks than anyone simulates is not recorded
      // (profiling with tiny chunks over 2^62 iterations must not allocate).
      out.emplace<Profiling>(s, ws.slots(s.workers),
                             ws.blocks(Profiling::block_count(s) <= max_profile_blocks ? Profiling::block_count(s) : 0));
      break;
  }
  return result;
}

void close_dispenser(AnyDispenser& d, LoopMemory& memory) {
  std::visit(
      [&](auto& dispenser) {
        if constexpr (requires { dispenser.close(memory); }) dispenser.close(memory);
      },
      d);
}

}  // namespace autosched
