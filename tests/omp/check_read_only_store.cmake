# A shared, pre-trained store this process cannot write (docs/selection.md,
# "The store"): it is used read-only, said once naming its path; the run
# warm-starts from it; nothing is written to it; `db list` reads it and
# `db forget` says it cannot. Run as root, the checks run as nobody
# (setpriv), for whom the file's permissions hold.
# Arguments: CLI PROGRAM (tests/omp/report.cpp) WORK
if(EXISTS ${WORK})
  execute_process(COMMAND chmod -R u+w ${WORK})
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/shared)
foreach(var AUTOSCHED_SCHEDULE AUTOSCHED_SCHEDULE_FOR OMP_SCHEDULE AUTOSCHED_OMP_LOOPS AUTOSCHED_OMP_REPORT
            AUTOSCHED_OMP AUTOSCHED_OMP_LIBRARY LD_PRELOAD DROPIN_EXPECT_TAKEN)
  unset(ENV{${var}})
endforeach()
set(ENV{OMP_NUM_THREADS} 2)
set(store ${WORK}/shared/trained.db)
set(ENV{AUTOSCHED_DB} ${store})
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

# Trained by its owner.
run(0 ${CLI} run -- ${PROGRAM})
file(MD5 ${store} before)
execute_process(COMMAND chmod 0444 ${store})
execute_process(COMMAND chmod 0555 ${WORK}/shared)

execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
set(as_user "")
if(uid STREQUAL "0")
  find_program(SETPRIV setpriv)
  if(NOT SETPRIV)
    message(STATUS "SKIP: running as root without setpriv, the permissions cannot hold")
    return()
  endif()
  set(as_user ${SETPRIV} --reuid=65534 --regid=65534 --clear-groups)
endif()

run(0 ${as_user} ${CLI} run --report -- ${PROGRAM})
expect("${err}" "store ${store} is read-only for this process \\(it or its directory cannot be written\\): runs start from what it holds")
expect("${err}" "\n    resumed: [1-9][0-9]* earlier instances \\(warm start from the store\\)")
if(err MATCHES "the store is off")
  message(FATAL_ERROR "the read-only store was turned off:\n${err}")
endif()
file(MD5 ${store} after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "the read-only store changed")
endif()
file(GLOB beside ${WORK}/shared/*)
list(LENGTH beside files)
if(NOT files EQUAL 1)
  message(FATAL_ERROR "files appeared beside the read-only store: ${beside}")
endif()

run(0 ${as_user} ${CLI} db list)
expect("${out}" "store ${store}: 1 runs, 121 instances in [0-9]+ history rows, 2 decision points")
run(1 ${as_user} ${CLI} db forget omp:nothing)
expect("${err}" "store ${store} is read-only for this process: nothing was forgotten")

execute_process(COMMAND chmod -R u+w ${WORK})
