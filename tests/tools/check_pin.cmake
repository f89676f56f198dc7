# `autosched pin`: launching a program (its exit status comes back, a thread
# it starts late is managed and traced), attaching to a running one with
# --pid, and the rejected inputs. Nothing here judges time.
set(dir ${WORK}/pin-check)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
unset(ENV{AUTOSCHED_PINNING})
unset(ENV{OMP_PROC_BIND})
unset(ENV{OMP_PLACES})

include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

# The trace lists tid `tid` (second column) at least once.
function(expect_traced csv tid)
  file(READ ${csv} trace)
  expect("${trace}" "^time_s,tid,source,speed,utility,average,wait_share,core\n")
  expect("${trace}" "\n[0-9.e+-]+,${tid},")
endfunction()

# Launch: the probe starts its thread 0.3 s in, spins 1 s, exits 3.
run(3 ${CLI} pin --policy learn --seed 7 --trace ${dir}/launch.csv -- ${PROBE} 0.3 1.0 3)
expect("${out}" "late tid [0-9]+")
string(REGEX MATCH "late tid ([0-9]+)" _ "${out}")
expect_traced(${dir}/launch.csv ${CMAKE_MATCH_1})
expect("${err}" "autosched pin: '.*pin_probe' exited 3, policy learn-o1: [0-9]+ periods, [0-9]+ threads seen, [0-9]+ moves")

# --plot: the core of each thread over time, as data, a script and (with
# gnuplot) a picture; a directory that does not exist is refused up front.
# (1 s of work with 0.05 s periods: pinned periods even on a loaded machine.)
run(0 ${CLI} pin --policy round-robin --options period=0.05 --plot ${dir}/cores.png -- ${PROBE} 0 1.0 0)
expect("${err}" "autosched pin: picture: ${dir}/cores(\\.png|\\.gp)")
file(READ ${dir}/cores.dat cores)
expect("${cores}" "# thread [0-9]+\n\n*[0-9.e+-]+ [0-9.e+-]+\n")
file(READ ${dir}/cores.gp script)
expect("${script}" "with steps")
run(1 ${CLI} pin --plot ${dir}/no-such-dir/cores.png -- ${PROBE} 0 0 0)
expect("${err}" "--plot=${dir}/no-such-dir/cores.png: its directory: no such file or directory")

# Other policies and options reach the manager.
run(0 ${CLI} pin --policy round-robin --trace ${dir}/rr.csv -- ${PROBE} 0 0.3 0)
expect("${err}" "policy round-robin")
run(0 ${CLI} pin --objective o2 --options eps=0.05,period=0.05 -- ${PROBE} 0 0.3 0)
expect("${err}" "policy learn-o2")

# Attach: a shell starts the probe in the background and hands its pid over;
# the tool follows it until it ends.
run(0 sh -c "${PROBE} 0.3 1.0 0 & ${CLI} pin --pid $! --policy off --trace ${dir}/attach.csv; wait $!")
string(REGEX MATCH "late tid ([0-9]+)" _ "${out}")
expect_traced(${dir}/attach.csv ${CMAKE_MATCH_1})
expect("${err}" "autosched pin: pid [0-9]+ ended, policy off")

# SIGTERM to the tool reaches the program: the probe (20 s of work) dies of
# it and the tool exits 128+15. The signal is sent once the probe has
# printed, when the tool's handlers are surely in place.
run(143 sh -c "${CLI} pin -- ${PROBE} 0 20 0 >${dir}/term.out 2>${dir}/term.err & p=$!
  until grep -q 'late tid' ${dir}/term.out
  do sleep 0.05
  done
  kill -TERM $p
  wait $p")  # no semicolons: CMake would split the script at them
file(READ ${dir}/term.err term_err)
expect("${term_err}" "autosched pin: '.*pin_probe' exited 143")

# SIGKILL to the tool, which can forward nothing: the program dies with it
# (it asked for SIGTERM at its parent's death) within 5 s instead of running
# on unwatched. The probe's thread id names it in /proc; a zombie is dead.
run(0 sh -c "${CLI} pin -- ${PROBE} 0 20 0 >${dir}/kill.out 2>${dir}/kill.err & p=$!
  until grep -q 'late tid' ${dir}/kill.out
  do sleep 0.05
  done
  t=$(sed -n 's/late tid //p' ${dir}/kill.out)
  kill -KILL $p
  n=0
  while [ -e /proc/$t ] && ! grep -q '^State:.*Z' /proc/$t/status 2>/dev/null && [ $n -lt 100 ]
  do sleep 0.05
  n=$((n + 1))
  done
  test ! -e /proc/$t || grep -q '^State:.*Z' /proc/$t/status")

# Bad input, each rejected naming what was wrong.
run(2 ${CLI} pin --policy frob -- ${PROBE} 0 0 0)
expect("${err}" "--policy: frob not in")
foreach(seed -1 99999999999999999999)
  run(2 ${CLI} pin --seed ${seed} -- ${PROBE} 0 0 0)
  expect("${err}" "--seed: .*${seed}.*: expected an integer in \\[0, 18446744073709551615\\]")
endforeach()
run(2 ${CLI} pin --seed "" -- ${PROBE} 0 0 0)  # an empty value is a missing one
expect("${err}" "--seed: 1 required UINT:SEED missing")
# A trace that cannot take the rows is refused before the program starts (a
# FIFO blocked pin; /dev/full lost every row with exit 0).
execute_process(COMMAND mkfifo ${dir}/trace.fifo)
run(1 ${CLI} pin --trace ${dir}/trace.fifo -- ${PROBE} 0 0 0)
expect("${err}" "--trace=.*trace.fifo: it is a FIFO, not a regular file")
run(1 ${CLI} pin --trace /dev/full -- ${PROBE} 0 0 0)
expect("${err}" "--trace=/dev/full: it is a character device, not a regular file")
run(1 ${CLI} pin --options eps=2 -- ${PROBE} 0 0 0)
expect("${err}" "pin --policy/--options.*eps")
run(1 ${CLI} pin --options nonsense -- ${PROBE} 0 0 0)
expect("${err}" "nonsense")
run(1 ${CLI} pin --policy autopin --objective o2 -- ${PROBE} 0 0 0)
expect("${err}" "--objective=o2 applies to the learning policy")
run(1 ${CLI} pin --policy learn)
expect("${err}" "name the program to manage")
run(1 ${CLI} pin --pid 999999999)
expect("${err}" "--pid=999999999: no such running process")
run(127 ${CLI} pin -- ${dir}/no-such-program)
expect("${err}" "cannot start '.*no-such-program': No such file")
