# The front `autosched` lists every subcommand with its description without
# starting a helper, and each subcommand's own --help, its messages and exit
# codes are those of its full definition (the helper parses the command line
# again). Arguments: CLI (the front).
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)
set(ENV{AUTOSCHED_DB} off)

run(0 ${CLI} --help)
foreach(line
    "info +Show version, system, OpenMP runtime"
    "select-sim +Run selectors against simulated loops"
    "simulate +Predict every arm's loop time"
    "db +Inspect and manage the store"
    "bench +Run an Oracle campaign"
    "report +Write summary.md, CSVs and pictures"
    "demo +The main job: a small campaign"
    "run +run an unmodified OpenMP program"
    "dag +Task graphs on CPU\\+GPU platforms"
    "pin +manage the threads of a program from outside")
  expect("${out}" "\n  ${line}")
endforeach()
# Nothing but the front is needed for that, or for --version.
set(ENV{AUTOSCHED_LIBEXEC_DIR} ${WORK}/no-helpers-here)
run(0 ${CLI} --help)
expect("${out}" "\n  dag +Task graphs")
run(0 ${CLI} --version)
unset(ENV{AUTOSCHED_LIBEXEC_DIR})

# A helper's subcommand: its full help, wherever --help stands.
run(0 ${CLI} dag --help)
expect("${out}" "Usage: [^\n]*autosched dag \\[OPTIONS\\] SUBCOMMAND")
expect("${out}" "\n  simulate +Simulate one graph[^\n]*\n  run +Run a tiled factorisation[^\n]*\n  bench +[^\n]*\n  train +")
run(0 ${CLI} --help dag)
expect("${out}" "\n  train +Train the learned policy")
run(0 ${CLI} dag run --help)
expect("${out}" "--tile-size")
run(0 ${CLI} db list --help)
expect("${out}" "Every decision point with its best arm")
run(0 ${CLI} info --help)
expect("${out}" "--techniques")
run(0 ${CLI} pin --help)
expect("${out}" "--policy")
expect("${out}" "Usage: [^\n]*autosched pin \\[OPTIONS\\] \\(-- PROGRAM \\[ARGS...\\] \\| --pid PID\\)\n")
run(0 ${CLI} bench --help)
expect("${out}" "--dropin-library")
run(0 ${CLI} run --help)
expect("${out}" "--report-file")
expect("${out}" "Usage: [^\n]*autosched run \\[OPTIONS\\] -- PROGRAM \\[ARGS...\\]\n")
# Consistent option help: a type for every value, no "{false}" on a flag,
# and what `all` stands for.
run(0 ${CLI} dag simulate --help)
expect("${out}" "--tiles INT=")
expect("${out}" "or all \\(= heft, [^)]*random; smallest-id")
run(0 ${CLI} dag bench --help)
expect("${out}" "--tiles LIST=")
if(DAG_LEARN)
  run(0 ${CLI} dag train --help)
  expect("${out}" "--no-resume  ")
  if(out MATCHES "\\{false\\}|\\{true\\}")
    message(FATAL_ERROR "a flag shows a default in braces:\n${out}")
  endif()
endif()

# Usage errors: exit status 2, the wrong word named; nothing given: help.
run(2 ${CLI})
expect("${err}" "Usage: [^\n]*autosched \\[OPTIONS\\] SUBCOMMAND")
expect("${err}" "\n  run +")
run(2 ${CLI} dag)
expect("${err}" "Usage: autosched dag \\[OPTIONS\\] SUBCOMMAND")
run(2 ${CLI} frobnicate)
expect("${err}" "autosched: error: 'frobnicate' is not a command of autosched \\(one of: info, [^)]*run[^)]*\\)")
run(2 ${CLI} db frob)
expect("${err}" "'frob' is not a command of autosched db \\(one of: list, show, export, forget\\)")
run(2 ${CLI} info extra)
expect("${err}" "autosched: error: The following argument was not expected: extra\nautosched info --help says more")
run(2 ${CLI} db --frob list)
expect("${err}" "--frob")
run(2 ${CLI} run --loops x -- /bin/true)
expect("${err}" "--loops: 'x' is not one of runtime, all, static")
run(2 ${CLI} run --loops all,statik -- /bin/true)
expect("${err}" "--loops: 'statik' is not one of runtime, all, static")
# A program that cannot be started: 127 not found, 126 found but not runnable.
run(127 ${CLI} run -- ${WORK}/no-such-program)
expect("${err}" "autosched: error: run: cannot start")
file(WRITE ${WORK}/not-executable "data\n")
run(126 ${CLI} run -- ${WORK}/not-executable)
expect("${err}" "Permission denied")
run(1 ${CLI} dag simulate --graph frob)
expect("${err}" "autosched: error: --graph=frob")

# `info` says PAPI's state once, on its own row; the pinning row refers to it.
run(0 ${CLI} info)
string(REGEX MATCH "\n    PAPI +([^\n]+)\n" papi_row "${out}")
if(NOT papi_row)
  message(FATAL_ERROR "info has no PAPI row:\n${out}")
endif()
string(FIND "${out}" "${CMAKE_MATCH_1}" first)
string(FIND "${out}" "${CMAKE_MATCH_1}" last REVERSE)
if(NOT first EQUAL last)
  message(FATAL_ERROR "info says PAPI's state twice ('${CMAKE_MATCH_1}'):\n${out}")
endif()
