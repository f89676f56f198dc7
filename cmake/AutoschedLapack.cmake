# LAPACKE + CBLAS: an optional component (STYLE §10) for the real executor of
# tiled factorisations (autosched::dag_exec: tile kernels, the executor, the
# kernel calibration). Looked for with pkg-config: `lapacke`, and `openblas`
# (else a plain `cblas`). Without them the executor is not built and the rest
# of autosched::dag (graphs, simulator, schedulers) is unchanged.
# -DAUTOSCHED_WITH_LAPACK=OFF leaves it out on purpose.
# Sets AUTOSCHED_LAPACK_FOUND, AUTOSCHED_LAPACK_DETAIL (versions, for
# `autosched info`) and the imported target autosched::lapack.
option(AUTOSCHED_WITH_LAPACK "Build the DAG executor when LAPACKE and CBLAS are found" ON)
set(AUTOSCHED_LAPACK_FOUND OFF)
set(AUTOSCHED_LAPACK_DETAIL "")
if(NOT AUTOSCHED_WITH_LAPACK)
  return()
endif()
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  return()
endif()
pkg_check_modules(AUTOSCHED_LAPACKE QUIET IMPORTED_TARGET lapacke)
pkg_check_modules(AUTOSCHED_OPENBLAS QUIET IMPORTED_TARGET openblas)
set(_blas_target "")
if(AUTOSCHED_OPENBLAS_FOUND)
  set(_blas_target PkgConfig::AUTOSCHED_OPENBLAS)
  set(_blas_detail "OpenBLAS ${AUTOSCHED_OPENBLAS_VERSION}")
else()
  pkg_check_modules(AUTOSCHED_CBLAS QUIET IMPORTED_TARGET cblas)
  if(AUTOSCHED_CBLAS_FOUND)
    set(_blas_target PkgConfig::AUTOSCHED_CBLAS)
    set(_blas_detail "CBLAS ${AUTOSCHED_CBLAS_VERSION}")
  endif()
endif()
if(NOT AUTOSCHED_LAPACKE_FOUND OR NOT _blas_target)
  return()
endif()
# Both headers must be reachable with the flags pkg-config gave.
include(CheckIncludeFileCXX)
set(CMAKE_REQUIRED_INCLUDES ${AUTOSCHED_LAPACKE_INCLUDE_DIRS} ${AUTOSCHED_OPENBLAS_INCLUDE_DIRS}
                            ${AUTOSCHED_CBLAS_INCLUDE_DIRS})
set(CMAKE_REQUIRED_QUIET ON)
check_include_file_cxx(lapacke.h AUTOSCHED_HAVE_LAPACKE_H)
check_include_file_cxx(cblas.h AUTOSCHED_HAVE_CBLAS_H)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_QUIET)
if(NOT AUTOSCHED_HAVE_LAPACKE_H OR NOT AUTOSCHED_HAVE_CBLAS_H)
  return()
endif()
add_library(autosched::lapack INTERFACE IMPORTED)
# dlsym() resolves openblas_set_num_threads at run time (tile_kernels.cpp).
target_link_libraries(autosched::lapack INTERFACE PkgConfig::AUTOSCHED_LAPACKE ${_blas_target} ${CMAKE_DL_LIBS})
set(AUTOSCHED_LAPACK_FOUND ON)
set(AUTOSCHED_LAPACK_DETAIL "${_blas_detail}, LAPACKE ${AUTOSCHED_LAPACKE_VERSION}")
