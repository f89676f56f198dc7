#pragma once
/// @file
/// Umbrella header of tunable regions: Region, its features and variants,
/// model specs, model files and the one-statement helpers.

#include <autosched/regions/adapt.hpp>
#include <autosched/regions/feature.hpp>
#include <autosched/regions/model_file.hpp>
#include <autosched/regions/model_spec.hpp>
#include <autosched/regions/region.hpp>
#include <autosched/regions/region_learner.hpp>
#include <autosched/regions/variant_space.hpp>
