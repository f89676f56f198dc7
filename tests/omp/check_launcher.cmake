# `autosched run` as users type it, on a plain OpenMP program (the mixed
# program, never linked to autosched): the report, OMP_SCHEDULE read by the
# grammar, AUTOSCHED_SCHEDULE_FOR by the readable loop name, the store's
# records of the loops, and the errors before launch.
# Arguments: CLI PROGRAM WORK
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(var AUTOSCHED_SCHEDULE AUTOSCHED_SCHEDULE_FOR OMP_SCHEDULE AUTOSCHED_OMP_LOOPS AUTOSCHED_OMP_REPORT
            AUTOSCHED_OMP AUTOSCHED_OMP_LIBRARY LD_PRELOAD)
  unset(ENV{${var}})
endforeach()
set(ENV{AUTOSCHED_DB} off)
set(ENV{OMP_NUM_THREADS} 2)

include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)
get_filename_component(name ${PROGRAM} NAME)

# A fixed technique: every taken loop reports it; the loops are named by module + offset.
run(0 ${CLI} run --schedule gss --report-file ${WORK}/gss.txt -- ${PROGRAM})
file(READ ${WORK}/gss.txt report)
expect("${report}" "autosched-omp: [1-9][0-9]* loop\\(s\\) scheduled, [1-9][0-9]* instance")
expect("${report}" "\n    id omp:${name}@[0-9a-fs]+\\+0x[0-9a-f]+\n")
expect("${report}" " gss,chunk=1 ")
# A long name has a line of its own, so a name and its numbers are separated by blanks or a newline.
string(REGEX MATCHALL "\n[^ \n]+ in ${name}[ \n]+[0-9]+ +[^ ]+" rows "${report}")
string(REGEX MATCHALL "\n[^ \n]+ in ${name}[ \n]+[0-9]+ +gss,chunk=1" gss_rows "${report}")
list(LENGTH rows n_rows)
list(LENGTH gss_rows n_gss)
if(n_rows EQUAL 0 OR NOT n_rows EQUAL n_gss)
  message(FATAL_ERROR "${n_gss} of ${n_rows} loops ran --schedule gss:\n${report}")
endif()

# OMP_SCHEDULE in OpenMP's spelling is read by the grammar: dynamic,4 is ss
# with chunk 4, which is also the runtime's own arm (the last column; the
# report prints no time "saved" against it, docs/dropin.md "The report").
set(ENV{OMP_SCHEDULE} "nonmonotonic:dynamic,4")
run(0 ${CLI} run --report-file ${WORK}/omp.txt -- ${PROGRAM})
unset(ENV{OMP_SCHEDULE})
file(READ ${WORK}/omp.txt report)
expect("${report}" " ss,chunk=4 +[0-9.]+ +0% +ss,chunk=4\n")

# AUTOSCHED_SCHEDULE_FOR names one loop by what the report shows for it.
file(READ ${WORK}/gss.txt report)
string(REGEX MATCH "\n([^ \n]+) in ${name}[ \n]" first "${report}")
if(NOT first)
  message(FATAL_ERROR "no loop with a readable name in:\n${report}")
endif()
set(where "${CMAKE_MATCH_1}")
# An entry that matches no loop (a typo) is warned about at exit, by its
# name alone: the entry that matched is not.
set(ENV{AUTOSCHED_SCHEDULE_FOR} "${where}=fac2;imb10.c:99=gss")
run(0 ${CLI} run --schedule static --report-file ${WORK}/for.txt -- ${PROGRAM})
unset(ENV{AUTOSCHED_SCHEDULE_FOR})
file(READ ${WORK}/for.txt report)
string(REPLACE "+" "\\+" where_re "${where}")
expect("${report}" "\n${where_re} in ${name}[ \n]+[0-9]+ +fac2 ")
expect("${report}" " static ")
expect("${err}" "AUTOSCHED_SCHEDULE_FOR: 'imb10.c:99' matched no loop this process ran")
string(FIND "${err}" "'${where}'" named_matched)
if(NOT named_matched EQUAL -1)
  message(FATAL_ERROR "the entry that matched a loop was warned about:\n${err}")
endif()

# The names a report printed find their loops in the store: db show accepts them.
set(ENV{AUTOSCHED_DB} ${WORK}/named.db)
run(0 ${CLI} run --schedule auto --report-file ${WORK}/named.txt -- ${PROGRAM})
run(0 ${CLI} db show "${where} in ${name}")
expect("${out}" "\n  loop omp:${name}@[^\n]+\n  name ${where_re} in ${name} \\(as the drop-in's report printed it\\)\n")
run(0 ${CLI} db list)
if(out MATCHES "loop-name")
  message(FATAL_ERROR "db list shows the drop-in's names as blobs:\n${out}")
endif()
set(ENV{AUTOSCHED_DB} off)

# The loops reach the store under their ids, so a second run warm-starts.
set(ENV{AUTOSCHED_DB} ${WORK}/store.db)
run(0 ${CLI} run --schedule auto -- ${PROGRAM})
run(0 ${CLI} db list)
expect("${out}" "\nomp:${name}@[0-9a-fs]+\\+0x[0-9a-f]+#[0-9]+/2 ")
# Its rows carry the fingerprint `autosched info` prints, when the CLI runs on
# the program's runtime (libgomp): the drop-in once took its own __kmpc_*
# wrappers for libomp's.
run(0 ${CLI} info)
if(out MATCHES "OpenMP runtime +libgomp")
  string(REGEX MATCH "fingerprint +([0-9a-f]+)" ignored "${out}")
  set(fingerprint ${CMAKE_MATCH_1})
  run(0 ${CLI} db export)
  expect("${out}" "\n\"omp:${name}@[^\n]*,${fingerprint},")
endif()
set(ENV{AUTOSCHED_DB} off)

# OMP_SCHEDULE in autosched's grammar: the launcher loads no OpenMP runtime
# to warn about it, and info says what the drop-in will run.
set(ENV{OMP_SCHEDULE} fac2a)
run(0 ${CLI} run -- /bin/true)
if(err MATCHES "libgomp|OMP_SCHEDULE")
  message(FATAL_ERROR "autosched run warned about OMP_SCHEDULE=fac2a:\n${err}")
endif()
run(0 ${CLI} info)
expect("${out}" "OMP_SCHEDULE +fac2a: under autosched run, schedule\\(runtime\\) loops run mfac2;")
unset(ENV{OMP_SCHEDULE})

# Bad input is named before the program starts, or warned about.
run(1 ${CLI} run --schedule bogus -- ${PROGRAM})
expect("${err}" "--schedule=bogus")
run(127 ${CLI} run -- ${WORK}/no-such-program)
expect("${err}" "cannot start '${WORK}/no-such-program'")
run(1 ${CLI} run --schedule gss)
expect("${err}" "name the program to run")
set(ENV{AUTOSCHED_OMP_LOOPS} sometimes)
run(0 ${CLI} run --schedule gss -- ${PROGRAM})
expect("${err}" "AUTOSCHED_OMP_LOOPS")
unset(ENV{AUTOSCHED_OMP_LOOPS})
# A report destination that cannot take the report is refused before the
# program starts (the drop-in alone warns at exit and reports on stderr).
run(1 ${CLI} run --report-file /dev/full -- ${PROGRAM})
expect("${err}" "--report-file=/dev/full: it is a character device, not a regular file")
run(1 ${CLI} run --report-file ${WORK}/no-such-dir/report.txt -- ${PROGRAM})
expect("${err}" "--report-file=.*no-such-dir/report.txt: its directory .*no-such-dir: no such file or directory")
set(ENV{AUTOSCHED_OMP_REPORT} ${WORK})
run(1 ${CLI} run -- ${PROGRAM})
expect("${err}" "AUTOSCHED_OMP_REPORT=${WORK}: it is a directory, not a regular file")
unset(ENV{AUTOSCHED_OMP_REPORT})
set(ENV{AUTOSCHED_OMP_LIBRARY} ${WORK}/missing.so)
run(1 ${CLI} run -- ${PROGRAM})
expect("${err}" "AUTOSCHED_OMP_LIBRARY=${WORK}/missing.so: no such file")
set(ENV{AUTOSCHED_OMP_LIBRARY} ${WORK})  # a directory is said to be one
run(1 ${CLI} run -- ${PROGRAM})
expect("${err}" "AUTOSCHED_OMP_LIBRARY=${WORK}: it is a directory, not a regular file")
string(REPEAT "a" 5000 long)  # was an uncaught filesystem_error
set(ENV{AUTOSCHED_OMP_LIBRARY} ${WORK}/${long}.so)
run(1 ${CLI} run -- ${PROGRAM})
expect("${err}" "AUTOSCHED_OMP_LIBRARY=.*aaa… \\([0-9]+ more bytes\\): the path is too long")
