// Start-up: the port answers at once while dependencies are retried with backoff, the deadline gives up naming them, URLs are masked.
import { Writable } from "node:stream";
import { createLogger } from "@pointwise/logger";
import express from "express";
import { createHttpApp, maskUrl, openStartup, rpcFailure, type Startup, StartupTimeoutError } from "./index";

function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { lines, logger: createLogger({ service: "t", level: "info", destination: stream }) };
}

const PASSWORD = "pa55-w0rd-9f8e";
const DB_URL = `postgres://app:${PASSWORD}@127.0.0.1:1/points`;

async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function get(url: string): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get("retry-after") };
}

const opened: Startup[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function open(timeoutMs: number, extra: { initialDelayMs?: number } = {}) {
  const { lines, logger } = captured();
  const startup = await openStartup({ name: "demo-api", logger, port: await freePort(), host: "127.0.0.1", timeoutMs, ...extra });
  opened.push(startup);
  return { startup, lines };
}

describe("maskUrl", () => {
  it.each([
    ["postgres://app:s3cret@db:5432/x", "postgres://app:***@db:5432/x"],
    ["postgres://app@db:5432/x", "postgres://app@db:5432/x"],
    ["postgres://db/x?sslmode=require&password=s3cret", "postgres://db/x?sslmode=require&password=***"],
    ["redis://:s3cret@cache:6379", "redis://:***@cache:6379"],
    ["rediss://default:s3cret@cache:6380/0", "rediss://default:***@cache:6380/0"],
    ["nats://s3cret-token@bus:4222", "nats://***@bus:4222"],
    ["nats://user:s3cret@bus:4222", "nats://user:***@bus:4222"],
    ["nats://bus:4222", "nats://bus:4222"],
    ["postgres://app:s3cret@db:notaport/x", "postgres://***"],
  ])("%s -> %s", (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});

describe("rpcFailure", () => {
  it("keeps an RPC client error's code and short message, not the full message that repeats the URL", () => {
    // The shape ethers gives its errors: the message ends with the request's details, URL included.
    const thrown = Object.assign(new Error('server response 401 Unauthorized (info={ "requestUrl": "https://rpc.example/v2/KEY123" })'), {
      code: "SERVER_ERROR",
      shortMessage: "server response 401 Unauthorized",
    });
    const kept = rpcFailure(thrown) as Error & { code: string };
    expect([kept.message, kept.code]).toEqual(["server response 401 Unauthorized", "SERVER_ERROR"]);
    expect(JSON.stringify({ message: kept.message, stack: kept.stack })).not.toContain("KEY123");
    const plain = new Error("publishRoot transaction has no receipt");
    expect(rpcFailure(plain)).toBe(plain);
  });
});

describe("readiness with optional dependencies", () => {
  it("answers 200 degraded when only an optional check fails, 503 unavailable when a required one does", async () => {
    const { logger } = captured();
    let postgres = true;
    const app = createHttpApp({
      logger,
      readiness: [
        { name: "postgres", check: async () => postgres },
        { name: "redis", check: async () => false, optional: true },
      ],
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      expect(await get(`${base}/readyz`)).toMatchObject({ status: 200, body: { status: "degraded", checks: { postgres: true, redis: false } } });
      postgres = false;
      expect(await get(`${base}/readyz`)).toMatchObject({ status: 503, body: { status: "unavailable", checks: { postgres: false, redis: false } } });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("openStartup", () => {
  it("answers alive, not ready and 503 starting at once, retries with doubling waits, then hands the same port to the app", async () => {
    const { startup, lines } = await open(10_000, { initialDelayMs: 100 });
    let calls = 0;
    const reached = startup.require({
      postgres: {
        url: DB_URL,
        connect: async () => {
          calls++;
          if (calls < 3) throw new Error(`connect ECONNREFUSED (password ${PASSWORD})`);
          return "handle";
        },
      },
    });
    expect(lines.filter((l) => l.msg === "waiting for postgres at postgres://app:***@127.0.0.1:1/points")).toHaveLength(1);
    expect(await get(`${startup.url}/healthz`)).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await get(`${startup.url}/readyz`)).toMatchObject({ status: 503, body: { status: "starting", waiting: ["postgres"], checks: { postgres: false } } });
    const other = await get(`${startup.url}/leaderboard?x=1`);
    expect(other).toMatchObject({ status: 503, retryAfter: "1", body: { error: { code: "starting" } } });
    expect((other.body.error as { message: string }).message).toBe("demo-api is starting (waiting for postgres); try again shortly");

    expect(await reached).toEqual({ postgres: "handle" });
    const warnings = lines.filter((l) => l.level === "warn" || l.level === 40);
    expect(warnings.map((w) => w.next_attempt_in_ms)).toEqual([100, 200]);
    expect(warnings.map((w) => w.msg)).toEqual([
      "postgres unreachable at postgres://app:***@127.0.0.1:1/points; retrying in 100 ms",
      "postgres unreachable at postgres://app:***@127.0.0.1:1/points; retrying in 200 ms",
    ]);
    expect(lines.some((l) => l.msg === "postgres reachable" && l.attempts === 3)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);

    const app = express();
    app.get("/leaderboard", (_req, res) => {
      res.json({ served: true });
    });
    startup.serve(app);
    expect(await get(`${startup.url}/leaderboard`)).toMatchObject({ status: 200, body: { served: true } });
  });

  it("gives up at the deadline with a fatal line per unreachable dependency, naming it and its masked URL", async () => {
    const { startup, lines } = await open(1200);
    const started = Date.now();
    const err = await startup
      .require({
        postgres: { url: "postgres://127.0.0.1:5432/x", connect: async () => "ok" },
        nats: {
          url: `nats://bus:${PASSWORD}@127.0.0.1:1`,
          connect: async () => {
            throw new Error("CONNECTION_REFUSED");
          },
        },
      })
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(StartupTimeoutError);
    expect(err).toMatchObject({ code: "startup-timeout", dependencies: ["nats"] });
    expect((err as Error).message).toBe("start-up gave up after 1200 ms waiting for nats (nats://bus:***@127.0.0.1:1)");
    expect(took).toBeGreaterThanOrEqual(1150);
    expect(took).toBeLessThan(2500);
    const fatal = lines.filter((l) => l.level === "fatal" || l.level === 60);
    expect(fatal.map((l) => [l.dependency, l.url, l.msg])).toEqual([
      ["nats", "nats://bus:***@127.0.0.1:1", "nats unreachable at nats://bus:***@127.0.0.1:1: giving up after 1200 ms (STARTUP_TIMEOUT_MS)"],
    ]);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it("does not wait for an attempt that hangs past the deadline", async () => {
    const { startup } = await open(1000);
    const started = Date.now();
    const err = await startup.require({ slow: { url: "redis://127.0.0.1:1", connect: () => new Promise(() => undefined) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("retries an optional dependency in the background without holding start-up, and reports it once reachable", async () => {
    const { startup, lines } = await open(5000, { initialDelayMs: 50 });
    let up = false;
    startup.optional({
      redis: {
        url: `redis://:${PASSWORD}@127.0.0.1:1`,
        connect: async () => {
          if (!up) throw new Error("ECONNREFUSED");
        },
      },
    });
    expect(await startup.require({})).toEqual({});
    expect(lines.some((l) => l.msg === "connecting to redis at redis://:***@127.0.0.1:1 in the background (optional)")).toBe(true);
    // The first failure is logged at info (a background connection is often not up yet), the ones after it as warnings.
    for (let i = 0; i < 40 && lines.filter((l) => l.level === "warn").length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(lines.find((l) => l.attempt === 1)).toMatchObject({
      level: "info",
      msg: "redis not connected yet at redis://:***@127.0.0.1:1; checking again in 50 ms",
    });
    const warnings = lines.filter((l) => l.level === "warn");
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    for (const w of warnings) expect(String(w.msg)).toMatch(/^redis unreachable at redis:\/\/:\*\*\*@127\.0\.0\.1:1; running without it, retrying in \d+ ms$/);
    up = true;
    for (let i = 0; i < 50 && !lines.some((l) => l.msg === "redis reachable"); i++) await new Promise((r) => setTimeout(r, 50));
    expect(lines.some((l) => l.msg === "redis reachable")).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });
});
