# LLVM Support (ThreadPool, ADT) for the toolchain only: generated programs and the runtime
# never link it. The static archives of Debian's llvm-14-dev are linked, not libLLVM-14.so: a
# 100 MB shared library would cost every `fitz` start its relocations, for a few functions.
find_program(FITZ_LLVM_CONFIG NAMES llvm-config-14 llvm-config REQUIRED)
execute_process(COMMAND ${FITZ_LLVM_CONFIG} --includedir OUTPUT_VARIABLE FITZ_LLVM_INCLUDE OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${FITZ_LLVM_CONFIG} --libdir OUTPUT_VARIABLE FITZ_LLVM_LIBDIR OUTPUT_STRIP_TRAILING_WHITESPACE)
find_library(FITZ_LLVM_SUPPORT_LIB NAMES libLLVMSupport.a PATHS ${FITZ_LLVM_LIBDIR} NO_DEFAULT_PATH REQUIRED)
find_library(FITZ_LLVM_DEMANGLE_LIB NAMES libLLVMDemangle.a PATHS ${FITZ_LLVM_LIBDIR} NO_DEFAULT_PATH REQUIRED)
find_package(ZLIB REQUIRED)
find_library(FITZ_TINFO_LIB NAMES tinfo REQUIRED)

add_library(fitz_llvm_support INTERFACE)
# SYSTEM: LLVM's headers are not held to our warning flags.
target_include_directories(fitz_llvm_support SYSTEM INTERFACE ${FITZ_LLVM_INCLUDE})
target_link_libraries(fitz_llvm_support INTERFACE ${FITZ_LLVM_SUPPORT_LIB} ${FITZ_LLVM_DEMANGLE_LIB}
                      ZLIB::ZLIB ${FITZ_TINFO_LIB} Threads::Threads ${CMAKE_DL_LIBS})
