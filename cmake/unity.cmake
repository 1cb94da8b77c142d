# Unity builds for clean trees (FITZ_UNITY_BUILD, which scripts/run-tests.sh turns on for the
# trees it creates): each target's C++ files are compiled in batches, one translation unit per
# batch, so the headers they share (the standard library, fmt, Boost.Asio/Beast, GoogleTest) are
# parsed once per batch instead of once per file. A clean build does a fraction of the work; an
# edit recompiles its whole batch, which is why developers' trees keep it off.
#
# CMake's own UNITY_BUILD writes absolute paths into its batch files, which would make every
# batch miss the compiler cache in a clone in another folder. These batch files include their
# sources by paths relative to the source root instead, so they are the same in every clone.
set(FITZ_UNITY_BATCH 8 CACHE STRING "C++ files per unity batch (FITZ_UNITY_BUILD)")

# The runtime libraries that `fitz build` links into programs stay file by file: the linker takes
# from an archive only the objects a program references, and a batch would bring the static
# initialisers of every file in it into programs that never use them.
set(FITZ_UNITY_SKIP_TARGETS fitz_runtime fitz_http fitz_db fitz_pg fitz_auth fitz_ws fitz_jobs)

# Files that must stay alone: those with their own compile definitions or options (a batch would
# lose them), and those listed in FITZ_UNITY_SKIP.
function(fitz_unity_target target)
  get_target_property(type ${target} TYPE)
  # Libraries only: test files each keep their own helpers in anonymous namespaces under the same
  # names, which a batch would make clash.
  if(NOT type STREQUAL "STATIC_LIBRARY" OR target IN_LIST FITZ_UNITY_SKIP_TARGETS)
    return()
  endif()
  get_target_property(dir ${target} SOURCE_DIR)
  get_target_property(srcs ${target} SOURCES)
  set(batched "")
  set(kept "")
  foreach(s IN LISTS srcs)
    if(s MATCHES "\\$<")
      list(APPEND kept "${s}")
      continue()
    endif()
    get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${dir}")
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${abs}")
    get_source_file_property(defs "${abs}" DIRECTORY "${dir}" COMPILE_DEFINITIONS)
    get_source_file_property(opts "${abs}" DIRECTORY "${dir}" COMPILE_OPTIONS)
    if(abs MATCHES "\\.cpp$" AND NOT rel MATCHES "^\\.\\." AND NOT defs AND NOT opts
       AND NOT rel IN_LIST FITZ_UNITY_SKIP)
      list(APPEND batched "${rel}")
    else()
      list(APPEND kept "${s}")
    endif()
  endforeach()
  list(LENGTH batched n)
  if(n LESS 2)
    return()
  endif()
  list(SORT batched)
  set(unity_dir "${CMAKE_BINARY_DIR}/unity/${target}")
  set(files "")
  set(content "")
  set(i 0)
  set(k 0)
  foreach(rel IN LISTS batched)
    string(APPEND content "#include \"${rel}\"\n")
    math(EXPR i "${i} + 1")
    if(i EQUAL FITZ_UNITY_BATCH)
      file(CONFIGURE OUTPUT "${unity_dir}/batch_${k}.cpp" CONTENT "${content}")
      list(APPEND files "${unity_dir}/batch_${k}.cpp")
      set(content "")
      set(i 0)
      math(EXPR k "${k} + 1")
    endif()
  endforeach()
  if(i GREATER 0)
    file(CONFIGURE OUTPUT "${unity_dir}/batch_${k}.cpp" CONTENT "${content}")
    list(APPEND files "${unity_dir}/batch_${k}.cpp")
  endif()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept} ${files})
  target_include_directories(${target} PRIVATE "${CMAKE_SOURCE_DIR}")
endfunction()

# Every target defined in DIR and below.
function(fitz_unity_directory dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    fitz_unity_target(${t})
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(d IN LISTS subdirs)
    fitz_unity_directory("${d}")
  endforeach()
endfunction()
