// The extended and simple query state machines, the statement cache and owned result rows;
// see query.h. After an ErrorResponse the server skips to Sync, so the flows only wait for
// ReadyForQuery; any out-of-order message is a protocol error (the connection is unusable).
#include "pg/query.h"

#include <algorithm>

namespace fitz::pg {

// ---- RowSet, Row, QueryResult -------------------------------------------------------------

std::optional<std::string_view> RowSet::value(std::size_t row, std::size_t column) const {
  const Cell& c = cells_[row * columns_ + column];
  if (c.length < 0) return std::nullopt;
  return std::string_view(data_).substr(c.offset, static_cast<std::size_t>(c.length));
}

Status RowSet::add(const DataRow& row) {
  if (row.size() != columns_)
    return Error::protocol("DataRow has " + std::to_string(row.size()) + " columns, RowDescription " +
                           std::to_string(columns_));
  if (columns_ == 0) {
    ++empty_rows_;
    return {};
  }
  for (auto value : row) {
    if (!value) {
      cells_.push_back({data_.size(), -1});
      continue;
    }
    cells_.push_back({data_.size(), static_cast<int64_t>(value->size())});
    data_.append(*value);
  }
  return {};
}

Result<std::optional<std::string_view>> Row::raw(std::size_t column) const {
  if (column >= result_->columns.size())
    return Error::make(ErrorKind::Decode, sqlstate::kInvalidParameterValue,
                       "column index " + std::to_string(column) + " out of range (" +
                           std::to_string(result_->columns.size()) + " columns)");
  return result_->rows.value(index_, column);
}

Result<std::optional<std::string_view>> Row::raw(std::string_view column) const {
  auto index = result_->column_index(column);
  if (!index)
    return Error::make(ErrorKind::Decode, sqlstate::kInvalidParameterValue,
                       "no column named \"" + std::string(column) + "\"");
  return raw(*index);
}

std::optional<std::size_t> QueryResult::column_index(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == name) return i;
  return std::nullopt;
}

namespace {

void describe_into(QueryResult& result, const RowDescription& description) {
  result.columns.clear();
  result.columns.reserve(description.fields.size());
  for (const auto& f : description.fields)
    result.columns.push_back(Column{std::string(f.name), f.type_oid, f.table_oid, f.column_id, f.type_size,
                                    f.type_modifier, f.format});
  result.rows.set_columns(result.columns.size());
}

void complete_into(QueryResult& result, const CommandComplete& complete) {
  result.command_tag = std::string(complete.tag);
  result.rows_affected = complete.rows;
}

}  // namespace

// ---- StatementCache -----------------------------------------------------------------------

std::string StatementCache::key_of(std::string_view sql, std::span<const Oid> types) {
  // SQL text cannot contain NUL (the encoder refuses it), so NUL separates it from the OIDs.
  std::string key(sql);
  key.push_back('\0');
  for (Oid t : types) {
    key.append(std::to_string(t));
    key.push_back(',');
  }
  return key;
}

std::optional<std::string> StatementCache::find(std::string_view sql, std::span<const Oid> types) {
  auto it = map_.find(key_of(sql, types));
  if (it == map_.end()) return std::nullopt;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->name;
}

std::string StatementCache::next_name() { return "fitz_" + std::to_string(++counter_); }

void StatementCache::insert(std::string_view sql, std::span<const Oid> types, std::string name) {
  std::string key = key_of(sql, types);
  if (auto it = map_.find(key); it != map_.end()) {
    // Parsed twice (e.g. by two rounds in flight); keep the newer name, close the older.
    pending_closes_.push_back(std::move(it->second->name));
    it->second->name = std::move(name);
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.push_front(Entry{key, std::move(name)});
  map_.emplace(std::move(key), lru_.begin());
  while (map_.size() > capacity_) {
    Entry& victim = lru_.back();
    pending_closes_.push_back(std::move(victim.name));
    map_.erase(victim.key);
    lru_.pop_back();
  }
}

void StatementCache::erase(std::string_view sql, std::span<const Oid> types) {
  auto it = map_.find(key_of(sql, types));
  if (it == map_.end()) return;
  pending_closes_.push_back(std::move(it->second->name));
  lru_.erase(it->second);
  map_.erase(it);
}

std::vector<std::string> StatementCache::take_pending_closes() { return std::exchange(pending_closes_, {}); }

void StatementCache::clear() {
  lru_.clear();
  map_.clear();
  pending_closes_.clear();
}

// ---- ExtendedQuery ------------------------------------------------------------------------

ExtendedQuery::ExtendedQuery(std::string_view sql, StatementCache& cache, QueryOptions options)
    : sql_(sql), cache_(cache), options_(options) {}

void ExtendedQuery::record(Error error) {
  if (error_) return;  // the first error is the cause; later ones follow from it
  if (error.sql.empty()) error.sql = sql_;
  error_ = std::move(error);
}

Status ExtendedQuery::protocol_error(const BackendMessage& message) {
  record(unexpected_message(message, "during an extended query"));
  state_ = State::Done;
  return *error_;
}

Status ExtendedQuery::start(std::span<const Param> params, std::string& out) {
  if (state_ != State::Initial) return Error::protocol("query already started");
  std::size_t rollback = out.size();
  std::vector<std::string> closes;
  auto abort = [&](Error e) -> Status {
    out.resize(rollback);
    for (auto& name : closes) cache_.defer_close(std::move(name));
    record(std::move(e));
    state_ = State::Done;
    return *error_;
  };

  types_.clear();
  types_.reserve(params.size());
  std::vector<Format> formats;
  std::vector<std::optional<std::string_view>> values;
  formats.reserve(params.size());
  values.reserve(params.size());
  bool all_text = true;
  for (const auto& p : params) {
    types_.push_back(p.type);
    formats.push_back(p.format);
    all_text = all_text && p.format == Format::Text;
    values.push_back(p.value ? std::optional<std::string_view>(*p.value) : std::nullopt);
  }
  // No codes means "all text"; one code applies to every parameter.
  if (all_text) formats.clear();
  else if (std::all_of(formats.begin(), formats.end(), [](Format f) { return f == Format::Binary; })) formats.resize(1);

  // Statements evicted earlier are closed first, in the same write.
  closes = cache_.take_pending_closes();
  for (const auto& name : closes)
    if (auto s = encode_close(out, Target::Statement, name); !s) return abort(s.error());
  pending_closes_ = closes.size();

  std::optional<std::string> cached;
  if (options_.use_cache) cached = cache_.find(sql_, types_);
  if (cached) {
    statement_ = std::move(*cached);
  } else {
    statement_ = options_.use_cache ? cache_.next_name() : std::string();
    if (auto s = encode_parse(out, statement_, sql_, types_); !s) return abort(s.error());
    sent_parse_ = true;
  }
  Format result_format = options_.result_format;
  std::span<const Format> result_formats =
      options_.result_formats.empty() ? std::span<const Format>(&result_format, 1) : options_.result_formats;
  options_.result_formats = {};  // not valid past this call
  if (auto s = encode_bind(out, "", statement_, formats, values, result_formats); !s)
    return abort(s.error());
  if (auto s = encode_describe(out, Target::Portal, ""); !s) return abort(s.error());
  if (auto s = encode_execute(out, "", options_.max_rows); !s) return abort(s.error());
  encode_sync(out);

  state_ = pending_closes_ > 0 ? State::AwaitClose : sent_parse_ ? State::AwaitParse : State::AwaitBind;
  return {};
}

Status ExtendedQuery::on_message(const BackendMessage& message, std::string& out) {
  if (is_async_message(message)) return {};  // the runner handles notices and notifications
  if (state_ == State::Done || state_ == State::Initial) return protocol_error(message);

  if (const auto* ready = std::get_if<ReadyForQuery>(&message)) {
    transaction_status_ = ready->status;
    if (state_ != State::AwaitReady) return protocol_error(message);
    state_ = State::Done;
    return {};
  }
  if (const auto* err = std::get_if<ErrorResponse>(&message)) {
    Error e = Error::from_server(err->fields);
    // A cached statement that no longer exists or whose result type changed after DDL is dropped
    // from the cache, so the next run parses it again.
    bool stale = e.sqlstate == "26000" ||
                 (e.sqlstate == sqlstate::kFeatureNotSupported && e.message.find("cached plan") != std::string::npos);
    if (stale && !sent_parse_) cache_.erase(sql_, types_);
    record(std::move(e));
    state_ = State::AwaitReady;
    return {};
  }
  if (state_ == State::AwaitReady) return {};  // anything else before ReadyForQuery is skipped output

  switch (state_) {
    case State::AwaitClose:
      if (!std::holds_alternative<CloseComplete>(message)) return protocol_error(message);
      if (--pending_closes_ == 0) state_ = sent_parse_ ? State::AwaitParse : State::AwaitBind;
      return {};
    case State::AwaitParse:
      if (!std::holds_alternative<ParseComplete>(message)) return protocol_error(message);
      if (options_.use_cache) cache_.insert(sql_, types_, statement_);
      state_ = State::AwaitBind;
      return {};
    case State::AwaitBind:
      if (!std::holds_alternative<BindComplete>(message)) return protocol_error(message);
      state_ = State::AwaitDescribe;
      return {};
    case State::AwaitDescribe:
      if (const auto* description = std::get_if<RowDescription>(&message)) {
        describe_into(result_, *description);
        has_description_ = true;
      } else if (!std::holds_alternative<NoData>(message)) {
        return protocol_error(message);
      }
      state_ = State::AwaitRows;
      return {};
    case State::AwaitRows:
      if (const auto* row = std::get_if<DataRow>(&message)) {
        if (!has_description_) return protocol_error(message);
        if (auto s = result_.rows.add(*row); !s) {
          record(s.error());
          state_ = State::Done;
          return s;
        }
        return {};
      }
      if (const auto* complete = std::get_if<CommandComplete>(&message)) {
        complete_into(result_, *complete);
        state_ = State::AwaitReady;
        return {};
      }
      if (std::holds_alternative<EmptyQueryResponse>(message)) {
        state_ = State::AwaitReady;
        return {};
      }
      if (std::holds_alternative<PortalSuspended>(message)) {
        result_.suspended = true;
        state_ = State::AwaitReady;
        return {};
      }
      if (std::holds_alternative<CopyInResponse>(message)) {
        // The server ignores the Sync we sent while in copy-in mode: fail the copy, then sync again.
        record(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                           "COPY FROM STDIN is not supported by query()"));
        if (auto s = encode_copy_fail(out, "COPY FROM STDIN is not supported by query()"); !s) return s;
        encode_sync(out);
        state_ = State::AwaitReady;
        return {};
      }
      if (std::holds_alternative<CopyOutResponse>(message)) {
        record(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                           "COPY TO STDOUT is not supported by query()"));
        state_ = State::CopyOut;
        return {};
      }
      return protocol_error(message);
    case State::CopyOut:
      if (std::holds_alternative<CopyData>(message) || std::holds_alternative<CopyDone>(message)) return {};
      if (std::holds_alternative<CommandComplete>(message)) {
        state_ = State::AwaitReady;
        return {};
      }
      return protocol_error(message);
    default:
      return protocol_error(message);
  }
}

Result<QueryResult> ExtendedQuery::take_result() {
  if (error_) return *error_;
  if (state_ != State::Done) return Error::protocol("query result taken before the query completed");
  return std::move(result_);
}

// ---- SimpleQuery --------------------------------------------------------------------------

void SimpleQuery::record(Error error) {
  if (error_) return;
  if (error.sql.empty()) error.sql = sql_;
  error_ = std::move(error);
}

Status SimpleQuery::start(std::string& out) {
  if (started_) return Error::protocol("query already started");
  started_ = true;
  if (auto s = encode_query(out, sql_); !s) {
    record(s.error());
    done_ = true;
    return *error_;
  }
  return {};
}

Status SimpleQuery::on_message(const BackendMessage& message, std::string& out) {
  if (is_async_message(message)) return {};
  auto violation = [&]() -> Status {
    record(unexpected_message(message, "during a simple query"));
    done_ = true;
    return *error_;
  };
  if (!started_ || done_) return violation();

  if (in_copy_out_) {
    if (std::holds_alternative<CopyData>(message) || std::holds_alternative<CopyDone>(message)) return {};
    if (std::holds_alternative<CommandComplete>(message)) {
      in_copy_out_ = false;
      return {};
    }
    if (!std::holds_alternative<ErrorResponse>(message)) return violation();
    in_copy_out_ = false;
  }

  if (const auto* description = std::get_if<RowDescription>(&message)) {
    if (current_) return violation();
    current_.emplace();
    describe_into(*current_, *description);
    return {};
  }
  if (const auto* row = std::get_if<DataRow>(&message)) {
    if (!current_) return violation();
    if (auto s = current_->rows.add(*row); !s) {
      record(s.error());
      done_ = true;
      return s;
    }
    return {};
  }
  if (const auto* complete = std::get_if<CommandComplete>(&message)) {
    if (!current_) current_.emplace();
    complete_into(*current_, *complete);
    results_.push_back(std::move(*current_));
    current_.reset();
    return {};
  }
  if (std::holds_alternative<EmptyQueryResponse>(message)) {
    results_.emplace_back();
    return {};
  }
  if (const auto* err = std::get_if<ErrorResponse>(&message)) {
    record(Error::from_server(err->fields));
    current_.reset();
    return {};
  }
  if (std::holds_alternative<CopyInResponse>(message)) {
    record(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                       "COPY FROM STDIN is not supported by simple_query()"));
    return encode_copy_fail(out, "COPY FROM STDIN is not supported by simple_query()");
  }
  if (std::holds_alternative<CopyOutResponse>(message)) {
    record(Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                       "COPY TO STDOUT is not supported by simple_query()"));
    in_copy_out_ = true;
    return {};
  }
  if (const auto* ready = std::get_if<ReadyForQuery>(&message)) {
    transaction_status_ = ready->status;
    if (current_) return violation();
    done_ = true;
    return {};
  }
  return violation();
}

Result<std::vector<QueryResult>> SimpleQuery::take_results() {
  if (error_) return *error_;
  if (!done_) return Error::protocol("query results taken before the query completed");
  return std::move(results_);
}

}  // namespace fitz::pg
