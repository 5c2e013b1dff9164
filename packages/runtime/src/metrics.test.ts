// /metrics of the shared HTTP shell: requests counted by route template and status, probes left out, dependencies reported.
import type { Server } from "node:http";
import { NotFoundError } from "@pointwise/errors";
import { createLogger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { createHttpApp, finishHttpApp, listen } from "./index";

const logger = createLogger({ service: "t", level: "silent" });
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(redisUp: () => boolean) {
  const metrics = createServiceMetrics({ service: "t" });
  const app = createHttpApp({
    logger,
    metrics,
    readiness: [
      { name: "postgres", check: async () => true },
      { name: "redis", check: async () => redisUp(), optional: true },
      // A check that never answers counts as down once the readiness deadline passes.
      { name: "stuck", check: () => new Promise<boolean>(() => undefined), optional: true },
    ],
  });
  app.get("/users/:id", (req, res) => {
    if (req.params.id === "missing") throw new NotFoundError("no such user");
    res.json({ id: req.params.id });
  });
  server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** The value of one series in a Prometheus text exposition, found by its exact name and labels. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("metrics of the HTTP shell", () => {
  it("counts requests by method, route template and status, and times them", async () => {
    const base = await serve(() => true);
    for (const id of ["a", "b", "c"]) expect((await fetch(`${base}/users/${id}`)).status).toBe(200);
    expect((await fetch(`${base}/users/missing`)).status).toBe(404);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    await fetch(`${base}/healthz`);
    await fetch(`${base}/readyz`);

    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // Three users answered 200 under one template, never one series per id.
    expect(sample(text, 'pointwise_http_requests_total{method="GET",route="/users/:id",status="200"}')).toBe(3);
    expect(sample(text, 'pointwise_http_requests_total{method="GET",route="/users/:id",status="404"}')).toBe(1);
    expect(sample(text, 'pointwise_http_requests_total{method="GET",route="other",status="404"}')).toBe(1);
    expect(text).not.toMatch(/route="\/users\/a"/);
    // Probes and the scrape itself are not traffic.
    expect(text).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
    expect(sample(text, 'pointwise_http_request_duration_seconds_count{method="GET",route="/users/:id",status="200"}')).toBe(3);
    expect(sample(text, 'pointwise_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/users/:id",status="200"}')).toBe(3);
  });

  it("reports each dependency as up or down at scrape time, as /readyz checks it", async () => {
    let redis = true;
    const base = await serve(() => redis);
    let text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'pointwise_dependency_up{dependency="postgres",optional="false"}')).toBe(1);
    expect(sample(text, 'pointwise_dependency_up{dependency="redis",optional="true"}')).toBe(1);
    expect(sample(text, 'pointwise_dependency_up{dependency="stuck",optional="true"}')).toBe(0);
    redis = false;
    text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'pointwise_dependency_up{dependency="redis",optional="true"}')).toBe(0);
  });

  it("serves no /metrics when the app has no metrics", async () => {
    const app = createHttpApp({ logger, readiness: [] });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    const res = await fetch(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/metrics`);
    expect(res.status).toBe(404);
  });
});
