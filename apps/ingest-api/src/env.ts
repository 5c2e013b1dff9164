// ingest-api configuration: the zod schema of its environment variables, parsed once at start.
import { envVars, parseEnv, redisEnv, serviceEnv, streamEnv, whenParsed } from "@pointwise/config";
import { z } from "zod";

const int = envVars.int;
const MiB = 1024 * 1024;

/** ingest-api settings; parsed once at start, read nowhere else. */
export const envSchema = z
  .object({
    ...serviceEnv,
    ...redisEnv,
    ...streamEnv,
    PORT: envVars.port(4001),
    HOST: envVars.host(),
    /** Largest body of `POST /api/rest/earn-event`, in bytes. */
    BODY_LIMIT_BYTES: int(1024, 50 * MiB, 64 * 1024),
    /** Largest body of `POST /api/rest/earn-events`, in bytes. */
    BATCH_BODY_LIMIT_BYTES: int(64 * 1024, 64 * MiB, 2 * MiB),
    /** Most events in one batch (the interface promises 1000). */
    BATCH_MAX_EVENTS: int(1, 1000, 1000),
    /** Rate limit per API key: events added to its bucket per second. */
    RATE_LIMIT_EVENTS_PER_SECOND: int(1, 10_000_000, 2000),
    /** Rate limit per API key: bucket size, the most events at once; at least BATCH_MAX_EVENTS so a full batch can pass. */
    RATE_LIMIT_BURST: int(1, 100_000_000, 5000),
    /** How long a publish waits for JetStream before answering bus-unavailable (ms). */
    PUBLISH_TIMEOUT_MS: int(100, 60_000, 3000),
    /** How long a resolved API key or event type is trusted before it is looked up again (ms); a revocation takes effect within this. */
    LOOKUP_CACHE_MS: int(0, 60_000, 5000),
    /** `api_key.last_used_at` is written at most this often per key and replica (ms). */
    KEY_TOUCH_INTERVAL_MS: int(1000, 3_600_000, 60_000),
    /** How long a request waits for another one with the same Idempotency-Key before answering idempotency-key-in-progress (ms). */
    IDEMPOTENCY_WAIT_MS: int(0, 120_000, 10_000),
    /** How often expired Idempotency-Key records (older than 24 hours) are deleted (ms). */
    IDEMPOTENCY_PURGE_INTERVAL_MS: int(100, 86_400_000, 10 * 60 * 1000),
    /** Largest CSV upload, in bytes. */
    CSV_MAX_BYTES: int(1024, 16 * 1024 * MiB, 512 * MiB),
    /** Most data rows in one CSV upload. */
    CSV_MAX_ROWS: int(1, 100_000_000, 2_000_000),
    /** Folder for the temporary files of CSV imports (default: the OS temp folder). */
    CSV_SPOOL_DIR: z.string().min(1).optional(),
    /** How long a CSV import keeps retrying publishes while the bus is away (ms). */
    CSV_PUBLISH_RETRY_MS: int(0, 600_000, 30_000),
    /** How far ahead of the service's clock an event's occurred_at may be (client clock skew), in ms. */
    OCCURRED_AT_MAX_SKEW_MS: int(0, 86_400_000, 5 * 60_000),
    /** How far back an ordinary API key may report an event's occurred_at, in ms; a key allowed to backfill may go back to the campaign's start. */
    OCCURRED_AT_MAX_AGE_MS: int(60_000, 366 * 86_400_000, 86_400_000),
    /** Serve Prometheus metrics on GET /metrics. */
    METRICS: envVars.bool(true),
  })
  .superRefine(
    (env, ctx) => {
      if (env.RATE_LIMIT_BURST < env.BATCH_MAX_EVENTS) {
        ctx.addIssue({
          code: "custom",
          path: ["RATE_LIMIT_BURST"],
          message: `must be at least BATCH_MAX_EVENTS (${env.BATCH_MAX_EVENTS}) so a full batch can pass`,
        });
      }
    },
    whenParsed("RATE_LIMIT_BURST", "BATCH_MAX_EVENTS"),
  );

/** ingest-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
