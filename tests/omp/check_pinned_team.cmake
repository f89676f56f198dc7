# `autosched run --pin round-robin` pins an unmodified program's OpenMP team:
# its two threads end on one CPU each, apart (pinned_team.cpp reads their
# masks from inside the team); without --pin they keep the process's mask.
# -DCLI=<autosched> -DPROGRAM=<pinned_team>
foreach(v CLI PROGRAM)
  if(NOT ${v})
    message(FATAL_ERROR "check_pinned_team.cmake: set ${v}")
  endif()
endforeach()
set(clean --unset=AUTOSCHED_PINNING --unset=OMP_PROC_BIND --unset=OMP_PLACES --unset=AUTOSCHED_SCHEDULE
          --unset=OMP_SCHEDULE)

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean} AUTOSCHED_DB=off OMP_NUM_THREADS=2
                        ${CLI} run --pin round-robin,period=0.02 -- ${PROGRAM} pinned
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out MATCHES "SKIP:")
  message("${out}")
  return()
endif()
if(NOT rc EQUAL 0 OR NOT out MATCHES "pinned\n")
  message(FATAL_ERROR "--pin round-robin: exit ${rc}\n${out}${err}")
endif()
message("with --pin: ${out}")

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean} AUTOSCHED_DB=off OMP_NUM_THREADS=2
                        ${CLI} run -- ${PROGRAM} unpinned
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "unpinned\n")
  message(FATAL_ERROR "without --pin the team's masks changed: exit ${rc}\n${out}${err}")
endif()

# A bad policy is a usage error naming it, before the program starts.
execute_process(COMMAND ${CLI} run --pin round-robbin -- ${PROGRAM} pinned
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--pin: 'round-robbin': expected a policy")
  message(FATAL_ERROR "--pin round-robbin: exit ${rc}\n${out}${err}")
endif()
