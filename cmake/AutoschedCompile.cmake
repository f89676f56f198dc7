# Compile settings shared by every autosched target, and the helper that
# declares one layer library (autosched_<layer>, exported as autosched::<layer>).

if(AUTOSCHED_SANITIZER STREQUAL "thread")
  # libgomp is not TSan-aware; the TSan build uses clang + LLVM libomp and the
  # Archer OMPT tool (tests set OMP_TOOL_LIBRARIES) so OpenMP's own
  # synchronisation is understood.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "AUTOSCHED_SANITIZER=thread needs clang with libomp (CMAKE_CXX_COMPILER=clang++); "
                        "got ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=thread -g -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(AUTOSCHED_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -g -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT AUTOSCHED_SANITIZER STREQUAL "")
  message(FATAL_ERROR "AUTOSCHED_SANITIZER='${AUTOSCHED_SANITIZER}': expected '', thread or address")
endif()

set(AUTOSCHED_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)

# autosched_add_layer(<layer> [SOURCES ...] [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# Headers live next to their sources in autosched/<layer>/; the include root is
# the repository root, so code includes <autosched/<layer>/<header>.hpp>.
function(autosched_add_layer layer)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target autosched_${layer})
  if(ARG_SOURCES)
    add_library(${target} ${ARG_SOURCES})
    set(scope PUBLIC)
    target_compile_options(${target} PRIVATE ${AUTOSCHED_WARNINGS})
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                               EXPORT_NAME ${layer}
                                               OUTPUT_NAME autosched_${layer})
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${layer})
  endif()
  add_library(autosched::${layer} ALIAS ${target})
  target_compile_features(${target} ${scope} cxx_std_20)
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(ARG_PUBLIC_DEPS)
    target_link_libraries(${target} ${scope} ${ARG_PUBLIC_DEPS})
  endif()
  if(ARG_PRIVATE_DEPS)
    target_link_libraries(${target} PRIVATE ${ARG_PRIVATE_DEPS})
  endif()
  set_property(GLOBAL APPEND PROPERTY AUTOSCHED_LAYERS ${target})
endfunction()
