# Installs this build into a scratch prefix, checks which headers it holds,
# compiles each of them alone, then configures, builds and runs the consumer
# project (C++ and C) against it. Arguments: BUILD_DIR SOURCE_DIR (the
# consumer) HEADERS_DIR (the header project) WORK_DIR CXX CC GENERATOR FLAGS
# (compiler and linker flags the consumer needs, e.g. a sanitizer); when the
# package has autosched::mpi: MPI_SOURCE_DIR (the MPI consumer) EXAMPLES_DIR
# (examples/mpi) MPIEXEC MPIEXEC_FLAGS (a list) and FC (a Fortran compiler, or empty)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
set(include_dir ${WORK_DIR}/prefix/include)

# What an application includes is installed; internals are not.
foreach(header autosched/autosched.hpp autosched/loops/autosched.h autosched/regions/autosched_region.h
               autosched/omp/dropin.h)
  if(NOT EXISTS ${include_dir}/${header})
    message(FATAL_ERROR "${header} is not installed")
  endif()
endforeach()
# The drop-in is installed beside the libraries, and the installed tool finds
# it there (bin/../lib), not in this build tree.
file(GLOB dropin ${WORK_DIR}/prefix/lib*/libautosched-omp.so ${WORK_DIR}/prefix/lib/*/libautosched-omp.so)
if(NOT dropin)
  message(FATAL_ERROR "libautosched-omp.so is not installed")
endif()
if(EXISTS ${WORK_DIR}/prefix/bin/autosched)
  execute_process(COMMAND ${WORK_DIR}/prefix/bin/autosched info OUTPUT_VARIABLE info RESULT_VARIABLE rc)
  if(rc OR NOT info MATCHES "OpenMP drop-in +${WORK_DIR}/prefix/")
    message(FATAL_ERROR "the installed autosched does not find the installed drop-in:\n${info}")
  endif()
  # bin/ holds the tool alone; the benchmark apps are under libexec/autosched,
  # where the installed `autosched bench` finds them.
  file(GLOB in_bin RELATIVE ${WORK_DIR}/prefix/bin ${WORK_DIR}/prefix/bin/*)
  if(NOT in_bin STREQUAL "autosched")
    message(FATAL_ERROR "bin/ holds more than the tool: ${in_bin}")
  endif()
  if(EXISTS ${BUILD_DIR}/bin/autosched-pisolver)
    if(NOT EXISTS ${WORK_DIR}/prefix/libexec/autosched/autosched-pisolver)
      message(FATAL_ERROR "the benchmark apps are not installed under libexec/autosched")
    endif()
    execute_process(COMMAND ${WORK_DIR}/prefix/bin/autosched bench --apps pisolver --methods none --arms static
                            --references none --reps 1 --steps 2 --no-progress --out ${WORK_DIR}/bench
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc OR NOT "${out}${err}" MATCHES "1 runs in [0-9]+ s into [^\n]*; 0 failed")
      message(FATAL_ERROR "the installed autosched bench did not run the installed app (${rc}):\n${out}${err}")
    endif()
  endif()
endif()
set(private_headers
  autosched/store/store.hpp autosched/store/database.hpp autosched/store/background_writer.hpp
  autosched/store/log_files.hpp autosched/store/trace_file.hpp
  autosched/select/selectors/rl/rl_agent.hpp autosched/select/selectors/auto/auto_selector.hpp autosched/regions/models/decision_tree.hpp
  autosched/regions/models/random_forest.hpp autosched/select/engine/decision_point.hpp
  autosched/loops/detail/loop_record.hpp autosched/regions/detail/region_state.hpp
  autosched/regions/region_learner.hpp autosched/techniques/any_dispenser.hpp)
foreach(header ${private_headers})
  if(EXISTS ${include_dir}/${header})
    message(FATAL_ERROR "${header} is installed, but it is internal (see cmake/AutoschedInstall.cmake)")
  endif()
endforeach()
if(EXISTS ${include_dir}/autosched/store)
  message(FATAL_ERROR "headers of the store are installed, but the store is internal")
endif()

# The installed set is closed under #include: name the missing header before
# the compiler does.
file(GLOB_RECURSE installed RELATIVE ${include_dir} ${include_dir}/autosched/*)
foreach(header ${installed})
  file(STRINGS ${include_dir}/${header} lines REGEX "^#include <autosched/")
  foreach(line ${lines})
    string(REGEX REPLACE "^#include <([^>]+)>.*" "\\1" included "${line}")
    if(NOT EXISTS ${include_dir}/${included})
      message(FATAL_ERROR "the installed ${header} includes ${included}, which is not installed: "
                          "add it to the installed headers in cmake/AutoschedInstall.cmake")
    endif()
  endforeach()
endforeach()

# configure_and_build(<name> <source dir> [<cmake argument>...])
function(configure_and_build name source)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${WORK_DIR}/${name} -G ${GENERATOR}
                          -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                          "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_C_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}"
                          ${ARGN}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "configuring ${name} failed (${rc})")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "building ${name} failed (${rc})")
  endif()
endfunction()

# Every installed header compiles alone.
configure_and_build(headers ${HEADERS_DIR} -DINCLUDE_DIR=${include_dir} -DCMAKE_HELPERS=${CMAKE_HELPERS})

# Without the mpi component, MPI is never looked for: the consumer builds
# with MPI hidden from CMake.
configure_and_build(build ${SOURCE_DIR} -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
foreach(program consumer consumer_c)
  execute_process(COMMAND ${WORK_DIR}/build/${program} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${program} failed (${rc})")
  endif()
endforeach()

# A C-only project is told to enable CXX.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/../consumer_c_only -B ${WORK_DIR}/c_only -G ${GENERATOR}
                        -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "autosched's libraries are C\\+\\+: enable CXX in this project too")
  message(FATAL_ERROR "a C-only project was not told to enable CXX (${rc}):\n${out}${err}")
endif()

# A Makefile project through pkg-config: the C consumer, linked with what
# `pkg-config --libs autosched` says and nothing else.
file(GLOB pc_file ${WORK_DIR}/prefix/lib*/pkgconfig/autosched.pc ${WORK_DIR}/prefix/lib/*/pkgconfig/autosched.pc)
if(NOT pc_file)
  message(FATAL_ERROR "autosched.pc is not installed")
endif()
get_filename_component(pc_dir ${pc_file} DIRECTORY)
file(MAKE_DIRECTORY ${WORK_DIR}/make)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
                        make -f ${SOURCE_DIR}/../consumer_make/Makefile SOURCE=${SOURCE_DIR}/c_loop.c
                        OUT=${WORK_DIR}/make CC=${CC} "EXTRA=${FLAGS}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the Makefile consumer did not build (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${WORK_DIR}/make/c_loop RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the Makefile consumer failed (${rc})")
endif()

# The package names no path of the machine it was built on: the system's
# libraries by name (or as imported targets), the package's own relative to it.
file(GLOB package_files ${WORK_DIR}/prefix/lib*/cmake/autosched/*.cmake ${WORK_DIR}/prefix/lib/*/cmake/autosched/*.cmake
     ${pc_file})
foreach(f ${package_files})
  file(READ ${f} text)
  if(text MATCHES "(/usr/lib[^;\"]*\\.so)" OR text MATCHES "${BUILD_DIR}")
    message(FATAL_ERROR "${f} names a path of this machine (${CMAKE_MATCH_1}):\n${text}")
  endif()
endforeach()

# The task graphs' optional parts as components: the executor factorises and
# verifies a small matrix; StarPU's policies are listed through dag_starpu.
if(DAG_SOURCE_DIR)
  configure_and_build(dag ${DAG_SOURCE_DIR})
  execute_process(COMMAND ${WORK_DIR}/dag/factorise RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc OR NOT out MATCHES "verified")
    message(FATAL_ERROR "the dag_exec consumer failed (${rc}):\n${out}${err}")
  endif()
  if(DAG_LEARN)
    if(NOT EXISTS ${WORK_DIR}/dag/dag_learn_plugin.txt)
      message(FATAL_ERROR "the dag_learn component was not found in the installed package")
    endif()
    file(READ ${WORK_DIR}/dag/dag_learn_plugin.txt plugin)
    if(NOT EXISTS "${plugin}")
      message(FATAL_ERROR "dag_learn names ${plugin}, which does not exist")
    endif()
  endif()
  if(DAG_STARPU)
    if(NOT EXISTS ${WORK_DIR}/dag/starpu_policies)
      message(FATAL_ERROR "the dag_starpu component was not found in the installed package")
    endif()
    execute_process(COMMAND ${WORK_DIR}/dag/starpu_policies RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "the dag_starpu consumer failed (${rc}):\n${out}${err}")
    endif()
  endif()
endif()

# The MPI examples in C and Fortran, built against the installed package and
# run with 4 ranks. The Fortran one is expected whenever the package holds
# the Fortran module.
if(MPI_SOURCE_DIR)
  set(fortran_arguments "")
  if(FC)
    set(fortran_arguments -DCMAKE_Fortran_COMPILER=${FC} "-DCMAKE_Fortran_FLAGS=${FLAGS}")
  endif()
  configure_and_build(mpi ${MPI_SOURCE_DIR} -DEXAMPLES_DIR=${EXAMPLES_DIR} ${fortran_arguments})
  set(programs pi_c)
  file(GLOB_RECURSE fortran_module ${WORK_DIR}/prefix/*/autosched_mpi.mod)
  if(fortran_module)
    list(APPEND programs pi_fortran)
  endif()
  foreach(program ${programs})
    if(NOT EXISTS ${WORK_DIR}/mpi/${program})
      message(FATAL_ERROR "the MPI consumer did not build ${program}")
    endif()
    execute_process(COMMAND ${MPIEXEC} -n 4 ${MPIEXEC_FLAGS} ${WORK_DIR}/mpi/${program} RESULT_VARIABLE rc)
    if(rc)
      message(FATAL_ERROR "mpiexec -n 4 ${program} failed (${rc})")
    endif()
  endforeach()
endif()
