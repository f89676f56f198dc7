# PAPI: an optional component (STYLE §10). With it, the pinning manager can
# measure a thread's speed in instructions per second (autosched/pinning/
# speed.hpp), where the machine has a PMU; whether it has one is decided at
# run time (papi_status(), `autosched info`), not here. Found as papi.h plus
# libpapi (Debian's libpapi-dev), by plain find_path/find_library so that the
# library is linked by its path and nothing has to be found again by
# autosched's CMake package users.
# Sets AUTOSCHED_PAPI_FOUND, AUTOSCHED_PAPI_INCLUDE_DIR, AUTOSCHED_PAPI_LIBRARY.
# -DAUTOSCHED_WITH_PAPI=OFF leaves it out.
option(AUTOSCHED_WITH_PAPI "Read PAPI instruction counters in the pinning manager when libpapi is found" ON)
set(AUTOSCHED_PAPI_FOUND OFF)
if(AUTOSCHED_WITH_PAPI)
  find_path(AUTOSCHED_PAPI_INCLUDE_DIR papi.h)
  find_library(AUTOSCHED_PAPI_LIBRARY papi)
  if(AUTOSCHED_PAPI_INCLUDE_DIR AND AUTOSCHED_PAPI_LIBRARY)
    set(AUTOSCHED_PAPI_FOUND ON)
    message(STATUS "autosched: PAPI found (${AUTOSCHED_PAPI_LIBRARY}): pinning speed source papi where a PMU exists")
  else()
    message(STATUS "autosched: PAPI (papi.h, libpapi) not found: pinning speeds from heartbeats and CPU time only")
  endif()
endif()
