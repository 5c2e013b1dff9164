// The worker's settings, read from the environment once at start.
import { envVars, parseEnv, serviceEnv, streamEnv } from "@pointwise/config";
import { z } from "zod";

const int = envVars.int;

/** scoring-worker settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  ...streamEnv,
  /** Port of the worker's health endpoints (/healthz, /readyz). */
  PORT: envVars.port(4004),
  HOST: envVars.host(),
  /** Name of the durable JetStream consumer; replicas share it. */
  CONSUMER_NAME: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .default("scoring"),
  /** Messages staged into the inbox per transaction. */
  BATCH_SIZE: int(1, 10_000, 500),
  /** Inbox rows applied (logged and scored) per transaction. */
  APPLY_BATCH_SIZE: int(1, 100_000, 1000),
  /** How often the applier looks at the inbox when nothing wakes it (ms). */
  APPLY_IDLE_MS: int(10, 10_000, 200),
  /** How long one pull request of the consumer stays open (ms). */
  FETCH_EXPIRES_MS: int(1000, 60_000, 5000),
  ACK_WAIT_MS: int(1000, 600_000, 30_000),
  /** Failed attempts (deliveries) after which an event that cannot be applied goes to the dead-letter table. */
  MAX_DELIVER: int(1, 100, 5),
  /** Delay before a failed message is redelivered, and before retrying after a transient failure (ms). */
  RETRY_DELAY_MS: int(10, 60_000, 500),
  /** Log events per recompute chunk (one transaction each). */
  RECOMPUTE_CHUNK: int(1, 100_000, 5000),
  /** How often a worker looks for queued recompute jobs (ms). */
  RECOMPUTE_POLL_MS: int(50, 60_000, 1000),
  /** How long a recompute claim lasts without progress before another replica may take the job over (ms). */
  RECOMPUTE_LEASE_MS: int(1000, 3_600_000, 60_000),
});

/** scoring-worker settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
