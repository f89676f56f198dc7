# Two runs of test_mpi_store on one fresh store: cold, then warm (the second
# instance of the warm run must not profile: test_mpi_store checks it). The
# coordinator closes every instance through the loop driver, as a thread team
# does: the store must hold all 80 instances of the loop's decision point, and
# the cold run's AUTOSCHED_TRACE the thread loops' columns and a row per instance.
# cmake -DMPIEXEC=… -DNP_FLAG=… -DFLAGS=… -DPROGRAM=… -DTOOL=… -DDB=… -P mpi_store.cmake
file(REMOVE "${DB}" "${DB}-wal" "${DB}-shm" "${DB}.trace.csv")
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
foreach(mode cold warm)
  set(trace "")
  if(mode STREQUAL "cold")
    set(trace AUTOSCHED_TRACE=${DB}.trace.csv)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${trace} ${MPIEXEC} ${NP_FLAG} 2 ${flags} ${PROGRAM} ${mode}
                  RESULT_VARIABLE rc TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${mode} run failed (${rc})")
  endif()
endforeach()
execute_process(COMMAND ${TOOL} db --db ${DB} list OUTPUT_VARIABLE listing RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT listing MATCHES "\nmpi:store-check#[0-9]+/2 +80 ")
  message(FATAL_ERROR "the store does not hold the 80 instances of mpi:store-check:\n${listing}")
endif()
file(STRINGS "${DB}.trace.csv" rows)
list(GET rows 0 header)
set(thread_loops_header "loop,instance,selector,explored,technique,chunk,exp_chunk,n,p,loop_time_ns,lib,percent_imbalance,cov,stddev,skewness,kurtosis,selector_ns,selector_state,reward,cut_short,failed")
if(NOT header STREQUAL thread_loops_header)
  message(FATAL_ERROR "the MPI trace's columns differ from the thread loops':\n${header}")
endif()
list(FILTER rows INCLUDE REGEX "^\"mpi:store-check\",")
list(LENGTH rows count)
if(NOT count EQUAL 40)
  message(FATAL_ERROR "the cold run's trace has ${count} rows of mpi:store-check, expected 40")
endif()
