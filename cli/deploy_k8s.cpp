// The Kubernetes objects of `fitz deploy k8s` (deploy_k8s.h). Every value here is decided by the
// AppSpec; the runtime's behaviour they rely on (probe paths, drain on SIGTERM, PORT and HOST)
// is described in docs/guide/17-deploying.md.
#include "cli/deploy_k8s.h"

#include "cli/deploy_image.h"

namespace fitz::cli::deploy {

namespace {

using Json = nlohmann::ordered_json;

// The tag or digest of an image reference as part of a name: `users-api:0.1.0` → `0-1-0`.
std::string version_suffix(std::string_view image) {
  size_t slash = image.rfind('/');
  size_t at = image.find('@');
  std::string_view v;
  if (at != std::string_view::npos) {
    v = image.substr(at + 1);
    if (size_t colon = v.find(':'); colon != std::string_view::npos) v = v.substr(colon + 1, 12);
  } else if (size_t colon = image.rfind(':'); colon != std::string_view::npos &&
                                               (slash == std::string_view::npos || colon > slash)) {
    v = image.substr(colon + 1);
  }
  return v.empty() ? "latest" : dns_label(v);
}

Json labels_of(const AppSpec& app) { return Json{{"app.kubernetes.io/name", app.name}}; }

Json metadata(const AppSpec& app, const std::string& name) {
  Json labels = labels_of(app);
  labels["app.kubernetes.io/managed-by"] = "fitz";
  return Json{{"name", name}, {"labels", labels}};
}

Json secret_env(const AppSpec& app, const char* var, const char* key) {
  return Json{{"name", var}, {"valueFrom", {{"secretKeyRef", {{"name", secret_name(app)}, {"key", key}}}}}};
}

Json resources() {
  return Json{{"requests", {{"cpu", "100m"}, {"memory", "64Mi"}}}, {"limits", {{"cpu", "1"}, {"memory", "256Mi"}}}};
}

// The image's user (deploy_image.h), stated again so that a cluster refuses to run the pod as
// root even with another image.
Json pod_security() {
  return Json{{"runAsNonRoot", true},
              {"runAsUser", kServiceUid},
              {"runAsGroup", kServiceUid},
              {"fsGroup", kServiceUid},
              {"seccompProfile", {{"type", "RuntimeDefault"}}}};
}

Json container_security() {
  return Json{{"allowPrivilegeEscalation", false},
              {"readOnlyRootFilesystem", true},
              {"capabilities", {{"drop", Json::array({"ALL"})}}}};
}

Json probe(std::string_view path, int period, int failures) {
  return Json{{"httpGet", {{"path", path}, {"port", "http"}}},
              {"periodSeconds", period},
              {"timeoutSeconds", 2},
              {"failureThreshold", failures}};
}

// A writable /tmp on an otherwise read-only root file system.
Json tmp_mount() { return Json{{"name", "tmp"}, {"mountPath", "/tmp"}}; }
Json tmp_volume() { return Json{{"name", "tmp"}, {"emptyDir", Json::object()}}; }

Json deployment(const AppSpec& app) {
  Json env = Json::array();
  // PORT and HOST override `@server`, so the container port is right whatever the image says.
  env.push_back({{"name", "PORT"}, {"value", std::to_string(app.facts.port)}});
  env.push_back({{"name", "HOST"}, {"value", "0.0.0.0"}});
  env.push_back(secret_env(app, "DATABASE_URL", kDatabaseUrlKey));
  env.push_back(secret_env(app, "FITZ_SECRET_KEY", kSecretKeyKey));
  // Each replica holds its own WebSocket clients; broadcasts reach the others through Postgres
  // LISTEN/NOTIFY on DATABASE_URL.
  if (!app.facts.ws_paths.empty()) env.push_back({{"name", "FITZ_WS_PUBSUB"}, {"value", "postgres"}});

  Json startup = probe(kHealthzPath, 2, 30);  // up to a minute for top-level start-up code
  Json container{
      {"name", app.name},
      {"image", app.image},
      {"imagePullPolicy", "IfNotPresent"},
      {"ports", Json::array({{{"name", "http"}, {"containerPort", app.facts.port}, {"protocol", "TCP"}}})},
      {"env", env},
      {"resources", resources()},
      {"startupProbe", startup},
      {"readinessProbe", probe(kReadyzPath, 5, 2)},
      {"livenessProbe", probe(kHealthzPath, 10, 3)},
      // The image has no shell, so the pause before SIGTERM is the kubelet's own sleep action
      // (Kubernetes 1.30+): endpoints drop the pod while it still serves.
      {"lifecycle", {{"preStop", {{"sleep", {{"seconds", kPreStopSleepSecs}}}}}}},
      {"securityContext", container_security()},
      {"volumeMounts", Json::array({tmp_mount()})},
  };
  Json pod_spec{
      {"terminationGracePeriodSeconds", grace_period_secs(app.facts)},
      {"automountServiceAccountToken", false},
      {"securityContext", pod_security()},
      {"containers", Json::array({container})},
      {"volumes", Json::array({tmp_volume()})},
  };
  Json spec{
      {"replicas", app.replicas},
      {"selector", {{"matchLabels", labels_of(app)}}},
      // A new version comes up before an old one goes: capacity never drops during a rollout.
      {"strategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", 1}, {"maxUnavailable", 0}}}}},
      {"template", {{"metadata", {{"labels", labels_of(app)}}}, {"spec", pod_spec}}},
  };
  return Json{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", metadata(app, app.name)}, {"spec", spec}};
}

Json service(const AppSpec& app) {
  Json port{{"name", "http"}, {"port", 80}, {"targetPort", "http"}, {"protocol", "TCP"}};
  Json spec{{"type", "ClusterIP"}, {"selector", labels_of(app)}, {"ports", Json::array({port})}};
  return Json{{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", metadata(app, app.name)}, {"spec", spec}};
}

Json autoscaler(const AppSpec& app) {
  Json cpu{{"type", "Resource"},
           {"resource", {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", 70}}}}}};
  Json spec{{"scaleTargetRef", {{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"name", app.name}}},
            {"minReplicas", app.replicas},
            {"maxReplicas", app.replicas * 4},
            {"metrics", Json::array({cpu})}};
  return Json{{"apiVersion", "autoscaling/v2"},
              {"kind", "HorizontalPodAutoscaler"},
              {"metadata", metadata(app, app.name)},
              {"spec", spec}};
}

// maxUnavailable rather than minAvailable: with one replica, minAvailable 1 would block every
// node drain.
Json disruption_budget(const AppSpec& app) {
  Json spec{{"maxUnavailable", 1}, {"selector", {{"matchLabels", labels_of(app)}}}};
  return Json{{"apiVersion", "policy/v1"},
              {"kind", "PodDisruptionBudget"},
              {"metadata", metadata(app, app.name)},
              {"spec", spec}};
}

// Named after the image's version: a Job's pod template cannot change, so each release gets its
// own Job and re-applying the same release leaves the finished one alone.
Json migration_job(const AppSpec& app) {
  std::string name = dns_label(app.name + "-migrate-" + version_suffix(app.image));
  Json container{
      {"name", "migrate"},
      {"image", app.image},
      {"imagePullPolicy", "IfNotPresent"},
      {"args", Json::array({"migrate"})},  // the image's entrypoint is the service binary
      {"env", Json::array({secret_env(app, "DATABASE_URL", kDatabaseUrlKey)})},
      {"resources", resources()},
      {"securityContext", container_security()},
      {"volumeMounts", Json::array({tmp_mount()})},
  };
  Json pod_spec{
      {"restartPolicy", "Never"},
      {"automountServiceAccountToken", false},
      {"securityContext", pod_security()},
      {"containers", Json::array({container})},
      {"volumes", Json::array({tmp_volume()})},
  };
  // A bounded run: a migration stuck on a lock must not hold the rollout forever.
  Json spec{{"backoffLimit", 2},
            {"activeDeadlineSeconds", 600},
            {"template", {{"metadata", {{"labels", labels_of(app)}}}, {"spec", pod_spec}}}};
  return Json{{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", metadata(app, name)}, {"spec", spec}};
}

}  // namespace

std::string secret_name(const AppSpec& app) { return dns_label(app.name + "-secrets"); }

std::vector<K8sObject> k8s_objects(const AppSpec& app) {
  std::vector<K8sObject> out;
  if (app.migrations) out.push_back({"migrate-job.yaml", migration_job(app)});
  out.push_back({"deployment.yaml", deployment(app)});
  out.push_back({"service.yaml", service(app)});
  out.push_back({"hpa.yaml", autoscaler(app)});
  out.push_back({"pdb.yaml", disruption_budget(app)});
  return out;
}

}  // namespace fitz::cli::deploy
