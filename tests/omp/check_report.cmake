# The drop-in's report (AUTOSCHED_OMP_REPORT, docs/dropin.md "The report") on
# report.cpp: a loop of 120 instances and a loop that runs once.
#   - columns: no "saved ms" (it priced instances at an arm measured on
#     other instances), the runtime's arm last;
#   - the loop that ran once says so: "1 (once)";
#   - a warm start is reported: the second `auto` run on a store has
#     "resumed: N earlier instances" under the loop's id, the cold one not.
# Arguments: PROGRAM DROPIN WORK
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(pinned OMP_NUM_THREADS=2 --unset=OMP_SCHEDULE --unset=AUTOSCHED_SCHEDULE_FOR --unset=AUTOSCHED_OMP_LOOPS
           --unset=AUTOSCHED_OMP --unset=AUTOSCHED_TRACE LD_PRELOAD=${DROPIN} DROPIN_EXPECT_TAKEN=1)

function(run_report name)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pinned} AUTOSCHED_OMP_REPORT=${WORK}/${name}.txt ${ARGN}
                          ${PROGRAM}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${name}: the program failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${WORK}/${name}.txt report)
  set(report "${report}" PARENT_SCOPE)
endfunction()

function(expect name text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: the report does not match '${regex}':\n${text}")
  endif()
endfunction()
function(reject name text regex)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: the report matches '${regex}', which it must not:\n${text}")
  endif()
endfunction()

# A row: the name (or a blank one under a long name), instances, the arm;
# the runtime's arm is libgomp's default for schedule(runtime), dynamic,1.
set(many "[ \n]+120 +static +[0-9.]+ +0% +ss,chunk=1\n")
set(once "[ \n]+1 \\(once\\) +static +[0-9.]+ +0% +ss,chunk=1\n")

run_report(static AUTOSCHED_SCHEDULE=static AUTOSCHED_DB=off)
expect(static "${report}" "\nloop +instances +chosen arm +mean ms +explored +runtime's arm\n")
reject(static "${report}" "saved")
expect(static "${report}" "${many}")
expect(static "${report}" "${once}")
reject(static "${report}" "resumed")

# auto on a fresh store, then again: the second run resumes the first's state.
run_report(cold AUTOSCHED_SCHEDULE=auto AUTOSCHED_DB=${WORK}/store.db)
expect(cold "${report}" "[ \n]+120 +[^ \n]+ +[0-9.]+ +[0-9]+% +ss,chunk=1\n")
expect(cold "${report}" "[ \n]+1 \\(once\\) +[^ \n]+ +[0-9.]+ +[0-9]+% +ss,chunk=1\n")
reject(cold "${report}" "resumed")
run_report(warm AUTOSCHED_SCHEDULE=auto AUTOSCHED_DB=${WORK}/store.db)
# The 120-instance loop's row, its id, then the resumed line.
expect(warm "${report}" "[ \n]+120 +[^ \n]+ +[0-9.]+ +[0-9]+% +ss,chunk=1\n    id omp:[^\n]+\n    resumed: ([1-9][0-9]*) earlier instances")
string(REGEX MATCH "    resumed: ([1-9][0-9]*) earlier instances" line "${report}")
if(CMAKE_MATCH_1 GREATER 120)
  message(FATAL_ERROR "warm: resumed from ${CMAKE_MATCH_1} instances, but the cold run had 120:\n${report}")
endif()
message(STATUS "warm run: ${line}")

# --loops static on a program built by GCC, whose static loops never ask the
# runtime: the report says why nothing static was balanced.
run_report(static_gnu AUTOSCHED_SCHEDULE=static AUTOSCHED_DB=off AUTOSCHED_OMP_LOOPS=static)
expect(static_gnu "${report}" "--loops static: no static loop asked the runtime for its bounds; a program built by GCC")

# A report file that cannot take the report (a FIFO blocked the program at
# exit; /dev/full lost the report silently): a warning naming the variable
# and what the path is, and the report on stderr instead. The 60 s bound
# only tells a hang from an end.
execute_process(COMMAND mkfifo ${WORK}/report.fifo)
foreach(special "${WORK}/report.fifo;a FIFO" "/dev/full;a character device")
  list(GET special 0 path)
  list(GET special 1 kind)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pinned} AUTOSCHED_OMP_REPORT=${path} AUTOSCHED_SCHEDULE=static
                          AUTOSCHED_DB=off ${PROGRAM}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "report to ${path}: the program ended with '${rc}':\n${out}${err}")
  endif()
  expect(${path} "${err}" "AUTOSCHED_OMP_REPORT=${path}: it is ${kind}, not a regular file; the report goes to stderr")
  expect(${path} "${err}" "\nloop +instances +chosen arm")
endforeach()
