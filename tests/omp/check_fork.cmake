# fork() while another thread runs loops (fork.cpp), natively and under the
# drop-in with a store: no child may hang on a lock the fork left held (each
# is waited for 10 s; the drop-in without its fork handling left 2-5 of 200
# hanging on either runtime), every child's loops sum right, and only the parent
# reports (a child's counts would be its parent's, its report file the
# parent's too). A child says once on stderr that it hands its loops to the
# runtime.
# Arguments: PROGRAM DROPIN WORK
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(plain OMP_NUM_THREADS=2 --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR
          --unset=AUTOSCHED_OMP_LOOPS --unset=AUTOSCHED_OMP --unset=AUTOSCHED_TRACE)

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${plain} OMP_SCHEDULE=dynamic,1 ${PROGRAM} 200
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "natively: ${rc}\n${out}${err}")
endif()
message(STATUS "natively: ${out}")

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${plain} LD_PRELOAD=${DROPIN} AUTOSCHED_DB=${WORK}/fork.db
                        AUTOSCHED_OMP_REPORT=stderr ${PROGRAM} 200
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc STREQUAL "0" OR NOT out MATCHES "forks 200: 0 hung, 0 failed")
  message(FATAL_ERROR "under the drop-in: ${rc}\n${out}${err}")
endif()
string(REGEX MATCHALL "autosched-omp: [0-9]+ loop\\(s\\) scheduled" reports "${err}")
list(LENGTH reports count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${count} reports, expected the parent's alone:\n${err}")
endif()
if(NOT err MATCHES "a child process forked while the program ran loops")
  message(FATAL_ERROR "no child said that its loops went to the runtime:\n${err}")
endif()
message(STATUS "under the drop-in: ${out}")
