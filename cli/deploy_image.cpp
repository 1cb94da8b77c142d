// Staging an image's root file system and turning it into an OCI layout with umoci: the half of
// `fitz deploy image` that runs after the build (deploy_image.h).
#include "cli/deploy_image.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "codegen/toolchain.h"

namespace fitz::cli::deploy {

namespace fs = std::filesystem;

namespace {

// The host files every image carries besides the binary and its libraries. A service that
// calls an HTTPS API needs the CA bundle; one that formats local times needs the zone files.
constexpr const char* kCaBundle = "/etc/ssl/certs/ca-certificates.crt";
constexpr const char* kZoneInfo = "/usr/share/zoneinfo";

bool write_text(const fs::path& path, const std::string& text, std::string& error) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) {
    error = fmt::format("cannot write `{}`", path.string());
    return false;
  }
  return true;
}

// Creates `dir` (and parents) inside the image as 0755, whatever the umask.
bool make_dir(const fs::path& dir, std::string& error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec) fs::permissions(dir, fs::perms(0755), ec);
  if (ec) error = fmt::format("cannot create `{}`: {}", dir.string(), ec.message());
  return !ec;
}

// `root` + an absolute host path.
fs::path inside(const fs::path& root, const fs::path& host_path) {
  return root / host_path.relative_path();
}

// Copies the file a host path names (following symlinks: the image gets a regular file at that
// path, so /lib64/ld-linux-x86-64.so.2 works without the host's /lib -> usr/lib link).
bool copy_host_file(const fs::path& root, const fs::path& host_path, std::string& error) {
  fs::path dest = inside(root, host_path);
  if (!make_dir(dest.parent_path(), error)) return false;
  std::error_code ec;
  fs::copy_file(host_path, dest, fs::copy_options::overwrite_existing, ec);
  if (ec) error = fmt::format("cannot copy `{}` into the image: {}", host_path.string(), ec.message());
  return !ec;
}

bool copy_tree(const fs::path& from, const fs::path& to, std::string& error) {
  if (!make_dir(to.parent_path(), error)) return false;
  std::error_code ec;
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) error = fmt::format("cannot copy `{}` into the image: {}", from.string(), ec.message());
  return !ec;
}

bool stage_libraries(const ImageSpec& spec, const fs::path& root, std::string& error) {
  std::string out;
  int rc = codegen::run_capture({"ldd", spec.binary.string()}, out);
  if (rc < 0) {
    error = "cannot run `ldd` to list the binary's shared libraries (it comes with libc-bin)";
    return false;
  }
  // A static binary needs nothing; ldd says so and fails.
  if (out.find("not a dynamic executable") != std::string::npos) return true;
  if (rc != 0) {
    error = fmt::format("`ldd {}` failed:\n{}", spec.binary.string(), out);
    return false;
  }
  std::vector<std::string> missing;
  std::vector<std::string> libs = parse_ldd(out, missing);
  if (!missing.empty()) {
    error = fmt::format("the binary needs libraries this machine lacks: {}", fmt::join(missing, ", "));
    return false;
  }
  for (const std::string& lib : libs)
    if (!copy_host_file(root, lib, error)) return false;
  return true;
}

// A numeric non-root user, so that `USER 65532` and tools that look the name up both work.
bool stage_user(const fs::path& root, std::string& error) {
  if (!make_dir(root / "etc", error)) return false;
  std::string passwd = fmt::format("root:x:0:0:root:/root:/sbin/nologin\n{0}:x:{1}:{1}:{0}:{2}:/sbin/nologin\n",
                                   kServiceUser, kServiceUid, kAppDir);
  std::string group = fmt::format("root:x:0:\n{}:x:{}:\n", kServiceUser, kServiceUid);
  // Without nsswitch.conf glibc still reads these files, but says so explicitly for the hosts
  // line: the platform mounts /etc/hosts and /etc/resolv.conf, and both must be consulted.
  std::string nsswitch = "passwd: files\ngroup: files\nhosts: files dns\n";
  return write_text(root / "etc/passwd", passwd, error) && write_text(root / "etc/group", group, error) &&
         write_text(root / "etc/nsswitch.conf", nsswitch, error);
}

// Runs one umoci command; on failure `error` names it and carries umoci's output.
bool umoci(std::vector<std::string> args, std::string& error) {
  args.insert(args.begin(), "umoci");
  std::string out;
  int rc = codegen::run_capture(args, out);
  if (rc == 0) return true;
  error = fmt::format("`{}` failed (status {}):\n{}", fmt::join(args, " "), rc, out);
  return false;
}

}  // namespace

std::vector<std::string> parse_ldd(std::string_view ldd_output, std::vector<std::string>& missing) {
  std::vector<std::string> paths;
  std::istringstream in{std::string(ldd_output)};
  std::string line;
  while (std::getline(in, line)) {
    // "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)", "\t/lib64/ld-linux-x86-64.so.2 (0x...)",
    // "\tlinux-vdso.so.1 (0x...)", "\tlibfoo.so.1 => not found".
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    std::string rest = line.substr(start);
    if (size_t arrow = rest.find(" => "); arrow != std::string::npos) {
      std::string target = rest.substr(arrow + 4);
      if (target.starts_with("not found")) {
        missing.push_back(rest.substr(0, arrow));
        continue;
      }
      rest = target;
    }
    std::string path = rest.substr(0, rest.find(' '));
    if (!path.starts_with("/")) continue;  // the vdso, or ldd's own messages
    paths.push_back(path);
  }
  return paths;
}

bool stage_root_fs(const ImageSpec& spec, const fs::path& root, std::string& error) {
  fs::path app = inside(root, std::string(kAppDir));
  if (!make_dir(app, error)) return false;
  std::error_code ec;
  fs::copy_file(spec.binary, app / spec.name, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::permissions(app / spec.name, fs::perms(0755), ec);
  if (ec) {
    error = fmt::format("cannot copy the binary into the image: {}", ec.message());
    return false;
  }
  for (const fs::path& dir : spec.static_dirs)
    if (!copy_tree(dir, app / dir.filename(), error)) return false;
  if (!stage_libraries(spec, root, error)) return false;
  if (!fs::is_regular_file(kCaBundle)) {
    error = fmt::format("`{}` is missing: install the CA certificates (apt-get install ca-certificates)", kCaBundle);
    return false;
  }
  if (!copy_host_file(root, kCaBundle, error)) return false;
  if (!fs::is_directory(kZoneInfo)) {
    error = fmt::format("`{}` is missing: install the time zone data (apt-get install tzdata)", kZoneInfo);
    return false;
  }
  if (!copy_tree(kZoneInfo, inside(root, kZoneInfo), error)) return false;
  if (!stage_user(root, error)) return false;
  // Temporary files (a multipart upload spooled to disk, a library's scratch file) need /tmp.
  fs::create_directories(root / "tmp", ec);
  if (!ec) fs::permissions(root / "tmp", fs::perms(01777), ec);
  if (ec) error = fmt::format("cannot create /tmp in the image: {}", ec.message());
  return !ec;
}

bool write_oci_image(const ImageSpec& spec, const fs::path& root, std::string& error) {
  std::error_code ec;
  if (!fs::exists(spec.layout / "index.json")) {
    if (fs::exists(spec.layout) && !fs::is_empty(spec.layout, ec)) {
      error = fmt::format("`{}` exists and is not an OCI image layout; pick another --out", spec.layout.string());
      return false;
    }
    if (fs::exists(spec.layout)) fs::remove(spec.layout, ec);
    if (!umoci({"init", "--layout", spec.layout.string()}, error)) return false;
  }
  std::string image = spec.layout.string() + ":" + spec.tag;
  // `new` replaces an existing tag, so building again gives a fresh one-layer image.
  if (!umoci({"new", "--image", image}, error)) return false;
  std::vector<std::string> insert = {"insert", "--image", image, "--history.created_by", "fitz deploy image"};
  // umoci needs --rootless to write a layer without root; the files, owned by the caller, are
  // then recorded as root's, as they would be as root.
  if (geteuid() != 0) insert.push_back("--rootless");
  insert.push_back(root.string());
  insert.push_back("/");
  if (!umoci(insert, error)) return false;
  std::string port = std::to_string(spec.port);
  std::string ids = fmt::format("{0}:{0}", kServiceUid);
  std::vector<std::string> config = {
      "config", "--image", image, "--history.created_by", "fitz deploy image",
      "--config.entrypoint", fmt::format("{}/{}", kAppDir, spec.name),
      "--config.user", ids,
      "--config.workingdir", std::string(kAppDir),
      "--config.exposedports", port + "/tcp",
      "--config.env", "PORT=" + port,
      // @server's host is usually 127.0.0.1, unreachable from outside a container.
      "--config.env", "HOST=0.0.0.0",
      "--config.env", std::string("SSL_CERT_FILE=") + kCaBundle,
      "--config.label", "org.opencontainers.image.title=" + spec.name,
  };
  if (!spec.version.empty()) {
    config.push_back("--config.label");
    config.push_back("org.opencontainers.image.version=" + spec.version);
  }
  if (!umoci(config, error)) return false;
  // Drops the blobs of the image this tag named before.
  return umoci({"gc", "--layout", spec.layout.string()}, error);
}

std::optional<uint64_t> layer_bytes(const fs::path& layout, const std::string& tag) {
  auto read_json = [](const fs::path& p) -> std::optional<nlohmann::json> {
    std::ifstream f(p);
    if (!f) return std::nullopt;
    nlohmann::json j = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return std::nullopt;
    return j;
  };
  auto blob = [&](const std::string& digest) {
    size_t colon = digest.find(':');
    return layout / "blobs" / digest.substr(0, colon) / digest.substr(colon + 1);
  };
  auto index = read_json(layout / "index.json");
  if (!index || !index->contains("manifests") || !(*index)["manifests"].is_array()) return std::nullopt;
  for (const auto& m : (*index)["manifests"]) {
    auto name = m.value("annotations", nlohmann::json::object()).value("org.opencontainers.image.ref.name", "");
    if (name != tag || !m.contains("digest") || !m["digest"].is_string()) continue;
    auto manifest = read_json(blob(m["digest"].get<std::string>()));
    if (!manifest || !manifest->contains("layers") || !(*manifest)["layers"].is_array()) return std::nullopt;
    uint64_t total = 0;
    for (const auto& l : (*manifest)["layers"]) total += l.value("size", uint64_t{0});
    return total;
  }
  return std::nullopt;
}

}  // namespace fitz::cli::deploy
