// The incremental driver: walks the init order like Checker::run, but reuses the tables and the
// diagnostics of modules that nothing forces to be checked again (see incremental.h).
#include "checker/incremental.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "checker/check_internal.h"
#include "checker/service_build.h"

namespace fitz::checker {

std::string SymbolRecycler::key(SymbolKind kind, std::string_view name) {
  std::string k(1, static_cast<char>('A' + static_cast<int>(kind)));
  k += name;
  return k;
}

SymbolId SymbolRecycler::take(const Symbol& s) {
  SymbolId id;
  switch (s.kind) {
    case SymbolKind::Global:
    case SymbolKind::Function:
    case SymbolKind::Type:
    case SymbolKind::Module:
    case SymbolKind::Import:
      if (auto it = top.find(key(s.kind, s.name)); it != top.end() && !it->second.empty()) {
        id = it->second.back();
        it->second.pop_back();
      }
      break;
    default: break;
  }
  if (!id.valid() && !rest.empty()) {
    id = rest.back();
    rest.pop_back();
  }
  if (id.valid()) handed.push_back(id);
  return id;
}

namespace {

using frontend::Diagnostic;
using frontend::ModuleGraph;

// FNV-1a, continued from `h`.
struct Hasher {
  uint64_t h;
  void mix(std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  }
  void mix(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
};

void mix_fn(Hasher& h, const TypedProgram& p, ModuleId module, frontend::FnId fn) {
  if (!module.valid() || module.index >= p.modules.size()) return;
  const ModuleTir& t = p.modules[module.index];
  if (!fn.valid() || fn.index >= t.fns.size()) return;
  const FnInfo& f = t.fns[fn.index];
  h.mix(uint64_t(f.is_async) | uint64_t(f.is_static) << 1 | uint64_t(f.is_handler) << 2);
  for (const ParamInfo& pi : f.params) {
    h.mix(pi.name);
    h.mix(uint64_t(pi.has_default) | uint64_t(pi.variadic) << 1);
    h.mix(uint64_t(pi.type.index));
  }
}

// What importers of `m` may depend on beyond the interface's display strings: the kinds and ids
// of the symbols they resolve to, parameter names and defaults (named arguments), struct ids,
// and, for re-exported modules, what those show.
uint64_t exported_hash(const TypedProgram& p, ModuleId m, const std::vector<uint64_t>& module_hashes) {
  const ModuleTir& tir = p.modules[m.index];
  Hasher h{tir.interface.hash};
  for (const ModuleInterface::Export& ex : tir.interface.exports) {
    h.mix(uint64_t(ex.symbol.index));
    SymbolId sid = ex.symbol;
    for (int hops = 0; hops < 64 && sid.valid() && p.symbol(sid).kind == SymbolKind::Import; ++hops) {
      sid = p.symbol(sid).target;
      h.mix(uint64_t(sid.valid() ? sid.index : UINT32_MAX));
    }
    if (!sid.valid()) continue;
    const Symbol& s = p.symbol(sid);
    h.mix(uint64_t(s.kind) | uint64_t(s.annotated) << 8);
    h.mix(uint64_t(s.type.valid() ? s.type.index : UINT32_MAX));
    switch (s.kind) {
      case SymbolKind::Function: mix_fn(h, p, s.module, s.fn); break;
      case SymbolKind::Type: {
        h.mix(uint64_t(s.struct_id.index));
        const StructInfo& si = p.types->struct_info(s.struct_id);
        for (const FieldInfo& f : si.fields) {
          h.mix(f.name);
          h.mix(uint64_t(f.type.index) | uint64_t(f.has_default) << 32 | uint64_t(f.is_private) << 33);
        }
        for (const MethodInfo& mi : si.methods) {
          h.mix(mi.name);
          h.mix(uint64_t(mi.type.index));
          mix_fn(h, p, si.module, mi.fn);
        }
        break;
      }
      case SymbolKind::Module:
        h.mix(uint64_t(s.target_module.valid() ? s.target_module.index : UINT32_MAX));
        if (s.target_module.valid() && s.target_module.index < module_hashes.size())
          h.mix(module_hashes[s.target_module.index]);
        break;
      default: break;
    }
  }
  return h.h;
}

std::vector<uint32_t> files_of(const std::vector<Diagnostic>& diags) {
  std::vector<uint32_t> out;
  auto add = [&](frontend::Span s) {
    if (s.file.valid()) out.push_back(s.file.value);
  };
  for (const Diagnostic& d : diags) {
    add(d.span);
    for (const auto& l : d.labels) add(l.span);
    for (const auto& f : d.fixes) add(f.span);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Re-checking a module that `previous` already holds: its symbols and structs get their old ids.
// `ids`: every symbol of the module, ascending (the session keeps them per module, so that a
// re-check does not scan the symbols of the whole program).
void start_recycling(TypedProgram& prog, const ModuleTir& old, ModuleId m, const std::vector<uint32_t>& ids) {
  auto r = std::make_unique<SymbolRecycler>();
  r->module = m;
  std::unordered_set<uint32_t> top;
  // Reversed so that back() is the first of each name.
  for (auto it = old.top_level.rbegin(); it != old.top_level.rend(); ++it) {
    const Symbol& s = prog.symbol(*it);
    if (s.module != m) continue;
    r->top[SymbolRecycler::key(s.kind, s.name)].push_back(*it);
    top.insert(it->index);
  }
  for (auto it = ids.rbegin(); it != ids.rend(); ++it)
    if (!top.count(*it)) r->rest.push_back(SymbolId(*it));
  prog.recycler = std::move(r);
  prog.types->recycle_structs(m);
}

// Old ids nobody took are blanked (still the module's, so its next re-check finds them).
void end_recycling(TypedProgram& prog) {
  auto blank = [&](SymbolId id) {
    Symbol b;
    b.module = prog.recycler->module;
    prog.symbols[id.index] = std::move(b);
  };
  for (auto& [k, ids] : prog.recycler->top)
    for (SymbolId id : ids) blank(id);
  for (SymbolId id : prog.recycler->rest) blank(id);
  prog.recycler.reset();
  prog.types->end_recycling();
}

// Adds the symbols from `from` on to the per-module id lists (ids ascending within each list).
void index_symbols(const TypedProgram& prog, uint32_t from, std::vector<std::vector<uint32_t>>& by_module) {
  for (uint32_t i = from; i < prog.symbols.size(); ++i) {
    ModuleId m = prog.symbols[i].module;
    if (m.valid() && m.index < by_module.size()) by_module[m.index].push_back(i);
  }
}

}  // namespace

struct CheckSession::Run {
  const ModuleGraph* graph = nullptr;
  const frontend::SourceManager* sources = nullptr;
  CheckOptions options;
  bool full = true;
  frontend::DiagnosticBag scratch;  // the module being checked reports here
  std::unique_ptr<detail::Checker> c;
  std::vector<ModuleRecord> records;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> processed, iface_dirty;
  bool any_iface_dirty = false;
  std::vector<uint32_t> current_files;  // sorted
  // Each module's path and name, when they are not those of the last check (paths_).
  std::vector<std::string> paths;
  bool same_paths = false;
  std::vector<ModuleId> order;  // the init order, then modules outside it
  size_t next = 0;              // of order: the next to visit
  // Of an incremental run: the ids of each module's symbols, ascending (symbols keep their
  // module for good, and new ones are appended or take an id of their own module).
  std::vector<std::vector<uint32_t>> module_symbols;
};

CheckSession::CheckSession() = default;
CheckSession::~CheckSession() = default;

void CheckSession::reset() {
  run_.reset();
  sources_ = nullptr;
  types_ = nullptr;
  paths_.clear();
  init_order_.clear();
  records_.clear();
  module_symbols_.clear();
  indexed_symbols_ = 0;
  symbols_after_full_ = 0;
  service_ = ServiceBuilt{};
}

TypedProgram CheckSession::check(const ModuleGraph& graph, const frontend::SourceManager& sources,
                                 frontend::DiagnosticBag& diags, TypedProgram* previous, const CheckOptions& options) {
  begin(graph, sources, previous, options);
  return finish(diags);
}

void CheckSession::begin(const ModuleGraph& graph, const frontend::SourceManager& sources, TypedProgram* previous,
                         const CheckOptions& options) {
  run_.reset();
  const size_t n = graph.modules.size();
  auto r = std::make_unique<Run>();
  r->graph = &graph;
  r->sources = &sources;
  r->options = options;
  // Compared in place: building the strings on every keystroke's check costs more than the
  // comparison, and they are needed only when the module set changed.
  auto same_path = [](const std::string& known, const frontend::Module& m) {
    const std::string& p = m.path.native();
    return known.size() == p.size() + 1 + m.name.size() && known.compare(0, p.size(), p) == 0 &&
           known[p.size()] == '\n' && known.compare(p.size() + 1, std::string::npos, m.name) == 0;
  };
  r->same_paths = paths_.size() == n;
  for (size_t i = 0; r->same_paths && i < n; ++i) r->same_paths = same_path(paths_[i], graph.modules[i]);
  if (!r->same_paths) {
    r->paths.reserve(n);
    for (const auto& m : graph.modules) r->paths.push_back(m.path.string() + '\n' + m.name);
  }

  // A full check when the previous program is not the one this session made, the module set or
  // order changed, or recycled symbols have piled up (their tables are rebuilt compactly).
  r->full = !previous || previous->types.get() != types_ || types_ == nullptr || &sources != sources_ ||
            options.warnings != options_.warnings || !r->same_paths || graph.init_order != init_order_ ||
            records_.size() != n || previous->modules.size() != n ||
            previous->symbols.size() > 2 * symbols_after_full_ + 4096;

  r->c = std::make_unique<detail::Checker>(graph, sources, r->scratch, options, r->full ? nullptr : previous);
  r->c->read_untyped_.assign(r->c->prog_.symbols.size(), 0);
  r->records.resize(n);
  r->hashes.assign(n, 0);
  r->processed.assign(n, 0);
  r->iface_dirty.assign(n, 0);
  r->current_files.reserve(n);
  for (const auto& m : graph.modules) r->current_files.push_back(m.file.value);
  std::sort(r->current_files.begin(), r->current_files.end());
  r->order = graph.init_order;
  std::vector<uint8_t> in_order(n, 0);
  for (ModuleId id : graph.init_order)
    if (id.valid() && id.index < n) in_order[id.index] = 1;
  for (uint32_t i = 0; i < n; ++i)
    if (!in_order[i]) r->order.push_back(ModuleId(i));
  if (!r->full) {
    uint32_t from = indexed_symbols_;
    if (from > r->c->prog_.symbols.size()) from = 0;  // not the lists of this program: built again
    if (from != 0) r->module_symbols = std::move(module_symbols_);
    r->module_symbols.resize(n);
    index_symbols(r->c->prog_, from, r->module_symbols);
  }
  module_symbols_.clear();
  rechecked_.clear();
  // A full check starts a program without a service model.
  if (r->full) service_.current = false;
  run_ = std::move(r);
}

void CheckSession::visit(ModuleId id) {
  Run& run = *run_;
  detail::Checker& c = *run.c;
  const frontend::Module& m = run.graph->get(id);
  bool reuse = !run.full;
  if (reuse) {
    const ModuleRecord& old = records_[id.index];
    reuse = old.checked && old.file == m.file && old.server_before == c.any_server_;
    for (const auto& ri : m.imports)
      if (reuse && ri.target.valid() && run.processed[ri.target.index] && run.iface_dirty[ri.target.index]) reuse = false;
    for (uint32_t f : old.files)
      if (reuse && !std::binary_search(run.current_files.begin(), run.current_files.end(), f)) reuse = false;
  }
  if (reuse) {
    run.records[id.index] = std::move(records_[id.index]);
    ModuleRecord& r = run.records[id.index];
    c.module_state_[id.index] = 2;
    c.any_server_ = r.server_after;
  } else {
    ModuleRecord& r = run.records[id.index];
    r.file = m.file;
    r.server_before = c.any_server_;
    uint32_t symbols_before = static_cast<uint32_t>(c.prog_.symbols.size());
    if (!run.full) start_recycling(c.prog_, c.prog_.modules[id.index], id, run.module_symbols[id.index]);
    run.scratch.clear();
    c.check_module(id);
    if (!run.full) {
      end_recycling(c.prog_);
      index_symbols(c.prog_, symbols_before, run.module_symbols);
    }
    r.checked = c.prog_.modules[id.index].checked;
    r.server_after = c.any_server_;
    r.diagnostics.assign(run.scratch.begin(), run.scratch.end());
    r.files = files_of(r.diagnostics);
    r.exported_hash = exported_hash(c.prog_, id, run.hashes);
    run.iface_dirty[id.index] = run.full || r.exported_hash != records_[id.index].exported_hash;
    rechecked_.push_back(id);
    if (id.index < service_.changed.size()) service_.changed[id.index] = 1;
  }
  run.hashes[id.index] = run.records[id.index].exported_hash;
  // What importers see of this module includes what it sees of its own imports.
  for (const auto& ri : m.imports)
    if (ri.target.valid() && run.processed[ri.target.index] && run.iface_dirty[ri.target.index])
      run.iface_dirty[id.index] = 1;
  run.any_iface_dirty |= run.iface_dirty[id.index] != 0;
  run.processed[id.index] = 1;
}

bool CheckSession::advance_through(ModuleId module) {
  if (!run_ || !module.valid() || module.index >= run_->processed.size()) return false;
  while (!run_->processed[module.index] && run_->next < run_->order.size()) visit(run_->order[run_->next++]);
  return run_->processed[module.index] != 0;
}

bool CheckSession::advance(size_t max_checks) {
  if (!run_) return true;
  size_t before = rechecked_.size();
  while (run_->next < run_->order.size() && rechecked_.size() - before < max_checks) visit(run_->order[run_->next++]);
  return run_->next == run_->order.size();
}

bool CheckSession::done(ModuleId module) const {
  return run_ && module.valid() && module.index < run_->processed.size() && run_->processed[module.index];
}

void CheckSession::for_each_done_diagnostic(const std::function<void(const frontend::Diagnostic&)>& f) const {
  if (!run_) return;
  for (size_t k = 0; k < run_->next; ++k)
    for (const Diagnostic& d : run_->records[run_->order[k].index].diagnostics) f(d);
}

TypedProgram CheckSession::finish(frontend::DiagnosticBag& diags) {
  advance(SIZE_MAX);
  for (ModuleId id : run_->order)
    for (const Diagnostic& d : run_->records[id.index].diagnostics) diags.report(d);
  const frontend::ModuleGraph& graph = *run_->graph;
  const frontend::SourceManager& sources = *run_->sources;
  TypedProgram program = end_run(true);
  finish_service_model(program, graph, sources, diags);
  return program;
}

void CheckSession::finish_service_model(TypedProgram& program, const frontend::ModuleGraph& graph,
                                        const frontend::SourceManager& sources, frontend::DiagnosticBag& diags) {
  const size_t n = graph.modules.size();
  bool keep = service_.current && service_.roots == graph.roots && service_.inputs.size() == n &&
              service_.changed.size() == n;
  // A module checked again since the build changes the model when the build read it, or when it
  // now feeds the model (an unchanged module feeds it as it did; a module that starts importing
  // another is itself checked again).
  for (uint32_t i = 0; keep && i < n; ++i)
    if (service_.changed[i] && (service_.inputs[i] || feeds_service_model(program, graph, ModuleId(i)))) keep = false;
  if (!keep) {
    // Reported into a bag of its own first, to be kept; reporting it on into `diags` drops the
    // same duplicates as reporting there directly.
    frontend::DiagnosticBag built;
    ServiceBuild b{program, graph, sources, built};
    build_service_model(b);
    service_.diagnostics = std::move(built).take();
    service_.inputs = service_model_inputs(program, graph);
    service_.roots = graph.roots;
    service_.current = true;
  }
  service_.changed.assign(n, 0);
  for (const Diagnostic& d : service_.diagnostics) diags.report(d);
}

TypedProgram CheckSession::abandon() {
  if (!run_) return TypedProgram();
  return end_run(false);
}

TypedProgram CheckSession::end_run(bool finished) {
  Run& run = *run_;
  if (!finished) {
    // A module not reached keeps its last results only when they are still what a check would
    // give: same program (no full check) and no interface it may see changed on the way.
    for (size_t k = run.next; k < run.order.size(); ++k) {
      ModuleId id = run.order[k];
      if (run.processed[id.index]) continue;
      if (!run.full && !run.any_iface_dirty) run.records[id.index] = std::move(records_[id.index]);
      else run.records[id.index] = ModuleRecord{};  // not checked: checked next time
    }
  }
  TypedProgram out = std::move(run.c->prog_);
  // The compaction threshold scales with the program; a full check stopped part way estimates
  // what the whole program will hold, so finishing it later does not count as piling up.
  if (run.full)
    symbols_after_full_ = finished ? out.symbols.size()
                                   : out.symbols.size() * run.order.size() / std::max<size_t>(run.next, 1);
  last_full_ = run.full;
  sources_ = run.sources;
  types_ = out.types.get();
  options_ = run.options;
  if (!run.same_paths) paths_ = std::move(run.paths);
  init_order_ = run.graph->init_order;
  records_ = std::move(run.records);
  if (run.full) {
    module_symbols_.assign(run.graph->modules.size(), {});
    index_symbols(out, 0, module_symbols_);
  } else {
    module_symbols_ = std::move(run.module_symbols);
  }
  indexed_symbols_ = static_cast<uint32_t>(out.symbols.size());
  run_.reset();
  return out;
}

}  // namespace fitz::checker
