// The shared HTTP app: one request log line per answer (none for health checks), typed errors as statuses, and how close drains connections.
import { createServer, type Server } from "node:http";
import net from "node:net";
import { Writable } from "node:stream";
import { AuthError, BaseError, ConflictError, NotFoundError, RateLimitError, RetryableError, ValidationError } from "@pointwise/errors";
import { createLogger } from "@pointwise/logger";
import { waitUntil } from "@pointwise/testkit";
import { clientAddress, closeServer, createHttpApp, finishHttpApp, listen } from "./index";

function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { lines, logger: createLogger({ service: "t", level, destination: stream }) };
}

describe("request log", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(level: string) {
    const { lines, logger } = captured(level);
    const app = createHttpApp({ logger, readiness: [] });
    let finishListeners = -1;
    app.get("/things", (_req, res) => {
      finishListeners = res.listenerCount("finish");
      res.json({ ok: true });
    });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    return { lines, logger, base, finishListeners: () => finishListeners };
  }

  const settle = () => new Promise((r) => setImmediate(r));

  it("writes one line per answered request at info level, but none for health checks", async () => {
    const { lines, base } = await serve("info");
    expect((await fetch(`${base}/things`)).status).toBe(200);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await settle();
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.map((l) => [l.method, l.path, l.status])).toEqual([
      ["GET", "/things", 200],
      ["GET", "/nowhere", 404],
    ]);
    expect(typeof requests[0]?.ms).toBe("number");
  });

  it("adds nothing to a request while info lines are off, and logs again once they are on", async () => {
    const { lines, logger, base, finishListeners } = await serve("warn");
    expect((await fetch(`${base}/things`)).status).toBe(200);
    await settle();
    expect(lines.filter((l) => l.msg === "request")).toEqual([]);
    const quiet = finishListeners();
    logger.level = "info";
    expect((await fetch(`${base}/things`)).status).toBe(200);
    await settle();
    expect(finishListeners()).toBe(quiet + 1);
    expect(lines.filter((l) => l.msg === "request")).toHaveLength(1);
  });
});

describe("clientAddress", () => {
  let server: Server | undefined;
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = server;
      server = undefined;
      running ? running.close(() => resolve()) : resolve();
    });
  afterEach(stop);

  /** An app answering each request with the address clientAddress reads, behind `trustProxy` proxies. */
  async function serve(trustProxy?: number) {
    const { logger } = captured("silent");
    const app = createHttpApp({ logger, readiness: [], ...(trustProxy === undefined ? {} : { trustProxy }) });
    app.get("/who", (req, res) => {
      res.json({ address: clientAddress(req) });
    });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    return async (forwardedFor?: string) => {
      const res = await fetch(`${base}/who`, forwardedFor === undefined ? {} : { headers: { "x-forwarded-for": forwardedFor } });
      return ((await res.json()) as { address: string }).address;
    };
  }

  it("is the connection's address without trustProxy, or with 0, whatever X-Forwarded-For says", async () => {
    for (const hops of [undefined, 0]) {
      const who = await serve(hops);
      expect([await who(), await who("198.51.100.7")]).toEqual(["127.0.0.1", "127.0.0.1"]);
      await stop();
    }
  });

  it("is the entry `trustProxy` places from the right of X-Forwarded-For, never one the client wrote in front of it", async () => {
    const one = await serve(1);
    // The client wrote 203.0.113.1 itself; the one proxy appended the address it saw, 198.51.100.7.
    expect(await one("203.0.113.1, 198.51.100.7")).toBe("198.51.100.7");
    expect(await one("198.51.100.7")).toBe("198.51.100.7");
    await stop();
    const two = await serve(2);
    // A CDN appended the client's address, then the load balancer appended the CDN's.
    expect(await two("203.0.113.1, 198.51.100.7, 192.0.2.10")).toBe("198.51.100.7");
  });
});

describe("typed errors", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("answers each error class with its status and code, and a rate limit with Retry-After", async () => {
    const { logger } = captured("silent");
    const app = createHttpApp({ logger, readiness: [] });
    const errors: Record<string, Error> = {
      validation: new ValidationError("amount: must not be negative"),
      auth: new AuthError("unauthenticated", "sign in first"),
      forbidden: new AuthError("forbidden", "not yours"),
      missing: new NotFoundError("no such campaign"),
      conflict: new ConflictError("campaign-exists", "taken"),
      limited: new RateLimitError("too-many-attempts", "slow down", 42),
      down: new RetryableError("bus-unavailable", "try later"),
    };
    app.get("/throw/:kind", (req) => {
      throw errors[req.params.kind as string];
    });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const answers: Record<string, [number, string, string | null]> = {};
    for (const kind of Object.keys(errors)) {
      const res = await fetch(`${base}/throw/${kind}`);
      const body = (await res.json()) as { error: { code: string } };
      answers[kind] = [res.status, body.error.code, res.headers.get("retry-after")];
    }
    expect(answers).toEqual({
      validation: [400, "validation-failed", null],
      auth: [401, "unauthenticated", null],
      forbidden: [403, "forbidden", null],
      missing: [404, "not-found", null],
      conflict: [409, "campaign-exists", null],
      limited: [429, "too-many-attempts", "42"],
      down: [503, "bus-unavailable", null],
    });
  });

  it("answers a typed error without a client-facing status as a bare 500, keeping its text for the log", async () => {
    const { logger, lines } = captured("error");
    const app = createHttpApp({ logger, readiness: [] });
    app.get("/broken", () => {
      throw new BaseError("database-error", 'relation "secret_table" does not exist');
    });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    const res = await fetch(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/broken`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "internal", message: "internal error" } });
    expect(JSON.stringify(lines)).toContain("secret_table");
  });

  it("answers a path parameter that is not valid percent-encoding with 400 validation-failed naming the segment, or with the error the app names for it", async () => {
    const { logger } = captured("silent");
    const serveWith = async (options?: Parameters<typeof finishHttpApp>[2]) => {
      const app = createHttpApp({ logger, readiness: [] });
      app.get("/things/:thing_id", (req, res) => {
        res.json({ thing_id: req.params.thing_id });
      });
      const s = await listen(finishHttpApp(app, logger, options), 0, "127.0.0.1");
      const address = s.address();
      return { s, base: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
    };
    const answer = async (base: string, path: string) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: await res.json(), marked: res.headers.get("x-marked") };
    };
    const plain = await serveWith();
    server = plain.s;
    expect(await answer(plain.base, "/things/%ZZ")).toEqual({
      status: 400,
      body: { error: { code: "validation-failed", message: 'path segment "%ZZ" is not valid percent-encoding' } },
      marked: null,
    });
    await new Promise<void>((resolve) => plain.s.close(() => resolve()));
    const named = await serveWith({
      malformedPathParam: (_req, res) => {
        res.setHeader("X-Marked", "yes");
        return new ValidationError("thing_id must be a uuid", { field: "thing_id", code: "invalid-thing-id" });
      },
    });
    server = named.s;
    for (const path of ["/things/%ZZ", "/things/%E0%A4%A"]) {
      expect(await answer(named.base, path)).toEqual({
        status: 400,
        body: { error: { code: "invalid-thing-id", message: "thing_id must be a uuid" } },
        marked: "yes",
      });
    }
    // A decodable parameter, and a path no route with parameters matches, are not touched.
    expect(await answer(named.base, "/things/%41")).toEqual({ status: 200, body: { thing_id: "A" }, marked: null });
    expect((await answer(named.base, "/elsewhere/%ZZ")).status).toBe(404);
  });

  it("answers /readyz when a check hangs, counting that dependency as down", async () => {
    const { logger } = captured("silent");
    const app = createHttpApp({
      logger,
      readiness: [
        { name: "postgres", check: async () => true },
        { name: "nats", check: () => new Promise<boolean>(() => undefined) },
      ],
    });
    server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const address = server.address();
    // Without the deadline this request would wait for ever (and the test time out).
    const res = await fetch(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", checks: { postgres: true, nats: false } });
  });
});

describe("closeServer", () => {
  const portOf = (s: Server) => {
    const address = s.address();
    return typeof address === "object" && address ? address.port : 0;
  };

  async function connect(s: Server): Promise<{ socket: net.Socket; received(): string; closed: Promise<void> }> {
    const socket = net.connect(portOf(s), "127.0.0.1");
    let data = "";
    socket.on("data", (chunk: Buffer) => {
      data += chunk.toString("latin1");
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    return { socket, received: () => data, closed };
  }

  const until = (condition: () => boolean) => waitUntil(condition, 10_000, "the answer on the socket");

  it("tracks connections, not requests: a response carries no listener that a bare Node server does not add", async () => {
    const { logger } = captured("warn");
    const app = createHttpApp({ logger, readiness: [] });
    const counts: Record<string, number>[] = [];
    app.get("/things", (_req, res) => {
      counts.push({ close: res.listenerCount("close"), finish: res.listenerCount("finish") });
      res.json({ ok: true });
    });
    finishHttpApp(app, logger);
    const tracked = await listen(app, 0, "127.0.0.1");
    const bare = createServer(app);
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", () => resolve()));
    try {
      for (const s of [tracked, bare]) {
        // Two requests on one keep-alive connection: the second shows what a request costs once its connection is set up.
        const { socket, received } = await connect(s);
        for (const n of [2, 3]) {
          socket.write("GET /things HTTP/1.1\r\nHost: x\r\n\r\n");
          await until(() => received().split('{"ok":true}').length === n);
        }
        socket.destroy();
      }
      expect(counts).toHaveLength(4);
      expect(counts.slice(0, 2)).toEqual(counts.slice(2));
    } finally {
      await closeServer(tracked);
      bare.closeAllConnections();
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });

  it("closes a keep-alive connection that is idle at close, and resolves without waiting for its client", async () => {
    const { logger } = captured("silent");
    const app = createHttpApp({ logger, readiness: [] });
    const server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const { socket, received, closed } = await connect(server);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await until(() => received().includes('{"status":"ok"}'));
    expect(received()).toMatch(/connection: keep-alive/i);
    // The client never closes its side; without the server closing it, close would wait out keepAliveTimeout (65 s).
    await closeServer(server);
    await closed;
  });

  it("ends a keep-alive connection whose answer was already being sent at close, once that answer is complete", async () => {
    const { logger } = captured("silent");
    const app = createHttpApp({ logger, readiness: [] });
    let finish: () => void = () => undefined;
    app.get("/stream", (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("first;");
      finish = () => res.end("last");
    });
    const server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
    const { socket, received, closed } = await connect(server);
    socket.write("GET /stream HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await until(() => received().includes("first;"));
    // Its headers went out saying keep-alive, before close was asked for.
    expect(received()).toMatch(/connection: keep-alive/i);
    const stopped = closeServer(server);
    finish();
    await closed;
    await stopped;
    // The whole chunked body, up to its last (empty) chunk, arrived before the connection ended.
    expect(received()).toContain("last");
    expect(received().endsWith("0\r\n\r\n")).toBe(true);
  });
});
