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

# The linker takes from an archive only the objects a program references, so in a runtime library
# that programs link, a batch brings every file in it along. That is harmless but for a static
# initialiser with an effect: fitz_db installs the Asio loop before main() in the programs that
# use the db module, so it stays file by file.
set(FITZ_UNITY_SKIP_TARGETS fitz_db)

# Test files whose file-local helpers (in anonymous namespaces) share a name with a helper of
# another file of the same test binary: each compiles alone. Giving the helpers one shared home
# in tests/support/ takes a file off this list.
set(FITZ_UNITY_SKIP
    tests/golden/openapi_test.cpp
    tests/unit/auth/jwt_test.cpp
    tests/unit/auth/password_test.cpp
    tests/unit/checker/diag_coverage_test.cpp
    tests/unit/format/format_corpus_test.cpp
    tests/unit/format/format_golden_test.cpp
    tests/unit/format/format_rules_test.cpp
    tests/unit/frontend/conformance_syntax_test.cpp
    tests/unit/frontend/fuzz_regression_test.cpp
    tests/unit/frontend/lower_test.cpp
    tests/unit/frontend/source_test.cpp
    tests/unit/http/docs_page_test.cpp
    tests/unit/http/json_any_struct_test.cpp
    tests/unit/http/json_test.cpp
    tests/unit/http/multipart_test.cpp
    tests/unit/http/pipeline_test.cpp
    tests/unit/http/router_test.cpp
    tests/unit/jobs/retry_test.cpp
    tests/unit/jobs/tz_test.cpp
    tests/unit/lsp/hover_test.cpp
    tests/unit/lsp/incremental_test.cpp
    tests/unit/lsp/server_test.cpp
    tests/unit/orm/query_test.cpp
    tests/unit/pg/e2e_test.cpp
    tests/unit/pg/startup_test.cpp
    tests/unit/runtime/collections_test.cpp
    tests/unit/runtime/ops_test.cpp
    tests/unit/runtime/orm_query_test.cpp
    tests/unit/runtime/str_test.cpp
    tests/unit/runtime/task_test.cpp
)

# Files that must stay alone: those with their own compile definitions or options (a batch would
# lose them), and those listed in FITZ_UNITY_SKIP.
function(fitz_unity_target target)
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(STATIC_LIBRARY|EXECUTABLE)$" OR target IN_LIST FITZ_UNITY_SKIP_TARGETS)
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
    # Generated files (in the build folder, which may sit inside the source root) stay alone:
    # a batch includes its files by paths relative to the source root.
    string(FIND "${abs}" "${CMAKE_BINARY_DIR}/" in_build)
    if(abs MATCHES "\\.cpp$" AND NOT rel MATCHES "^\\.\\." AND NOT defs AND NOT opts
       AND in_build EQUAL -1 AND NOT rel IN_LIST FITZ_UNITY_SKIP)
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
