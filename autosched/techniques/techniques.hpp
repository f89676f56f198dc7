#pragma once
/// @file
/// Umbrella header of the techniques layer: the DLS portfolio as chunk
/// calculators and dispensers, usable by any driver (threads, MPI, simulator).

#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/auto_llvm.hpp>
#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/chunk_sequence.hpp>
#include <autosched/techniques/exp_chunk.hpp>
#include <autosched/techniques/fac.hpp>
#include <autosched/techniques/fac2.hpp>
#include <autosched/techniques/fiss.hpp>
#include <autosched/techniques/fsc.hpp>
#include <autosched/techniques/gss.hpp>
#include <autosched/techniques/guided_llvm.hpp>
#include <autosched/techniques/mfsc.hpp>
#include <autosched/techniques/pls.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>
#include <autosched/techniques/ss.hpp>
#include <autosched/techniques/substitution.hpp>
#include <autosched/techniques/tap.hpp>
#include <autosched/techniques/technique_spec.hpp>
#include <autosched/techniques/tfss.hpp>
#include <autosched/techniques/tss.hpp>
#include <autosched/techniques/viss.hpp>
