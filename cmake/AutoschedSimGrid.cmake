# SimGrid SMPI: an optional component (STYLE §10). Two questions:
#
#  1. Is SimGrid installed? (smpicxx and smpirun on PATH, <smpi/smpi.h> and
#     <simgrid/version.h>.) Then `autosched info` reports it and
#     scripts/smpi/build.sh can build autosched for simulated ranks.
#     Sets AUTOSCHED_SIMGRID_FOUND, AUTOSCHED_SIMGRID_VERSION, AUTOSCHED_SMPIRUN.
#  2. Is this build compiled with smpicxx? (CMAKE_CXX_COMPILER is smpicxx.)
#     Then AUTOSCHED_SMPI is ON: every target gets AUTOSCHED_SMPI=1, the
#     libraries are static (SMPI privatizes the globals of the binary it loads,
#     not those of shared libraries), and only the MPI probes and apps are
#     meant to be built (scripts/smpi/build.sh names them). FindMPI accepts
#     smpicxx as an MPI compiler wrapper as it is: it supplies <mpi.h> and
#     links libsimgrid itself (MPI::MPI_CXX carries no flags).
find_program(AUTOSCHED_SMPICXX smpicxx)
find_program(AUTOSCHED_SMPIRUN smpirun)
find_path(AUTOSCHED_SIMGRID_INCLUDE_DIR NAMES smpi/smpi.h simgrid/version.h)
mark_as_advanced(AUTOSCHED_SMPICXX AUTOSCHED_SMPIRUN AUTOSCHED_SIMGRID_INCLUDE_DIR)

set(AUTOSCHED_SIMGRID_FOUND OFF)
set(AUTOSCHED_SIMGRID_VERSION "")
if(AUTOSCHED_SMPICXX AND AUTOSCHED_SMPIRUN AND AUTOSCHED_SIMGRID_INCLUDE_DIR
   AND EXISTS "${AUTOSCHED_SIMGRID_INCLUDE_DIR}/simgrid/version.h")
  file(STRINGS "${AUTOSCHED_SIMGRID_INCLUDE_DIR}/simgrid/version.h" _sg_version
       REGEX "#define SIMGRID_VERSION_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX MATCH "SIMGRID_VERSION_${_part} +([0-9]+)" _m "${_sg_version}")
    set(_sg_${_part} "${CMAKE_MATCH_1}")
  endforeach()
  set(AUTOSCHED_SIMGRID_VERSION "${_sg_MAJOR}.${_sg_MINOR}")
  if(_sg_PATCH AND NOT _sg_PATCH STREQUAL "0")
    string(APPEND AUTOSCHED_SIMGRID_VERSION ".${_sg_PATCH}")
  endif()
  set(AUTOSCHED_SIMGRID_FOUND ON)
endif()

get_filename_component(_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
if(_cxx_name MATCHES "^smpicxx")
  set(_smpi_default ON)
else()
  set(_smpi_default OFF)
endif()
option(AUTOSCHED_SMPI "This build is compiled with smpicxx and runs under smpirun (SimGrid SMPI)" ${_smpi_default})
if(AUTOSCHED_SMPI)
  if(NOT _cxx_name MATCHES "^smpicxx")
    message(FATAL_ERROR "AUTOSCHED_SMPI=ON needs CMAKE_CXX_COMPILER=smpicxx (got ${CMAKE_CXX_COMPILER}); "
                        "use scripts/smpi/build.sh")
  endif()
  if(BUILD_SHARED_LIBS)
    message(FATAL_ERROR "AUTOSCHED_SMPI=ON needs static autosched libraries (BUILD_SHARED_LIBS=OFF): "
                        "SMPI privatizes the globals of the program it loads, not of shared libraries")
  endif()
  add_compile_definitions(AUTOSCHED_SMPI=1)
  # smpicxx links the program as a shared object: without these, every call
  # between its own functions goes through the PLT and the GOT, two more cold
  # pages for a decision on rank 0 (docs/smpi.md).
  add_compile_options(-fno-semantic-interposition)
  add_link_options(-Wl,-Bsymbolic-functions)
  message(STATUS "autosched: SimGrid SMPI build (smpicxx ${AUTOSCHED_SIMGRID_VERSION}): binaries run under smpirun only")
endif()
