# Install rules: headers, libraries, the CLI, and a relocatable CMake package
# so that another project can `find_package(autosched)` and link autosched::autosched.
include(CMakePackageConfigHelpers)

get_property(layers GLOBAL PROPERTY AUTOSCHED_LAYERS)
# The MPI layers go to an export file of their own, read only when the
# `mpi` component is asked for: their link interface names MPI::MPI_CXX,
# which CMake insists on finding as soon as their targets are defined.
set(mpi_layers "")
foreach(layer autosched_mpi autosched_regions_mpi autosched_mpi_fortran)
  if(layer IN_LIST layers)
    list(REMOVE_ITEM layers ${layer})
    list(APPEND mpi_layers ${layer})
  endif()
endforeach()
install(TARGETS ${layers} EXPORT autoschedTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(mpi_layers)
  install(TARGETS ${mpi_layers} EXPORT autoschedMpiTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
# Installed headers: the ones an application includes, and the ones those
# include (their include closure, listed by hand). Everything else stays in
# the source tree and may change freely: store internals, the selection
# learners (rl_agent, auto_selector, decision_tree, random_forest, ...), the
# dispensers, and detail/ headers no public header needs. The package test
# checks that every installed header compiles alone against the install tree,
# which fails when a public header starts including one that is not listed.
set(autosched_installed_headers
  # What applications include.
  autosched.hpp
  loops/autosched.h loops/loops.hpp loops/loop_options.hpp loops/schedule_choice.hpp loops/loop_registry.hpp loops/parallel_for.hpp
  select/grammar/schedule.hpp select/grammar/schedule_environment.hpp
  regions/regions.hpp regions/autosched_region.h regions/adapt.hpp regions/region.hpp regions/feature.hpp regions/variant_space.hpp
  regions/model_spec.hpp
  dag/dag.hpp dag/durations.hpp dag/factorizations.hpp dag/heft.hpp dag/list_schedulers.hpp dag/platform.hpp
  dag/graph_file.hpp dag/problem.hpp dag/ranks.hpp dag/scheduler.hpp dag/simulator.hpp dag/task_graph.hpp
  pinning/pinning.hpp pinning/pinning.h pinning/affinity.hpp pinning/manager.hpp pinning/options.hpp pinning/speed.hpp
  pinning/strategy.hpp pinning/team_pinning.hpp
  # What those include.
  core/error.hpp core/index_range.hpp core/source_location.hpp core/autosched_status.h
  loops/detail/loop_call.hpp drive/chunk_body.hpp
  measure/instance_record.hpp measure/metrics.hpp measure/thread_stats.hpp
  select/grammar/arm.hpp select/grammar/auto_config.hpp select/grammar/outcome.hpp select/grammar/rl_config.hpp select/selectors/selector.hpp
  select/grammar/selector_config.hpp
  techniques/catalogue.hpp techniques/chunk_sequence.hpp techniques/loop_memory.hpp techniques/loop_shape.hpp
  techniques/technique_spec.hpp techniques/exp_chunk.hpp techniques/cost_profile.hpp techniques/loop_simulator.hpp)
if(TARGET autosched_regions_mpi)  # optional component
  list(APPEND autosched_installed_headers regions/mpi/collective_training.hpp)
endif()
if(TARGET autosched_mpi)  # optional component
  list(APPEND autosched_installed_headers
    mpi/mpi.hpp mpi/autosched_mpi.h mpi/execution.hpp mpi/loop_options.hpp mpi/parallel_for.hpp
    mpi/distributed_for.hpp mpi/steal_ratio.hpp mpi/detail/run_ranges.hpp
    # What the steal-ratio selector includes.
    select/selectors/bandit/ucb_selector.hpp select/selectors/bandit/cost_bandit.hpp select/selectors/bandit/coverage_sweep.hpp core/running_stats.hpp)
endif()
if(TARGET autosched_dag_exec)  # optional component
  list(APPEND autosched_installed_headers dag/executor.hpp dag/tiled_factorization.hpp)
endif()
if(TARGET autosched_dag_starpu)  # optional component
  list(APPEND autosched_installed_headers dag/starpu/scheduler_policy.hpp dag/starpu/starpu_runner.hpp)
endif()
if(TARGET autosched_mpi_fortran)  # optional component: its module file, compiler-specific
  install(FILES ${autosched_fortran_module_dir}/autosched_mpi.mod
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/autosched/fortran)
endif()
foreach(header ${autosched_installed_headers})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/autosched/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autosched/${dir})
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/include/autosched/core/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autosched/core)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/autosched)
install(EXPORT autoschedTargets NAMESPACE autosched:: DESTINATION ${config_dir})
# The task graphs' optional parts, each an export file of its own that the
# config reads only when its component is asked for (their private links
# name pkg-config targets the config must make first).
set(AUTOSCHED_PACKAGE_DAG_EXEC FALSE)
set(AUTOSCHED_PACKAGE_DAG_EXEC_CUDA FALSE)
set(AUTOSCHED_PACKAGE_DAG_STARPU FALSE)
set(AUTOSCHED_PACKAGE_BLAS_MODULE "")
foreach(part dag_exec dag_starpu)
  if(TARGET autosched_${part})
    install(TARGETS autosched_${part} EXPORT autosched_${part}_targets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    install(EXPORT autosched_${part}_targets NAMESPACE autosched:: FILE autosched-${part}-targets.cmake
      DESTINATION ${config_dir})
  endif()
endforeach()
if(TARGET autosched_dag_exec)
  set(AUTOSCHED_PACKAGE_DAG_EXEC TRUE)
  set(AUTOSCHED_PACKAGE_DAG_EXEC_CUDA ${AUTOSCHED_CUDA_FOUND})
  set(AUTOSCHED_PACKAGE_BLAS_MODULE cblas)
  if(AUTOSCHED_OPENBLAS_FOUND)
    set(AUTOSCHED_PACKAGE_BLAS_MODULE openblas)
  endif()
endif()
if(TARGET autosched_dag_starpu)
  set(AUTOSCHED_PACKAGE_DAG_STARPU TRUE)
endif()
if(mpi_layers)
  install(EXPORT autoschedMpiTargets NAMESPACE autosched:: DESTINATION ${config_dir})
endif()

# The OpenMP runtime is part of the ABI in practice: a program that mixes
# libgomp and libomp in one process misbehaves. Record what we were built with.
set(AUTOSCHED_BUILT_WITH_COMPILER_ID ${CMAKE_CXX_COMPILER_ID})
# autosched::regions_mpi and autosched::mpi, built when MPI was found, link
# MPI::MPI_CXX: the package then needs MPI too.
if(TARGET autosched_regions_mpi OR TARGET autosched_mpi)
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

# pkg-config, for builds without CMake (autosched.pc.in). The layers in
# link order, dependents first; the link group forgives a missed edge.
set(AUTOSCHED_PC_LIBS "")
foreach(layer loops regions dag session pinning drive store select techniques measure core)
  if(TARGET autosched_${layer})
    string(APPEND AUTOSCHED_PC_LIBS " -lautosched_${layer}")
  endif()
endforeach()
string(STRIP "${AUTOSCHED_PC_LIBS}" AUTOSCHED_PC_LIBS)
set(AUTOSCHED_PC_SYSTEM_LIBS "${OpenMP_CXX_FLAGS} -lsqlite3")
string(APPEND AUTOSCHED_PC_SYSTEM_LIBS " -lstdc++ -lm -lpthread -ldl")
configure_file(${PROJECT_SOURCE_DIR}/cmake/autosched.pc.in ${PROJECT_BINARY_DIR}/autosched.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/autosched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
