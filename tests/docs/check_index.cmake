# docs/README.md is the documentation's index. Fails, naming what is missing:
#   - a page in docs/, docs/design/ or docs/results/ (.md, .csv, .tsv) that
#     the index does not link, or a folder of docs/results/ it links nothing in;
#   - a link in the index to a file that does not exist;
#   - an environment variable the code reads (a quoted AUTOSCHED_*, OMP_*,
#     KMP_*, LB4MPI_* or MPI_RL_* name, or any name given to getenv,
#     environment::get or environment::flag) without a row in its table.
# Arguments: SOURCE (the source tree)
set(index_file ${SOURCE}/docs/README.md)
if(NOT EXISTS ${index_file})
  message(FATAL_ERROR "docs/README.md, the documentation's index, is missing")
endif()
file(READ ${index_file} index)
set(problems "")

# Pages.
file(GLOB pages RELATIVE ${SOURCE}/docs
     ${SOURCE}/docs/*.md ${SOURCE}/docs/*.csv ${SOURCE}/docs/design/*.md
     ${SOURCE}/docs/results/*.md ${SOURCE}/docs/results/*.csv ${SOURCE}/docs/results/*.tsv)
list(REMOVE_ITEM pages README.md)
foreach(page ${pages})
  string(FIND "${index}" "](${page})" at)
  if(at EQUAL -1)
    string(APPEND problems "  docs/${page} is not linked from docs/README.md\n")
  endif()
endforeach()
file(GLOB result_dirs LIST_DIRECTORIES true RELATIVE ${SOURCE}/docs ${SOURCE}/docs/results/*)
foreach(dir ${result_dirs})
  if(IS_DIRECTORY ${SOURCE}/docs/${dir})
    string(FIND "${index}" "](${dir}/" at)
    if(at EQUAL -1)
      string(APPEND problems "  docs/${dir}/ has nothing linked from docs/README.md\n")
    endif()
  endif()
endforeach()
# Link targets, without the "](" before them: a ']' in a CMake list item
# would bracket the rest of the list.
string(REGEX MATCHALL "\\([A-Za-z0-9_./-]+\\.(md|csv|tsv)\\)" links "${index}")
foreach(link ${links})
  string(REGEX REPLACE "^\\(|\\)$" "" target "${link}")
  if(NOT EXISTS ${SOURCE}/docs/${target})
    string(APPEND problems "  docs/README.md links ${target}, which does not exist\n")
  endif()
endforeach()

# Environment variables.
file(GLOB_RECURSE sources ${SOURCE}/autosched/*.cpp ${SOURCE}/autosched/*.hpp ${SOURCE}/autosched/*.c
     ${SOURCE}/autosched/*.h ${SOURCE}/tools/*.cpp ${SOURCE}/tools/*.hpp ${SOURCE}/apps/*.cpp ${SOURCE}/apps/*.hpp)
set(variables "")
foreach(source ${sources})
  file(READ ${source} code)
  string(REGEX MATCHALL "\"(AUTOSCHED|OMP|KMP|LB4MPI|MPI_RL)_[A-Za-z0-9_]*\"" quoted "${code}")
  string(REGEX MATCHALL "(getenv|environment::get|environment::flag)\\(\"[A-Za-z_][A-Za-z0-9_]*\"" read "${code}")
  foreach(item ${quoted} ${read})
    string(REGEX REPLACE ".*\"([A-Za-z0-9_]+)\"$" "\\1" name "${item}")
    list(APPEND variables ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES variables)
list(LENGTH variables count)
if(count LESS 15)
  message(FATAL_ERROR "only ${count} environment variables found in the sources (${variables}): the scan is broken")
endif()
string(FIND "${index}" "## Environment variables" table_at)
if(table_at EQUAL -1)
  message(FATAL_ERROR "docs/README.md has no '## Environment variables' section")
endif()
string(SUBSTRING "${index}" ${table_at} -1 table)
foreach(name ${variables})
  # A row names the variable in backticks; a prefix such as KMP_RL_ matches KMP_RL_<X>.
  string(FIND "${table}" "| `${name}" first)
  string(FIND "${table}" ", `${name}" other)
  if(first EQUAL -1 AND other EQUAL -1)
    string(APPEND problems "  the environment variable ${name} is read by the code but has no row in docs/README.md\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "the documentation index is incomplete:\n${problems}")
endif()
message(STATUS "docs/README.md links ${pages}; ${count} environment variables in its table")
