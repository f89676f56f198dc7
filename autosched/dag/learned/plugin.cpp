// libautosched-dag-learn.so: the learned policy for programs that must not
// load libtorch until a readys scheduler is asked for (libtorch's static
// initialisers cost the better part of a second per process). The
// `autosched` tool dlopens it on the first "readys..." scheduler
// (tools/autosched/learned_plugin.cpp). The module carries its own copy of
// autosched::dag, so it registers the family in its own registry.
#include <autosched/dag/learned/register.hpp>
#include <autosched/dag/learned/trainer.hpp>

#include <cstdio>
#include <exception>

#include <string>

/// make_scheduler("readys:" + argument) with the learned policy registered:
/// the readys scheduler, or mct-prio with one line on stderr when the model
/// is refused. Throws autosched::Error when `argument` is empty. The caller
/// owns the result and keeps this module loaded while it lives.
extern "C" [[gnu::visibility("default")]] autosched::dag::Scheduler* autosched_dag_learn_make_scheduler(
    const char* argument) {
  autosched::dag::learned::register_learned_schedulers();
  return autosched::dag::make_scheduler("readys:" + std::string(argument)).release();
}

/// train() for the tool (`autosched dag train`), with no exception crossing
/// the module's edge: returns 0, or 1 with the error's message in `error`
/// (at most `error_size` bytes, NUL-terminated).
extern "C" [[gnu::visibility("default")]] int autosched_dag_learn_train(
    const autosched::dag::learned::TrainingOptions* options,
    void (*progress)(const autosched::dag::learned::TrainingProgress*, void*), void* progress_data,
    autosched::dag::learned::TrainingResult* result, char* error, std::size_t error_size) {
  try {
    *result = autosched::dag::learned::train(*options, [&](const autosched::dag::learned::TrainingProgress& p) {
      if (progress) progress(&p, progress_data);
    });
    return 0;
  } catch (const std::exception& e) {
    std::snprintf(error, error_size, "%s", e.what());
  } catch (...) {
    std::snprintf(error, error_size, "an unknown error");
  }
  return 1;
}
