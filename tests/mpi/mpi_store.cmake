# Two runs of test_mpi_store on one fresh store: cold, then warm; then the
# store must list the coordinator's decision point.
# cmake -DMPIEXEC=… -DNP_FLAG=… -DFLAGS=… -DPROGRAM=… -DTOOL=… -DDB=… -P mpi_store.cmake
file(REMOVE "${DB}")
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
foreach(mode cold warm)
  execute_process(COMMAND ${MPIEXEC} ${NP_FLAG} 2 ${flags} ${PROGRAM} ${mode} RESULT_VARIABLE rc TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${mode} run failed (${rc})")
  endif()
endforeach()
execute_process(COMMAND ${TOOL} db --db ${DB} list OUTPUT_VARIABLE listing RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT listing MATCHES "mpi:store-check")
  message(FATAL_ERROR "the store does not list mpi:store-check:\n${listing}")
endif()
