// The language features on `.fitzv` live views, as free functions over an Analysis and one of
// its view files (Analysis::view_at). Offsets and spans are in the .fitzv text; like the
// features of features.h, none of them knows JSON.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/view_model.h"
#include "lsp/features/features.h"

namespace fitz::lsp {

// view_hover.cpp: the type and origin of a name ("state field of `Counter`"), an event's
// signature, a component's props; inside code, what hover says of the generated module.
std::optional<HoverInfo> view_hover(const Analysis& a, const checker::ViewFile& v, uint32_t offset);

// view_navigation.cpp
std::vector<Span> view_definition(const Analysis& a, const checker::ViewFile& v, uint32_t offset);
std::vector<DocumentSymbol> view_document_symbols(const Analysis& a, const checker::ViewFile& v);
// State fields and events, across the template and the bodies of their component.
std::optional<RenameTarget> view_prepare_rename(const Analysis& a, const checker::ViewFile& v, uint32_t offset,
                                                std::string& error);
std::optional<std::map<std::filesystem::path, std::vector<Edit>>> view_rename(const Analysis& a,
                                                                              const checker::ViewFile& v,
                                                                              uint32_t offset,
                                                                              const std::string& new_name,
                                                                              std::string& error);

// view_completion.cpp: after `{` the names in scope and the directives, after `@` the events,
// after `<` the components, inside a child component's tag its props; in bodies, what
// completion offers in the generated module. `text` is the current buffer.
std::vector<CompletionItem> view_completion(const Analysis& a, const checker::ViewFile& v, std::string_view text,
                                            uint32_t offset);

// view_tokens.cpp: the generated module's tokens of the code copied from the view, with the
// view's own names (components, fields, events, child props) classified from the view IR.
std::vector<SemanticToken> view_semantic_tokens(const Analysis& a, const checker::ViewFile& v);

}  // namespace fitz::lsp
