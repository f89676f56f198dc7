#include <autosched/core/components.hpp>

#include <autosched/core/system_info.hpp>

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

namespace autosched {

bool hardware_counters_available() {
  static const bool available = [] {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0) return false;
    close(static_cast<int>(fd));
    return true;
  }();
  return available;
}

const std::vector<Component>& components() {
  static const std::vector<Component> list = [] {
    using S = Component::Status;
    std::vector<Component> c;
    const SystemInfo& s = system_info();
    c.push_back({"OpenMP", s.openmp_runtime == "none" ? S::unavailable : S::found,
                 s.openmp_runtime + (s.openmp_library.empty() ? "" : " (" + s.openmp_library + ")"), ""});
    if (hardware_counters_available()) {
      c.push_back({"hardware counters", S::found, "perf_event_open", ""});
    } else {
      c.push_back({"hardware counters", S::unavailable, "perf_event_open refused (no PMU or perf_event_paranoid)",
                   "CLOCK_MONOTONIC timing; per-thread CPU time from /proc/self/task/*/schedstat"});
    }
    if (AUTOSCHED_WITH_MPI) {
      c.push_back(
          {"MPI", S::found,
           std::string("MPI ") + AUTOSCHED_MPI_VERSION +
               ": autosched::mpi (process-level loops), autosched::regions_mpi (collective region training)",
           ""});
    } else {
      c.push_back({"MPI", S::not_built, "MPI was not found when autosched was configured",
                   "no process-level loops; regions train per process"});
    }
    if (AUTOSCHED_WITH_SIMGRID) {
      c.push_back({"SimGrid SMPI", S::found,
                   std::string("SimGrid ") + AUTOSCHED_SIMGRID_VERSION + " (" + AUTOSCHED_SMPIRUN +
                       "): autosched::mpi on 200-4000 simulated ranks, built with smpicxx by scripts/smpi/build.sh" +
                       (AUTOSCHED_SMPI_BUILD ? "; this build is that one (runs under smpirun only)" : ""),
                   ""});
    } else {
      c.push_back({"SimGrid SMPI", S::not_built,
                   "smpicxx/smpirun or the SimGrid headers were not found when autosched was configured",
                   "MPI loops on real ranks only (Open MPI); no simulated scale"});
    }
    if (AUTOSCHED_WITH_LAPACK) {
      c.push_back({"LAPACKE/BLAS", S::found,
                   std::string(AUTOSCHED_LAPACK_DETAIL) + ": DAG executor kernels (autosched::dag_exec)", ""});
    } else {
      c.push_back({"LAPACKE/BLAS", S::not_built, "lapacke and openblas (or cblas) were not found by pkg-config",
                   "no DAG executor; task graphs are simulated only"});
    }
    if (AUTOSCHED_WITH_CUDA) {
      c.push_back({"CUDA", S::found,
                   std::string(AUTOSCHED_CUDA_DETAIL) +
                       ": GPU workers of the DAG executor, run where a GPU is present (see GPU below)",
                   ""});
    } else {
      c.push_back({"CUDA", S::not_built,
                   AUTOSCHED_WITH_LAPACK ? "the CUDA toolkit (cuBLAS, cuSOLVER) was not found when autosched was configured"
                                         : "needs the DAG executor (LAPACKE/BLAS) and the CUDA toolkit",
                   "the DAG executor has CPU workers only"});
    }
    if (AUTOSCHED_WITH_STARPU) {
      c.push_back({"StarPU", S::found,
                   std::string("StarPU ") + AUTOSCHED_STARPU_VERSION +
                       ": autosched::dag_starpu (the task-graph schedulers as a StarPU policy, StarPU's own policies)",
                   ""});
    } else {
      c.push_back({"StarPU", S::not_built, "pkg-config starpu-1.3 was not found when autosched was configured",
                   "task graphs run on autosched's own executor only; no StarPU comparison"});
    }
    if (AUTOSCHED_WITH_TORCH) {
      c.push_back({"libtorch", S::found,
                   std::string("libtorch ") + AUTOSCHED_TORCH_VERSION +
                       ": learned DAG policy (autosched dag train, readys:<model>), autosched::dag_learn",
                   ""});
    } else {
      c.push_back({"libtorch", S::not_built, AUTOSCHED_TORCH_DETAIL,
                   "no learned DAG policy: readys:<model> is refused; the list schedulers (mct-prio, heft, ...) remain"});
    }
    const bool gpu = std::filesystem::exists("/dev/nvidia0") || std::filesystem::exists("/dev/dri/renderD128");
    c.push_back({"GPU", gpu ? S::found : S::unavailable, gpu ? "device node present" : "no GPU device node",
                 gpu ? "" : "CPU only"});
    return c;
  }();
  return list;
}

}  // namespace autosched
