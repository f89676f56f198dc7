# The mixed program (mixed.cpp) prints the same bytes natively and under the
# drop-in with every schedule, with and without AUTOSCHED_OMP_LOOPS=all.
#
#   cmake -DPROGRAM=<exe> -DDROPIN=<libautosched-omp.so> -DSCHEDULES="a|b|..." -P compare_outputs.cmake
#
# Environment pinned as in run_shapes.cmake; TIMEOUT only names a hang.
set(pinned OMP_NUM_THREADS=3 AUTOSCHED_DB=off --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR
           --unset=AUTOSCHED_OMP_REPORT)
include(${CMAKE_CURRENT_LIST_DIR}/symbolizer_option.cmake)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pinned} --unset=LD_PRELOAD --unset=AUTOSCHED_SCHEDULE
                        --unset=AUTOSCHED_OMP_LOOPS --unset=DROPIN_EXPECT_TAKEN ${PROGRAM}
                RESULT_VARIABLE rc OUTPUT_VARIABLE reference ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc STREQUAL "0" OR reference STREQUAL "")
  message(FATAL_ERROR "${PROGRAM} failed natively (${rc}):\n${reference}${err}")
endif()

string(REPLACE "|" ";" schedules "${SCHEDULES}")
set(failed "")
foreach(loops runtime all)
  foreach(schedule ${schedules})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pinned} LD_PRELOAD=${DROPIN} AUTOSCHED_SCHEDULE=${schedule}
                            AUTOSCHED_OMP_LOOPS=${loops} DROPIN_EXPECT_TAKEN=1 ${PROGRAM}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc STREQUAL "0")
      list(APPEND failed "${schedule}(loops=${loops})")
      message("---- ${schedule}, AUTOSCHED_OMP_LOOPS=${loops}: exit ${rc}\n${out}${err}")
    elseif(NOT out STREQUAL reference)
      list(APPEND failed "${schedule}(loops=${loops})")
      message("---- ${schedule}, AUTOSCHED_OMP_LOOPS=${loops}: output differs\nnative:\n${reference}"
              "under the drop-in:\n${out}${err}")
    endif()
  endforeach()
endforeach()
if(failed)
  list(LENGTH failed n)
  string(REPLACE ";" "  " failed "${failed}")
  message(FATAL_ERROR "${PROGRAM}: ${n} run(s) differ from the native output or failed: ${failed}")
endif()
message(STATUS "identical output natively and under the drop-in with every schedule")
