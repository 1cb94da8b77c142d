// Validates Kubernetes objects against the API schemas of kubernetes-models: reads a JSON array
// of objects from the file named by the first argument (tests/e2e/deploy_manifests.sh converts
// the generated YAML), constructs each as its kind and calls validate(). Prints one line per
// object and exits 1 when any object is invalid or of a kind this script does not know.
import { readFileSync } from "node:fs";
import { Deployment } from "kubernetes-models/apps/v1";
import { Service } from "kubernetes-models/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Job } from "kubernetes-models/batch/v1";

const kinds = {
  "apps/v1 Deployment": Deployment,
  "v1 Service": Service,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "batch/v1 Job": Job,
};

const objects = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = 0;
for (const obj of objects) {
  const key = `${obj.apiVersion} ${obj.kind}`;
  const name = `${key} ${obj.metadata?.name}`;
  const Model = kinds[key];
  if (!Model) {
    console.log(`unknown kind: ${name}`);
    bad++;
    continue;
  }
  try {
    new Model(obj).validate();
    console.log(`valid: ${name}`);
  } catch (e) {
    console.log(`invalid: ${name}: ${e.message}`);
    bad++;
  }
}
process.exit(bad || objects.length === 0 ? 1 : 0);
