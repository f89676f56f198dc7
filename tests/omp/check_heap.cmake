# The drop-in leaves glibc's heap as the program has it natively (heap.cpp,
# docs/dropin.md "The heap"): the program trims its heap after each step's
# temporaries natively, and must do so under the drop-in, one process per
# schedule. A native run that is not trimmed (another allocator, MALLOC_*
# settings, a runtime whose own dispatch keeps blocks above the temporaries)
# leaves nothing to compare with: the test says SKIP.
#
#   cmake -DPROGRAM=<exe> -DDROPIN=<libautosched-omp.so> -DWORK=<dir>
#         -DSCHEDULES="static|..." [-DSTORE=1] -P check_heap.cmake
#
# STORE=1 runs each schedule twice on a fresh store in WORK (a cold run, then
# one that resumes from it); otherwise AUTOSCHED_DB=off.
set(pinned OMP_NUM_THREADS=2 --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR --unset=AUTOSCHED_OMP_REPORT
           --unset=AUTOSCHED_OMP_LOOPS --unset=AUTOSCHED_OMP --unset=AUTOSCHED_TRACE --unset=AUTOSCHED_PROFILES
           --unset=MALLOC_TRIM_THRESHOLD_ --unset=MALLOC_MMAP_THRESHOLD_ --unset=MALLOC_TOP_PAD_
           --unset=MALLOC_ARENA_MAX --unset=GLIBC_TUNABLES)

function(run_program label)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${PROGRAM}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}${err}" PARENT_SCOPE)
  string(REGEX MATCH "heap: [^\n]*" line "${out}")
  message(STATUS "${label}: ${line}")
endfunction()

run_program(native ${pinned} --unset=LD_PRELOAD --unset=AUTOSCHED_SCHEDULE --unset=DROPIN_EXPECT_TAKEN AUTOSCHED_DB=off)
if(NOT rc STREQUAL "0")
  message("SKIP: natively the heap is not trimmed after each step, nothing to compare with:\n${out}")
  return()
endif()

string(REPLACE "|" ";" schedules "${SCHEDULES}")
set(failed "")
foreach(schedule ${schedules})
  set(env ${pinned} LD_PRELOAD=${DROPIN} AUTOSCHED_SCHEDULE=${schedule} DROPIN_EXPECT_TAKEN=1)
  if(STORE)
    string(MAKE_C_IDENTIFIER "${schedule}" tag)
    file(REMOVE ${WORK}/${tag}.db ${WORK}/${tag}.db-wal ${WORK}/${tag}.db-shm)
    file(MAKE_DIRECTORY ${WORK})
    set(passes cold warm)
    list(APPEND env AUTOSCHED_DB=${WORK}/${tag}.db)
  else()
    set(passes off)
    list(APPEND env AUTOSCHED_DB=off)
  endif()
  foreach(pass ${passes})
    run_program("${schedule} (store ${pass})" ${env})
    if(NOT rc STREQUAL "0")
      list(APPEND failed "${schedule} (store ${pass})")
      message("---- ${schedule}, store ${pass}: FAILED (${rc})\n${out}")
    endif()
  endforeach()
endforeach()
if(failed)
  string(REPLACE ";" ", " failed "${failed}")
  message(FATAL_ERROR "${PROGRAM}: the heap is not trimmed as natively under: ${failed}")
endif()
