// Environment parsing shared by every app: one zod parse at start, shared variable shapes, typed errors.
import { ConfigError } from "@pointwise/errors";
import { z } from "zod";

export { loadBadWords } from "./bad-words";

/**
 * Parses an app's environment against its schema, once, at start.
 * On failure it throws a ConfigError whose message names every bad variable and why.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    const missing = issue.code === "invalid_type" && env[String(issue.path[0])] === undefined;
    return missing ? `${name} is required` : `${name}: ${issue.message}`;
  });
  // One rule can fail twice (a port of 1e20 is both no whole number and too large): each message is said once.
  throw new ConfigError(`Invalid environment: ${[...new Set(problems)].join("; ")}`);
}

/** What a browser origin looks like: scheme, host and port only (`https://portal.example.com`). */
function asOrigin(entry: string): string | null {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(entry)) return null;
  try {
    // URL.origin lowercases the host and drops a default port, as browsers write the Origin header.
    return new URL(entry).origin;
  } catch {
    return null;
  }
}

/**
 * Words and shapes of values copied from documentation or example files (`change-me`, `your-key`, `<api key>`,
 * `xxxxxx`, ...): never a real key or secret, so they are refused up front rather than failing later, or working
 * where nobody meant them to.
 */
const PLACEHOLDER = /example|replace[_-]?with|your[_-]|change[_-]?me|placeholder|do[_-]?not[_-]?use|<[^>]+>|x{6,}/i;

/** True when a key, secret or URL is an example placeholder rather than a real one. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** `scheme://` or `a://, b://` for a message. */
const schemesText = (schemes: string[]) => schemes.map((s) => `${s}://`).join(" or ");

/**
 * True when the host of `entry` does not follow its `//` as written (`https:///v2/key`, `http://\host`): for the
 * special schemes (http, https, ws, wss, ftp) the WHATWG parser skips slashes, backslashes, tabs and line breaks there
 * and takes the host from what comes next, so `https:///v2/key` would reach the host `v2`. Other schemes (nats, redis,
 * postgres, smtp) read an empty host there, which urlProblem refuses, or takes for a socket.
 */
const hostNotAsWritten = (entry: string) => /^[^:]*:\/\/[\s/\\]/.test(entry);

/** Schemes whose URLs the WHATWG parser reads with the host-skipping rules of hostNotAsWritten. */
const SPECIAL_SCHEMES = new Set(["http", "https", "ws", "wss", "ftp"]);

/** The rule a URL of `schemes` that does not parse or names no host breaks, showing the URL's shape. */
function shapeRule(schemes: string[]): string {
  const shown = schemes.length === 2 && schemes[1] === `${schemes[0]}s` ? `${schemes[0]}(s)` : schemes.join("|");
  return `must be a well-formed URL with a host: ${shown}://host[:port][/path]`;
}

/**
 * What is wrong with one connection URL, or null when nothing is. The message names the rule and never the value,
 * which may hold a password or a key.
 */
function urlProblem(entry: string, schemes: string[], socket: boolean): string | null {
  if (!schemes.some((s) => entry.startsWith(`${s}://`))) return `must be a URL starting with ${schemesText(schemes)}`;
  let parsed: URL;
  try {
    parsed = new URL(entry);
  } catch {
    return "must be a well-formed URL: no spaces or other characters a host cannot hold, and a port from 1 to 65535";
  }
  if (parsed.port === "0") return "must have a port from 1 to 65535";
  // A PostgreSQL socket URL names no TCP host: postgres:///db?host=/var/run/postgresql.
  if (parsed.hostname === "" && !socket) return "must name a host";
  if (SPECIAL_SCHEMES.has(parsed.protocol.slice(0, -1)) && hostNotAsWritten(entry)) return shapeRule(schemes);
  return null;
}

/** Options of a single URL's check. */
export interface HostUrlOptions {
  /**
   * Refuse a URL holding a user name or password, telling the user to send the key in this setting instead: for a
   * client built on fetch, which refuses such a URL with an error quoting it whole, password and all.
   */
  keyIn?: string;
}

/**
 * What is wrong with a single URL of one of `schemes` by the rules of `envVars.url` (parsed, a host as written, a port
 * from 1 to 65535) and `options`, or null when nothing is: another scheme is
 * named as such, credentials refused by `keyIn` as such, any other problem shows the URL's shape. The message never
 * repeats the value, which may hold a key or a password.
 */
export function hostUrlProblem(value: string, schemes: string[], options: HostUrlOptions = {}): string | null {
  const problem = urlProblem(value, schemes, false);
  if (!schemes.some((s) => value.startsWith(`${s}://`))) return problem;
  if (problem !== null) return shapeRule(schemes);
  if (options.keyIn !== undefined) {
    const { username, password } = new URL(value);
    if (username !== "" || password !== "") return `must not hold a user name or password: send the key in ${options.keyIn}`;
  }
  return null;
}

/** An empty value means the variable is unset: a shell line `X=` clears a setting rather than setting it to 0. */
const emptyAsUnset = (v: unknown) => (v === "" ? undefined : v);

/**
 * A whole number from `min` to `max`, with messages that say the rule. Checked with Number.isInteger rather than .int(),
 * which calls a number past 2^53 "not a whole number" where the problem is its size; an infinite one is past its bound.
 */
function wholeNumber(min: number, max: number) {
  return z.coerce
    .number({
      error: (issue) =>
        issue.input === Number.POSITIVE_INFINITY
          ? `must be at most ${max}`
          : issue.input === Number.NEGATIVE_INFINITY
            ? `must be at least ${min}`
            : "must be a whole number",
    })
    .refine(Number.isInteger, "must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
}

/**
 * Refinement options that run a cross-variable check only when each of `names` parsed, so the check still reports
 * when some other variable is malformed (zod skips refinements of an object with any failed field by default).
 */
export function whenParsed(...names: string[]): z.core.$ZodSuperRefineParams {
  return { when: (payload) => !payload.issues.some((issue) => names.includes(String(issue.path?.[0]))) };
}

/** Common variable shapes, so every app spells them the same way. */
export const envVars = {
  /** Browser origins allowed by CORS: comma-separated exact origins, or `*` alone for any; empty for none. */
  corsOrigins: () =>
    z
      .string()
      .default("")
      .transform((value, ctx): string[] | "*" => {
        const entries = value
          .split(",")
          .map((e) => e.trim())
          .filter((e) => e !== "");
        if (entries.includes("*")) {
          if (entries.length > 1) ctx.addIssue({ code: "custom", message: "must be * alone or a list of origins, not both" });
          return "*";
        }
        const origins: string[] = [];
        for (const entry of entries) {
          const origin = asOrigin(entry);
          if (origin === null)
            ctx.addIssue({ code: "custom", message: `${entry} is not an origin: write scheme, host and port only, e.g. https://portal.example.com` });
          else origins.push(origin);
        }
        return origins;
      }),
  /** A TCP port to listen on; unset or empty: `fallback`. */
  port: (fallback: number) => z.preprocess(emptyAsUnset, wholeNumber(1, 65535).default(fallback)),
  /** A whole number from `min` to `max`; unset or empty: `fallback` (every app's numeric settings, so `X=` means the default everywhere). */
  int: (min: number, max: number, fallback: number) => z.preprocess(emptyAsUnset, wholeNumber(min, max).default(fallback)),
  /** The address to listen on; an empty one (which would listen on every interface) is refused. */
  host: (fallback = "127.0.0.1") => z.string().trim().min(1, "must not be empty").default(fallback),
  /** A port that may be left out (unset or empty: undefined); anything else but a port reads `must be a port from 1 to 65535`. */
  optionalPort: () => {
    const rule = "must be a port from 1 to 65535";
    return z.preprocess(emptyAsUnset, z.coerce.number(rule).int(rule).min(1, rule).max(65535, rule).optional());
  },
  /**
   * A connection URL of one of `schemes` that the WHATWG parser reads, with a host (unless `socket`: PostgreSQL's
   * `postgres:///db?host=/var/run/postgresql`) and a port from 1 to 65535; an http(s), ws(s) or ftp URL's host must
   * follow its `//` as written (hostNotAsWritten). With `list`, a comma-separated list of such URLs (NATS_URL's servers), each checked.
   * Its messages never repeat the value, which may hold a password or a key.
   */
  url: (schemes: string[], options: { list?: boolean; socket?: boolean } = {}) =>
    z.string().superRefine((v, ctx) => {
      const entries = options.list ? v.split(",").map((e) => e.trim()) : [v];
      entries.forEach((entry, i) => {
        const problem = urlProblem(entry, schemes, options.socket ?? false);
        if (problem === null) return;
        const which = entries.length > 1 ? `server ${i + 1} of ${entries.length}: ` : "";
        ctx.addIssue({ code: "custom", message: entry === "" ? `${which}must not be empty` : `${which}${problem}` });
      });
    }),
  /** A single URL checked by hostUrlProblem, for a client that takes exactly one. */
  hostUrl: (schemes: string[], options: HostUrlOptions = {}) =>
    z.string().superRefine((v, ctx) => {
      const problem = hostUrlProblem(v, schemes, options);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
  logLevel: () => {
    const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
    return z.enum(levels, `must be one of ${levels.join(", ")}`).default("info");
  },
  /** A database schema name (tests give each run its own); plain identifier only. */
  dbSchema: () =>
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase SQL identifier")
      .default("public"),
  /** A prefix for NATS streams/subjects and Redis keys so several deployments share one server. */
  namespace: () =>
    z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,31}$/, "must be lowercase letters, digits or _")
      .default("pointwise"),
  /** A secret of at least `minLength` characters that is not an example value. */
  secret: (minLength: number) =>
    z
      .string()
      .min(minLength, `must be at least ${minLength} characters`)
      .refine((v) => !isPlaceholder(v), {
        message: "must not be an example value (change-me, your-..., <...>): make a random one, e.g. `openssl rand -hex 32`",
      }),
  /** A secret checked by `problem` (which names what is wrong, or returns null/undefined when it is fine), refused with `must not be ...` style messages. */
  checked: (problem: (value: string) => string | null | undefined) =>
    z.string().superRefine((v, ctx) => {
      const why = problem(v);
      if (why) ctx.addIssue({ code: "custom", message: why });
    }),
  /** An EVM private key (0x and 64 hex digits) that `unsafe` does not call a test or made-up key. */
  privateKey: (unsafe: (key: string) => string | undefined) =>
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a private key: 0x and 64 hex digits")
      .superRefine((v, ctx) => {
        const why = unsafe(v);
        if (why) ctx.addIssue({ code: "custom", message: `must not be ${why}` });
      }),
  /** An EVM address: 0x and 40 hex digits. */
  evmAddress: () => z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address: 0x and 40 hex digits"),
  /** A chain id that may be left out (unset or empty: undefined, like every numeric variable): a whole number from 1. */
  chainId: () =>
    z.preprocess(emptyAsUnset, z.coerce.number({ message: "must be a chain id" }).int("must be a chain id").min(1, "must be a chain id").optional()),
  /**
   * How many proxies in front of a service to trust for the client's address (express's `trust proxy` hop count): `false`
   * (0, the socket's address), `true` (1) or a number from 0 to 10; the address is then X-Forwarded-For's entry that far
   * from the right.
   */
  trustProxy: () =>
    z
      .string()
      .default("false")
      .transform((value, ctx) => {
        const hops = value === "false" ? 0 : value === "true" ? 1 : /^(?:[0-9]|10)$/.test(value) ? Number(value) : undefined;
        if (hops === undefined) ctx.addIssue({ code: "custom", message: "must be false, true, or the number of proxies in front (0 to 10)" });
        return hops ?? 0;
      }),
  bool: (fallback: boolean) =>
    z
      .enum(["true", "false", "1", "0"])
      .default(fallback ? "true" : "false")
      .transform((v) => v === "true" || v === "1"),
};

/** The settings every service shares: where PostgreSQL and NATS are, how to log, how long start-up waits. */
export const serviceEnv = {
  DATABASE_URL: envVars.url(["postgres", "postgresql"], { socket: true }),
  DATABASE_SCHEMA: envVars.dbSchema(),
  NATS_URL: envVars.url(["nats", "tls"], { list: true }),
  NAMESPACE: envVars.namespace(),
  LOG_LEVEL: envVars.logLevel(),
  /** How long start-up keeps retrying an unreachable required dependency before the process exits 1 (ms). */
  STARTUP_TIMEOUT_MS: envVars.int(1000, 3_600_000, 60_000),
};

/** Where Redis is, for the services that use it (ingest-api's rate limit, read-api's cache). */
export const redisEnv = {
  REDIS_URL: envVars.url(["redis", "rediss"]),
};

/** The raw event stream's replica count, for the services that create or update the stream. */
export const streamEnv = {
  /** Copies JetStream keeps of the raw event stream (unset: 3 on a cluster, 1 on a single server; an existing stream keeps its count). */
  STREAM_REPLICAS: z.preprocess(emptyAsUnset, wholeNumber(1, 5).optional()),
};
