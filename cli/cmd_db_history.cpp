// `fitz db history|stamp|squash`: the record of applied migrations in `_fitz_migrations` beside
// the files. `stamp` records files as applied without running them (a schema made by hand or
// by `migrate --sql` through psql); `squash` folds a range of files into one, and refuses a
// range that is only partly applied, because no single tracking row could then say what the
// database holds.
#include <algorithm>
#include <fstream>
#include <ostream>

#include "cli/cmd_db_internal.h"

namespace fitz::cli::db {

namespace {

constexpr const char* kTrackingExists = "SELECT to_regclass('\"_fitz_migrations\"') IS NOT NULL AS present";

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string with_newline(std::string s) {
  if (!s.empty() && s.back() != '\n') s += '\n';
  return s;
}

// The sections of several migrations as one: each part under a comment naming its version.
std::string joined(const std::vector<const OnDisk*>& parts, bool down) {
  std::string out;
  for (const OnDisk* f : parts) {
    const std::string& sql = down ? f->file.down : f->file.up;
    out += "-- " + f->file.version + "\n" + with_newline(sql);
    if (!ends_statement(sql)) out += ";\n";
  }
  return out;
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return bool(out);
}

}  // namespace

const OnDisk* find_migration(const std::vector<OnDisk>& files, std::string_view arg, const Options& o, Io io) {
  std::vector<const OnDisk*> found;
  for (const OnDisk& f : files)
    if (f.file.version == arg) return &f;
  bool stamp = arg.size() == 14 && std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; });
  for (const OnDisk& f : files)
    if (stamp ? f.file.version.starts_with(std::string(arg) + "_") : f.file.name == arg) found.push_back(&f);
  if (found.size() == 1) return found[0];
  if (found.empty()) {
    io.err << "error: no migration `" << arg << "` in " << o.migrations_dir.string();
    if (files.empty()) {
      io.err << " (it holds no migration files)\n";
    } else {
      io.err << "; the migrations are:\n";
      for (const OnDisk& f : files) io.err << "  " << f.file.version << "\n";
    }
  } else {
    io.err << "error: `" << arg << "` names " << found.size() << " migrations; give the whole version:\n";
    for (const OnDisk* f : found) io.err << "  " << f->file.version << "\n";
  }
  return nullptr;
}

int run_history(const Options& o, pg::BlockingConnection& conn, Io io) {
  std::vector<OnDisk> files;
  if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
  auto exists = conn.query(kTrackingExists, {}, {pg::Format::Text});
  if (!exists) return fail(exists.error(), io);
  std::vector<std::string> applied;
  if (text_of(exists->row(0), "present") == "t") {
    auto rows = conn.query(
        "SELECT version, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at "
        "FROM \"_fitz_migrations\" ORDER BY applied_at, version",
        {}, {pg::Format::Text});
    if (!rows) return fail(rows.error(), io);
    for (size_t i = 0; i < rows->size(); ++i) {
      std::string version = text_of(rows->row(i), "version");
      bool on_disk = std::any_of(files.begin(), files.end(), [&](const OnDisk& f) { return f.file.version == version; });
      io.out << "applied " << text_of(rows->row(i), "at") << "  " << version << (on_disk ? "" : "  (no file)") << "\n";
      applied.push_back(std::move(version));
    }
  }
  size_t pending = 0;
  for (const OnDisk& f : files)
    if (!contains(applied, f.file.version)) {
      io.out << "pending " << std::string(20, ' ') << "  " << f.file.version << "\n";
      ++pending;
    }
  io.out << applied.size() << " applied, " << pending << " pending\n";
  return kOk;
}

int run_stamp(const Options& o, pg::BlockingConnection& conn, Io io) {
  std::vector<OnDisk> files;
  if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
  std::vector<const OnDisk*> targets;
  if (o.all) {
    for (const OnDisk& f : files) targets.push_back(&f);
  } else {
    const OnDisk* f = find_migration(files, o.versions[0], o, io);
    if (!f) return kUserError;
    targets.push_back(f);
  }
  if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);
  auto applied = applied_versions(conn);
  if (!applied) return fail(applied.error(), io);
  size_t stamped = 0;
  for (const OnDisk* f : targets) {
    if (contains(*applied, f->file.version)) {
      if (!o.all) io.out << "already recorded as applied: " << f->file.version << "\n";
      continue;
    }
    bool ok = in_transaction(conn, "stamping " + f->file.version, "",
                             [&] { return record_applied(conn, f->file.version, f->file.up, f->file.down); }, io);
    if (!ok) return kUserError;
    io.out << "stamped " << f->file.version << " (recorded as applied, not run)\n";
    ++stamped;
  }
  if (o.all && stamped == 0) io.out << "nothing to stamp: every migration in " << o.migrations_dir.string() << " is recorded\n";
  return kOk;
}

int run_squash(const Options& o, pg::BlockingConnection& conn, Io io) {
  std::vector<OnDisk> files;
  if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
  const OnDisk* from = find_migration(files, o.versions[0], o, io);
  if (!from) return kUserError;
  const OnDisk* to = find_migration(files, o.versions[1], o, io);
  if (!to) return kUserError;
  if (to->file.version < from->file.version) {
    io.err << "error: `fitz db squash FROM TO` takes the older migration first (" << from->file.version << " is newer than "
           << to->file.version << ")\n";
    return kUsageError;
  }
  std::vector<const OnDisk*> range;
  for (const OnDisk& f : files)
    if (f.file.version >= from->file.version && f.file.version <= to->file.version) range.push_back(&f);
  for (const OnDisk* f : range)
    if (f->data) {
      io.err << "error: cannot squash " << f->file.version << ": it is a data migration (" << f->path.string()
             << "); squash the SQL migrations around it\n";
      return kUserError;
    }
  if (range.size() < 2) {
    io.err << "error: nothing to squash: the range holds one migration (" << from->file.version << ")\n";
    return kUserError;
  }
  auto applied = applied_versions(conn);
  if (!applied) return fail(applied.error(), io);
  std::vector<std::string> done, not_done;
  for (const OnDisk* f : range) (contains(*applied, f->file.version) ? done : not_done).push_back(f->file.version);
  if (!done.empty() && !not_done.empty()) {
    io.err << "error: cannot squash a range that is only partly applied (one tracking row could not say what the "
              "database holds); run `fitz db migrate` or `fitz db rollback` first, or choose another range\n";
    for (const std::string& v : done) io.err << "  applied " << v << "\n";
    for (const std::string& v : not_done) io.err << "  pending " << v << "\n";
    return kUserError;
  }

  // The squashed file takes the newest timestamp of the range, so it sorts where the range did.
  std::string version = to->file.version.substr(0, 14) + "_squashed";
  for (const OnDisk& f : files) {
    bool outside = f.file.version < from->file.version || f.file.version > to->file.version;
    if (outside && ((f.file.version < from->file.version) != (f.file.version < version) || f.file.version == version)) {
      io.err << "error: the squashed migration would be named " << version << ", which does not sort between "
             << f.file.version << " and the range the same way; rename that file first\n";
      return kUserError;
    }
  }
  std::vector<const OnDisk*> reversed(range.rbegin(), range.rend());
  std::string up = joined(range, false);
  std::string down;
  for (const OnDisk* f : range)
    if (only_comments(f->file.down)) {
      // A partial DOWN would leave a half-undone schema; without one, rollback refuses.
      down = "-- " + f->file.version + " has no DOWN section, so the squashed migration has none either\n";
      break;
    }
  if (down.empty()) down = joined(reversed, true);
  std::string listed;
  for (const OnDisk* f : range) listed += (listed.empty() ? "" : ", ") + f->file.version;
  std::string text = "-- Migration: squashed\n-- Created: " + utc_now().second + "\n-- Squashed: " + listed +
                     "\n\n-- UP\n" + up + "\n-- DOWN\n" + down;

  if (!done.empty()) {
    // Applied: the tracking rows of the range become the squashed one's, applied when the last was.
    std::string array = "{";
    for (size_t i = 0; i < done.size(); ++i) array += (i ? "," : "") + done[i];
    array += "}";
    auto retrack = [&]() -> pg::Status {
      std::vector<pg::Param> range_param{pg::Param::text(array)};
      auto last = conn.query("SELECT max(\"applied_at\")::text AS at FROM \"_fitz_migrations\" WHERE \"version\" = ANY($1::text[])",
                             range_param, {pg::Format::Text});
      if (!last) return last.error();
      auto d = conn.query("DELETE FROM \"_fitz_migrations\" WHERE \"version\" = ANY($1::text[])", range_param,
                          {pg::Format::Text});
      if (!d) return d.error();
      std::vector<pg::Param> insert{pg::Param::text(version), pg::Param::text(text_of(last->row(0), "at")),
                                    pg::Param::text(up), pg::Param::text(down)};
      auto r = conn.query(
          "INSERT INTO \"_fitz_migrations\" (\"version\", \"applied_at\", \"statements\", \"down\") "
          "VALUES ($1, $2::timestamptz, $3, $4)",
          insert, {pg::Format::Text});
      if (!r) return r.error();
      return {};
    };
    if (!in_transaction(conn, "recording the squashed migration", "", retrack, io)) return kUserError;
  }

  std::filesystem::path path = o.migrations_dir / (version + ".sql");
  std::filesystem::path temp = o.migrations_dir / (".squash-" + version + ".tmp");
  if (!write_file(temp, text)) {
    io.err << "error: cannot write " << temp.string() << "\n";
    return kUserError;
  }
  std::error_code ec;
  for (const OnDisk* f : range) {
    std::filesystem::remove(f->path, ec);
    if (ec) {
      io.err << "error: cannot remove " << f->path.string() << ": " << ec.message() << " (the squashed migration is in "
             << temp.string() << ")\n";
      return kUserError;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    io.err << "error: cannot rename " << temp.string() << " to " << path.string() << ": " << ec.message() << "\n";
    return kUserError;
  }
  io.out << "squashed " << range.size() << " migrations (" << range.front()->file.version << " .. "
         << range.back()->file.version << ") into " << path.string() << "\n";
  if (!done.empty()) io.out << "recorded " << version << " as applied in their place\n";
  return kOk;
}

}  // namespace fitz::cli::db
