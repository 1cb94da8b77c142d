// The repository root the tests read their data from. It lives in one generated translation
// unit (source_dir.cpp in the build tree) rather than in a -D flag on every test file, so that a
// clone in another folder recompiles that one file and reuses the compiler cache for the rest.
// A global name: tests inside namespace fitz must still reach ::testing (GoogleTest) unqualified.
#pragma once

const char* fitz_test_source_dir();
