# A document holds a compiled example verbatim (doc snippets are
# compiled): the README examples/first_loop.cpp, docs/loops.md the C program.
# Arguments: README (the document) EXAMPLE
file(READ ${README} readme)
file(READ ${EXAMPLE} example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README} does not contain ${EXAMPLE} verbatim; update one of them")
endif()
