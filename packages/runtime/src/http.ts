// The HTTP shell every service shares: request logs, /healthz and /readyz, error mapping to statuses.
import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { AuthError, BaseError, ConflictError, NotFoundError, RateLimitError, RetryableError, ValidationError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import type { ServiceMetrics } from "@pointwise/metrics";
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { unstorableTextPath } from "./body";
import { plainIssue } from "./plain-issues";

/** A dependency `/readyz` checks: PostgreSQL, Redis, NATS, ... */
export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
  /** The app serves without it: while it fails `/readyz` still answers 200, with status `degraded`. */
  optional?: boolean;
}

/**
 * How long `/readyz` waits for one check. A client reconnecting to a dependency that is gone can
 * hold a request for many seconds; an orchestrator's probe must still get an answer, and a
 * dependency that does not answer in time is not ready.
 */
export const READINESS_CHECK_TIMEOUT_MS = 1000;

function withinDeadline(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

/** Options of an HTTP app shell. */
export interface HttpAppOptions {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** The app's metrics: when given, every request is counted and timed and `GET /metrics` serves them. */
  metrics?: ServiceMetrics;
  /**
   * How many proxies in front append to X-Forwarded-For (a `*_TRUST_PROXY` setting): `clientAddress` is then the entry
   * the outermost of them wrote, counted from the right. 0 or absent: the connection's address.
   */
  trustProxy?: number;
}

/** The client's address as the app's `trustProxy` says: the connection's, or a trusted proxy's X-Forwarded-For entry. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** The HTTP status for a typed error, by its class. */
export function httpStatusOf(err: BaseError): number {
  if (err instanceof ValidationError) return 400;
  if (err instanceof AuthError) return err.code === "forbidden" ? 403 : 401;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof ConflictError) return 409;
  if (err instanceof RateLimitError) return 429;
  if (err instanceof RetryableError) return 503;
  return 500;
}

/** Parses `value` with a zod schema; on failure (or a string with U+0000) throws a ValidationError naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  // No text column can hold U+0000: refused here, named, rather than failing the query that stores it.
  const nul = unstorableTextPath(value);
  if (nul) {
    const field = nul.join(".");
    throw new ValidationError(`${field ? `${field}: ` : ""}must not contain the character U+0000`, field ? { field } : {});
  }
  const result = schema.safeParse(value, { error: plainIssue });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : undefined;
  // Only a request body can be of the wrong type as a whole (a query is always an object): name it. Express leaves the
  // body undefined when it was not sent as JSON.
  if (issue?.code === "invalid_type" && field === undefined)
    throw new ValidationError(value === undefined ? "body: must be a JSON object, sent with Content-Type: application/json" : `body: ${issue.message}`);
  const message = issue ? (field ? `${field}: ${issue.message}` : issue.message) : "invalid input";
  throw new ValidationError(message, field === undefined ? {} : { field });
}

/** Sends the error body of the REST endpoints other than ingest: `{ "error": { "code", "message" } }`. */
export function sendError(res: Response, status: number, code: string, message: string): void {
  if (!res.headersSent) res.status(status).json({ error: { code, message } });
}

/**
 * One `request` line per answered request at info level. With info lines off (as under load) it adds
 * nothing to a request: no clock read and no `finish` listener.
 */
function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (!logger.isLevelEnabled("info")) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      if (req.path === "/healthz" || req.path === "/readyz") return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  };
}

/**
 * An express app with request logs, `/healthz` (the process is alive) and `/readyz` (200 `ready` when
 * every dependency answers, 200 `degraded` when only optional ones fail, 503 `unavailable` when a
 * required one fails; `checks` names each) and, with `metrics`, `/metrics` (Prometheus). Routes are added
 * by the caller; call `finish(app)` last.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  // A hop count, never `true`: trusting every hop would take the left-most X-Forwarded-For entry, which the client writes.
  if (options.trustProxy !== undefined && options.trustProxy > 0) app.set("trust proxy", options.trustProxy);
  app.use(requestLog(options.logger));
  const { metrics } = options;
  if (metrics !== undefined) {
    app.use(metrics.httpMiddleware());
    metrics.watchDependencies(options.readiness, READINESS_CHECK_TIMEOUT_MS);
    app.get("/metrics", async (_req, res) => {
      const { contentType, body } = await metrics.scrape();
      res.setHeader("Content-Type", contentType);
      res.send(body);
    });
  }
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const results = await Promise.all(options.readiness.map(async (c) => [c.name, await withinDeadline(c.check())] as const));
    const optional = new Set(options.readiness.filter((c) => c.optional).map((c) => c.name));
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    const unavailable = failing.some((name) => !optional.has(name));
    const status = unavailable ? "unavailable" : failing.length ? "degraded" : "ready";
    res.status(unavailable ? 503 : 200).json({ status, checks: Object.fromEntries(results) });
  });
  return app;
}

/** Options of the last handlers of an HTTP app. */
export interface FinishOptions {
  /**
   * The error that answers a path parameter that is not valid percent-encoding (`/users/%ZZ/scores`):
   * express fails to decode it while matching the route, before any handler (or parser of the
   * parameter) runs. Without it such a request is answered `400 validation-failed` naming the path segment. It may
   * set headers on `res`.
   */
  malformedPathParam?(req: Request, res: Response): BaseError;
}

/** True for the error express raises when a path parameter is not valid percent-encoding (a URIError it gave status 400). */
export function isMalformedPathParam(err: unknown): boolean {
  return err instanceof URIError && (err as URIError & { status?: unknown }).status === 400;
}

/** `400 validation-failed` naming the first segment of the request's path that is not valid percent-encoding. */
function malformedSegment(req: Request): ValidationError {
  const segment =
    req.path.split("/").find((s) => {
      try {
        decodeURIComponent(s);
        return false;
      } catch {
        return true;
      }
    }) ?? req.path;
  const shown = segment.length > 64 ? `${segment.slice(0, 64)}...` : segment;
  return new ValidationError(`path segment ${JSON.stringify(shown)} is not valid percent-encoding`, { code: "validation-failed" });
}

/**
 * Adds the 404 and last-resort error handlers: a typed error is answered with its status and code, an
 * unexpected error is logged and answered 500 without details, and a path parameter that cannot be
 * decoded as `options.malformedPathParam` says (else `400 validation-failed` naming the segment).
 */
export function finishHttpApp(app: Express, logger: Logger, options: FinishOptions = {}): Express {
  app.use((_req, res) => sendError(res, 404, "not-found", "no such endpoint"));
  const onError: ErrorRequestHandler = (caught, req, res, _next) => {
    const err = isMalformedPathParam(caught) ? (options.malformedPathParam?.(req, res) ?? malformedSegment(req)) : caught;
    if (err instanceof BaseError) {
      const status = httpStatusOf(err);
      if (status >= 500) logger.error({ err }, "request failed");
      if (err instanceof RateLimitError && !res.headersSent) res.set("Retry-After", String(err.retryAfterSeconds));
      // A 500 is a fault of ours, not an answer: its text (a PostgreSQL message, a stack's detail) stays in the log.
      if (status === 500) sendError(res, 500, "internal", "internal error");
      else sendError(res, status, err.code, err.message);
      return;
    }
    const status = typeof err?.status === "number" && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) logger.error({ err }, "unhandled error");
    sendError(
      res,
      status,
      status === 500 ? "internal" : String(err?.type ?? "bad-request"),
      status === 500 ? "internal error" : String(err?.message ?? "bad request"),
    );
  };
  app.use(onError);
  return app;
}

/** Listens on host:port and resolves once the socket is bound. */
export function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
    server.keepAliveTimeout = 65_000;
    trackConnections(server);
  });
}

/** The open connections of each tracked server, and whether it is closing. */
const servers = new WeakMap<Server, { sockets: Set<Socket>; closing: boolean }>();

/**
 * The response a connection is writing now, if any. Node keeps it on the socket (the field its own
 * `closeIdleConnections` reads); no public API leads from a connection to its response, and reaching it
 * from the request instead would cost a listener on every request.
 */
function responseOn(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/** Ends `res`'s connection once `res` is sent: with `Connection: close` while it can still say so, else by closing it when idle. */
function closeAfter(server: Server, res: ServerResponse): void {
  if (!res.headersSent) {
    // Node closes the connection itself after a response that says so.
    res.setHeader("Connection", "close");
    return;
  }
  // Already sent with keep-alive: the connection is idle once the response is done, and an idle connection is closed at once.
  res.once("close", () => server.closeIdleConnections());
}

/**
 * Lets `closeServer` end keep-alive connections that are busy when it is called: it keeps the server's
 * open connections, so that at close the response each is writing is answered with `Connection: close`
 * and its connection ends right after. Without it a connection busy at `close` stays open for
 * `keepAliveTimeout` and holds `close` that long. It tracks connections, not requests: a request costs it nothing.
 */
export function trackConnections(server: Server): void {
  if (servers.has(server)) return;
  const state = { sockets: new Set<Socket>(), closing: false };
  servers.set(server, state);
  server.on("connection", (socket: Socket) => {
    state.sockets.add(socket);
    socket.once("close", () => state.sockets.delete(socket));
  });
}

/**
 * Stops accepting connections, closes idle keep-alive connections, and waits for requests in flight: each
 * is answered (with `Connection: close` on a server `listen` or `trackConnections` set up) and its
 * connection closed once it is sent, so close resolves as soon as the last answer is out. A request whose
 * headers were still arriving at close is answered the same way.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const state = servers.get(server);
    // Stops accepting and closes every connection that is idle now.
    server.close(() => resolve());
    if (!state || state.closing) return;
    state.closing = true;
    // A request that arrives on an open connection from now on (its headers were still arriving) is answered as its last.
    server.prependListener("request", (_req, res: ServerResponse) => closeAfter(server, res));
    for (const socket of state.sockets) {
      const res = responseOn(socket);
      if (res) closeAfter(server, res);
    }
  });
}
