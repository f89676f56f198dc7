# A plain OpenMP app (autosched-plain-<app>) must be a program the drop-in has
# never seen: no autosched library among what it loads (ldd), and no autosched
# symbol, defined or undefined (nm -C), other than the app's own helpers in
# autosched::apps (app.hpp: the command line and the record).
# -DAPP=<executable> -DNM=<nm>
execute_process(COMMAND ldd ${APP} RESULT_VARIABLE rc OUTPUT_VARIABLE libs ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${APP} failed (${rc}): ${err}")
endif()
if(NOT libs MATCHES "lib(gomp|omp)")
  message(FATAL_ERROR "${APP} loads no OpenMP runtime, so it is not the program we mean:\n${libs}")
endif()
if(libs MATCHES "autosched")
  message(FATAL_ERROR "${APP} loads an autosched library:\n${libs}")
endif()
execute_process(COMMAND ${NM} -C ${APP} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -C ${APP} failed (${rc}): ${err}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(bad "")
set(own 0)
foreach(line ${lines})
  string(TOLOWER "${line}" lower)
  if(NOT lower MATCHES "autosched")
    continue()
  endif()
  # The app's own code: autosched::apps::... (possibly inside a template
  # argument or a lambda's name; clang leaves some local tables mangled,
  # `9autosched4apps`), and nothing else of autosched. The drop-in's C types
  # (autosched/omp/dropin.h: autosched_omp_counts, autosched_omp_instance)
  # appear in the signatures of the helpers that read it at run time; they
  # are declarations, no code.
  string(REGEX REPLACE "autosched::apps::|9autosched4apps|autosched_omp_counts|autosched_omp_instance" "" rest
         "${line}")
  if(rest MATCHES "[Aa][Uu][Tt][Oo][Ss][Cc][Hh][Ee][Dd]")
    list(APPEND bad "${line}")
  else()
    math(EXPR own "${own} + 1")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n" text)
  message(FATAL_ERROR "${APP} has autosched symbols:\n${text}")
endif()
if(own EQUAL 0)
  message(FATAL_ERROR "${APP}: nm -C shows no autosched::apps symbol at all; is it stripped? The check would prove nothing")
endif()
message(STATUS "${APP}: no autosched library or symbol (${own} symbols of the app's own autosched::apps helpers)")
