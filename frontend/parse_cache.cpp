// The parse cache: one entry per module path, for the latest content read from it.
#include "frontend/parse_cache.h"

#include <llvm/Support/xxhash.h>

#include "frontend/lower.h"
#include "frontend/modules.h"

namespace fitz::frontend {

uint64_t text_hash(std::string_view text) { return llvm::xxHash64(llvm::StringRef(text.data(), text.size())); }

ParseCache::ParseCache(std::shared_ptr<SourceManager> sources) : sources_(std::move(sources)) {}

const ParsedModule* ParseCache::find(const std::string& path, std::string_view text) {
  auto it = entries_.find(path);
  if (it == entries_.end()) return nullptr;
  const ParsedModule& e = *it->second;
  // Comparing the texts decides alone, and is much quicker than hashing the new one first.
  if (sources_->file(e.file).text() != text) return nullptr;
  ++hits_;
  return &e;
}

const ParsedModule* ParseCache::current(const std::string& path) {
  if (!validator_) return nullptr;
  auto it = entries_.find(path);
  if (it == entries_.end() || !validator_(path, *it->second)) return nullptr;
  ++hits_;
  return it->second.get();
}

void ParseCache::for_each_file(const std::function<void(FileId)>& f) const {
  for (const auto& [path, e] : entries_) f(e->file);
}

const ParsedModule& ParseCache::parse(const std::string& path, std::string display_name, std::string text) {
  ++misses_;
  auto entry = std::make_unique<ParsedModule>();
  entry->path = path;
  entry->hash = text_hash(text);
  entry->file = sources_->add(std::move(display_name), std::move(text));
  const SourceFile& source = sources_->file(entry->file);
  DiagnosticBag diags;
  auto offer = offers_.find(path);
  if (offer != offers_.end() && offer->second.hash == entry->hash && offer->second.text == source.text() &&
      offer->second.tree.valid()) {
    entry->tree = std::move(offer->second.tree);
  } else {
    entry->tree = parse_text(source.text());
  }
  // An edit of a file whose previous content lowered cleanly: its unchanged items are moved
  // out of the previous AST (the one the last load gave back, or the entry's own if no load
  // took it) instead of lowered again.
  Ast previous;
  bool have_previous = false;
  auto old = entries_.find(path);
  if (old != entries_.end() && old->second->diagnostics.empty()) {
    ParsedModule& e = *old->second;
    have_previous = take_back(path, e.file, previous);
    if (!have_previous && !e.ast_lent) {
      previous = std::move(e.ast);
      have_previous = true;
    }
  }
  if (have_previous)
    entry->ast = lower_module_reusing(source, entry->file, entry->tree, diags, std::move(previous),
                                      sources_->file(old->second->file).text(), old->second->tree);
  else
    entry->ast = lower_module(source, entry->file, entry->tree, diags);
  if (offer != offers_.end()) offers_.erase(offer);
  for (const Diagnostic& d : diags) entry->diagnostics.push_back(d);
  auto& slot = entries_[path];
  slot = std::move(entry);
  return *slot;
}

std::vector<std::unique_ptr<ParsedModule>> ParseCache::prepare(std::vector<ParseJob> jobs) {
  std::vector<std::unique_ptr<ParsedModule>> out;
  for (ParseJob& job : jobs) {
    auto it = entries_.find(job.path);
    if (it != entries_.end() && sources_->file(it->second->file).text() == job.text) continue;
    auto entry = std::make_unique<ParsedModule>();
    entry->path = job.path;
    entry->hash = text_hash(job.text);
    entry->file = sources_->add(display_path(job.path), std::move(job.text));
    const SourceFile& source = sources_->file(entry->file);
    auto offer = offers_.find(job.path);
    if (offer != offers_.end() && offer->second.hash == entry->hash && offer->second.text == source.text() &&
        offer->second.tree.valid())
      entry->tree = std::move(offer->second.tree);
    if (offer != offers_.end()) offers_.erase(offer);
    out.push_back(std::move(entry));
  }
  return out;
}

void ParseCache::parse_prepared(ParsedModule& entry) const {
  const SourceFile& source = sources_->file(entry.file);
  DiagnosticBag diags;
  // A tree from prepare() is an offered one of exactly this text.
  if (entry.tree.valid()) entry.ast = lower_module(source, entry.file, entry.tree, diags);
  else entry.ast = parse_module(source, entry.file, diags, &entry.tree);
  for (const Diagnostic& d : diags) entry.diagnostics.push_back(d);
}

void ParseCache::adopt(std::vector<std::unique_ptr<ParsedModule>> entries) {
  for (auto& e : entries) {
    ++misses_;
    std::string path = e->path;
    entries_[path] = std::move(e);
  }
}

void ParseCache::offer_tree(const std::string& path, std::string_view text, SyntaxTree tree) {
  uint64_t h = text_hash(text);
  if (auto it = entries_.find(path); it != entries_.end() && it->second->hash == h) return;  // nothing to parse
  if (auto it = offers_.find(path); it != offers_.end() && it->second.hash == h && it->second.text == text) return;
  offers_[path] = Offer{h, std::string(text), std::move(tree)};
}

void ParseCache::give_back(const std::string& path, FileId file, Ast ast) {
  auto it = entries_.find(path);
  if (it == entries_.end() || it->second->file != file) return;
  spares_.insert_or_assign(path, std::pair<FileId, Ast>(file, std::move(ast)));
}

bool ParseCache::take_back(const std::string& path, FileId file, Ast& out) {
  auto it = spares_.find(path);
  if (it == spares_.end() || it->second.first != file) return false;
  out = std::move(it->second.second);
  spares_.erase(it);
  return true;
}

Ast ParseCache::ast_for_load(const ParsedModule& entry) {
  auto it = entries_.find(entry.path);
  if (it == entries_.end() || it->second.get() != &entry) return entry.ast;
  ParsedModule& e = *it->second;
  if (!e.ast_lent) {
    e.ast_lent = true;
    return std::move(e.ast);
  }
  DiagnosticBag reported_already;  // e.diagnostics holds them
  return lower_module(sources_->file(e.file), e.file, e.tree, reported_already);
}

const std::vector<Ident>* ParseCache::top_level_names(const std::string& path, FileId file, const Ast& ast) {
  auto it = entries_.find(path);
  if (it == entries_.end() || it->second->file != file) return nullptr;
  ParsedModule& e = *it->second;
  if (!e.names) e.names = frontend::top_level_names(ast);
  return &*e.names;
}

void ParseCache::retain(const std::function<bool(const std::string&)>& keep) {
  std::erase_if(entries_, [&](const auto& kv) { return !keep(kv.first); });
  std::erase_if(offers_, [&](const auto& kv) { return !keep(kv.first); });
  std::erase_if(spares_, [&](const auto& kv) { return !keep(kv.first); });
}

void ParseCache::clear() {
  entries_.clear();
  offers_.clear();
  spares_.clear();
  normalised_paths_.clear();
  listings_.clear();
}

const std::filesystem::path* ParseCache::normalised_path(const std::string& raw) const {
  auto it = normalised_paths_.find(raw);
  return it == normalised_paths_.end() ? nullptr : &it->second;
}

void ParseCache::remember_normalised_path(const std::string& raw, const std::filesystem::path& normalised) {
  normalised_paths_.insert_or_assign(raw, normalised);
}

}  // namespace fitz::frontend
