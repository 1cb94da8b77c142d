// The method table and the message loop. A reader thread frames and parses messages (and
// records cancellations at once); the main thread handles them in order and runs analyses when
// the debounce delay has passed with no newer edit. Every handler runs inside a try block: a
// failure answers that one request with InternalError and is logged; the server goes on.
#include "lsp/server.h"

#include <fstream>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <llvm/ADT/Hashing.h>

#include "lsp/features/view_features.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"

namespace fitz::lsp {

namespace fs = std::filesystem;

namespace {

std::string id_key(const json& id) { return id.dump(); }

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// A failure in a handler that the client caused (bad params): answered with InvalidParams.
struct ParamsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Raised to answer a request with a specific LSP error (rename refused, ...).
struct RequestError : std::runtime_error {
  ErrorCode code;
  RequestError(ErrorCode c, const std::string& m) : std::runtime_error(m), code(c) {}
};

}  // namespace

Server::Server(Transport& transport, ServerOptions options) : transport_(transport), options_(options) {
  register_methods();
}

Server::~Server() = default;

void Server::log(LogLevel level, const std::string& line) {
  if (options_.log_to_client && level >= LogLevel::Info && initialized_ && !shutdown_) {
    int type = level == LogLevel::Error ? 1 : level == LogLevel::Warn ? 2 : 3;
    transport_.notify("window/logMessage", {{"type", type}, {"message", line}});
  }
  if (!options_.log || level < options_.log_level) return;
  auto now = std::chrono::system_clock::now();
  auto t = std::chrono::system_clock::to_time_t(now);
  char buf[32];
  std::strftime(buf, sizeof buf, "%H:%M:%S", std::localtime(&t));
  *options_.log << "[" << buf << "] " << line << "\n";
  options_.log->flush();
}

void Server::register_methods() {
  auto bind = [this](json (Server::*f)(const json&)) { return [this, f](const json& p) { return (this->*f)(p); }; };
  requests_["initialize"] = bind(&Server::initialize);
  requests_["shutdown"] = [this](const json&) {
    shutdown_ = true;
    return json(nullptr);
  };
  requests_["textDocument/hover"] = bind(&Server::hover);
  requests_["textDocument/completion"] = bind(&Server::completion);
  requests_["completionItem/resolve"] = [](const json& p) { return p; };
  requests_["textDocument/definition"] = bind(&Server::definition);
  requests_["textDocument/references"] = bind(&Server::references);
  requests_["textDocument/documentSymbol"] = bind(&Server::document_symbols);
  requests_["workspace/symbol"] = bind(&Server::workspace_symbols);
  requests_["textDocument/semanticTokens/full"] = bind(&Server::semantic_tokens_full);
  requests_["textDocument/semanticTokens/full/delta"] = bind(&Server::semantic_tokens_delta);
  requests_["textDocument/foldingRange"] = bind(&Server::folding_ranges);
  requests_["textDocument/formatting"] = bind(&Server::formatting);
  requests_["textDocument/selectionRange"] = bind(&Server::selection_ranges);
  requests_["textDocument/documentHighlight"] = bind(&Server::document_highlight);
  requests_["textDocument/prepareRename"] = bind(&Server::prepare_rename);
  requests_["textDocument/rename"] = bind(&Server::rename);
  requests_["textDocument/signatureHelp"] = bind(&Server::signature_help);
  requests_["textDocument/inlayHint"] = bind(&Server::inlay_hints);
  requests_["textDocument/codeAction"] = bind(&Server::code_actions);

  auto bindn = [this](void (Server::*f)(const json&)) { return [this, f](const json& p) { (this->*f)(p); }; };
  notifications_["initialized"] = [](const json&) {};
  notifications_["textDocument/didOpen"] = bindn(&Server::did_open);
  notifications_["textDocument/didChange"] = bindn(&Server::did_change);
  notifications_["textDocument/didClose"] = bindn(&Server::did_close);
  notifications_["textDocument/didSave"] = bindn(&Server::did_save);
  notifications_["workspace/didChangeWatchedFiles"] = bindn(&Server::did_change_watched_files);
  notifications_["workspace/didChangeConfiguration"] = [](const json&) {};
  notifications_["$/setTrace"] = [](const json&) {};
  notifications_["$/cancelRequest"] = [](const json&) {};  // recorded by the reader thread
  notifications_["exit"] = [this](const json&) { exit_ = true; };
}

// ---- the loop ----------------------------------------------------------------------------------

int Server::run() {
  std::shared_ptr<Inbox> inbox = inbox_;
  Transport* transport = &transport_;
  std::ostream* logp = options_.log;
  std::thread reader([inbox, transport, logp] {
    while (true) {
      Frame f = transport->read();
      if (f.status == Frame::Status::Eof) break;
      if (f.status == Frame::Status::BadHeader) {
        transport->respond_error(nullptr, ErrorCode::ParseError, f.error);
        continue;
      }
      std::optional<Message> m = parse_message(f.body);
      if (!m) {
        transport->respond_error(nullptr, ErrorCode::ParseError, "the message is not valid JSON");
        continue;
      }
      if (m->kind == Message::Kind::Invalid) {
        transport->respond_error(m->id, ErrorCode::InvalidRequest, m->error);
        continue;
      }
      std::lock_guard lock(inbox->mutex);
      if (m->kind == Message::Kind::Notification && m->method == "$/cancelRequest" && m->params.is_object() &&
          m->params.contains("id"))
        inbox->cancelled.insert(id_key(m->params["id"]));
      inbox->queue.push_back(std::move(*m));
      inbox->cv.notify_one();
    }
    std::lock_guard lock(inbox->mutex);
    inbox->closed = true;
    inbox->cv.notify_one();
    (void)logp;
  });
  reader.detach();

  while (!exit_) {
    std::optional<Message> next;
    bool closed = false;
    // Pending checks go on between messages, one module at a time.
    bool background = workspace_.background_work();
    {
      std::unique_lock lock(inbox->mutex);
      auto ready = [&] { return !inbox->queue.empty() || inbox->closed; };
      if (background) {
      } else if (due_) {
        inbox->cv.wait_until(lock, *due_, ready);
      } else {
        inbox->cv.wait(lock, ready);
      }
      if (!inbox->queue.empty()) {
        next = std::move(inbox->queue.front());
        inbox->queue.pop_front();
      } else {
        closed = inbox->closed;
      }
    }
    if (next) {
      handle(*next);
      continue;
    }
    if (closed) break;
    run_due_analyses(false);
    if (background) run_background();
  }
  log(LogLevel::Info, fmt::format("exiting ({})", shutdown_ ? "after shutdown" : "without shutdown"));
  return shutdown_ && exit_ ? 0 : 1;
}

void Server::handle(const Message& m) {
  if (m.kind == Message::Kind::Request) handle_request(m);
  else if (m.kind == Message::Kind::Notification) handle_notification(m);
  // Responses to requests we never send are ignored.
}

void Server::handle_request(const Message& m) {
  {
    std::lock_guard lock(inbox_->mutex);
    if (inbox_->cancelled.erase(id_key(m.id))) {
      transport_.respond_error(m.id, ErrorCode::RequestCancelled, "cancelled");
      return;
    }
  }
  if (m.method != "initialize" && !initialized_) {
    transport_.respond_error(m.id, ErrorCode::ServerNotInitialized, "the server is not initialized");
    return;
  }
  if (shutdown_ && m.method != "shutdown") {
    transport_.respond_error(m.id, ErrorCode::InvalidRequest, "the server is shutting down");
    return;
  }
  auto it = requests_.find(m.method);
  if (it == requests_.end()) {
    transport_.respond_error(m.id, ErrorCode::MethodNotFound, "unknown method `" + m.method + "`");
    return;
  }
  auto start = Clock::now();
  try {
    json result = it->second(m.params.is_null() ? json::object() : m.params);
    transport_.respond(m.id, std::move(result));
  } catch (const RequestError& e) {
    transport_.respond_error(m.id, e.code, e.what());
  } catch (const ParamsError& e) {
    transport_.respond_error(m.id, ErrorCode::InvalidParams, e.what());
  } catch (const json::exception& e) {
    log(LogLevel::Error, fmt::format("{}: invalid params: {}", m.method, e.what()));
    transport_.respond_error(m.id, ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
  } catch (const std::exception& e) {
    log(LogLevel::Error, fmt::format("{}: internal error: {}", m.method, e.what()));
    transport_.respond_error(m.id, ErrorCode::InternalError, std::string("internal error: ") + e.what());
  } catch (...) {
    log(LogLevel::Error, fmt::format("{}: internal error", m.method));
    transport_.respond_error(m.id, ErrorCode::InternalError, "internal error");
  }
  double ms = ms_since(start);
  if (ms > options_.slow_request_ms) log(LogLevel::Info, fmt::format("slow request {} {}: {:.1f} ms", m.method, m.id.dump(), ms));
}

void Server::handle_notification(const Message& m) {
  if (m.method == "exit") {
    exit_ = true;
    return;
  }
  if (!initialized_) return;  // dropped, as the protocol says
  auto it = notifications_.find(m.method);
  if (it == notifications_.end()) return;  // unknown notifications ($/...) are ignored
  auto start = Clock::now();
  try {
    it->second(m.params.is_null() ? json::object() : m.params);
  } catch (const std::exception& e) {
    log(LogLevel::Error, fmt::format("{}: error: {}", m.method, e.what()));
  } catch (...) {
    log(LogLevel::Error, fmt::format("{}: error", m.method));
  }
  double ms = ms_since(start);
  if (ms > options_.slow_request_ms) log(LogLevel::Info, fmt::format("slow notification {}: {:.1f} ms", m.method, ms));
}

// ---- scheduling --------------------------------------------------------------------------------

void Server::schedule() {
  // Debounce adapts to recent analysis times: quick checks (under kQuickAnalysisMs, quicker
  // than keystrokes come) run almost at once, slow ones wait for a pause in typing. Edits that
  // arrive meanwhile are handled first anyway, and a superseded analysis is dropped.
  constexpr double kQuickAnalysisMs = 50;
  double recent = workspace_.recent_analysis_ms();
  double d = std::clamp(recent < kQuickAnalysisMs ? 0.0 : recent, options_.min_debounce_ms, options_.max_debounce_ms);
  auto now = Clock::now();
  if (!pending_since_) pending_since_ = now;
  due_ = now + std::chrono::microseconds(int64_t(d * 1000));
  // Never starve diagnostics during continuous typing.
  auto latest = *pending_since_ + std::chrono::milliseconds(1000);
  if (*due_ > latest) due_ = latest;
}

bool Server::change_pending_for(const Unit& unit) {
  std::lock_guard lock(inbox_->mutex);
  for (const Message& m : inbox_->queue) {
    if (m.method != "textDocument/didChange" && m.method != "textDocument/didClose") continue;
    try {
      auto uri = m.params.at("textDocument").at("uri").get<std::string>();
      auto path = uri_to_path(uri);
      if (!path) continue;
      fs::path p = normalise_path(*path);
      if (unit.key == "file:" + p.string() || unit.module_hashes.count(p.string())) return true;
    } catch (...) {
    }
  }
  return false;
}

void Server::run_due_analyses(bool force) {
  if (!force && due_ && Clock::now() < *due_) return;
  due_.reset();
  pending_since_.reset();
  for (Unit* u : workspace_.units()) {
    auto& published = u->pending ? published_focus_ : published_analysis_;
    if (!u->dirty && u->analysis && published[u->key] == u->generation) continue;
    // Superseded: a newer edit of this unit is already queued; its own debounce will run.
    if (!force && change_pending_for(*u)) {
      schedule();
      continue;
    }
    analyse_and_publish(*u, false);
  }
}

void Server::flush() {
  run_due_analyses(true);
  for (Unit* u : workspace_.units())
    if (u->pending) analyse_and_publish(*u, true);
}

void Server::run_background() {
  for (Unit* u : workspace_.units()) {
    if (!u->pending || u->dirty) continue;
    auto start = Clock::now();
    if (workspace_.advance(*u, 1)) {
      const Analysis& a = *u->analysis;
      log(LogLevel::Debug, fmt::format("completed {} in {:.1f} ms (check {:.1f}; {} re-checked; {} diagnostics)", u->key,
                      a.elapsed_ms, a.check_ms, a.rechecked.size(), a.diagnostics.size()));
      analyse_and_publish(*u, false);
    }
    double ms = ms_since(start);
    if (ms > options_.slow_request_ms) log(LogLevel::Info, fmt::format("slow background check of {}: {:.1f} ms", u->key, ms));
    return;
  }
}

void Server::analyse_and_publish(Unit& unit, bool complete) {
  auto start = Clock::now();
  if (unit.dirty || !unit.analysis) {
    uint64_t reads = workspace_.disk_reads();
    workspace_.refresh(unit, complete || focus_.empty() ? nullptr : &focus_);
    const Analysis& a = *unit.analysis;
    std::string through;
    if (unit.pending) through = fmt::format(" through {}", a.module(unit.pending->focus).name);
    log(LogLevel::Debug, fmt::format("analysed {} in {:.1f} ms (load {:.1f}, check {:.1f}{}; {} modules, {} files read; "
                    "{} diagnostics), refresh {:.1f} ms",
                    unit.key, a.elapsed_ms, a.load_ms, a.check_ms, through, a.graph.modules.size(),
                    workspace_.disk_reads() - reads, a.diagnostics.size(), ms_since(start)));
  }
  if (unit.pending) {
    if (!complete) {
      publish_focus(unit, start);
      return;
    }
    workspace_.complete(unit);
  }
  if (published_analysis_[unit.key] == unit.generation) {
    workspace_.drop_retired();
    return;
  }
  published_analysis_[unit.key] = unit.generation;
  const Analysis& a = *unit.analysis;
  // Group by file: every module of a project (open or not); for a loose file only itself. The
  // URIs are those interned in uris_ (and in `previous`, left alone until the end), not copies:
  // this runs for every file of the project after each keystroke.
  struct ByText {
    bool operator()(const std::string* x, const std::string* y) const { return *x < *y; }
  };
  using Diags = std::vector<const frontend::Diagnostic*>;
  std::map<const std::string*, Diags, ByText> by_uri;
  auto want = [&](const fs::path& p) { return unit.project || unit.key == "file:" + p.string(); };
  // Each file's list in by_uri (the map's nodes stay put), found without comparing URIs again.
  std::unordered_map<uint32_t, Diags*> diags_of_file;
  for (const auto& m : a.graph.modules)
    if (want(m.path)) diags_of_file[m.file.value] = &by_uri[&uri_of(m.path)];
  for (const auto& v : a.views.files)
    if (want(v.path)) by_uri[&uri_of(v.path)];
  for (const auto& d : a.diagnostics) {
    if (!d.span.file.valid()) continue;
    auto known = diags_of_file.find(d.span.file.value);
    if (known == diags_of_file.end()) {
      fs::path p = a.path_of(d.span.file);
      if (p.empty() || !want(p)) continue;
      known = diags_of_file.emplace(d.span.file.value, &by_uri[&uri_of(p)]).first;
    }
    known->second->push_back(&d);
  }
  auto& previous = published_by_unit_[unit.key];
  for (const auto& uri : previous) by_uri[&uri];  // no longer loaded: cleared below
  // The files with diagnostics now: usually those of last time, which then stay as they are.
  size_t with_diagnostics = 0;
  bool same_files = true;
  for (auto& [uri, diags] : by_uri) {
    if (!diags.empty()) {
      ++with_diagnostics;
      if (same_files && !previous.count(*uri)) same_files = false;
    }
    publish(*uri, a, diags, unit.key);
  }
  if (!same_files || with_diagnostics != previous.size()) {
    std::set<std::string> now;
    for (auto& [uri, diags] : by_uri)
      if (!diags.empty()) now.insert(*uri);
    previous = std::move(now);
  }
  // A check completed in the background was timed when it started: this is not an edit's latency.
  log(LogLevel::Debug, fmt::format("published {}{} in {:.1f} ms", published_focus_[unit.key] == unit.generation ? "the rest of " : "",
                  unit.key, ms_since(start)));
  workspace_.drop_retired();
}

void Server::publish_focus(Unit& unit, Clock::time_point start) {
  if (published_focus_[unit.key] == unit.generation) return;
  published_focus_[unit.key] = unit.generation;
  const Analysis& a = *unit.analysis;
  std::vector<frontend::Diagnostic> diags = focus_diagnostics(*unit.pending, unit.session);
  std::vector<const frontend::Diagnostic*> ptrs;
  for (const auto& d : diags) ptrs.push_back(&d);
  const std::string& uri = uri_of(a.module(unit.pending->focus).path);
  publish(uri, a, ptrs, unit.key);
  if (!diags.empty()) published_by_unit_[unit.key].insert(uri);
  log(LogLevel::Debug, fmt::format("published {} in {:.1f} ms (its focus {}; the rest follows)", unit.key, ms_since(start),
                  a.module(unit.pending->focus).name));
  workspace_.drop_retired();
}

void Server::publish(const std::string& uri, const Analysis& a, const std::vector<const frontend::Diagnostic*>& diags,
                     const std::string& unit_key) {
  Document* doc = workspace_.find(uri);
  // What the message would say, without building it: within one SourceManager a FileId
  // stands for one exact content, so the spans and texts below fix every position.
  size_t h = publish_key(uri, doc ? std::optional<int64_t>(doc->version()) : std::nullopt, a, diags);
  auto it = published_hash_.find(uri);
  if (it != published_hash_.end() && it->second == h) return;
  // Files that never had diagnostics and still have none need no message.
  if (it == published_hash_.end() && diags.empty() && !doc) return;
  published_hash_[uri] = h;
  json list = json::array();
  for (const frontend::Diagnostic* d : diags) list.push_back(diagnostic_to_json(a, *d));
  json params{{"uri", uri}, {"diagnostics", std::move(list)}};
  if (doc) params["version"] = doc->version();
  log(LogLevel::Debug, fmt::format("publish {} ({} diagnostics) from {}", uri, diags.size(), unit_key));
  transport_.notify("textDocument/publishDiagnostics", std::move(params));
}

// ---- helpers -----------------------------------------------------------------------------------

const std::string& Server::uri_of(const fs::path& path) {
  auto [it, fresh] = uris_.try_emplace(path.native());
  if (fresh) it->second = path_to_uri(path);
  return it->second;
}

size_t Server::publish_key(const std::string& uri, std::optional<int64_t> version, const Analysis& a,
                           const std::vector<const frontend::Diagnostic*>& diags) {
  // Hashed as it goes rather than concatenated first: a complete publish asks this of every
  // file of the project after each keystroke, and the text of most is unchanged.
  llvm::hash_code k = llvm::hash_value(uint64_t(0));
  auto num = [&](uint64_t v) { k = llvm::hash_combine(k, v); };
  auto text = [&](std::string_view s) {
    num(s.size());
    num(frontend::text_hash(s));
  };
  auto span = [&](const frontend::Span& s) {
    num(s.file.value);
    num(uint64_t(s.begin) << 32 | s.end);
  };
  text(uri);
  num(version ? uint64_t(*version) : UINT64_MAX);
  num(reinterpret_cast<uintptr_t>(a.source_store.get()));
  num(workspace_.sources_generation());
  num(diags.size());
  for (const frontend::Diagnostic* d : diags) {
    num(uint64_t(d->kind) << 8 | uint64_t(d->severity));
    span(d->span);
    text(d->message);
    text(d->hint);
    num(d->labels.size());
    for (const auto& l : d->labels) {
      span(l.span);
      text(l.message);
    }
  }
  return size_t(k);
}

Document& Server::document(const json& params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  Document* d = workspace_.find(uri);
  if (!d) {
    // Requests on files the client never opened: read them from disk.
    auto path = uri_to_path(uri);
    std::string err;
    std::optional<std::string> text = path ? frontend::disk_reader()(*path, err) : std::nullopt;
    if (!text) throw RequestError(ErrorCode::InvalidParams, "unknown document " + uri);
    d = &workspace_.open(uri, 0, std::move(*text));
  }
  return *d;
}

Server::Target Server::target(const json& params, bool with_position) {
  Target t;
  t.doc = &document(params);
  if (t.doc->path().empty()) return t;
  Unit& unit = workspace_.unit_for(t.doc->path());
  // A request needs the current analysis; publish what it found while we are at it.
  analyse_and_publish(unit, true);
  t.analysis = unit.analysis;
  if (t.analysis) t.module = t.analysis->module_at(t.doc->path());
  if (t.analysis && !t.module.valid()) t.view = t.analysis->view_at(t.doc->path());
  if (with_position && t.module.valid())
    t.offset = offset_of(t.analysis->file(t.module), position_from_json(params.at("position")));
  if (with_position && t.view)
    t.offset = offset_of(t.analysis->sources.file(t.view->file), position_from_json(params.at("position")));
  return t;
}

// ---- lifecycle ---------------------------------------------------------------------------------

json Server::initialize(const json& params) {
  if (initialized_) throw RequestError(ErrorCode::InvalidRequest, "initialize was already called");
  initialized_ = true;
  json legend{{"tokenTypes", json::array()}, {"tokenModifiers", json::array()}};
  for (auto n : semantic_token_type_names()) legend["tokenTypes"].push_back(n);
  for (auto n : semantic_token_modifier_names()) legend["tokenModifiers"].push_back(n);
  // No positionEncoding: UTF-16, the default every client supports.
  json caps{
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {".", "@", "<", "{"}}, {"resolveProvider", false}}},
      {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {","}}}},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"documentSymbolProvider", true},
      {"workspaceSymbolProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"renameProvider", {{"prepareProvider", true}}},
      {"foldingRangeProvider", true},
      {"documentFormattingProvider", true},
      {"selectionRangeProvider", true},
      {"inlayHintProvider", true},
      {"semanticTokensProvider", {{"legend", legend}, {"full", {{"delta", true}}}, {"range", false}}},
  };
  (void)params;
  log(LogLevel::Debug, "initialized");
  return {{"capabilities", caps}, {"serverInfo", {{"name", "fitz"}, {"version", "0.1.0"}}}};
}

// ---- documents ---------------------------------------------------------------------------------

void Server::did_open(const json& p) {
  const json& td = p.at("textDocument");
  std::string uri = td.at("uri").get<std::string>();
  Document& d = workspace_.open(uri, td.value("version", int64_t(0)), td.at("text").get<std::string>());
  if (!d.path().empty()) {
    focus_ = d.path();
    // Creates the unit; a project is loaded and checked through this file, published at once.
    Unit& unit = workspace_.unit_for(d.path());
    if (!unit.dirty && unit.analysis) analyse_and_publish(unit, false);
    schedule();
  }
}

void Server::did_change(const json& p) {
  std::string uri = p.at("textDocument").at("uri").get<std::string>();
  int64_t version = p.at("textDocument").value("version", int64_t(0));
  std::vector<ContentChange> changes;
  for (const auto& c : p.at("contentChanges")) {
    ContentChange cc;
    if (c.contains("range")) cc.range = range_from_json(c.at("range"));
    cc.text = c.at("text").get<std::string>();
    changes.push_back(std::move(cc));
  }
  workspace_.change(uri, version, changes);
  if (Document* d = workspace_.find(uri); d && !d->path().empty()) focus_ = d->path();
  tokens_.erase(uri + "#stale");
  schedule();
}

void Server::did_close(const json& p) {
  std::string uri = p.at("textDocument").at("uri").get<std::string>();
  Document* d = workspace_.find(uri);
  bool loose = d && !d->path().empty() && !workspace_.unit_for(d->path()).project;
  std::string key = d && !d->path().empty() ? "file:" + d->path().string() : "";
  workspace_.close(uri);
  tokens_.erase(uri);
  if (loose) {
    // Nobody checks a closed loose file: clear what it showed.
    published_by_unit_.erase(key);
    published_analysis_.erase(key);
    published_hash_.erase(uri);
    transport_.notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }
  schedule();
}

void Server::did_save(const json& p) {
  std::string uri = p.at("textDocument").at("uri").get<std::string>();
  if (auto path = uri_to_path(uri)) workspace_.mark_changed(*path);
  schedule();
}

void Server::did_change_watched_files(const json& p) {
  for (const auto& c : p.at("changes")) {
    auto path = uri_to_path(c.at("uri").get<std::string>());
    if (!path) continue;
    // An open buffer wins over the disk; mark_changed compares contents, so this is cheap.
    workspace_.mark_changed(*path);
  }
  schedule();
}

// ---- features ----------------------------------------------------------------------------------

json Server::hover(const json& p) {
  Target t = target(p, true);
  std::optional<HoverInfo> h;
  if (t.view) h = lsp::view_hover(*t.analysis, *t.view, t.offset);
  else if (t.module.valid()) h = lsp::hover(*t.analysis, t.module, t.offset);
  if (!h) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", h->markdown}}},
          {"range", to_json(frontend::lsp_range(h->span, t.analysis->sources))}};
}

json Server::completion(const json& p) {
  Target t = target(p, true);
  json items = json::array();
  std::vector<CompletionItem> found;
  if (t.view) {
    found = lsp::view_completion(*t.analysis, *t.view, t.doc->text(), t.offset);
  } else {
    // `<` and `{` open completions in views only.
    std::string trigger = p.contains("context") ? p["context"].value("triggerCharacter", "") : "";
    if (!t.analysis || !t.module.valid() || trigger == "<" || trigger == "{") return items;
    found = lsp::completion(*t.analysis, t.module, t.doc->text(), t.offset, &python_members_);
  }
  for (const auto& c : found) {
    json it{{"label", c.label}, {"kind", completion_kind_code(c.kind)}};
    if (!c.detail.empty()) it["detail"] = c.detail;
    if (!c.doc.empty()) it["documentation"] = {{"kind", "markdown"}, {"value", c.doc}};
    if (!c.insert_text.empty()) it["insertText"] = c.insert_text;
    if (c.snippet) it["insertTextFormat"] = 2;
    if (!c.sort_text.empty()) it["sortText"] = c.sort_text;
    items.push_back(std::move(it));
  }
  return {{"isIncomplete", false}, {"items", items}};
}

json Server::definition(const json& p) {
  Target t = target(p, true);
  json out = json::array();
  if (t.view)
    for (const auto& s : lsp::view_definition(*t.analysis, *t.view, t.offset)) out.push_back(location(*t.analysis, s));
  if (!t.module.valid()) return out;
  for (const auto& s : lsp::definition(*t.analysis, t.module, t.offset)) out.push_back(location(*t.analysis, s));
  return out;
}

json Server::references(const json& p) {
  Target t = target(p, true);
  json out = json::array();
  if (!t.module.valid()) return out;
  bool decl = p.contains("context") ? p["context"].value("includeDeclaration", true) : true;
  for (const auto& s : lsp::references(*t.analysis, t.module, t.offset, decl)) out.push_back(location(*t.analysis, s));
  return out;
}

json Server::document_symbols(const json& p) {
  Target t = target(p, false);
  json out = json::array();
  if (t.view)
    for (const auto& s : lsp::view_document_symbols(*t.analysis, *t.view)) out.push_back(document_symbol_to_json(*t.analysis, s));
  if (!t.module.valid()) return out;
  for (const auto& s : lsp::document_symbols(*t.analysis, t.module)) out.push_back(document_symbol_to_json(*t.analysis, s));
  return out;
}

json Server::workspace_symbols(const json& p) {
  std::string query = p.value("query", "");
  json out = json::array();
  std::set<std::string> seen;
  for (Unit* u : workspace_.units()) {
    if (u->dirty || !u->analysis) workspace_.refresh(*u);
    workspace_.complete(*u);
    for (const auto& s : lsp::workspace_symbols(*u->analysis, query)) {
      json loc = location(*u->analysis, s.span);
      if (!seen.insert(s.name + loc.dump()).second) continue;
      out.push_back({{"name", s.name}, {"kind", symbol_kind_code(s.kind)}, {"containerName", s.container}, {"location", loc}});
      if (out.size() >= 500) return out;
    }
  }
  return out;
}

json Server::semantic_tokens_full(const json& p) {
  Target t = target(p, false);
  const Analysis* a = t.analysis.get();
  frontend::SourceFile file(frontend::FileId{}, "", t.doc->text());
  // A view's tokens are of the analysed text: the buffer's tree is not a view tree.
  auto tokens = t.view && t.analysis->sources.file(t.view->file).text() == t.doc->text()
                    ? lsp::view_semantic_tokens(*t.analysis, *t.view)
                : t.view ? std::vector<SemanticToken>{}
                         : lsp::semantic_tokens(t.doc->tree(), t.doc->text(), a, t.module);
  TokensResult r{std::to_string(next_result_id_++), encode_semantic_tokens(file, tokens)};
  json out{{"resultId", r.id}, {"data", r.data}};
  tokens_[t.doc->uri()] = std::move(r);
  return out;
}

json Server::semantic_tokens_delta(const json& p) {
  std::string uri = p.at("textDocument").at("uri").get<std::string>();
  std::string previous = p.value("previousResultId", "");
  auto it = tokens_.find(uri);
  if (it == tokens_.end() || it->second.id != previous) return semantic_tokens_full(p);
  std::vector<uint32_t> old = it->second.data;
  json full = semantic_tokens_full(p);
  const std::vector<uint32_t>& now = tokens_[uri].data;
  // One edit: the differing middle between a common prefix and a common suffix.
  size_t pre = 0;
  while (pre < old.size() && pre < now.size() && old[pre] == now[pre]) ++pre;
  size_t suf = 0;
  while (suf < old.size() - pre && suf < now.size() - pre && old[old.size() - 1 - suf] == now[now.size() - 1 - suf]) ++suf;
  json edits = json::array();
  if (pre != old.size() || pre != now.size()) {
    std::vector<uint32_t> data(now.begin() + pre, now.end() - suf);
    edits.push_back({{"start", pre}, {"deleteCount", old.size() - pre - suf}, {"data", data}});
  }
  return {{"resultId", full["resultId"]}, {"edits", edits}};
}

json Server::folding_ranges(const json& p) {
  Document& d = document(p);
  json out = json::array();
  for (const auto& f : lsp::folding_ranges(d.tree(), d.text())) {
    json j{{"startLine", f.start_line}, {"endLine", f.end_line}};
    if (f.kind == FoldingRange::Kind::Comment) j["kind"] = "comment";
    if (f.kind == FoldingRange::Kind::Imports) j["kind"] = "imports";
    out.push_back(j);
  }
  return out;
}

json Server::formatting(const json& p) {
  Document& d = document(p);
  if (d.path().extension() == ".fitzv") return nullptr;  // `fitz fmt` formats Fitz modules only
  std::optional<std::string> out = formatted_text(d.path(), d.text());
  if (!out) return nullptr;  // syntax errors: nothing to change, as `fitz fmt` refuses
  if (*out == d.text()) return json::array();
  frontend::SourceFile file(frontend::FileId{}, d.path().string(), d.text());
  return json::array({{{"range", to_json(range_of(file, 0, static_cast<uint32_t>(d.text().size())))}, {"newText", *out}}});
}

json Server::selection_ranges(const json& p) {
  Document& d = document(p);
  frontend::SourceFile file(frontend::FileId{}, "", d.text());
  std::vector<uint32_t> offsets;
  for (const auto& pos : p.at("positions")) offsets.push_back(offset_of(file, position_from_json(pos)));
  json out = json::array();
  for (const auto& chain : lsp::selection_ranges(d.tree(), offsets)) {
    json node = nullptr;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      json n{{"range", to_json(range_of(file, it->first, it->second))}};
      if (!node.is_null()) n["parent"] = node;
      node = std::move(n);
    }
    out.push_back(node);
  }
  return out;
}

json Server::document_highlight(const json& p) {
  Target t = target(p, true);
  json out = json::array();
  if (!t.module.valid()) return out;
  for (const auto& h : lsp::document_highlight(*t.analysis, t.module, t.offset))
    out.push_back({{"range", to_json(frontend::lsp_range(h.span, t.analysis->sources))}, {"kind", h.write ? 3 : 2}});
  return out;
}

json Server::prepare_rename(const json& p) {
  Target t = target(p, true);
  std::string error;
  std::optional<RenameTarget> r;
  if (t.view) r = lsp::view_prepare_rename(*t.analysis, *t.view, t.offset, error);
  else if (t.module.valid()) r = lsp::prepare_rename(*t.analysis, t.module, t.offset, error);
  if (!r) return nullptr;
  return {{"range", to_json(frontend::lsp_range(r->span, t.analysis->sources))}, {"placeholder", r->placeholder}};
}

json Server::rename(const json& p) {
  Target t = target(p, true);
  if (!t.module.valid() && !t.view) throw RequestError(ErrorCode::RequestFailed, "this file is not analysed");
  std::string error;
  auto edits = t.view ? lsp::view_rename(*t.analysis, *t.view, t.offset, p.at("newName").get<std::string>(), error)
                      : lsp::rename(*t.analysis, t.module, t.offset, p.at("newName").get<std::string>(), error);
  if (!edits) throw RequestError(ErrorCode::RequestFailed, error);
  json changes = json::object();
  for (const auto& [path, list] : *edits) {
    json arr = json::array();
    for (const auto& e : list) arr.push_back(text_edit(*t.analysis, e));
    changes[path_to_uri(path)] = arr;
  }
  return {{"changes", changes}};
}

json Server::signature_help(const json& p) {
  Target t = target(p, true);
  if (!t.module.valid()) return nullptr;
  auto s = lsp::signature_help(*t.analysis, t.module, t.offset);
  if (!s) return nullptr;
  json params = json::array();
  // Parameter labels as [start, end) offsets in UTF-16 code units of the label.
  auto u16 = [&](uint32_t byte) {
    frontend::SourceFile f(frontend::FileId{}, "", s->label);
    return f.utf16_col(byte);
  };
  for (const auto& [b, e] : s->params) params.push_back({{"label", {u16(b), u16(e)}}});
  json sig{{"label", s->label}, {"parameters", params}};
  if (!s->doc.empty()) sig["documentation"] = {{"kind", "markdown"}, {"value", s->doc}};
  uint32_t active = s->params.empty() ? 0 : std::min<uint32_t>(s->active_parameter, uint32_t(s->params.size() - 1));
  return {{"signatures", {sig}}, {"activeSignature", 0}, {"activeParameter", active}};
}

json Server::inlay_hints(const json& p) {
  Target t = target(p, false);
  json out = json::array();
  if (!t.module.valid()) return out;
  const auto& file = t.analysis->file(t.module);
  auto range = range_from_json(p.at("range"));
  uint32_t b = offset_of(file, range.start), e = offset_of(file, range.end);
  for (const auto& h : lsp::inlay_hints(*t.analysis, t.module, b, e))
    out.push_back({{"position", to_json(position_of(file, h.offset))}, {"label", h.label}, {"kind", h.is_type ? 1 : 2},
                   {"paddingLeft", false}});
  return out;
}

json Server::code_actions(const json& p) {
  Target t = target(p, false);
  json out = json::array();
  if (!t.module.valid()) return out;
  const auto& file = t.analysis->file(t.module);
  auto range = range_from_json(p.at("range"));
  uint32_t b = offset_of(file, range.start), e = offset_of(file, range.end);
  for (const auto& act : lsp::code_actions(*t.analysis, t.doc->path(), b, e)) {
    json edits = json::array();
    for (const auto& ed : act.edits) edits.push_back(text_edit(*t.analysis, ed));
    out.push_back({{"title", act.title},
                   {"kind", "quickfix"},
                   {"diagnostics", {diagnostic_to_json(*t.analysis, *act.diagnostic)}},
                   {"isPreferred", true},
                   {"edit", {{"changes", {{t.doc->uri(), edits}}}}}});
  }
  return out;
}

// ---- entry point -------------------------------------------------------------------------------

int run_language_server(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::unique_ptr<std::ofstream> log_file;
  ServerOptions options;
  options.log = &err;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      out << "usage: fitz lsp [--log-file PATH]\n\nServes the Language Server Protocol on stdin/stdout.\n\n"
             "options:\n  --log-file PATH   write the whole log (and requests slower than 50 ms) to PATH instead of stderr\n"
             "  --stdio           accepted for compatibility (stdio is the only transport)\n\n"
             "stderr gets warnings and errors only (FITZ_LSP_LOG=debug|info|warn|error for more or less);\n"
             "information lines also go to the editor as window/logMessage.\n";
      return 0;
    }
    std::string path;
    if (a == "--log-file" && i + 1 < args.size()) path = args[++i];
    else if (a.starts_with("--log-file=")) path = a.substr(11);
    else if (a == "--stdio") continue;
    else {
      err << "error: unknown option `" << a << "` for `fitz lsp`\n";
      return 2;
    }
    if (!path.empty()) {
      log_file = std::make_unique<std::ofstream>(path, std::ios::app);
      if (!*log_file) {
        err << "error: cannot open log file `" << path << "`\n";
        return 2;
      }
      options.log = log_file.get();
      options.log_level = LogLevel::Debug;  // a file was asked for: everything goes there
    }
  }
  if (const char* v = std::getenv("FITZ_LSP_LOG"); v && *v) {
    std::string_view level(v);
    if (level == "debug") options.log_level = LogLevel::Debug;
    else if (level == "info") options.log_level = LogLevel::Info;
    else if (level == "warn") options.log_level = LogLevel::Warn;
    else if (level == "error") options.log_level = LogLevel::Error;
    else err << "warning: FITZ_LSP_LOG=" << level << " is not debug, info, warn or error; using warn\n";
  }
  Transport transport(in, out);
  Server server(transport, options);
  return server.run();
}

}  // namespace fitz::lsp
