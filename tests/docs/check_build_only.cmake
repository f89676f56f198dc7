# The README documents a build-only path ("Build only, as any user"): its
# configure and build commands must be those scripts/setup.sh runs after
# installing the packages, which CI's release build runs too (scripts/test.sh).
# Arguments: SOURCE
file(READ ${SOURCE}/README.md readme)
file(READ ${SOURCE}/scripts/setup.sh setup)
file(READ ${SOURCE}/scripts/test.sh test_script)
if(NOT readme MATCHES "\\*\\*Build only, as any user\\.\\*\\*")
  message(FATAL_ERROR "README.md has no build-only section")
endif()
foreach(command "cmake --preset release" "cmake --build --preset release")
  string(FIND "${readme}" "${command}" in_readme)
  string(FIND "${setup}" "${command}" in_setup)
  if(in_readme EQUAL -1 OR in_setup EQUAL -1)
    message(FATAL_ERROR "'${command}' is not in both README.md's build-only path and scripts/setup.sh")
  endif()
endforeach()
if(NOT test_script MATCHES "for preset in release ")
  message(FATAL_ERROR "scripts/test.sh no longer builds the release preset: the build-only path is untested")
endif()
