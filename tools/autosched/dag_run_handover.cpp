// `autosched dag run` in the autosched-dag helper: the executor's LAPACK
// and CUDA libraries stay out of the other dag commands, so the command
// line goes on to the autosched-dag-run helper, which has them
// (dag_run_command.cpp) and parses it again.
#include "dag_options.hpp"
#include "helper_programs.hpp"

#include <autosched/core/error.hpp>

namespace autosched::cli::dag_cli {

#if AUTOSCHED_CLI_DAG_EXEC
void run_command(const RunOptions&) { exec_helper("autosched-dag-run", "dag run"); }
#else
void run_command(const RunOptions&) {
  detail::throw_error("autosched dag run: this build has no executor (LAPACKE and CBLAS were not found; "
                      "scripts/install-deps.sh installs liblapacke-dev and libopenblas-dev)");
}
#endif

}  // namespace autosched::cli::dag_cli
