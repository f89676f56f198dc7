# The drop-in's report when `autosched run` starts more than the program: a
# shell, or mpirun and its ranks (docs/dropin.md, "The report").
#   - one report file, shared: a section per process that ran OpenMP, none
#     from the shell or mpirun, the file emptied by the run first;
#   - `%p` / `%r` in the name: a file per process / per rank;
#   - a program whose loops never reached the drop-in (no schedule clause)
#     is told why, with the number of parallel regions it ran;
#   - a process that ran no OpenMP at all reports nothing, even on stderr.
# Arguments: CLI PROGRAM (tests/omp/report.cpp) WORK [MPIEXEC MPIFLAGS]
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(var AUTOSCHED_SCHEDULE AUTOSCHED_SCHEDULE_FOR OMP_SCHEDULE AUTOSCHED_OMP_LOOPS AUTOSCHED_OMP_REPORT
            AUTOSCHED_OMP AUTOSCHED_OMP_LIBRARY LD_PRELOAD DROPIN_EXPECT_TAKEN)
  unset(ENV{${var}})
endforeach()
set(ENV{AUTOSCHED_DB} off)
set(ENV{OMP_NUM_THREADS} 2)
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

function(count_sections text expected what)
  string(REGEX MATCHALL "autosched-omp report: " headers "${text}")
  list(LENGTH headers n)
  if(NOT n EQUAL expected)
    message(FATAL_ERROR "${what}: ${n} report section(s), expected ${expected}:\n${text}")
  endif()
endfunction()

# A shell between the launcher and two programs: the scheduled one and the
# one whose loops have no schedule clause. Stale text from an earlier run goes.
file(WRITE ${WORK}/shared.txt "stale text from an earlier run\n")
run(0 ${CLI} run --schedule static --report-file ${WORK}/shared.txt --
    bash -c "${PROGRAM} && ${PROGRAM} unscheduled; true")
file(READ ${WORK}/shared.txt report)
count_sections("${report}" 2 "bash -c, one file")
if(report MATCHES "stale text")
  message(FATAL_ERROR "the report file was not emptied by the run:\n${report}")
endif()
expect("${report}" "autosched-omp: 2 loop\\(s\\) scheduled, 121 instance\\(s\\)")
expect("${report}" "\nloop +instances +chosen arm")
expect("${report}" "autosched-omp: 0 loop\\(s\\) scheduled")
expect("${report}" "autosched-omp: 10 parallel region\\(s\\) ran and none handed a loop to the drop-in: it takes loops with schedule\\(runtime\\)")
# One table header: the program that took loops has a table, the other not.
string(REGEX MATCHALL "\nloop +instances" headers "${report}")
list(LENGTH headers n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "${n} table headers, expected 1 (no empty table for the program without loops):\n${report}")
endif()
if(report MATCHES "report: [^\n]*bash")
  message(FATAL_ERROR "the shell, which ran no OpenMP, wrote a section:\n${report}")
endif()

# %p: one file per process, each with its own section.
run(0 ${CLI} run --schedule static --report-file ${WORK}/each-%p.txt -- bash -c "${PROGRAM} && ${PROGRAM}")
file(GLOB files ${WORK}/each-*.txt)
list(LENGTH files n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "--report-file each-%p.txt: ${n} files, expected 2: ${files}")
endif()
foreach(f ${files})
  file(READ ${f} report)
  count_sections("${report}" 1 "${f}")
  get_filename_component(base ${f} NAME)
  string(REGEX MATCH "each-([0-9]+)\\.txt" ignored "${base}")
  expect("${report}" "pid ${CMAKE_MATCH_1}\n")
endforeach()

# No OpenMP at all: nothing, not an empty table.
run(0 ${CLI} run --report -- bash -c "true")
if(err MATCHES "autosched-omp")
  message(FATAL_ERROR "a process without OpenMP reported:\n${err}")
endif()

if(MPIEXEC)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  set(ENV{OMPI_MCA_btl} "self,vader")
  set(ENV{OMP_NUM_THREADS} 1)
  separate_arguments(flags UNIX_COMMAND "${MPIFLAGS}")
  # mpirun under the launcher: its ranks share the file, one section each.
  run(0 ${CLI} run --schedule static --report-file ${WORK}/mpi.txt -- ${MPIEXEC} -np 2 ${flags} ${PROGRAM})
  file(READ ${WORK}/mpi.txt report)
  count_sections("${report}" 2 "mpirun -np 2, one file")
  expect("${report}" ", rank 0\n")
  expect("${report}" ", rank 1\n")
  # %r: a file per rank.
  run(0 ${CLI} run --schedule static --report-file ${WORK}/rank-%r.txt -- ${MPIEXEC} -np 2 ${flags} ${PROGRAM})
  foreach(rank 0 1)
    file(READ ${WORK}/rank-${rank}.txt report)
    count_sections("${report}" 1 "rank-${rank}.txt")
    expect("${report}" ", rank ${rank}\nautosched-omp: 2 loop\\(s\\) scheduled")
  endforeach()
else()
  message(STATUS "no mpiexec: the mpirun cases are not checked")
endif()
