# PAPI: an optional component. With it, the pinning manager can
# measure a thread's speed in instructions per second (autosched/pinning/
# speed.hpp), where the machine has a PMU; whether it has one is decided at
# run time (papi_status(), `autosched info`), not here. Found as papi.h plus
# libpapi (Debian's libpapi-dev). The library is not linked: speed.cpp opens
# it by its soname when a counter is first asked for, so that programs the
# OpenMP drop-in is preloaded into, and every autosched command, start
# without loading PAPI and libpfm.
# Sets AUTOSCHED_PAPI_FOUND, AUTOSCHED_PAPI_INCLUDE_DIR, AUTOSCHED_PAPI_LIBRARY,
# AUTOSCHED_PAPI_SONAME.
# -DAUTOSCHED_WITH_PAPI=OFF leaves it out.
option(AUTOSCHED_WITH_PAPI "Read PAPI instruction counters in the pinning manager when libpapi is found" ON)
set(AUTOSCHED_PAPI_FOUND OFF)
if(AUTOSCHED_WITH_PAPI)
  find_path(AUTOSCHED_PAPI_INCLUDE_DIR papi.h)
  find_library(AUTOSCHED_PAPI_LIBRARY papi)
  if(AUTOSCHED_PAPI_INCLUDE_DIR AND AUTOSCHED_PAPI_LIBRARY)
    set(AUTOSCHED_PAPI_FOUND ON)
    # The name the run-time package installs (libpapi.so.7.0), not the -dev
    # package's libpapi.so: from the ELF header, else the file's own name.
    get_filename_component(papi_real ${AUTOSCHED_PAPI_LIBRARY} REALPATH)
    get_filename_component(AUTOSCHED_PAPI_SONAME ${papi_real} NAME)
    find_program(AUTOSCHED_OBJDUMP objdump)
    if(AUTOSCHED_OBJDUMP)
      execute_process(COMMAND ${AUTOSCHED_OBJDUMP} -p ${papi_real} OUTPUT_VARIABLE papi_headers ERROR_QUIET)
      if(papi_headers MATCHES "SONAME +([^\n ]+)")
        set(AUTOSCHED_PAPI_SONAME ${CMAKE_MATCH_1})
      endif()
    endif()
    message(STATUS "autosched: PAPI found (${AUTOSCHED_PAPI_LIBRARY}, opened as ${AUTOSCHED_PAPI_SONAME}): pinning speed source papi where a PMU exists")
  else()
    message(STATUS "autosched: PAPI (papi.h, libpapi) not found: pinning speeds from heartbeats and CPU time only")
  endif()
endif()
