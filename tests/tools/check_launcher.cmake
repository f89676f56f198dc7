# `autosched run` maps nothing heavy: with LD_DEBUG=libs, neither the front
# before its exec nor the program after it (the same process: what the
# loader prints up to "transferring control: …autosched" is the front's)
# loads the DAG executor's CUDA and LAPACK libraries, PAPI, libtorch,
# StarPU, MPI or gfortran. Those belong to the helpers of the subcommands
# that use them. Arguments: CLI (the front).
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

set(heavy "lib(cudart|cublas|cublasLt|cusolver|cusparse|nvJitLink|cuda|lapacke|lapack|openblas|blas|tmglib|gfortran|quadmath|papi|pfm|torch|torch_cpu|c10|starpu[^/]*|mpi[^/]*|hwloc|simgrid)\\.so")

run(0 ${CMAKE_COMMAND} -E env LD_DEBUG=libs AUTOSCHED_DB=off ${CLI} run --schedule static -- /bin/true)
# The loader's trace covers the front, then the program under the drop-in.
expect("${err}" "transferring control: [^\n]*/autosched\n")
string(REGEX MATCH "transferring control: [^\n]*/autosched\n" handover "${err}")
string(FIND "${err}" "${handover}" split)
string(SUBSTRING "${err}" 0 ${split} front)
string(SUBSTRING "${err}" ${split} -1 program)
expect("${program}" "libautosched-omp\\.so")
expect("${front}" "calling init: [^\n]*libc\\.so")
if(front MATCHES "[^\n]*${heavy}[^\n]*")
  message(FATAL_ERROR "the front `autosched run` loads a heavy library before its exec: ${CMAKE_MATCH_0}")
endif()
if(program MATCHES "[^\n]*${heavy}[^\n]*")
  message(FATAL_ERROR "`autosched run -- /bin/true` loads a heavy library after the exec: ${CMAKE_MATCH_0}")
endif()
