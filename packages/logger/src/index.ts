// The pino JSON logger every service uses, with credentials and key-bearing URLs redacted.
import pino, { type Logger } from "pino";

export type { Logger } from "pino";

/** Paths whose values never reach a log line: credentials and anything that can carry one. */
export const REDACT_PATHS = [
  "apiKey",
  "api_key",
  "token",
  "jwt",
  "password",
  "secret",
  "rpcUrl",
  "authorization",
  "*.apiKey",
  "*.api_key",
  "*.token",
  "*.password",
  "*.secret",
  "*.rpcUrl",
  "*.authorization",
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "headers.authorization",
  "headers['x-api-key']",
];

// The user part of a URL (`redis://:s3cret@`, `nats://token@`, up to the last `@` before its path, so a password
// holding an `@` goes whole) and secret query values (`?password=s3cret`).
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** A query parameter whose name matches this holds a secret (`?password=`, `?api_key=`, `?token=`): its value is never logged. */
export const SECRET_PARAM_NAME = /pass|secret|token|key/i;
const SECRET_QUERY = new RegExp(`([?&][^=&\\s]*(?:${SECRET_PARAM_NAME.source})[^=&\\s]*=)[^&\\s"']*`, "gi");

/** `text` with the credentials of any URL in it replaced by `***`. */
export function scrubUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, "$1***@").replace(SECRET_QUERY, "$1***");
}

/**
 * pino's error serializer, made safe to log: an error's `input` (Node's URL parser and fetch keep the whole URL
 * there, credentials and all) is never printed, and credentials of URLs in its message, stack or other text fields
 * are masked, in its causes too.
 */
export function serializeError(err: unknown): unknown {
  const seen = new WeakSet<object>();
  const scrub = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return scrubUrlCredentials(value);
    if (typeof value !== "object" || value === null || depth > 8 || seen.has(value)) return value;
    seen.add(value);
    if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = key === "input" ? "[redacted]" : scrub(v, depth + 1);
    return out;
  };
  // The standard serializer returns what is not error-like as it is (an error of another realm, such as Node's own
  // URL TypeError seen from a vm context, is still error-like).
  return scrub(typeof err === "object" && err !== null ? pino.stdSerializers.err(err as Error) : err, 0);
}

/** Options for a service logger. */
export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/** Creates the JSON logger of one service: `log.info({ campaign_id }, "message")`. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      serializers: { err: serializeError },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
