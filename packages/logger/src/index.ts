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
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
