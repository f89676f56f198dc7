// libautosched-dag-learn.so: the learned policy for programs that must not
// load libtorch until a readys scheduler is asked for (libtorch's static
// initialisers cost the better part of a second per process). The
// `autosched` tool dlopens it on the first "readys..." scheduler
// (tools/autosched/learned_plugin.cpp). The module carries its own copy of
// autosched::dag, so it registers the family in its own registry.
#include <autosched/dag/learned/register.hpp>

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
