# The tool installed (its `tool` component: the front and the helpers) into
# a scratch prefix finds its helpers there, relative to itself: `autosched
# info` reports them, and `dag simulate` (and `dag run`, two helpers deep)
# and `run` work from the prefix. Arguments: BUILD_DIR, WORK, DAG_EXEC.
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)
set(ENV{AUTOSCHED_DB} off)
unset(ENV{AUTOSCHED_LIBEXEC_DIR})
set(prefix ${WORK}/installed-tool)
file(REMOVE_RECURSE ${prefix})
run(0 ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component tool)
set(cli ${prefix}/bin/autosched)

run(0 ${cli} info)
expect("${out}" "\n  helpers +${prefix}/libexec/autosched \\(every subcommand but run\\)\n")
run(0 ${cli} dag simulate --graph cholesky --tiles 4 --platform 2cpu+1gpu --scheduler heft,mct)
expect("${out}" "lower bound")
if(DAG_EXEC)
  run(0 ${cli} dag run --graph cholesky --tiles 2 --tile-size 16 --workers 1)
  expect("${out}" " 1/1 ")
endif()
run(0 ${cli} run --schedule static -- /bin/true)
