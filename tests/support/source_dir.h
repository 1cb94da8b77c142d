// The repository root the tests read their data from. It lives in one generated translation
// unit (source_dir.cpp in the build tree) rather than in a -D flag on every test file, so that a
// clone in another folder recompiles that one file and reuses the compiler cache for the rest.
#pragma once

namespace fitz::testing {

const char* source_dir();

}  // namespace fitz::testing
