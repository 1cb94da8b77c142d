// Helpers for the language-server tests on `.fitzv` views: the analysed view file of a
// Fixture, and the counter view most tests use.
#pragma once

#include "lsp/features/view_features.h"
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp::test_support {

inline const checker::ViewFile& view_file(const Fixture& f, const std::string& name) {
  const checker::ViewFile* v = f.a().view_at(f.path(name));
  if (!v) throw std::runtime_error("no view analysed at " + name);
  return *v;
}

}  // namespace fitz::lsp::test_support
