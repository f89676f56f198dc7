# `autosched db list|show|export --csv|forget` on a store filled by two runs of
# store_probe; and the errors for a missing store, an unknown point, an off store.
set(dir ${WORK}/db-check)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(ENV{AUTOSCHED_DB} ${dir}/s.db)
unset(ENV{AUTOSCHED_SCHEDULE})
unset(ENV{OMP_SCHEDULE})

include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

run(1 ${CLI} db list)
expect("${err}" "autosched: error: no store at ${dir}/s.db")

run(0 ${PROBE} alpha 12 4096 auto,portfolio=static,gss)
run(0 ${PROBE} beta 12 100000 auto:qlearn)

run(0 ${CLI} db list)
expect("${out}" "store ${dir}/s.db: 2 runs, 24 history rows, 2 decision points")
expect("${out}" "\nalpha#13/2 +12 +[0-9]+ +(static|gss) +[0-9.]+ +auto,portfolio=static,gss\n")
expect("${out}" "\nbeta#17/2 +12 +12 +[a-z0-9-]+ +[0-9.]+ +auto:qlearn\n")

run(0 ${CLI} db show alpha)
expect("${out}" "alpha#13/2\n  loop alpha, N bucket 13 \\(N < 2\\^13\\), 2 threads")
expect("${out}" "portfolio static,gss")
expect("${out}" "saved state of auto,portfolio=static,gss")
expect("${out}" "\n  static +[0-9]+ ")
# The state in words (the arm by name, what it learned from); --raw as stored.
expect("${out}" "saved state of auto,portfolio=static,gss \\([^)]*\\):\n    [a-z]+ (static|gss)?[^\n]*learned from 12 instances")
run(0 ${CLI} db show --raw alpha)
expect("${out}" "saved state of auto,portfolio=static,gss \\([^)]*\\):\n    auto[0-9]+ ")

run(0 ${CLI} db export --csv ${dir}/all.csv)
file(STRINGS ${dir}/all.csv rows)
list(LENGTH rows count)
if(NOT count EQUAL 25)
  message(FATAL_ERROR "export: ${count} lines, expected a header and 24 rows")
endif()
list(GET rows 0 header)
expect("${header}" "^loop,bucket,point_p,fingerprint,run,instance,arm,n,p,time_ns,.*,selector,selector_ns,reward,explored,cut_short$")
run(0 ${CLI} db export --csv)
expect("${out}" "\n\"beta\",17,2,[0-9a-f]+,2,11,")

run(0 ${CLI} db forget beta)
expect("${out}" "forgot 1 entry \\(decision points, regions\\) called 'beta'")
run(0 ${CLI} db list)
expect("${out}" "2 runs, 12 history rows, 1 decision points")
run(1 ${CLI} db show beta)
expect("${err}" "no decision point, loop or region called 'beta' in ${dir}/s.db; `autosched db list` shows them")
run(1 ${CLI} db forget beta)
run(0 ${CLI} db export)
expect("${out}" "^loop,bucket,point_p,") # CSV, the default

set(ENV{AUTOSCHED_DB} off)
run(1 ${CLI} db list)
expect("${err}" "the store is off \\(AUTOSCHED_DB=off\\); name a store with --db <path>")
run(0 ${CLI} db --db ${dir}/s.db list)
expect("${out}" "1 decision points")
run(0 ${CLI} db list --db ${dir}/s.db)
expect("${out}" "1 decision points")
run(0 ${CLI} db show --db ${dir}/s.db alpha)
expect("${out}" "alpha#13/2")

# Inspection never replaces a file that is not an autosched store.
file(WRITE ${dir}/notes.db "my notes, not a database\n")
run(1 ${CLI} db --db ${dir}/notes.db list)
expect("${err}" "store ${dir}/notes.db is unreadable \\(.*\\); it is not an autosched store")
file(READ ${dir}/notes.db notes)
expect("${notes}" "^my notes, not a database\n$")
file(GLOB aside ${dir}/notes.db.unusable-*)
if(aside)
  message(FATAL_ERROR "inspection moved the file aside: ${aside}")
endif()
file(REMOVE_RECURSE ${dir})
