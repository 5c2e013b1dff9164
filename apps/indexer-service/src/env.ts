// indexer-service configuration: env schemas for every command and for a deployed `run`.
import { envVars, parseEnv } from "@pointwise/config";
import { ConfigError } from "@pointwise/errors";
import { z } from "zod";

/** A whole number of at least 1 with no bound of its own: at most 2^53 - 1. */
const positiveInt = (fallback: number) => envVars.int(1, Number.MAX_SAFE_INTEGER, fallback);
/**
 * An http(s) endpoint by the rule of the config's URLs: a host written right after the `//`, not one the parser takes
 * from the path. With `keyIn`, for an endpoint requested through fetch, a user name or password is refused, naming
 * `keyIn` as where the key goes: fetch refuses such a URL with an error quoting it whole.
 */
const endpointUrl = (keyIn?: string) => envVars.hostUrl(["http", "https"], { keyIn });
/** The longest poll interval: an hour (Node's timers fire at once past 2^31 - 1 ms, about 24.8 days). */
export const MAX_POLL_INTERVAL_MS = 3_600_000;

/** Settings every command reads. */
const baseSchema = z.object({
  LOG_LEVEL: envVars.logLevel(),
});

/**
 * Settings of a deployed indexer run. POINTWISE_API_KEY, RPC_URL and PRICE_API_KEY are required, and the config
 * comes from INDEXER_CONFIG (base64 of `.pointwise.json`), INDEXER_CONFIG_FILE or `run --config <file>`.
 */
export const runSchema = baseSchema.extend({
  POINTWISE_API_KEY: z.string().min(1, "must not be empty"),
  INDEXER_CONFIG: z.string().min(1, "must not be empty").optional(),
  INDEXER_CONFIG_FILE: z.string().min(1, "must not be empty").optional(),
  RPC_URL: endpointUrl(),
  PRICE_API_KEY: z.string().min(1, "must not be empty"),
  PRICE_API_URL: endpointUrl("PRICE_API_KEY").default("https://api.coingecko.com/api/v3"),
  PRICE_API_RATE_PER_MINUTE: positiveInt(30),
  STATE_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, "must be 1 to 32 letters, digits, '_' or '-'")
    .default("pw"),
  INDEXER_MAX_BLOCK_RANGE: positiveInt(2_000),
  INDEXER_INITIAL_BLOCK_RANGE: positiveInt(500),
  INDEXER_POLL_INTERVAL_MS: envVars.int(1, MAX_POLL_INTERVAL_MS, 4_000),
  INDEXER_PROGRESS: z.enum(["auto", "bar", "log", "off"]).default("auto"),
  /** Port of /healthz, /readyz and /metrics while running; unset: no port. */
  METRICS_PORT: envVars.optionalPort(),
  /** Address that port listens on (0.0.0.0 in a container). */
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  INDEXER_RPC_CONCURRENCY: envVars.int(1, 64, 8),
  INDEXER_RPC_RPS: envVars.int(0, 100_000, 0),
  INDEXER_RPC_BATCH_SIZE: envVars.int(1, 1_000, 100),
  INDEXER_RPC_READ_AHEAD: envVars.int(1, 64, 4),
  INDEXER_RPC_WHOLE_BLOCK_TXS: envVars.int(0, 1_000, 16),
  INDEXER_RPC_TIMEOUT_MS: envVars.int(1_000, 600_000, 30_000),
  INDEXER_RPC_MAX_ATTEMPTS: envVars.int(1, 100, 5),
});

/** Environment of any command. */
export type BaseEnv = z.output<typeof baseSchema>;
/** Environment of `run`. */
export type RunEnv = z.output<typeof runSchema>;

/** The config `validate` reads when it is given no file: INDEXER_CONFIG (base64 of `.pointwise.json`), if set. */
export function configFromEnv(source: Record<string, string | undefined> = process.env): string | undefined {
  return source.INDEXER_CONFIG || undefined;
}

/**
 * The log level to report start-up with: LOG_LEVEL when it is valid, else `info`, so that a bad LOG_LEVEL is itself
 * logged (by loadRunEnv's error, beside every other bad variable) rather than thrown before a logger exists.
 */
export function startupLogLevel(source: Record<string, string | undefined> = process.env): BaseEnv["LOG_LEVEL"] {
  const parsed = baseSchema.safeParse(source);
  return parsed.success ? parsed.data.LOG_LEVEL : "info";
}

/** Parses the environment of a run once; missing or malformed variables throw one ConfigError naming each. */
export function loadRunEnv(source: Record<string, string | undefined> = process.env, configFlag?: string): RunEnv {
  const configMissing = configFlag === undefined && source.INDEXER_CONFIG === undefined && source.INDEXER_CONFIG_FILE === undefined;
  const missingConfig = "INDEXER_CONFIG is required";
  let env: RunEnv;
  try {
    env = parseEnv(runSchema, source);
  } catch (err) {
    if (configMissing && err instanceof ConfigError) throw new ConfigError(`${err.message}; ${missingConfig}`);
    throw err;
  }
  if (configMissing) throw new ConfigError(`Invalid environment: ${missingConfig}`);
  return env;
}
