// `fs`: whole-file reads and writes, existence, listing, removal and mkdir -p, with paths
// relative to the working directory. Failures are Err texts naming the call and the path
// ("fs.read: `p`: No such file or directory"); nothing here aborts on a missing file.
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fitz/runtime.h"
#include "any_internal.h"

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

using detail::is;

Any fail(const char* who, const std::string& path, int err) {
  return to_any(Result<Any, Str>::err(Str::from(std::string("fs.") + who + ": `" + path + "`: " + std::strerror(err))));
}
Any ok(Any v) { return to_any(Result<Any, Str>::ok(std::move(v))); }

bool read_all(const std::string& path, std::string* out, int* err) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return *err = errno, false;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    return *err = EISDIR, false;
  }
  char chunk[65536];
  size_t k;
  while ((k = std::fread(chunk, 1, sizeof chunk, f)) > 0) out->append(chunk, k);
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) return *err = EIO, false;
  return true;
}

// The content of write/append: a Str's UTF-8 bytes or Bytes as they are.
std::string content_of(const Any& v, const char* who, SourcePos pos) {
  if (v.is_str()) return std::string(v.str_value().data(), v.str_value().size());
  Bytes b;
  if (try_from_any(v, &b)) return std::string(b.data(), b.size());
  runtime_error(pos, Str::from(std::string("fs.") + who + ": the content must be Str or Bytes"));
}

Any write_file(const char* who, const std::string& path, const std::string& data, const char* mode) {
  std::FILE* f = std::fopen(path.c_str(), mode);
  if (!f) return fail(who, path, errno);
  bool good = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  int err = errno;
  if (std::fclose(f) != 0 && good) good = false, err = errno;
  if (!good) return fail(who, path, err ? err : EIO);
  return ok(Any());
}

class FsModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<FsModule>(); }
  void type_name(Buf& b) const override { b.lit("FsModule"); }
  void show(Buf& b, bool) const override { b.lit("<fs>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (n < 1) return false;
    Str p = from_any<Str>(args[0], pos);
    std::string path(p.data(), p.size());
    int err = 0;
    if (n == 1 && (is(name, "read") || is(name, "read_bytes"))) {
      std::string data;
      if (!read_all(path, &data, &err)) return *out = fail(name, path, err), true;
      if (is(name, "read_bytes")) return *out = ok(to_any(Bytes(data.data(), data.size()))), true;
      return *out = ok(Any(Str(data.data(), data.size()))), true;
    }
    if (n == 2 && is(name, "write")) return *out = write_file(name, path, content_of(args[1], name, pos), "wb"), true;
    if (n == 2 && is(name, "append")) return *out = write_file(name, path, content_of(args[1], name, pos), "ab"), true;
    if (n == 1 && is(name, "exists")) {
      struct stat st;
      return *out = Any(::stat(path.c_str(), &st) == 0), true;
    }
    if (n == 1 && is(name, "list")) {
      DIR* d = opendir(path.c_str());
      if (!d) return *out = fail(name, path, errno), true;
      std::vector<std::string> names;
      while (struct dirent* e = readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
      closedir(d);
      std::sort(names.begin(), names.end());  // readdir's order depends on the file system
      List<Str> l;
      for (const std::string& s : names) l.push(Str(s.data(), s.size()));
      return *out = ok(to_any(l)), true;
    }
    if (n == 1 && is(name, "remove")) {
      if (::remove(path.c_str()) != 0) return *out = fail(name, path, errno), true;
      return *out = ok(Any()), true;
    }
    if (n == 1 && is(name, "mkdir_all")) {
      // Each prefix in turn; an existing directory along the way is fine.
      for (size_t i = 1; i <= path.size(); ++i) {
        if (i < path.size() && path[i] != '/') continue;
        std::string part = path.substr(0, i);
        if (::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) return *out = fail(name, path, errno), true;
      }
      struct stat st;
      if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return *out = fail(name, path, ENOTDIR), true;
      return *out = ok(Any()), true;
    }
    return false;
  }
};

}  // namespace

Any fs_module() {
  thread_local Any module(new FsModule());
  return module;
}

}  // namespace fitz
