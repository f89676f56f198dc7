# Runs one shape program (shapes.cpp, shapes.f90) natively, or under the
# drop-in once per schedule, one process each; fails naming every schedule
# whose run failed, with that run's output.
#
#   cmake -DPROGRAM=<exe> -P run_shapes.cmake                       # natively
#   cmake -DPROGRAM=<exe> -DDROPIN=<libautosched-omp.so>
#         -DSCHEDULES="static|ss,chunk=1|..." [-DLOOPS=all] -P run_shapes.cmake
#
# Schedules are separated by '|' because they contain commas and ctest passes
# ';' badly. The environment is pinned so that a developer's shell cannot
# change what runs: 3 threads (the shapes open 2-thread teams themselves),
# cancellation on (the cancel shape), no store, no other schedule variable.
# TIMEOUT only turns a hang into a failure that names its schedule.
set(pinned OMP_NUM_THREADS=3 OMP_CANCELLATION=true AUTOSCHED_DB=off
           --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR --unset=AUTOSCHED_OMP_REPORT)
include(${CMAKE_CURRENT_LIST_DIR}/symbolizer_option.cmake)
if(LOOPS)
  list(APPEND pinned AUTOSCHED_OMP_LOOPS=${LOOPS})
else()
  list(APPEND pinned --unset=AUTOSCHED_OMP_LOOPS)
endif()

if(NOT DROPIN)
  # Natively: the runtime's default for schedule(runtime), then a dynamic one.
  set(runs "default" "dynamic,3")
else()
  string(REPLACE "|" ";" runs "${SCHEDULES}")
endif()

set(failed "")
foreach(run ${runs})
  if(NOT DROPIN)
    if(run STREQUAL "default")
      set(env ${pinned} --unset=LD_PRELOAD --unset=AUTOSCHED_SCHEDULE --unset=DROPIN_EXPECT_TAKEN)
    else()
      set(env ${pinned} --unset=LD_PRELOAD --unset=AUTOSCHED_SCHEDULE --unset=DROPIN_EXPECT_TAKEN
              OMP_SCHEDULE=${run})
    endif()
  else()
    set(env ${pinned} LD_PRELOAD=${DROPIN} AUTOSCHED_SCHEDULE=${run} DROPIN_EXPECT_TAKEN=1)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${PROGRAM}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(rc STREQUAL "0")
    string(STRIP "${out}" out)
    string(REGEX REPLACE ".*\n" "" last "${out}")
    message(STATUS "${run}: ${last}")
  else()
    list(APPEND failed "${run}")
    message("---- ${run}: FAILED (${rc})\n${out}${err}")
  endif()
endforeach()
if(failed)
  list(LENGTH failed n)
  string(REPLACE ";" "  " failed "${failed}")
  message(FATAL_ERROR "${PROGRAM}: ${n} run(s) failed: ${failed}")
endif()
