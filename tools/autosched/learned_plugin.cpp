// readys:<model> in the tool without linking libtorch: libtorch's static
// initialisers take the better part of a second per process, which every
// command would pay. The "readys" family registered here loads
// libautosched-dag-learn.so (autosched/dag/learned/plugin.cpp) on its first
// use and asks it for the scheduler; the module stays loaded.
#include "commands.hpp"
#include "tool_layout.hpp"

#include <autosched/core/error.hpp>
#include <autosched/dag/scheduler.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace autosched::cli {

void* learned_plugin_symbol(const char* name, std::string* problem) {
#if AUTOSCHED_CLI_TORCH
  static std::once_flag once;
  static void* module = nullptr;
  static std::string path, failure;
  std::call_once(once, [] {
    path = learned_plugin_library();
    if (path.empty()) {
      failure = "libautosched-dag-learn.so was not found beside the tool";
      return;
    }
    module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // never closed: its schedulers live in it
    if (module == nullptr) {
      const char* why = dlerror();
      failure = "cannot load " + path + ": " + (why ? why : "unknown error");
    }
  });
  if (module == nullptr) {
    if (problem) *problem = failure;
    return nullptr;
  }
  void* symbol = dlsym(module, name);
  if (symbol == nullptr && problem) *problem = path + " has no " + name;
  return symbol;
#else
  if (problem) *problem = "this build has no libtorch (see autosched info)";
  static_cast<void>(name);
  return nullptr;
#endif
}

#if AUTOSCHED_CLI_TORCH
namespace {

using MakeScheduler = dag::Scheduler* (*)(const char* argument);

std::unique_ptr<dag::Scheduler> readys_from_plugin(std::string_view argument) {
  if (argument.empty()) detail::throw_error("readys needs a model: readys:<file>");
  std::string problem;
  const auto make = reinterpret_cast<MakeScheduler>(learned_plugin_symbol("autosched_dag_learn_make_scheduler", &problem));
  if (make != nullptr) return std::unique_ptr<dag::Scheduler>(make(std::string(argument).c_str()));
  static std::once_flag said;
  std::call_once(said, [&] {
    std::fprintf(stderr, "autosched: readys model '%.*s' refused: %s; falling back to mct-prio\n",
                 static_cast<int>(argument.size()), argument.data(), problem.c_str());
  });
  return dag::make_scheduler("mct-prio");
}

}  // namespace
#endif

void register_learned_plugin() {
#if AUTOSCHED_CLI_TORCH
  dag::register_scheduler_family("readys", &readys_from_plugin);
#endif
}

}  // namespace autosched::cli
