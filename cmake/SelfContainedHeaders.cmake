# autosched_self_contained_units(<out-var> <unit-dir> <header>...)
# One translation unit per header that includes it twice (alone, and past its
# include guard), for STYLE §16's "every header compiles alone"; a C header
# (.h) gets a C11 unit as well. Used for the source tree (tests/package) and
# for the installed tree (tests/package/headers, a separate project).
function(autosched_self_contained_units out unit_dir)
  set(units "")
  foreach(header ${ARGN})
    string(MAKE_C_IDENTIFIER ${header} id)
    set(unit ${unit_dir}/${id}.cpp)
    file(CONFIGURE OUTPUT ${unit} CONTENT "#include <${header}>\n#include <${header}>\n")
    list(APPEND units ${unit})
    if(header MATCHES "\\.h$")
      set(unit ${unit_dir}/${id}.c)
      file(CONFIGURE OUTPUT ${unit} CONTENT "#include <${header}>\n#include <${header}>\n")
      list(APPEND units ${unit})
    endif()
  endforeach()
  set(${out} ${units} PARENT_SCOPE)
endfunction()
