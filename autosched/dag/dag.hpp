#pragma once
// autosched::dag — task graphs on CPU+GPU platforms: graphs (tiled
// factorisations or your own), platforms and duration tables, the event
// simulator and the list schedulers (HEFT, MCT, heteroprio, …) behind one
// interface, and the lower bound. docs/dag.md.
#include <autosched/dag/durations.hpp>
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/heft.hpp>
#include <autosched/dag/list_schedulers.hpp>
#include <autosched/dag/platform.hpp>
#include <autosched/dag/problem.hpp>
#include <autosched/dag/ranks.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/simulator.hpp>
#include <autosched/dag/task_graph.hpp>
