# A region example run twice on one store, both times with --planted-costs:
# the region learns from costs the example computes from (features, variant),
# not from the clock, so every check below holds on any machine at any load
# (the work itself still runs, and each run exits non-zero if its results are
# wrong).
#   run 1 explores from its first execution, trains exactly when min_train
#         (vector, variant) pairs are covered, i.e. after min_train executions
#         (each pair tried once), trains once, never drifts, and ends trained;
#   run 2 starts from run 1's model: its first decision exploits, it explores
#         nothing (the examples set explore_after=0), and it predicts for each
#         vector what run 1 learned.
# Which variant wins on real timings depends on the machine: that is
# bench/regions/learned.sh's to report, not a test's to judge.
# -DEXAMPLE=<executable> -DNAME=<name> -DWORK=<directory>
# [-DEXPECT=<regex>;<regex>...]: what run 1 must also print (a variant the
#   planted costs make the winner)
set(dir ${WORK}/${NAME}-check)
set(ENV{AUTOSCHED_DB} ${dir}/store.db)
unset(ENV{AUTOSCHED_REGION_MODEL})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})

# 60 steps: more than any example's min_train (region_threads has the most,
# 2 sizes x the powers of two up to the core count: 18 on 256 cores), and
# short on a loaded machine, where region_threads' two-thread steps crawl.
foreach(run first second)
  execute_process(COMMAND ${EXAMPLE} --quiet --planted-costs --steps 60 OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${NAME} (${run} run) failed (${rc}):\n${out}\n${err}")
  endif()
  set(${run} "${out}")
endforeach()
set(runs "--- first run\n${first}--- second run\n${second}")

# require(<run output> <pattern> <what the run should do>)
function(require text pattern should)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${should}:\n${runs}")
  endif()
endfunction()

# Run 1: explores first, trains after exactly min_train executions, once.
require("${first}" "first decision: explore\n" "the first run should explore at its first execution")
require("${first}" "trained after [0-9]+ executions \\(min_train [0-9]+\\)\n" "the first run should train")
string(REGEX MATCH "trained after ([0-9]+) executions \\(min_train ([0-9]+)\\)" unused "${first}")
if(NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2)
  message(FATAL_ERROR "the first run should train after min_train = ${CMAKE_MATCH_2} executions, "
                      "not ${CMAKE_MATCH_1}:\n${runs}")
endif()
require("${first}" "stats: [^\n]* trainings=1 drifts=0 [^\n]* trained=yes\n"
        "the first run should train once, never drift and end trained")
foreach(line IN LISTS EXPECT)
  require("${first}" "${line}" "the first run should print '${line}'")
endforeach()

# Run 2: starts from the stored model, never explores, predicts the same.
require("${second}" "model from the store" "the second run should start from the stored model")
require("${second}" "first decision: exploit\n" "the second run should exploit at its first execution")
require("${second}" "stats: [^\n]* explored=0 trainings=0 drifts=0 [^\n]* trained=yes\n"
        "the second run should explore nothing (explore_after=0), train nothing and stay trained")
string(REGEX MATCHALL "learned [^ ]+ -> [^ ]+" learned_first "${first}")
string(REGEX MATCHALL "learned [^ ]+ -> [^ ]+" learned_second "${second}")
if(NOT learned_first OR NOT learned_first STREQUAL learned_second)
  message(FATAL_ERROR "the second run should predict what the first learned:\n${runs}")
endif()
message(STATUS "${runs}")
file(REMOVE_RECURSE ${dir})
