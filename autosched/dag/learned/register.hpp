#pragma once
// The learned policy in make_scheduler(): "readys:<model file>" loads a
// model (model_file.hpp) and answers a policy::ReadysScheduler on its
// weights. A model that is refused (missing, damaged, trained for other
// features) is not fatal: one line on stderr says why, and the run goes on
// under mct-prio, the list scheduler READYS is compared with.
//
//   autosched::dag::learned::register_learned_schedulers();
//   auto s = autosched::dag::make_scheduler("readys:models/cholesky.model");
//   auto t = autosched::dag::make_scheduler("readys:cholesky");  // a shipped model
//
// This header does not include libtorch's.
#include <autosched/dag/scheduler.hpp>

#include <memory>
#include <string>

namespace autosched::dag::learned {

/// Registers the "readys" family with dag::register_scheduler_family().
/// Idempotent. After it, make_scheduler("readys:<file>") gives the learned
/// policy, or mct-prio with "autosched: readys model '<file>' refused:
/// <reason>; falling back to mct-prio" on stderr (once per model and
/// reason); a bare "readys" (no model) throws autosched::Error ("readys
/// needs a model: readys:<file>").
void register_learned_schedulers();

/// Where "readys:<name>" finds a model: `name` itself when it is a file;
/// else, for a bare name (no '/'), share/autosched/models/<name>.model in
/// the source tree or under the install prefix. Returns `name` unchanged
/// when none exists (loading then says what is missing).
std::string model_path(const std::string& name);

/// The same without printing: the learned policy on the model at `path`
/// (`*refused_reason` cleared), or mct-prio with the reason the model was
/// refused in `*refused_reason` (when not null). An empty path throws
/// autosched::Error, as make_scheduler("readys") does.
std::unique_ptr<Scheduler> make_readys(const std::string& path, std::string* refused_reason);

}  // namespace autosched::dag::learned
