# Included by the drivers: under TSan, appends to `pinned` the TSAN_OPTIONS
# that point TSan at the symbolizer wrapper (tests/omp/CMakeLists.txt says why).
if(SYMBOLIZER)
  if(DEFINED ENV{TSAN_OPTIONS})
    list(APPEND pinned "TSAN_OPTIONS=$ENV{TSAN_OPTIONS}:external_symbolizer_path=${SYMBOLIZER}")
  else()
    list(APPEND pinned "TSAN_OPTIONS=external_symbolizer_path=${SYMBOLIZER}")
  endif()
endif()
