// `fitz deploy`: packaging a service for a platform. `deploy image` checks and builds the
// service like `fitz build`, then writes an OCI image of it without a Docker daemon (deploy_image.h);
// `deploy k8s` and `deploy compose` check it and write manifests from its service model
// (deploy_facts.h, deploy_k8s.h, deploy_compose.h).
#include <unistd.h>

#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <ostream>
#include <regex>

#include <fmt/format.h>

#include "checker/checker.h"
#include "checker/decorators.h"
#include "cli/deploy_app.h"
#include "cli/deploy_compose.h"
#include "cli/deploy_facts.h"
#include "cli/deploy_image.h"
#include "cli/deploy_k8s.h"
#include "cli/deploy_yaml.h"
#include "cli/build_steps.h"
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
  image [PATH]     an OCI image of the service, written without a Docker daemon
  k8s [PATH]       Kubernetes manifests: Deployment, Service, autoscaler, disruption budget
  compose [PATH]   a Compose project: replicas behind HAProxy, with Postgres

run `fitz deploy TARGET --help` for its options
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

constexpr const char* kK8sUsage = R"(usage: fitz deploy k8s [PATH] [--out DIR] [--replicas N] [--image REF]

Checks the service at PATH (a file, a directory, or the project around the current directory)
and writes Kubernetes manifests for it, as YAML:
  Deployment               N replicas of the image as uid 65532 on a read-only root, the port of
                           `@server`, readiness probe /readyz, liveness and startup probes
                           /healthz, a 5 s preStop sleep, and a termination grace period of that
                           sleep + the 2 s drain + `@server(shutdown_timeout_secs)` (30 by
                           default) + 5 s; DATABASE_URL and FITZ_SECRET_KEY from the Secret
                           NAME-secrets (keys database-url, secret-key), FITZ_WS_PUBSUB=postgres
                           when the program has `@ws` endpoints
  Service                  port 80 to the container's port
  HorizontalPodAutoscaler  N to 4N replicas at 70% CPU
  PodDisruptionBudget      at most one replica down at a time
  Job                      `NAME migrate` from the same image, when the project has migrations/
The Secret is not written: create it with kubectl (see docs/guide/17-deploying.md).

options:
  --out DIR        write one file per object into DIR (created); without it, one multi-document
                   YAML on standard output (`fitz deploy k8s | kubectl apply -f -`)
  --replicas N     replicas (and the autoscaler's minimum), 1 to 1000 (default 2)
  --image REF      the image to run (default NAME:VERSION from fitz.toml, else NAME:latest)
  -h, --help       show this help
)";

constexpr const char* kComposeUsage = R"(usage: fitz deploy compose [PATH] [--out DIR] [--replicas N] [--image REF]

Checks the service at PATH (a file, a directory, or the project around the current directory)
and writes a Compose project for it into DIR:
  docker-compose.yml   services NAME-1 ... NAME-N (the image, PORT and HOST, DATABASE_URL,
                       FITZ_SECRET_KEY, FITZ_WS_PUBSUB=postgres when the program has `@ws`
                       endpoints), `db` (postgres:15, a volume, pg_isready health check),
                       `migrate` (`NAME migrate`, when the project has migrations/) and `lb`
                       (haproxy:2.6 on the service's port); depends_on waits for a healthy
                       database and finished migrations
  haproxy.cfg          the load balancer: a replica gets requests while its /readyz answers 200
  .env.example         POSTGRES_PASSWORD and FITZ_SECRET_KEY, which the compose file requires
Then: cp .env.example .env, fill it in, and `docker compose up -d` in DIR.

options:
  --out DIR        the directory to write (default: dist/compose under the project root, or
                   beside the file for a lone file)
  --replicas N     replicas of the service, 1 to 1000 (default 2)
  --image REF      the image to run (default NAME:VERSION from fitz.toml, else NAME:latest)
  -h, --help       show this help
)";

// An OCI tag: the rule of the distribution spec's reference grammar.
bool valid_tag(const std::string& tag) {
  static const std::regex re("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
  return std::regex_match(tag, re);
}

// Loads and checks the program at `target` (empty: the project around the current directory),
// reporting any error; kOk when `program` is ready.
int load_and_check(const std::string& target, frontend::SourceManager& sources, frontend::LoadResult& loaded,
                   checker::TypedProgram& program, Io io) {
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = target;
  loaded = frontend::load_program(req, sources, diags);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  program = checker::check_program(loaded.graph, sources, diags);
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
  return kOk;
}

// The binary's name: the manifest's bin, else its package, else the entry file's stem.
std::string app_name(const frontend::ModuleGraph& graph) {
  if (graph.manifest) {
    if (!graph.manifest->bins.empty() && !graph.manifest->bins.front().name.empty())
      return graph.manifest->bins.front().name;
    if (!graph.manifest->name.empty()) return graph.manifest->name;
  }
  return graph.get(graph.roots.front()).path.stem().string();
}

// The project root, or the entry file's directory for a lone file.
fs::path project_dir(const frontend::ModuleGraph& graph) {
  return graph.project_root.empty() ? graph.get(graph.roots.front()).path.parent_path() : graph.project_root;
}

struct ImageOptions {
  std::string target;
  std::string tag = "latest";
  std::string out;
  std::string opt_level = codegen::default_opt_level();
};

// The value of `--flag V` (advancing `i` past V) or `--flag=V` at args[i]; false when missing
// or empty.
bool flag_value(const std::vector<std::string>& args, size_t& i, std::string_view flag, std::string& into) {
  const std::string& a = args[i];
  if (a == flag) {
    if (i + 1 == args.size()) return false;
    into = args[++i];
  } else {
    into = a.substr(flag.size() + 1);
  }
  return !into.empty();
}

// Returns -1 after --help, else an exit code.
int parse_image_args(const std::vector<std::string>& args, ImageOptions& opt, Io io) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view flag, std::string& into) { return flag_value(args, i, flag, into); };
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
  if (!codegen::find_on_path("umoci")) {
    io.err << "error: `fitz deploy image` needs umoci, which writes the OCI image; install it "
              "(Debian/Ubuntu: apt-get install umoci) and try again\n";
    return kUsageError;
  }

  frontend::SourceManager sources;
  frontend::LoadResult loaded;
  checker::TypedProgram program;
  if (int rc = load_and_check(opt.target, sources, loaded, program, io); rc != kOk) return rc;
  const frontend::ModuleGraph& graph = loaded.graph;
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
  const fs::path root_dir = project_dir(graph);
  spec.name = app_name(graph);
  if (graph.manifest) spec.version = graph.manifest->version;
  spec.binary = tmp.path / "bin" / spec.name;
  spec.tag = opt.tag;
  spec.layout = opt.out.empty() ? root_dir / "dist" / "image" : fs::absolute(opt.out);
  spec.port = deploy::facts_of(program, graph).port;
  // The folders a program would read at run time by relative path are taken by their
  // conventional names.
  if (!graph.project_root.empty())
    for (const char* dir : {"static", "public"})
      if (fs::is_directory(graph.project_root / dir)) spec.static_dirs.push_back(graph.project_root / dir);
  // And the folders `@server(static=...)` serves, which the program looks for beside itself.
  if (program.service.server)
    for (const auto& [prefix, folder] : program.service.server->static_dirs) {
      fs::path d = root_dir / folder;
      if (fs::is_directory(d) && std::find(spec.static_dirs.begin(), spec.static_dirs.end(), d) == spec.static_dirs.end())
        spec.static_dirs.push_back(d);
    }

  std::string error;
  auto runtime = codegen::find_runtime(error);
  if (!runtime) {
    io.err << "error: " << error << "\n";
    return kInternal;
  }
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.opt_level = opt.opt_level;
  codegen::CompileResult built = codegen::compile_units(codegen::split_units(gen, build_units()), spec.binary, copts, *runtime);
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

// ---- k8s and compose ---------------------------------------------------------------------

enum class ManifestTarget { K8s, Compose };

struct ManifestOptions {
  ManifestTarget kind = ManifestTarget::K8s;
  std::string target;
  std::string out;
  std::string image;
  int64_t replicas = 2;
};

constexpr int64_t kMaxReplicas = 1000;

// Returns -1 after --help, else an exit code.
int parse_manifest_args(const std::vector<std::string>& args, ManifestOptions& opt, Io io) {
  const char* usage = opt.kind == ManifestTarget::K8s ? kK8sUsage : kComposeUsage;
  const char* command = opt.kind == ManifestTarget::K8s ? "fitz deploy k8s" : "fitz deploy compose";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view flag, std::string& into) { return flag_value(args, i, flag, into); };
    auto is_flag = [&](std::string_view flag) { return a == flag || a.starts_with(std::string(flag) + "="); };
    if (a == "-h" || a == "--help") {
      io.out << usage;
      return -1;
    }
    if (is_flag("--out")) {
      if (!value("--out", opt.out)) {
        io.err << "error: `--out` needs a directory\n\n" << usage;
        return kUsageError;
      }
    } else if (is_flag("--image")) {
      if (!value("--image", opt.image) || opt.image.find_first_of(" \t\n\"'") != std::string::npos) {
        io.err << "error: `--image` needs an image reference such as registry.example/app:1.0\n\n" << usage;
        return kUsageError;
      }
    } else if (is_flag("--replicas")) {
      std::string n;
      bool ok = value("--replicas", n) && n.size() <= 4 && n.find_first_not_of("0123456789") == std::string::npos;
      if (ok) opt.replicas = std::stoll(n);
      if (!ok || opt.replicas < 1 || opt.replicas > kMaxReplicas) {
        io.err << "error: `--replicas` needs a whole number from 1 to " << kMaxReplicas << "\n\n" << usage;
        return kUsageError;
      }
    } else if (!a.empty() && a[0] == '-') {
      io.err << "error: unknown option `" << a << "`\n\n" << usage;
      return kUsageError;
    } else if (opt.target.empty()) {
      opt.target = a;
    } else {
      io.err << "error: `" << command << "` takes one path\n";
      return kUsageError;
    }
  }
  return kOk;
}

// Whether the project keeps migration files (`fitz db new`) that must run before a release.
bool has_migrations(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    auto ext = e.path().extension();
    if (e.is_regular_file(ec) && (ext == ".sql" || ext == ".fitz")) return true;
  }
  return false;
}

bool write_file(const fs::path& path, const std::string& text, Io io) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    io.err << "error: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

bool make_dir(const fs::path& dir, Io io) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    io.err << "error: cannot create " << dir.string() << (ec ? ": " + ec.message() : "") << "\n";
    return false;
  }
  return true;
}

int write_k8s(const deploy::AppSpec& app, const ManifestOptions& opt, Io io) {
  std::vector<deploy::K8sObject> objects = deploy::k8s_objects(app);
  if (opt.out.empty()) {
    for (size_t i = 0; i < objects.size(); ++i) io.out << (i ? "---\n" : "") << deploy::to_yaml(objects[i].object);
    return kOk;
  }
  fs::path dir = fs::absolute(opt.out);
  if (!make_dir(dir, io)) return kUsageError;
  std::string names;
  for (const deploy::K8sObject& o : objects) {
    if (!write_file(dir / o.file, deploy::to_yaml(o.object), io)) return kUsageError;
    names += (names.empty() ? "" : ", ") + o.object["kind"].get<std::string>();
  }
  io.out << fmt::format("{} Kubernetes manifests for {} written to {} ({}); they read the Secret {}\n", objects.size(),
                        app.image, dir.string(), names, deploy::secret_name(app));
  return kOk;
}

int write_compose(const deploy::AppSpec& app, const fs::path& dir, Io io) {
  deploy::ComposeFiles files = deploy::compose_files(app);
  if (!make_dir(dir, io)) return kUsageError;
  std::string compose = fmt::format("# {} behind a load balancer, written by `fitz deploy compose`; see {}.\n",
                                    app.name, deploy::kEnvExampleFile) +
                        deploy::to_yaml(files.compose);
  if (!write_file(dir / deploy::kComposeFile, compose, io) ||
      !write_file(dir / deploy::kHaproxyFile, files.haproxy_cfg, io) ||
      !write_file(dir / deploy::kEnvExampleFile, files.env_example, io))
    return kUsageError;
  io.out << fmt::format("compose project for {} written to {} ({} replicas behind haproxy on port {}, postgres{})\n",
                        app.image, dir.string(), app.replicas, app.facts.port,
                        app.migrations ? ", migrations run first" : "");
  return kOk;
}

// What running the service several times changes for the program itself (on stderr, so that
// `fitz deploy k8s | kubectl apply -f -` stays clean).
void warn_replicas(const deploy::AppSpec& app, Io io) {
  if (app.facts.cron_jobs > 0 && app.replicas > 1)
    io.err << "note: every replica runs the " << app.facts.cron_jobs << " `@cron` job(s); give them "
           << "`store=env_or(\"DATABASE_URL\", \"\")` so that each tick runs once (docs/guide/14-jobs.md)\n";
  if (app.facts.custom_healthz)
    io.err << "note: `@healthz` is the liveness probe: a check that reaches the database restarts every "
           << "replica when the database is down; `@readyz` is the place for it\n";
}

int deploy_manifests(ManifestTarget kind, const std::vector<std::string>& args, Io io) {
  ManifestOptions opt;
  opt.kind = kind;
  if (int rc = parse_manifest_args(args, opt, io); rc != kOk) return rc < 0 ? kOk : rc;

  frontend::SourceManager sources;
  frontend::LoadResult loaded;
  checker::TypedProgram program;
  if (int rc = load_and_check(opt.target, sources, loaded, program, io); rc != kOk) return rc;
  const frontend::ModuleGraph& graph = loaded.graph;

  deploy::AppSpec app;
  app.facts = deploy::facts_of(program, graph);
  if (!app.facts.service) {
    std::string what = opt.target.empty() ? "the project" : "`" + opt.target + "`";
    io.err << "error: " << what << " is not a service: it has no routes, `@ws` endpoints or `@server`, "
           << "so there is nothing to deploy behind a load balancer\n";
    return kUserError;
  }
  app.name = deploy::dns_label(app_name(graph));
  std::string version = graph.manifest && !graph.manifest->version.empty() ? graph.manifest->version : "latest";
  app.image = opt.image.empty() ? app.name + ":" + version : opt.image;
  app.replicas = opt.replicas;
  const fs::path root = project_dir(graph);
  app.migrations = has_migrations(root / "migrations");

  int rc = kind == ManifestTarget::K8s
               ? write_k8s(app, opt, io)
               : write_compose(app, opt.out.empty() ? root / "dist" / "compose" : fs::absolute(opt.out), io);
  if (rc == kOk) warn_replicas(app, io);
  return rc;
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
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (target == "image") return deploy_image(rest, io);
  if (target == "k8s") return deploy_manifests(ManifestTarget::K8s, rest, io);
  if (target == "compose") return deploy_manifests(ManifestTarget::Compose, rest, io);
  io.err << "error: unknown deploy target `" << target << "`\n\n" << kDeployUsage;
  return kUsageError;
}

}  // namespace fitz::cli
