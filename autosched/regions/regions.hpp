#pragma once
/// @file
/// Umbrella header of tunable regions as applications use them: Region, its
/// features and variants, model specs and the one-statement helpers. (The
/// learner and the model-file format are internals and not installed.)

#include <autosched/regions/adapt.hpp>
#include <autosched/regions/feature.hpp>
#include <autosched/regions/model_spec.hpp>
#include <autosched/regions/region.hpp>
#include <autosched/regions/variant_space.hpp>
