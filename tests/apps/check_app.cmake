# Runs one benchmark app at a tiny size for 3 steps on 3 threads (more
# threads than cores) under every technique, with and without expChunk, under
# OpenMP's own schedules and under a few selectors. The app verifies its own
# result and exits non-zero if it is wrong: the best end-to-end test of the
# runtime. -DAPP=<executable> -DARGS=<size options, space-separated>
set(ENV{AUTOSCHED_DB} off)
unset(ENV{AUTOSCHED_SCHEDULE})
unset(ENV{AUTOSCHED_SCHEDULE_FOR})
unset(ENV{OMP_SCHEDULE})
set(schedules static ss fsc mfsc gss guided-llvm auto-llvm tss static-steal fac mfac fac2 mfac2 wf tap bold
              awf awf-b awf-c awf-d awf-e af maf pls tfss fiss viss rnd profiling
              static,chunk=expert gss,chunk=expert static-steal,chunk=expert awf-b,chunk=expert ss,chunk=7
              omp:static omp:dynamic omp:guided
              auto auto:random auto:exhaustive auto:expert auto:qlearn auto:sarsa,reward=loadimbalance auto:chunk)
list(LENGTH schedules count)
separate_arguments(size_options UNIX_COMMAND "${ARGS}")
set(failures "")
foreach(schedule ${schedules})
  execute_process(COMMAND ${APP} --steps 3 --threads 3 --quiet --schedule ${schedule} ${size_options}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(APPEND failures "${schedule} (exit ${rc}): ${err}")
  endif()
endforeach()
if(failures)
  list(JOIN failures "\n" text)
  message(FATAL_ERROR "${APP} failed under:\n${text}")
endif()
message(STATUS "${APP}: verified under all ${count} schedules")
