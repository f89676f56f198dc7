# Several processes (as MPI ranks would) save one region into one store: each
# adds its samples to the row, none overwrites another's; a later run adds
# to them again without counting anything twice.
# -DPROBE=<region_probe> -DWORK=<directory>
set(dir ${WORK}/shared-store)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(ENV{AUTOSCHED_DB} ${dir}/s.db)

function(report expected)
  execute_process(COMMAND ${PROBE} report OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(rc OR NOT out STREQUAL "${expected}\n")
    message(FATAL_ERROR "expected '${expected}', got '${out}' (exit ${rc}) ${err}")
  endif()
endfunction()

# Three processes at once (execute_process runs its commands concurrently).
execute_process(COMMAND ${PROBE} learn 1 500
                COMMAND ${PROBE} learn 2 300
                COMMAND ${PROBE} learn 3 200
                RESULTS_VARIABLE rcs ERROR_VARIABLE err)
if(NOT rcs STREQUAL "0;0;0")
  message(FATAL_ERROR "probes failed: ${rcs} ${err}")
endif()
report("vectors=3 samples=1000")
execute_process(COMMAND ${PROBE} learn 1 100 RESULT_VARIABLE rc)
report("vectors=3 samples=1100")
file(REMOVE_RECURSE ${dir})
