# StarPU: an optional component (STYLE §10). With it, autosched::dag_starpu
# runs a task graph on StarPU's workers, under a StarPU policy built from
# any autosched::dag scheduler or under one of StarPU's own policies (the
# comparison of docs/dag.md). Found through pkg-config `starpu-1.3`
# (Debian's libstarpu-dev: CPU workers only, at most 4).
# Sets AUTOSCHED_STARPU_FOUND, AUTOSCHED_STARPU_VERSION and, when found, the
# imported target PkgConfig::AUTOSCHED_STARPU_PC. -DAUTOSCHED_WITH_STARPU=OFF
# leaves it out.
option(AUTOSCHED_WITH_STARPU "Build autosched::dag_starpu when StarPU 1.3 is found" ON)
set(AUTOSCHED_STARPU_FOUND OFF)
set(AUTOSCHED_STARPU_VERSION "")
if(AUTOSCHED_WITH_STARPU)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(AUTOSCHED_STARPU_PC QUIET IMPORTED_TARGET GLOBAL starpu-1.3)
  endif()
  if(AUTOSCHED_STARPU_PC_FOUND)
    set(AUTOSCHED_STARPU_FOUND ON)
    set(AUTOSCHED_STARPU_VERSION "${AUTOSCHED_STARPU_PC_VERSION}")
  else()
    message(STATUS "autosched: StarPU (pkg-config starpu-1.3) not found: no autosched::dag_starpu")
  endif()
endif()
