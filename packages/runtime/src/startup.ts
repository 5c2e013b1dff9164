// How every service starts: its port answers at once (alive, not ready) while dependencies are reached with backoff, up to a deadline.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { BaseError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { closeServer, trackConnections } from "./http";
import { maskUrl, secretsOf } from "./mask";

/** A dependency to reach at start: where it is (logged masked) and one bounded attempt to reach it. */
export interface Dependency<T = unknown> {
  url: string;
  /** One attempt that fails within a few seconds when the dependency cannot be reached; resolves with its handle. */
  connect(): Promise<T>;
}

/** Options of a service's start-up. */
export interface StartupOptions {
  /** The service's name, as in its log lines and in the `starting` answer. */
  name: string;
  logger: Logger;
  port: number;
  host: string;
  /** How long required dependencies may stay unreachable before start-up gives up (STARTUP_TIMEOUT_MS). */
  timeoutMs: number;
  /** The wait after a first failed attempt (ms); it doubles after each further one. */
  initialDelayMs?: number;
  /** The longest wait between attempts at a required dependency (ms). */
  maxDelayMs?: number;
  /** The longest wait between attempts at an optional dependency, retried for as long as the service runs (ms). */
  maxOptionalDelayMs?: number;
  /**
   * Answers a request the app's own way while it is starting (an API whose contract fixes its status
   * and body, such as ingest's 200 envelope); returns false to leave it to the default 503 `starting`.
   */
  answerWhileStarting?(req: IncomingMessage, res: ServerResponse, message: string): boolean;
}

/** A service being started: its port already answers `/healthz` 200, `/readyz` 503 and everything else 503 `starting`. */
export interface Startup {
  /** `http://host:port` of the listening server. */
  url: string;
  /**
   * Reaches every dependency, retrying each with exponential backoff, and resolves with their handles
   * by name. At the start-up deadline it logs a fatal line per dependency still unreachable and
   * rejects with StartupTimeoutError (code `startup-timeout`).
   */
  require<D extends Record<string, Dependency>>(dependencies: D): Promise<{ [K in keyof D]: Awaited<ReturnType<D[K]["connect"]>> }>;
  /**
   * Dependencies the service runs without: each is tried in the background with backoff (no deadline)
   * until it answers; each failure is logged at warn. Their handles must already work while disconnected.
   */
  optional(dependencies: Record<string, Dependency>): void;
  /** Hands the listening server to the real app: every request from now on goes to `handler`. */
  serve(handler: RequestListener): void;
  /** Stops the background attempts and closes the server (waiting for requests in flight). */
  close(): Promise<void>;
}

/** Start-up gave up: a required dependency stayed unreachable until the deadline. */
export class StartupTimeoutError extends BaseError {
  /** The dependencies still unreachable, by name. */
  readonly dependencies: string[];
  constructor(message: string, dependencies: string[]) {
    super("startup-timeout", message);
    this.dependencies = dependencies;
  }
}

const sleep = (ms: number, unref = false) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });

/** A driver's error as one line, without any secret of the dependency's URL. */
function describe(err: unknown, url: string): string {
  const cause = err instanceof BaseError && err.cause !== undefined ? err.cause : err;
  const parts = [err, cause].map((e) => (e instanceof Error ? e.message || e.name : String(e)));
  let text = parts[0] === parts[1] ? String(parts[0]) : `${parts[0]}: ${parts[1]}`;
  for (const secret of secretsOf(url)) text = text.split(secret).join("***");
  return text;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Opens the service's port at once and returns its start-up: while dependencies are reached the port
 * answers `GET /healthz` 200 (alive), `GET /readyz` 503 naming what it waits for, and any other
 * request 503 `starting`; `serve(app)` then hands the same server to the app.
 */
export async function openStartup(options: StartupOptions): Promise<Startup> {
  const { name, logger, timeoutMs } = options;
  const initialDelay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5000;
  const maxOptionalDelay = options.maxOptionalDelayMs ?? 30_000;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  // What /readyz reports while starting: every dependency and whether it answered; the required ones not yet reached.
  const checks: Record<string, boolean> = {};
  const waiting = new Set<string>();
  let closed = false;

  const starting: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") return sendJson(res, 200, { status: "ok" });
    if (path === "/readyz") return sendJson(res, 503, { status: "starting", waiting: [...waiting], checks });
    const what = waiting.size > 0 ? `waiting for ${[...waiting].join(", ")}` : "almost ready";
    const message = `${name} is starting (${what}); try again shortly`;
    if (options.answerWhileStarting?.(req, res, message) === true) return;
    sendJson(res, 503, { error: { code: "starting", message } }, { "retry-after": "1" });
  };
  let handler: RequestListener = starting;
  const server: Server = createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 65_000;
  trackConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = `http://${options.host}:${options.port}`;
  logger.info({ url, startup_timeout_ms: timeoutMs }, `${name} starting: /healthz and /readyz answer on ${url}`);

  const delayAfter = (attempt: number, cap: number) => Math.min(initialDelay * 2 ** (attempt - 1), cap);

  return {
    url,
    async require(dependencies) {
      const entries = Object.entries(dependencies);
      for (const [dep, { url: target }] of entries) {
        checks[dep] = false;
        waiting.add(dep);
        logger.info({ dependency: dep, url: maskUrl(target), required: true }, `waiting for ${dep} at ${maskUrl(target)}`);
      }
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<"expired">((resolve) => {
        timer = setTimeout(() => resolve("expired"), Math.max(0, deadline - Date.now()));
      });
      const lastError: Record<string, string> = {};
      const attempts: Record<string, number> = {};
      const reach = async ([dep, { url: target, connect }]: [string, Dependency]): Promise<unknown> => {
        for (let attempt = 1; ; attempt++) {
          attempts[dep] = attempt;
          const tried = connect().then(
            (value) => ({ ok: true as const, value }),
            (err: unknown) => ({ ok: false as const, err }),
          );
          const outcome = await Promise.race([tried, expired]);
          if (outcome === "expired") return expired;
          if (outcome.ok) {
            waiting.delete(dep);
            checks[dep] = true;
            logger.info({ dependency: dep, url: maskUrl(target), attempts: attempt, ms: Date.now() - startedAt }, `${dep} reachable`);
            return outcome.value;
          }
          lastError[dep] = describe(outcome.err, target);
          const delay = Math.min(delayAfter(attempt, maxDelay), Math.max(0, deadline - Date.now()));
          logger.warn(
            { dependency: dep, url: maskUrl(target), attempt, next_attempt_in_ms: delay, error: lastError[dep] },
            `${dep} unreachable at ${maskUrl(target)}; retrying in ${delay} ms`,
          );
          if ((await Promise.race([sleep(delay).then(() => "slept" as const), expired])) === "expired") return expired;
        }
      };
      const results = await Promise.all(entries.map(reach));
      clearTimeout(timer);
      if (waiting.size > 0) {
        const missing = entries.filter(([dep]) => waiting.has(dep));
        for (const [dep, { url: target }] of missing) {
          logger.fatal(
            { dependency: dep, url: maskUrl(target), startup_timeout_ms: timeoutMs, attempts: attempts[dep], error: lastError[dep] },
            `${dep} unreachable at ${maskUrl(target)}: giving up after ${timeoutMs} ms (STARTUP_TIMEOUT_MS)`,
          );
        }
        const named = missing.map(([dep, { url: target }]) => `${dep} (${maskUrl(target)})`).join(", ");
        throw new StartupTimeoutError(
          `start-up gave up after ${timeoutMs} ms waiting for ${named}`,
          missing.map(([dep]) => dep),
        );
      }
      return Object.fromEntries(entries.map(([dep], i) => [dep, results[i]])) as never;
    },
    optional(dependencies) {
      for (const [dep, { url: target, connect }] of Object.entries(dependencies)) {
        checks[dep] = false;
        const masked = maskUrl(target);
        logger.info({ dependency: dep, url: masked, required: false }, `connecting to ${dep} at ${masked} in the background (optional)`);
        void (async () => {
          for (let attempt = 1; !closed; attempt++) {
            try {
              await connect();
              checks[dep] = true;
              logger.info({ dependency: dep, url: masked, attempts: attempt, ms: Date.now() - startedAt }, `${dep} reachable`);
              return;
            } catch (err) {
              if (closed) return;
              const delay = delayAfter(attempt, maxOptionalDelay);
              const fields = { dependency: dep, url: masked, required: false, attempt, next_attempt_in_ms: delay, error: describe(err, target) };
              // A client that connects in the background is often not connected yet at the first check:
              // that is no news, so only a second failure in a row is worth a warning.
              if (attempt === 1) logger.info(fields, `${dep} not connected yet at ${masked}; checking again in ${delay} ms`);
              else logger.warn(fields, `${dep} unreachable at ${masked}; running without it, retrying in ${delay} ms`);
              await sleep(delay, true);
            }
          }
        })();
      }
    },
    serve(app) {
      handler = app;
    },
    async close() {
      closed = true;
      await closeServer(server);
    },
  };
}
