/**
 * The Kubernetes manifests under infra/k8s: each overlay is rendered by kustomize (`kubectl kustomize`) and
 * every object is validated against the Kubernetes API schemas (kubernetes-models) and KEDA's CRD schema
 * (@kubernetes-models/keda); then what operations rely on is checked across objects.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";
import { parse, parseAllDocuments } from "yaml";
import { type AppName, appEnv } from "./app-env";

jest.setTimeout(60_000);

// biome-ignore lint/suspicious/noExplicitAny: rendered YAML is checked field by field below.
type Obj = any;

const K8S = path.join(repoRoot, "infra", "k8s");

/** Renders a kustomization directory as kubectl applies it. */
function renderDir(dir: string): Obj[] {
  const text = execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length > 0) throw new Error(`${dir}: ${d.errors[0]?.message}`);
    return d.toJSON();
  });
}

// Every overlay there is, so one added later is checked too, each with the namespace its kustomization names.
const OVERLAYS = readdirSync(path.join(K8S, "overlays"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const namespaceOf = (overlay: string): string => parse(readFileSync(path.join(K8S, "overlays", overlay, "kustomization.yaml"), "utf8")).namespace;

const APPS: AppName[] = ["ingest-api", "read-api", "admin-api", "portal-api", "scoring-worker", "indexer-service"];

/** The namespace in KEDA's NATS monitoring endpoint (`<service>.<namespace>.svc.cluster.local:<port>`). */
const endpointNamespace = (objects: Obj[]): string =>
  objects.find((o) => o.kind === "ScaledObject" && o.metadata.name === "scoring-worker").spec.triggers[0].metadata.natsServerMonitoringEndpoint.split(".")[1];

it("has the overlays operations.md names, each in its own namespace", () => {
  expect(OVERLAYS).toEqual(expect.arrayContaining(["production", "staging"]));
  expect([namespaceOf("production"), namespaceOf("staging")]).toEqual(["pointwise", "pointwise-staging"]);
  expect(new Set(OVERLAYS.map(namespaceOf)).size).toBe(OVERLAYS.length);
});

it("points a new overlay's KEDA scaler at the NATS of the overlay's own namespace, not another overlay's", () => {
  // What an overlay added later needs: its namespace and the shared transformer, no patch of the endpoint of its own.
  const dir = mkdtempSync(path.join(os.tmpdir(), "pointwise-overlay-"));
  try {
    // kustomize takes relative paths only.
    const rel = (to: string) => path.relative(dir, path.join(K8S, to));
    writeFileSync(
      path.join(dir, "kustomization.yaml"),
      `namespace: pointwise-qa\nresources:\n  - ${rel("base")}\ntransformers:\n  - ${rel("transformers/nats-endpoint")}\n`,
    );
    expect(endpointNamespace(renderDir(dir))).toBe("pointwise-qa");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.each(OVERLAYS)("overlay %s", (overlay) => {
  const objects = renderDir(path.join(K8S, "overlays", overlay));
  const namespace = namespaceOf(overlay);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

  it("holds only objects that validate against their API schema", () => {
    expect(objects.length).toBeGreaterThan(15);
    const answer = execFileSync(process.execPath, [path.join(__dirname, "k8s-validate.mjs")], {
      cwd: repoRoot,
      input: JSON.stringify(objects),
      encoding: "utf8",
    });
    const { validated, problems } = JSON.parse(answer) as { validated: number; problems: string[] };
    expect(problems).toEqual([]);
    expect(validated).toBe(objects.length);
  });

  it("puts every object in the overlay's namespace", () => {
    for (const o of objects) expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toBe(`${o.kind}/${o.metadata.name} in ${namespace}`);
  });

  it("gives every app a Deployment with probes on its port, resource requests and graceful termination", () => {
    for (const app of APPS) {
      const d = named("Deployment", app);
      expect(d).toBeDefined();
      const pod = d.spec.template.spec;
      const [c] = pod.containers;
      expect(c.command).toEqual(expect.arrayContaining([`apps/${app}/dist/main.js`]));
      expect(c.resources.requests.cpu).toBeDefined();
      expect(c.resources.requests.memory).toBeDefined();
      expect(c.resources.limits.memory).toBeDefined();
      expect(c.livenessProbe.httpGet.path).toBe("/healthz");
      expect(c.readinessProbe.httpGet.path).toBe("/readyz");
      // The app's shutdown takes at most 15 s (SHUTDOWN_TIMEOUT_MS) after its preStop pause.
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(20);
      const port = c.ports[0].containerPort;
      const declared = c.env.find((e: Obj) => e.name === (app === "indexer-service" ? "METRICS_PORT" : "PORT"));
      expect(Number(declared.value)).toBe(port);
      expect(d.spec.template.metadata.annotations["prometheus.io/port"]).toBe(String(port));
      expect(d.spec.selector.matchLabels).toEqual({ "app.kubernetes.io/name": app });
      expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
    }
  });

  it("runs migrations as a Job with the database secret", () => {
    const job = named("Job", "pointwise-migrate");
    // A failed Job keeps its failed pods, whose logs operations.md sends the operator to (OnFailure would delete them).
    expect(job.spec.template.spec.restartPolicy).toBe("Never");
    // It fails, rather than still backing off, within the 10 minutes operations.md waits: 10 s, 20 s, 40 s, ... between tries.
    const backoffSeconds = Array.from({ length: job.spec.backoffLimit }, (_, i) => Math.min(10 * 2 ** i, 360));
    expect(backoffSeconds.reduce((a, b) => a + b, 0)).toBeLessThan(5 * 60);
    expect(job.spec.template.spec.containers[0].command).toEqual(["node", "--import", "tsx", "scripts/migrate.ts"]);
    expect(job.spec.template.spec.containers[0].env).toContainEqual({
      name: "DATABASE_URL",
      valueFrom: { secretKeyRef: { name: "pointwise-secrets", key: "DATABASE_URL" } },
    });
  });

  it("lets the migrations be applied, with the settings they read, before the apps' new image rolls out", () => {
    // A Job's pod template cannot change in place, and one `kubectl apply -k` starts the Job and the rollouts at once:
    // operations.md applies this selection first, waits for the Job, then applies everything.
    const first = objects.filter((o) => ["config", "migration"].includes(o.metadata.labels?.["app.kubernetes.io/component"]));
    expect(first.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(["ConfigMap/pointwise-config", "Job/pointwise-migrate"]);
    const job = named("Job", "pointwise-migrate").spec.template.spec.containers[0];
    // Every ConfigMap the Job reads is in that selection (the Secret is the operator's own).
    for (const ref of job.envFrom ?? []) expect(first.map((o) => o.metadata.name)).toContain(ref.configMapRef.name);
  });

  it("autoscales ingest-api and read-api on CPU and the worker on the consumer's lag", () => {
    const hpas = byKind("HorizontalPodAutoscaler").map((h) => h.spec.scaleTargetRef.name);
    expect(hpas.sort()).toEqual(["ingest-api", "read-api"]);
    for (const h of byKind("HorizontalPodAutoscaler")) expect(named("Deployment", h.spec.scaleTargetRef.name)).toBeDefined();
    const scaled = named("ScaledObject", "scoring-worker");
    expect(named("Deployment", scaled.spec.scaleTargetRef.name)).toBeDefined();
    const trigger = scaled.spec.triggers[0];
    expect(trigger.type).toBe("nats-jetstream");
    // The stream and consumer the worker uses: <NAMESPACE>_EVENTS and CONSUMER_NAME's default.
    const config = named("ConfigMap", "pointwise-config").data;
    expect(trigger.metadata.stream).toBe(`${config.NAMESPACE.toUpperCase()}_EVENTS`);
    expect(trigger.metadata.consumer).toBe("scoring");
  });

  it("points KEDA's scaler at NATS's monitoring port by a name that resolves from KEDA's own namespace", () => {
    // KEDA's operator runs in a namespace of its own (keda): a short name such as `pointwise-nats-0.pointwise-nats-cluster`
    // would be looked up there and not found, so the scaler would never read the consumer's lag.
    const endpoint: string = named("ScaledObject", "scoring-worker").spec.triggers[0].metadata.natsServerMonitoringEndpoint;
    const nats = named("StatefulSet", "pointwise-nats");
    const [host, port] = endpoint.split(":");
    // The overlay's own namespace: another overlay's would scale this worker on that overlay's lag.
    expect(host).toBe(`${nats.spec.serviceName}.${namespace}.svc.cluster.local`);
    expect(endpointNamespace(objects)).toBe(namespace);
    const monitor = nats.spec.template.spec.containers[0].ports.find((p: Obj) => p.name === "monitor");
    expect(Number(port)).toBe(monitor.containerPort);
    expect(named("Service", nats.spec.serviceName).spec.ports).toContainEqual(expect.objectContaining({ name: "monitor", port: monitor.containerPort }));
  });

  it("guards every app and the NATS quorum with a PodDisruptionBudget matching its pods", () => {
    const pdbs = byKind("PodDisruptionBudget");
    const workloads = [...byKind("Deployment"), ...byKind("StatefulSet")];
    for (const name of ["ingest-api", "read-api", "admin-api", "portal-api", "scoring-worker", "pointwise-nats"]) {
      const pdb = pdbs.find((p) => p.metadata.name === name);
      const target = workloads.find((w) => w.metadata.name === name);
      expect(target.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
    }
  });

  it("runs NATS as a three-node JetStream cluster the apps reach, with three stream replicas", () => {
    const nats = named("StatefulSet", "pointwise-nats");
    expect(nats.spec.replicas).toBe(3);
    const conf: string = named("ConfigMap", "pointwise-nats").data["nats.conf"];
    expect(conf).toMatch(/jetstream \{/);
    for (const i of [0, 1, 2]) expect(conf).toContain(`nats://pointwise-nats-${i}.pointwise-nats-cluster:6222`);
    const config = named("ConfigMap", "pointwise-config").data;
    expect(config.NATS_URL.split(",")).toHaveLength(3);
    expect(config.STREAM_REPLICAS).toBe("3");
    expect(named("Service", nats.spec.serviceName).spec.clusterIP).toBe("None");
  });

  it("exposes each HTTP API through a Service selecting its pods on its port", () => {
    for (const app of ["ingest-api", "read-api", "admin-api", "portal-api"]) {
      const svc = named("Service", app);
      const d = named("Deployment", app);
      expect(d.spec.template.metadata.labels).toMatchObject(svc.spec.selector);
      expect(svc.spec.ports[0].targetPort).toBe(d.spec.template.spec.containers[0].ports[0].name);
    }
  });

  it("gives each app every variable its env schema requires, and sets none it does not read", () => {
    const shared = Object.keys(named("ConfigMap", "pointwise-config").data);
    const readers = new Set<string>();
    for (const app of APPS) {
      const c = named("Deployment", app).spec.template.spec.containers[0];
      const { reads, required } = appEnv(app);
      const direct: string[] = c.env.map((e: Obj) => e.name);
      // A variable set on the container itself is meant for this app, so its schema must read it.
      expect({ app, unread: direct.filter((name) => !reads.has(name)) }).toEqual({ app, unread: [] });
      const fromShared = (c.envFrom ?? []).some((r: Obj) => r.configMapRef?.name === "pointwise-config") ? shared : [];
      const given = new Set([...direct, ...fromShared]);
      expect({ app, missing: required.filter((name) => !given.has(name)) }).toEqual({ app, missing: [] });
      for (const name of fromShared) if (reads.has(name)) readers.add(name);
    }
    // The shared ConfigMap holds nothing no app reads.
    expect(shared.filter((name) => !readers.has(name))).toEqual([]);
  });

  it("gives portal-api its signing keys and site settings, and points read-api at the keys portal-api publishes", () => {
    const portal = named("Deployment", "portal-api").spec.template.spec.containers[0];
    expect(portal.env).toContainEqual({ name: "PORTAL_SIGNING_KEYS", valueFrom: { secretKeyRef: { name: "pointwise-secrets", key: "PORTAL_SIGNING_KEYS" } } });
    expect(portal.envFrom).toContainEqual({ configMapRef: { name: "pointwise-portal" } });
    const jwks = named("Deployment", "read-api").spec.template.spec.containers[0].env.find((e: Obj) => e.name === "PORTAL_JWKS_URL");
    const url = new URL(jwks.value);
    const svc = named("Service", "portal-api");
    expect(url.hostname).toBe(svc.metadata.name);
    expect(Number(url.port)).toBe(svc.spec.ports[0].port);
    // The path portal-api serves its JWKS on.
    expect(url.pathname).toBe("/.well-known/jwks.json");
  });
});
