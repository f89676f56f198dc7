# Install rules: headers, libraries, the CLI, and a relocatable CMake package
# so that another project can `find_package(autosched)` and link autosched::autosched.
include(CMakePackageConfigHelpers)

get_property(layers GLOBAL PROPERTY AUTOSCHED_LAYERS)
install(TARGETS ${layers} EXPORT autoschedTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Headers of optional components that were not built stay out.
set(optional_headers "")
if(NOT TARGET autosched_regions_mpi)
  list(APPEND optional_headers REGEX "/regions/mpi(/|$)" EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/autosched/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autosched
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" ${optional_headers})
install(FILES ${PROJECT_BINARY_DIR}/include/autosched/core/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autosched/core)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/autosched)
install(EXPORT autoschedTargets NAMESPACE autosched:: DESTINATION ${config_dir})

# The OpenMP runtime is part of the ABI in practice: a program that mixes
# libgomp and libomp in one process misbehaves. Record what we were built with.
set(AUTOSCHED_BUILT_WITH_COMPILER_ID ${CMAKE_CXX_COMPILER_ID})
# autosched::regions_mpi, built when MPI was found, links MPI::MPI_CXX: the
# package then needs MPI too.
if(TARGET autosched_regions_mpi)
  set(AUTOSCHED_PACKAGE_NEEDS_MPI TRUE)
else()
  set(AUTOSCHED_PACKAGE_NEEDS_MPI FALSE)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/autoschedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/autoschedConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/autoschedConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/autoschedConfig.cmake ${PROJECT_BINARY_DIR}/autoschedConfigVersion.cmake
  DESTINATION ${config_dir})
