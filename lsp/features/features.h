// The language features as free functions over an Analysis (or, for the syntax-only ones, a
// syntax tree). They speak byte offsets and Spans; the server converts to LSP positions. None
// of them knows JSON.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/syntax_tree.h"
#include "lsp/analysis.h"

namespace fitz::lsp {

using frontend::Span;

// ---- diagnostics and code actions (diagnostics.cpp) ----

// The diagnostics of one file, in the CLI's order.
std::vector<const frontend::Diagnostic*> diagnostics_for(const Analysis& a, const std::filesystem::path& path);

struct Edit {
  Span span;
  std::string new_text;
};

struct CodeAction {
  std::string title;
  const frontend::Diagnostic* diagnostic = nullptr;
  std::vector<Edit> edits;  // all in the same file as the diagnostic
};

// Quick fixes proposed by the diagnostics whose span touches [begin, end].
std::vector<CodeAction> code_actions(const Analysis& a, const std::filesystem::path& path, uint32_t begin,
                                     uint32_t end);

// ---- syntax features (syntax.cpp): the tree and the AST, no types needed ----

enum class SymbolKind : uint8_t { Module, Type, Field, Method, Function, Variable, Constant };

struct DocumentSymbol {
  std::string name;
  std::string detail;
  SymbolKind kind = SymbolKind::Variable;
  Span span;            // the whole declaration
  Span selection_span;  // the name
  std::vector<DocumentSymbol> children;
};

std::vector<DocumentSymbol> document_symbols(const Analysis& a, ModuleId m);

struct FoldingRange {
  uint32_t start_line = 0;  // 0-based
  uint32_t end_line = 0;
  enum class Kind : uint8_t { Region, Comment, Imports } kind = Kind::Region;
};

std::vector<FoldingRange> folding_ranges(const frontend::SyntaxTree& tree, std::string_view text);

// For each offset, the chain of enclosing ranges from the innermost outwards.
std::vector<std::vector<std::pair<uint32_t, uint32_t>>> selection_ranges(const frontend::SyntaxTree& tree,
                                                                         const std::vector<uint32_t>& offsets);

enum class TokenType : uint8_t {
  Namespace, Type, Struct, Parameter, Variable, Property, Function, Method, Keyword, Comment,
  String, Number, Operator, Decorator, Count
};
enum TokenModifier : uint8_t { kDeclaration = 1, kReadonly = 2, kDefaultLibrary = 4 };

struct SemanticToken {
  uint32_t begin = 0, end = 0;  // bytes
  TokenType type = TokenType::Variable;
  uint8_t modifiers = 0;
};

std::vector<std::string_view> semantic_token_type_names();
std::vector<std::string_view> semantic_token_modifier_names();

// Sorted, non-overlapping. Syntax classes from the tree, refined by the analysis when one is
// given and current for this text.
std::vector<SemanticToken> semantic_tokens(const frontend::SyntaxTree& tree, std::string_view text,
                                           const Analysis* a = nullptr, ModuleId m = ModuleId());

// ---- navigation (navigation.cpp) ----

std::vector<Span> definition(const Analysis& a, ModuleId m, uint32_t offset);

// Every occurrence of the entity at `offset` across the analysed program.
std::vector<Span> references(const Analysis& a, ModuleId m, uint32_t offset, bool include_declaration);

struct Highlight {
  Span span;
  bool write = false;
};
std::vector<Highlight> document_highlight(const Analysis& a, ModuleId m, uint32_t offset);

struct RenameTarget {
  Span span;  // the name under the cursor
  std::string placeholder;
};
// nullopt (with `error` set) when the thing under the cursor cannot be renamed.
std::optional<RenameTarget> prepare_rename(const Analysis& a, ModuleId m, uint32_t offset, std::string& error);
// Edits grouped by file path; nullopt with `error` when the rename is refused.
std::optional<std::map<std::filesystem::path, std::vector<Edit>>> rename(const Analysis& a, ModuleId m,
                                                                         uint32_t offset, const std::string& new_name,
                                                                         std::string& error);
bool is_valid_identifier(std::string_view name);

struct WorkspaceSymbol {
  std::string name;
  std::string container;
  SymbolKind kind = SymbolKind::Variable;
  Span span;
};
// Top-level functions, types (with fields and methods) and globals whose name contains the
// query's characters in order (case-insensitive).
std::vector<WorkspaceSymbol> workspace_symbols(const Analysis& a, std::string_view query);

// ---- types at the cursor (hover.cpp) ----

struct HoverInfo {
  std::string markdown;
  Span span;
};
std::optional<HoverInfo> hover(const Analysis& a, ModuleId m, uint32_t offset);

struct SignatureInfo {
  std::string label;
  std::vector<std::pair<uint32_t, uint32_t>> params;  // byte offsets into label
  std::string doc;
  uint32_t active_parameter = 0;
};
std::optional<SignatureInfo> signature_help(const Analysis& a, ModuleId m, uint32_t offset);

struct InlayHint {
  uint32_t offset = 0;
  std::string label;
  bool is_type = true;  // Type vs Parameter kind
};
std::vector<InlayHint> inlay_hints(const Analysis& a, ModuleId m, uint32_t begin, uint32_t end);

// ---- formatting (formatting.cpp) ----

// What `fitz fmt` makes of `text`; nullopt when it refuses (syntax errors).
std::optional<std::string> formatted_text(const std::filesystem::path& path, const std::string& text);

// ---- completion (completion.cpp) ----

enum class CompletionKind : uint8_t { Variable, Function, Method, Field, Type, Module, Keyword, Snippet, Constant };

struct CompletionItem {
  std::string label;
  CompletionKind kind = CompletionKind::Variable;
  std::string detail;
  std::string doc;
  std::string insert_text;  // empty: the label
  bool snippet = false;
  std::string sort_text;
};

// `text` is the current buffer (it may be newer than the analysis when the user is typing
// faster than checks run; the analysis is only used for names and types).
// `python`, when given, lists the attributes of modules imported with `from python import`.
class PythonMembers;
std::vector<CompletionItem> completion(const Analysis& a, ModuleId m, std::string_view text, uint32_t offset,
                                       PythonMembers* python = nullptr);

}  // namespace fitz::lsp
