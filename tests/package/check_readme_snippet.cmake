# The README's example is examples/first_loop.cpp verbatim (STYLE §16: doc
# snippets are compiled). Arguments: README EXAMPLE
file(READ ${README} readme)
file(READ ${EXAMPLE} example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not contain ${EXAMPLE} verbatim; update one of them")
endif()
