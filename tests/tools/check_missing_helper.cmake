# A missing helper program is an error naming it, where it was looked for,
# and that this part was not built or installed; `autosched run` and the
# help need none. Arguments: CLI (the front), WORK, DAG_EXEC (ON when the
# build has the executor's helper, autosched-dag-run), HELPERS (the build
# tree's libexec/autosched).
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)
set(ENV{AUTOSCHED_DB} off)
set(dir ${WORK}/missing-helper)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir}/empty)

# AUTOSCHED_LIBEXEC_DIR names the only directory searched.
set(ENV{AUTOSCHED_LIBEXEC_DIR} ${dir}/empty)
run(1 ${CLI} info)
expect("${err}" "autosched: error: info: the helper program autosched-info that runs it was not found \\(looked in ${dir}/empty\\): this part of autosched was not built or not installed")
run(1 ${CLI} dag simulate --graph cholesky)
expect("${err}" "dag: the helper program autosched-dag [^\n]*not found")
run(0 ${CLI} run --schedule static -- /bin/true)

# The dag helper alone: `dag run` goes on to autosched-dag-run, missing here.
if(DAG_EXEC)
  file(MAKE_DIRECTORY ${dir}/only-dag)
  file(CREATE_LINK ${HELPERS}/autosched-dag ${dir}/only-dag/autosched-dag SYMBOLIC)
  set(ENV{AUTOSCHED_LIBEXEC_DIR} ${dir}/only-dag)
  run(0 ${CLI} dag simulate --graph cholesky --tiles 3)
  run(1 ${CLI} dag run --graph cholesky --tiles 2 --tile-size 8)
  expect("${err}" "dag run: the helper program autosched-dag-run that runs it was not found \\(looked in ${dir}/only-dag\\)")
endif()
unset(ENV{AUTOSCHED_LIBEXEC_DIR})

# A copy of the front with no libexec/autosched beside it finds no helper
# (it looks relative to itself, not in this build tree), and says where.
file(COPY ${CLI} DESTINATION ${dir}/copy/bin)
run(1 ${dir}/copy/bin/autosched db list)
expect("${err}" "db: the helper program autosched-db that runs it was not found \\(looked in ${dir}/copy/libexec/autosched")
run(0 ${dir}/copy/bin/autosched run -- /bin/true)
