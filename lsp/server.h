// The language server: the method table, the lifecycle (initialize, shutdown, exit), the
// message loop with its reader thread, debounced analysis and diagnostics publishing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "lsp/lsp.h"
#include "lsp/python_members.h"
#include "lsp/transport.h"
#include "lsp/workspace.h"

namespace fitz::lsp {

enum class LogLevel : uint8_t { Debug, Info, Warn, Error };

struct ServerOptions {
  std::ostream* log = nullptr;     // where log lines go (nullptr: nowhere)
  // The least level written to `log`. Editors show a language server's stderr as errors, so by
  // default only warnings and errors go there; `FITZ_LSP_LOG=debug|info|warn|error` or a log
  // file lowers it. Info and above also reach the client as `window/logMessage`.
  LogLevel log_level = LogLevel::Warn;
  bool log_to_client = true;
  double slow_request_ms = 50;     // requests slower than this are logged
  // Quick analyses need no debounce: edits queued meanwhile are handled first anyway, and an
  // analysis with a newer edit of its unit queued is dropped.
  double min_debounce_ms = 0;
  double max_debounce_ms = 200;
};

class Server {
 public:
  Server(Transport& transport, ServerOptions options);
  ~Server();

  // Reads and answers messages until `exit` or the end of the input. Returns the process exit
  // code: 0 after shutdown + exit, 1 otherwise.
  int run();

  // One message, synchronously (tests drive the server through this).
  void handle(const Message& message);
  // Runs every pending analysis and publishes its diagnostics now.
  void flush();

  Workspace& workspace() { return workspace_; }

 private:
  using Clock = std::chrono::steady_clock;
  using RequestHandler = std::function<json(const json& params)>;
  using NotificationHandler = std::function<void(const json& params)>;

  void register_methods();
  void handle_request(const Message& m);
  void handle_notification(const Message& m);
  void log(LogLevel level, const std::string& line);

  // Scheduling.
  void schedule();
  void run_due_analyses(bool force);
  // Analyses a stale unit and publishes its diagnostics: with `complete`, of every file; without,
  // a project's check may stop after the focus file, whose diagnostics are then published alone
  // (the rest follows from run_background).
  void analyse_and_publish(Unit& unit, bool complete);
  void publish_focus(Unit& unit, Clock::time_point start);
  // Sends one file's diagnostics unless the last message for it said the same.
  void publish(const std::string& uri, const Analysis& a, const std::vector<const frontend::Diagnostic*>& diags,
               const std::string& unit_key);
  // Checks one more module of a pending analysis (publishing everything once it is complete).
  void run_background();
  bool change_pending_for(const Unit& unit);
  // Identifies the publishDiagnostics message of `uri` without building it.
  size_t publish_key(const std::string& uri, std::optional<int64_t> version, const Analysis& a,
                     const std::vector<const frontend::Diagnostic*>& diags);

  // Helpers for handlers.
  struct Target {
    Document* doc = nullptr;
    std::shared_ptr<const Analysis> analysis;
    ModuleId module;
    const checker::ViewFile* view = nullptr;  // a .fitzv live view (features/view_features.h)
    uint32_t offset = 0;
  };
  Document& document(const json& params);
  Target target(const json& params, bool with_position);

  // Handlers.
  json initialize(const json& params);
  json hover(const json& params);
  json completion(const json& params);
  json definition(const json& params);
  json references(const json& params);
  json document_symbols(const json& params);
  json workspace_symbols(const json& params);
  json semantic_tokens_full(const json& params);
  json semantic_tokens_delta(const json& params);
  json folding_ranges(const json& params);
  json formatting(const json& params);
  json selection_ranges(const json& params);
  json document_highlight(const json& params);
  json prepare_rename(const json& params);
  json rename(const json& params);
  json signature_help(const json& params);
  json inlay_hints(const json& params);
  json code_actions(const json& params);

  void did_open(const json& params);
  void did_change(const json& params);
  void did_close(const json& params);
  void did_save(const json& params);
  void did_change_watched_files(const json& params);

  Transport& transport_;
  ServerOptions options_;
  Workspace workspace_;
  PythonMembers python_members_;  // attributes of `from python import` modules, asked once each
  std::unordered_map<std::string, RequestHandler> requests_;
  std::unordered_map<std::string, NotificationHandler> notifications_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exit_ = false;

  // Messages read by the reader thread (shared with it: it may outlive the server while it
  // sits in a blocking read at process exit).
  struct Inbox {
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<Message> queue;
    bool closed = false;
    std::set<std::string> cancelled;  // request ids (dumped JSON) cancelled before they ran
  };
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();

  // Debounce: the time the pending analyses become due, and when they first became pending.
  std::optional<Clock::time_point> due_;
  std::optional<Clock::time_point> pending_since_;

  // What was last published per URI (to skip identical republishing), per unit.
  std::unordered_map<std::string, size_t> published_hash_;
  std::unordered_map<std::string, std::set<std::string>> published_by_unit_;
  std::unordered_map<std::string, uint64_t> published_analysis_;  // Unit::generation
  std::unordered_map<std::string, uint64_t> published_focus_;     // of a pending analysis
  // The URI of each path published so far (path_to_uri of its text): every complete publish of a
  // project names each of its modules, after every keystroke.
  std::unordered_map<std::string, std::string> uris_;
  const std::string& uri_of(const std::filesystem::path& path);
  // The file last opened or edited: checks stop after its module until the user pauses.
  std::filesystem::path focus_;

  // Semantic tokens sent per URI, for deltas.
  struct TokensResult {
    std::string id;
    std::vector<uint32_t> data;
  };
  std::unordered_map<std::string, TokensResult> tokens_;
  uint64_t next_result_id_ = 1;
};

}  // namespace fitz::lsp
