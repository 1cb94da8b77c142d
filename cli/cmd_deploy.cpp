// `fitz deploy`: packaging a service for a platform. `deploy image` checks and builds the
// service like `fitz build`, then writes an OCI image of it without a Docker daemon (deploy_image.h).
#include <unistd.h>

#include <cstdlib>
#include <ostream>
#include <regex>

#include <fmt/format.h>

#include "checker/checker.h"
#include "checker/decorators.h"
#include "cli/deploy_image.h"
#include "cli/driver.h"
#include "codegen/codegen.h"
#include "codegen/toolchain.h"
#include "frontend/project.h"
#include "frontend/render.h"

namespace fitz::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDeployUsage = R"(usage: fitz deploy <target> [options]

Packages a service for running somewhere else.

targets:
  image [PATH]   an OCI image of the service, written without a Docker daemon

run `fitz deploy image --help` for its options
)";

constexpr const char* kImageUsage = R"(usage: fitz deploy image [PATH] [--tag T] [--out DIR]

Builds the service at PATH (a file, a directory, or the project around the current directory)
like `fitz build` and writes an OCI image layout of it with umoci; no Docker daemon is needed.
The image holds the binary (/app/NAME, the entrypoint), exactly the shared libraries `ldd`
lists for it and the dynamic loader, CA certificates, tzdata, the project's static/ and
public/ folders when it has them, and a non-root user (uid 65532). It EXPOSEs the port of
`@server` (3000, the runtime's default, without one) and sets PORT to it and HOST=0.0.0.0;
PORT given to the container overrides both where the server listens.

options:
  --tag T      the image's tag in the layout (default: latest)
  --out DIR    the OCI layout directory, created or updated (default: dist/image under the
               project root, or beside the file for a lone file)
  -O0..-O3     optimisation level of the build (default -O2)
  -h, --help   show this help

then, for example:
  skopeo copy oci:DIR:T docker://registry.example/NAME:T     push it to a registry
  skopeo copy oci:DIR:T docker-daemon:NAME:T                 load it into Docker

needs: umoci (apt-get install umoci) and ldd; skopeo only to inspect or push
)";

// The port the runtime listens on when `@server` does not name one (ServerConfig::port).
constexpr int64_t kRuntimeDefaultPort = 3000;

// An OCI tag: the rule of the distribution spec's reference grammar.
bool valid_tag(const std::string& tag) {
  static const std::regex re("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
  return std::regex_match(tag, re);
}

// The literal port of `@server`, as the checker recorded it. A computed port (`env_or(...)`)
// gives nullopt; PORT still decides at run time.
std::optional<int64_t> server_port(const checker::TypedProgram& program) {
  if (!program.service.server) return std::nullopt;
  const auto* port = program.service.server->find("port");
  return port ? port->int_literal : std::nullopt;
}

struct ImageOptions {
  std::string target;
  std::string tag = "latest";
  std::string out;
  std::string opt_level = codegen::default_opt_level();
};

// Returns -1 after --help, else an exit code.
int parse_image_args(const std::vector<std::string>& args, ImageOptions& opt, Io io) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view flag, std::string& into) {
      if (a == flag) {
        if (i + 1 == args.size()) return false;
        into = args[++i];
      } else {
        into = a.substr(flag.size() + 1);
      }
      return !into.empty();
    };
    if (a == "-h" || a == "--help") {
      io.out << kImageUsage;
      return -1;
    }
    if (a == "--tag" || a.starts_with("--tag=")) {
      if (!value("--tag", opt.tag)) {
        io.err << "error: `--tag` needs a tag\n\n" << kImageUsage;
        return kUsageError;
      }
    } else if (a == "--out" || a.starts_with("--out=")) {
      if (!value("--out", opt.out)) {
        io.err << "error: `--out` needs a directory\n\n" << kImageUsage;
        return kUsageError;
      }
    } else if (a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3") {
      opt.opt_level = a;
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << kImageUsage;
      return kUsageError;
    } else if (opt.target.empty()) {
      opt.target = a;
    } else {
      io.err << "error: `fitz deploy image` takes one path\n";
      return kUsageError;
    }
  }
  if (!valid_tag(opt.tag)) {
    io.err << "error: `" << opt.tag << "` is not a valid image tag (letters, digits, `_`, `.` and `-`, "
           << "at most 128, not starting with `.` or `-`)\n";
    return kUsageError;
  }
  return kOk;
}

// A scratch directory removed with everything in it when the command ends.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "fitz-deploy-XXXXXX").string();
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

int deploy_image(const std::vector<std::string>& args, Io io) {
  ImageOptions opt;
  if (int rc = parse_image_args(args, opt, io); rc != kOk) return rc < 0 ? kOk : rc;
  // Before the build, which takes seconds: a missing tool is the likeliest first failure.
  if (!deploy::find_on_path("umoci")) {
    io.err << "error: `fitz deploy image` needs umoci, which writes the OCI image; install it "
              "(Debian/Ubuntu: apt-get install umoci) and try again\n";
    return kUsageError;
  }

  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = opt.target;
  frontend::LoadResult loaded = frontend::load_program(req, sources, diags);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, diags);
  if (diags.error_count() > 0) {
    for (const auto& d : diags.sorted())
      if (d.severity == frontend::Severity::Error)
        io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options_of(io));
    io.err << frontend::render_summary(diags.error_count(), 0, io.color);
    return kUserError;
  }
  if (loaded.graph.roots.empty()) {
    io.err << "error: nothing to build\n";
    return kUsageError;
  }
  const frontend::ModuleGraph& graph = loaded.graph;
  fs::path entry = graph.get(graph.roots.front()).path;
  codegen::GenResult gen = codegen::generate_cpp(program, graph, sources);
  std::string what = opt.target.empty() ? "the project" : "`" + opt.target + "`";
  if (!gen.http) {
    io.err << "error: " << what << " is not a service: it has no routes, `@ws` endpoints or `@server`, "
           << "so an image of it would serve nothing; build it with `fitz build` instead\n";
    return kUserError;
  }
  if (!gen.not_compiled.empty()) {
    for (const std::string& m : gen.not_compiled) io.err << m << "\n";
    return kUserError;
  }
  if (!gen.unsupported.empty()) {
    io.err << "internal compiler error: the code generator cannot express " << gen.unsupported.front()
           << "\nthis is a bug in fitz; please report it with the program that triggers it\n";
    return kInternal;
  }

  TempDir tmp;
  if (tmp.path.empty()) {
    io.err << "error: cannot create a scratch directory under " << fs::temp_directory_path().string() << "\n";
    return kUsageError;
  }
  deploy::ImageSpec spec;
  const fs::path root_dir = graph.project_root.empty() ? entry.parent_path() : graph.project_root;
  spec.name = entry.stem().string();
  if (graph.manifest) {
    if (!graph.manifest->bins.empty() && !graph.manifest->bins.front().name.empty())
      spec.name = graph.manifest->bins.front().name;
    else if (!graph.manifest->name.empty())
      spec.name = graph.manifest->name;
    spec.version = graph.manifest->version;
  }
  spec.binary = tmp.path / "bin" / spec.name;
  spec.tag = opt.tag;
  spec.layout = opt.out.empty() ? root_dir / "dist" / "image" : fs::absolute(opt.out);
  spec.port = server_port(program).value_or(kRuntimeDefaultPort);
  // The runtime serves no files itself and fitz.toml names no asset folder, so the folders a
  // program would read at run time by relative path are taken by their conventional names.
  if (!graph.project_root.empty())
    for (const char* dir : {"static", "public"})
      if (fs::is_directory(graph.project_root / dir)) spec.static_dirs.push_back(graph.project_root / dir);

  std::string error;
  auto runtime = codegen::find_runtime(error);
  if (!runtime) {
    io.err << "error: " << error << "\n";
    return kInternal;
  }
  codegen::CompileOptions copts;
  copts.http = gen.http;
  copts.jobs = gen.jobs;
  copts.auth = gen.auth;
  copts.ws = gen.ws;
  copts.opt_level = opt.opt_level;
  codegen::CompileResult built = codegen::compile_program(gen.cpp, spec.binary, copts, *runtime);
  if (!built.ok) {
    io.err << "internal compiler error: the generated C++ did not compile; this is a bug in fitz.\n"
           << "reproduce with:\n  " << built.command << "\ncompiler output:\n" << built.diagnostics;
    return kInternal;
  }

  fs::path root = tmp.path / "rootfs";
  if (!deploy::stage_root_fs(spec, root, error) || !deploy::write_oci_image(spec, root, error)) {
    io.err << "error: " << error << "\n";
    return kUsageError;
  }
  auto bytes = deploy::layer_bytes(spec.layout, spec.tag);
  io.out << fmt::format("image {}:{} written to {} (port {}, user {}, {} compressed)\n", spec.name, spec.tag,
                        spec.layout.string(), spec.port, deploy::kServiceUid,
                        bytes ? fmt::format("{:.1f} MB", double(*bytes) / 1e6) : std::string("size unknown"));
  return kOk;
}

}  // namespace

int cmd_deploy(const std::vector<std::string>& args, Io io) {
  if (args.empty()) {
    io.err << kDeployUsage;
    return kUsageError;
  }
  const std::string& target = args[0];
  if (target == "-h" || target == "--help") {
    io.out << kDeployUsage;
    return kOk;
  }
  if (target == "image") return deploy_image({args.begin() + 1, args.end()}, io);
  io.err << "error: unknown deploy target `" << target << "`\n\n" << kDeployUsage;
  return kUsageError;
}

}  // namespace fitz::cli
