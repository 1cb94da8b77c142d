// `fitz deploy k8s`: the Kubernetes objects of a service — Deployment, Service,
// HorizontalPodAutoscaler, PodDisruptionBudget and, when the project has migrations, a Job that
// runs them — as JSON values, written out as YAML by cmd_deploy.cpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/deploy_app.h"

namespace fitz::cli::deploy {

struct K8sObject {
  std::string file;  // its file name under --out (`deployment.yaml`, ...)
  nlohmann::ordered_json object;
};

// The Secret the Deployment and Job read DATABASE_URL and FITZ_SECRET_KEY from (`NAME-secrets`,
// keys below); it is not generated, so that applying the manifests never overwrites real values.
std::string secret_name(const AppSpec& app);
inline constexpr const char* kDatabaseUrlKey = "database-url";
inline constexpr const char* kSecretKeyKey = "secret-key";

// The objects in the order they should be applied: the migration Job first.
std::vector<K8sObject> k8s_objects(const AppSpec& app);

}  // namespace fitz::cli::deploy
