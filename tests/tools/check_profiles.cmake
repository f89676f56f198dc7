# Recorded cost profiles, end to end: the time-stepping example run with
# AUTOSCHED_PROFILES writes its loop's profile (auto profiles the first
# instance); `autosched simulate` ranks every arm on it at other worker
# counts; `select-sim --profiles` turns it into simulated scenarios; bad
# files and options are rejected naming the input.
set(dir ${WORK}/profiles-check)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(ENV{AUTOSCHED_DB} off)
unset(ENV{AUTOSCHED_SCHEDULE})
unset(ENV{AUTOSCHED_SCHEDULE_FOR})
unset(ENV{OMP_SCHEDULE})
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

set(ENV{AUTOSCHED_PROFILES} ${dir}/p.tsv)
run(0 ${EXAMPLE} 3)
unset(ENV{AUTOSCHED_PROFILES})
file(READ ${dir}/p.tsv recorded)
# loop, P, then n h and the 256 block times of a 20000-iteration loop (blocks
# of 79). One line per profiling instance: a second one when the first trial
# ran far below its prediction and auto profiled again (`reprofile`), which a
# loaded machine's cold first instance can cause.
expect("${recorded}" "^(time_steps/update\t[0-9]+\t20000 [0-9.e+]+( [0-9.e+]+)+\n)(time_steps/update\t[0-9]+\t20000 [0-9.e+]+( [0-9.e+]+)+\n)?$")

run(0 ${CLI} simulate --profiles ${dir}/p.tsv --workers 2,56 --speeds 1:0.5)
expect("${out}" "time_steps/update \\(profiled at P = [0-9]+; n = 20000, 254 blocks, h = [0-9]+ ns, static-steal's own chunks [0-9.]+ ns\\) simulated at P = 56")
expect("${out}" "24 arms ranked in [0-9]+ ")
expect("${out}" "\n  static-steal:expert +[0-9.]+ +[0-9.]+\n")

# The same profile at the process level: rank 0's queues (counter, coordinator).
# --plots: each profile's predictions against the worker count, a picture
# (with gnuplot) and its data; one worker count is refused.
run(0 ${CLI} simulate --profiles ${dir}/p.tsv --workers 2,8,64 --plots ${dir}/scaling)
expect("${out}" "\npicture: [^\n]*scaling/1-time_steps_update\\.(png|gp)")
file(STRINGS ${dir}/scaling/1-time_steps_update.dat scaling)
list(LENGTH scaling n)
if(NOT n EQUAL 4)
  message(FATAL_ERROR "1-time_steps_update.dat: ${n} lines, expected a header and 3 worker counts")
endif()
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --workers 8 --plots ${dir}/scaling)
expect("${err}" "--plots: draws the predictions against the worker count; give several")
run(0 ${CLI} simulate --profiles ${dir}/p.tsv --workers 200 --queues 12000,6000)
expect("${out}" "simulated at P = 200: 24 arms ranked in [0-9]+ ")
# Ranked as auto ranks: one worker 5% slow.
run(0 ${CLI} simulate --profiles ${dir}/p.tsv --jitter 0.05)
expect("${out}" "simulated at P = [0-9]+, one worker 5% slow: 24 arms ranked in [0-9]+ ")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --jitter 0.05 --speeds 1:0.5)
expect("${err}" "--jitter and --speeds both set the workers' speeds")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --jitter 2)
expect("${err}" "--jitter=2[.0]*: expected a share of a worker's time in \\[0, 0.9\\]")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --queues 12000)
expect("${err}" "--queues '12000': expected two times in ns")
# static-steal's own chunks: this machine's price, the profile's h, or a given one.
run(0 ${CLI} simulate --profiles ${dir}/p.tsv --owner-dispatch h)
string(REGEX MATCH "h = ([0-9]+) ns, static-steal's own chunks ([0-9]+)[.]([0-9]) ns" both "${out}")
if(both)  # h is printed rounded: within half a ns
  math(EXPR tenths_off "${CMAKE_MATCH_2} * 10 + ${CMAKE_MATCH_3} - ${CMAKE_MATCH_1} * 10")
endif()
if(NOT both OR tenths_off GREATER 5 OR tenths_off LESS -5)
  message(FATAL_ERROR "--owner-dispatch h: the own chunks should cost h:\n${out}")
endif()
run(0 ${CLI} simulate --profiles ${dir}/p.tsv --owner-dispatch 2.5)
expect("${out}" "static-steal's own chunks 2.5 ns")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --owner-dispatch fast)
expect("${err}" "--owner-dispatch=fast: expected measured, h, or a time in ns >= 0")

run(0 ${CLI} select-sim --profiles ${dir}/p.tsv --workers 20 --seeds 1 --selectors auto)
expect("${out}" "time_steps/update@20 — simulated: a measured cost profile at P = 20")
expect("${out}" "\n  auto +[0-9.]+ ")

file(WRITE ${dir}/bad.tsv "time_steps/update\t2\t20000 abc\n")
run(1 ${CLI} simulate --profiles ${dir}/bad.tsv)
expect("${err}" "bad.tsv:1: a cost profile starts with `n h`")
file(WRITE ${dir}/short.tsv "just a loop name\n")
run(1 ${CLI} simulate --profiles ${dir}/short.tsv)
expect("${err}" "short.tsv:1: expected `loop<TAB>P<TAB>n h block...`")
run(1 ${CLI} simulate --profiles ${dir}/missing.tsv)
expect("${err}" "profiles: cannot read .*missing.tsv")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --workers 0)
expect("${err}" "--workers=0: expected worker counts >= 1")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --speeds 1:-2)
expect("${err}" "--speeds=1:-2: expected positive speeds")
run(1 ${CLI} simulate --profiles ${dir}/p.tsv --csv /dev/full)  # the rows were lost with exit 0
expect("${err}" "--csv=/dev/full: it is a character device, not a regular file")

# AUTOSCHED_SCENARIOS names where `select-sim --scenario` looks first: a
# path that cannot be that directory is an error naming the variable (an
# empty directory fell back silently; a 5,000-byte path aborted).
file(MAKE_DIRECTORY ${dir}/no-scenarios)
set(ENV{AUTOSCHED_SCENARIOS} ${dir}/no-scenarios)
run(1 ${CLI} select-sim --scenario all --seeds 1)
expect("${err}" "AUTOSCHED_SCENARIOS=.*no-scenarios: --scenario all found no .scenario file in this directory")
set(ENV{AUTOSCHED_SCENARIOS} ${dir}/p.tsv)
run(1 ${CLI} select-sim --scenario all --seeds 1)
expect("${err}" "AUTOSCHED_SCENARIOS=.*p.tsv: it is a regular file, not a directory")
string(REPEAT "a" 5000 long)
set(ENV{AUTOSCHED_SCENARIOS} ${dir}/${long})
run(1 ${CLI} select-sim --scenario all --seeds 1)
expect("${err}" "AUTOSCHED_SCENARIOS=.*aaa… \\([0-9]+ more bytes\\): the path is too long")
unset(ENV{AUTOSCHED_SCENARIOS})
file(REMOVE_RECURSE ${dir})

# --plots: a scenario's regret over the steps as data, a script, and (with
# gnuplot) a picture, `auto` and the other selector each a column.
run(0 ${CLI} select-sim --scenario drift --seeds 1 --selectors "auto\\;auto:random" --plots ${dir}/plots)
expect("${out}" "picture: [^\n]*plots/drift\\.(png|gp)")
file(STRINGS ${dir}/plots/drift.dat curve)
list(LENGTH curve n)
if(n LESS 100)
  message(FATAL_ERROR "drift.dat has ${n} lines")
endif()
list(GET curve 0 header)
expect("${header}" "^step\t\"auto\"\t\"auto:random\"$")
file(READ ${dir}/plots/drift.gp script)
expect("${script}" "plot for \\[i=2:3\\] 'drift.dat' using 1:i with lines")
file(REMOVE_RECURSE ${dir})
