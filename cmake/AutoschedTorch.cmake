# libtorch: an optional component (STYLE §10). With it, autosched::dag_learn
# trains the learned task-graph policy (READYS) and reads its model files,
# and make_scheduler() accepts "readys:<model>". Decisions themselves never
# run libtorch (autosched/dag/policy/ evaluates the network in plain C++).
# Found with find_package(Torch) (Debian's libtorch-dev 1.13, CPU only).
# Sets AUTOSCHED_TORCH_FOUND, AUTOSCHED_TORCH_VERSION, AUTOSCHED_TORCH_DETAIL
# (why it is absent, for `autosched info`) and, when found, TORCH_LIBRARIES
# and TORCH_INCLUDE_DIRS. -DAUTOSCHED_WITH_TORCH=OFF leaves it out.
#
# The tsan and asan presets set AUTOSCHED_WITH_TORCH=OFF (CMakePresets.json
# has no comments): libtorch and its OpenMP thread pool (libgomp) are not
# instrumented, so ThreadSanitizer would report races inside them and the
# sanitizer runtimes would interpose on a large uninstrumented library for
# nothing; those presets test other layers.
option(AUTOSCHED_WITH_TORCH "Build autosched::dag_learn (the learned DAG policy) when libtorch is found" ON)
set(AUTOSCHED_TORCH_FOUND OFF)
set(AUTOSCHED_TORCH_VERSION "")
set(AUTOSCHED_TORCH_DETAIL "AUTOSCHED_WITH_TORCH=OFF")
if(AUTOSCHED_WITH_TORCH)
  # Caffe2's package prints one status line per dependency it finds; keep
  # the configure output short.
  block(SCOPE_FOR VARIABLES PROPAGATE Torch_FOUND Torch_VERSION TORCH_LIBRARIES TORCH_INCLUDE_DIRS)
    set(CMAKE_MESSAGE_LOG_LEVEL WARNING)
    find_package(Torch QUIET)
  endblock()
  if(Torch_FOUND AND CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND Torch_VERSION VERSION_LESS 2.1)
    # libtorch < 2.1 uses std::vector<c10::IValue> where IValue is still
    # incomplete; C++20 makes vector's members constexpr and clang rejects
    # it (g++ accepts it). Fixed upstream by pytorch PR 93978 (2.1).
    set(AUTOSCHED_TORCH_DETAIL "libtorch ${Torch_VERSION} was found, but its headers are not valid C++20 for clang (fixed in libtorch 2.1): configure with g++ for autosched::dag_learn")
    message(STATUS "autosched: libtorch ${Torch_VERSION} headers do not compile as C++20 with clang: no autosched::dag_learn (g++ builds it)")
  elseif(Torch_FOUND)
    set(AUTOSCHED_TORCH_FOUND ON)
    set(AUTOSCHED_TORCH_VERSION "${Torch_VERSION}")
    set(AUTOSCHED_TORCH_DETAIL "")
  else()
    set(AUTOSCHED_TORCH_DETAIL "libtorch (find_package(Torch)) was not found when autosched was configured")
    message(STATUS "autosched: libtorch (find_package(Torch)) not found: no autosched::dag_learn")
  endif()
endif()
