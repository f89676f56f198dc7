# The static loops of a libomp-ABI program (AUTOSCHED_OMP_LOOPS=static,
# docs/dropin.md "Static loops"), on static_abi.c or static_shapes.cpp:
#   - natively, and under the drop-in without `static`, every check holds and
#     the drop-in takes no static loop (no "static loops" section);
#   - with `static` the program's checks hold (coverage, lastiter, chained
#     nowait mapping, …), its rising-cost loops get uneven blocks ("uneven"
#     argument), and the report lists the partitions and the kinds left to
#     the runtime;
#   - a second run on the same store resumes the partitions;
#   - an unknown word in AUTOSCHED_OMP_LOOPS is named and skipped.
# Arguments: PROGRAM DROPIN WORK [KINDS=1: the program runs kinds left to the runtime]
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(pinned OMP_NUM_THREADS=2 --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR
           --unset=AUTOSCHED_OMP --unset=AUTOSCHED_TRACE --unset=AUTOSCHED_OMP_LOOPS)
include(${CMAKE_CURRENT_LIST_DIR}/symbolizer_option.cmake)

function(run name)
  cmake_parse_arguments(ARG "" "" "ENV;ARGS" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pinned} ${ARG_ENV} AUTOSCHED_OMP_REPORT=${WORK}/${name}.txt
                          ${PROGRAM} ${ARG_ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc STREQUAL "0" OR NOT out MATCHES " ok\n")
    set(report "")
    if(EXISTS ${WORK}/${name}.txt)
      file(READ ${WORK}/${name}.txt report)
    endif()
    message(FATAL_ERROR "${name}: the program failed (${rc}):\n${out}${err}\nIts report:\n${report}")
  endif()
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(expect name text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

run(native)
run(off ENV LD_PRELOAD=${DROPIN} AUTOSCHED_DB=off)
if(EXISTS ${WORK}/off.txt)
  file(READ ${WORK}/off.txt report)
  if(report MATCHES "static loops")
    message(FATAL_ERROR "without AUTOSCHED_OMP_LOOPS=static the drop-in took static loops:\n${report}")
  endif()
endif()

set(static ENV LD_PRELOAD=${DROPIN} AUTOSCHED_OMP_LOOPS=static AUTOSCHED_DB=${WORK}/store.db)
run(cold ${static} ARGS uneven)
file(READ ${WORK}/cold.txt report)
expect(cold "${report}" "static loops \\(--loops static\\), per parallel region and trip count")
# A row: trip count, team, instances, state, each thread's share. Any state:
# on a loaded machine the guard may have put a learned loop back on the even
# split by the end (that the blocks became uneven at all, the program checks).
expect(cold "${report}" "\n[0-9]+ +2 +[0-9]+ +(learning|settled|even) +[01]\\.[0-9][0-9]/[01]\\.[0-9][0-9] ")
expect(cold "${report}" "    region omp:[^ ]+@[0-9a-f]+\\+0x[0-9a-f]+\n")
if(report MATCHES "resumed from the store")
  message(FATAL_ERROR "cold: a partition says it resumed from a fresh store:\n${report}")
endif()
if(KINDS)
  expect(cold "${report}" "[0-9]+: static loop of a kind left to the runtime")
endif()

run(warm ${static} ARGS uneven)
file(READ ${WORK}/warm.txt report)
expect(warm "${report}" "\\(resumed from the store\\)")

run(words ENV LD_PRELOAD=${DROPIN} AUTOSCHED_DB=off AUTOSCHED_OMP_LOOPS=runtime,stattic,static ARGS uneven)
expect(words "${err}" "AUTOSCHED_OMP_LOOPS.*'stattic' is skipped")
file(READ ${WORK}/words.txt report)
expect(words "${report}" "static loops \\(--loops static\\)")
