#pragma once
/// @file
/// Umbrella header of the loop driver (front-ends' layer below them; see
/// docs/design/0004-loop-driver.md).

#include <autosched/drive/chunk_body.hpp>
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/instance.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/drive/observer.hpp>
