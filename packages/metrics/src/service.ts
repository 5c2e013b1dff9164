// The Prometheus metrics of one app: its own registry, HTTP request rate and latency by route and status, dependency status.
import type { Request, RequestHandler } from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Latency buckets of request histograms, in seconds (1 ms to 10 s). */
export const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A dependency whose status `pointwise_dependency_up` reports at each scrape (the same checks as `/readyz`). */
export interface DependencyProbe {
  name: string;
  check(): Promise<boolean>;
  optional?: boolean;
}

/** Options of an app's metrics. */
export interface ServiceMetricsOptions {
  /** The app's name (Prometheus tells apps apart by the scrape target's `job` and `pod` labels). */
  service: string;
  /** A registry that already holds the app's own metrics (ingest-api's); a new one otherwise. */
  registry?: Registry;
  /** Also collect the process's CPU, memory, heap, event-loop lag and GC metrics (main.ts turns this on; tests leave it off). */
  processMetrics?: boolean;
}

/** The metrics of one app instance: a registry of its own, so tests can run several apps in one process. */
export interface ServiceMetrics {
  service: string;
  registry: Registry;
  /** Express middleware that counts every request and observes its duration by method, route and status. */
  httpMiddleware(): RequestHandler;
  /** Reports each probe as `pointwise_dependency_up{dependency,optional}` (1 or 0), evaluated at each scrape. */
  watchDependencies(probes: readonly DependencyProbe[], timeoutMs: number): void;
  /** The Prometheus text exposition of every metric, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Paths that are probes or the scrape itself, not traffic: left out of the request metrics. */
const UNCOUNTED = new Set(["/metrics", "/healthz", "/readyz"]);

/**
 * The route template of a request (`/users/:id/scores`), never its concrete path: a label per user id
 * would grow without bound. A request no route handled (a static file, a 404) is `other`.
 */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route === undefined || typeof route.path !== "string") return "other";
  return `${req.baseUrl}${route.path}`;
}

function withinDeadline(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

/** Creates an app's metrics: `pointwise_http_requests_total`, `pointwise_http_request_duration_seconds` and `pointwise_dependency_up`. */
export function createServiceMetrics(options: ServiceMetricsOptions): ServiceMetrics {
  const registry = options.registry ?? new Registry();
  if (options.processMetrics === true) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "pointwise_http_requests_total",
    help: "HTTP requests answered, by method, route template and status code",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "pointwise_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method, route template and status code",
    labelNames: ["method", "route", "status"],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  let probes: { list: readonly DependencyProbe[]; timeoutMs: number } = { list: [], timeoutMs: 1000 };
  new Gauge({
    name: "pointwise_dependency_up",
    help: "1 when a dependency the app uses answers (the check of /readyz), 0 when not; optional dependencies only degrade the app",
    labelNames: ["dependency", "optional"],
    registers: [registry],
    async collect() {
      this.reset();
      const results = await Promise.all(probes.list.map(async (p) => [p, await withinDeadline(p.check(), probes.timeoutMs)] as const));
      for (const [p, up] of results) this.set({ dependency: p.name, optional: p.optional === true ? "true" : "false" }, up ? 1 : 0);
    },
  });
  return {
    service: options.service,
    registry,
    httpMiddleware() {
      return (req, res, next) => {
        if (UNCOUNTED.has(req.path)) {
          next();
          return;
        }
        const started = process.hrtime.bigint();
        res.once("finish", () => {
          const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
          requests.inc(labels);
          duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
        });
        next();
      };
    },
    watchDependencies(list, timeoutMs) {
      probes = { list, timeoutMs };
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
