// Internals of the view checker shared by view_read.cpp (tree -> IR skeleton), view_code.cpp
// (IR -> generated Fitz module) and view_check.cpp (types, checks, diagnostics back).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "checker/view_check.h"
#include "frontend/syntax_tree.h"

namespace fitz::checker {

// A stretch of the generated module copied from the view: offsets map one to one.
struct CodeSegment {
  uint32_t code_begin = 0, code_end = 0;  // in the generated text
  uint32_t view_begin = 0;                // in the .fitzv text
  bool condition = false;                 // a template `{#if}` condition
  bool template_code = false;             // template expressions (names resolve per §1.4)
};

// Where a piece of view code ended up in the generated module, so that its lowered expression
// or type can be found by span after checking.
struct CodeRef {
  uint32_t begin = 0, end = 0;  // in the generated text; empty when not emitted
};

// An expression or type of the IR waiting for its type.
struct PendingExpr {
  ViewExpr* expr;
  CodeRef at;
};
struct PendingType {
  TypeId* type;
  CodeRef at;
};

// A generated local standing for a prop or derived value: assigning to it is an error.
struct ReadOnlyDecl {
  uint32_t code_begin;  // the declaration's position in the generated text
  bool derived;
};

struct ViewUnit {
  ViewFile view;
  std::string text;  // the .fitzv text
  frontend::SyntaxTree tree;
  bool syntax_ok = false;
  // `from X import a as b`: local name -> (module path as written, original name)
  std::unordered_map<std::string, std::pair<std::string, std::string>> imported;
  std::vector<std::pair<uint32_t, std::string>> import_lines;  // view offset, text
  // Per component (same order as view.components): its range in the generated text.
  std::vector<std::pair<uint32_t, uint32_t>> component_code;
  // The generated module.
  std::string code;
  std::vector<CodeSegment> segments;
  std::vector<PendingExpr> exprs;
  std::vector<PendingType> types;
  std::vector<ReadOnlyDecl> read_only;
  FileId code_file;
};

// Builds `unit.view` from its tree, reporting structure problems (forbidden markup, keyed loop
// roots, missing defaults, reserved names, duplicate blocks) into `diags`.
void read_view(ViewUnit& unit, frontend::DiagnosticBag& diags);

// Generates `unit.code` (and its segments and pending lists) from `unit.view`.
void generate_view_code(ViewUnit& unit);

// Trims ASCII whitespace; `offset` moves by what was cut at the front.
std::string_view trim_code(std::string_view s, uint32_t& offset);

}  // namespace fitz::checker
