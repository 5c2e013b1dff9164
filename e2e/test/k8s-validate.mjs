// Validates Kubernetes objects (a JSON array on stdin) against their API schemas; prints one JSON line of problems.
// An ES module of its own: kubernetes-models and @kubernetes-models/keda ship ES modules only, which jest's CommonJS run cannot load.
import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Service } from "kubernetes-models/v1";

// Every kind the manifests may hold, with the model that validates it; any other kind is a problem.
const MODELS = {
  "v1/ConfigMap": ConfigMap,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
};

let input = "";
for await (const chunk of process.stdin) input += chunk;
const problems = [];
let validated = 0;
for (const o of JSON.parse(input)) {
  const what = `${o.apiVersion} ${o.kind} ${o.metadata?.name}`;
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (Model === undefined) {
    problems.push(`${what}: no schema for this kind`);
    continue;
  }
  try {
    new Model(o).validate();
    validated++;
  } catch (err) {
    problems.push(`${what}: ${err.message}`);
  }
}
process.stdout.write(`${JSON.stringify({ validated, problems })}\n`);
