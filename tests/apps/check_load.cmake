# autosched-load (exogenous load for the pinning experiments): a short run
# ends with every busy process gone, so does one stopped by SIGTERM, and one
# SIGKILLed (its children die with it, PR_SET_PDEATHSIG); cores outside the
# process's CPU set and bad values are rejected by name. -DAPP=<executable>.
# Waits for processes to vanish but never judges how long anything took.
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

# Fails if a busy process named in `text` ("started pid N") is still alive
# (a zombie awaiting its reaper counts as gone) once `patience` polls of 0.1 s
# are over.
function(expect_children_gone text patience)
  string(REGEX MATCHALL "started pid [0-9]+" started "${text}")
  if(NOT started)
    message(FATAL_ERROR "no busy process reported in:\n${text}")
  endif()
  foreach(item ${started})
    string(REGEX REPLACE "started pid " "" pid "${item}")
    foreach(poll RANGE ${patience})
      set(alive FALSE)
      if(EXISTS /proc/${pid}/stat)
        file(READ /proc/${pid}/stat stat)
        file(READ /proc/${pid}/cmdline cmdline)
        if(NOT stat MATCHES "\\) Z " AND cmdline MATCHES "autosched-load")
          set(alive TRUE)
        endif()
      endif()
      if(NOT alive)
        break()
      endif()
      execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.1)
    endforeach()
    if(alive)
      message(FATAL_ERROR "busy process ${pid} outlived autosched-load:\n${text}")
    endif()
  endforeach()
endfunction()

run(0 ${APP} --duration 0.3)
expect("${err}" "1 busy process\\(es\\) on core\\(s\\) [0-9]+, from t=0.000 s for 0.300 s, pattern constant")
expect("${err}" "stopped 1 busy process\\(es\\) \\(duration over\\)")
expect_children_gone("${err}" 0)

# Two processes switched off and on, then one hopping between the allowed cores.
run(0 ${APP} --processes 2 --pattern varying --period 0.1 --duration 0.35)
expect("${err}" "load off")
expect("${err}" "stopped 2 busy process\\(es\\)")
expect_children_gone("${err}" 0)
run(0 ${APP} --pattern moving --period 0.1 --duration 0.25)
expect("${err}" "moved to core")
expect_children_gone("${err}" 0)

# --foreground: timeout signals the load alone, not its process group, so
# that its own cleanup (TERM) and the kernel's (KILL) are what is tested.
find_program(TIMEOUT timeout)
if(TIMEOUT)
  run(124 ${TIMEOUT} --foreground -s TERM 0.5 ${APP})
  expect("${err}" "stopped 1 busy process\\(es\\) \\(SIGTERM\\)")
  expect_children_gone("${err}" 0)
  run(137 ${TIMEOUT} --foreground -s KILL 0.5 ${APP} --processes 2)
  expect_children_gone("${err}" 100)  # the kernel kills them; their reaper may lag
endif()

# Bad input, named.
run(2 ${APP} --cores 999)
expect("${err}" "--cores=999: core 999 is not in this process's CPU set; expected .* among the allowed cores [0-9]")
run(2 ${APP} --cores 1x)
expect("${err}" "--cores=1x: '1x' is not a core number")
run(2 ${APP} --pattern sometimes)
expect("${err}" "--pattern=sometimes: expected constant\\|varying\\|moving")
run(2 ${APP} --period 0)
expect("${err}" "--period=0: expected a number of seconds > 0")
run(2 ${APP} --duration -1)
expect("${err}" "--duration=-1: expected a number of seconds >= 0")
