# A bad argument on one rank of an MPI app (an MPMD launch: rank 1 alone has
# it) ends the whole job with exit 2 and one message naming the rank and the
# argument, instead of leaving rank 0 in its first collective for ever; the
# same argument on every rank gives one message, rank 0's. The 60 s bound
# only tells a hang from an end.
# Arguments: MPIEXEC (the launcher and its flags, '|'-separated), APP
string(REPLACE "|" ";" launcher "${MPIEXEC}")
execute_process(COMMAND ${launcher} -n 1 ${APP} --steps 2 --quiet : -n 1 ${APP} --steps frob --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc STREQUAL "" OR rc MATCHES "timeout" OR rc EQUAL 0)
  message(FATAL_ERROR "MPMD launch with a bad argument on rank 1: '${rc}' (expected a non-zero exit)\n${out}${err}")
endif()
if(NOT err MATCHES "rank 1: --steps=frob: expected a non-negative integer")
  message(FATAL_ERROR "the message does not name rank 1 and its argument:\n${err}")
endif()
execute_process(COMMAND ${launcher} -n 2 ${APP} --steps frob --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc STREQUAL "" OR rc MATCHES "timeout" OR rc EQUAL 0)
  message(FATAL_ERROR "a bad argument on every rank: '${rc}' (expected a non-zero exit)\n${out}${err}")
endif()
string(REGEX MATCHALL "--steps=frob" said "${err}")
list(LENGTH said count)
if(NOT count EQUAL 1 OR err MATCHES "rank [0-9]+: --steps")
  message(FATAL_ERROR "expected rank 0's message alone:\n${err}")
endif()
