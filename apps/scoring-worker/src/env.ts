import { envVars, parseEnv, serviceEnv } from "@pointwise/config";
import { z } from "zod";

/** scoring-worker settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  /** Port of the worker's health endpoints (/healthz, /readyz). */
  PORT: envVars.port(4004),
  HOST: z.string().default("127.0.0.1"),
  /** Name of the durable JetStream consumer; replicas share it. */
  CONSUMER_NAME: z.string().regex(/^[a-z0-9_-]+$/).default("scoring"),
  BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  /** How long one fetch waits for messages before returning a short batch (ms). */
  FETCH_EXPIRES_MS: z.coerce.number().int().min(1000).max(60_000).default(1000),
  ACK_WAIT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Deliveries after which a message that keeps failing goes to the dead-letter table. */
  MAX_DELIVER: z.coerce.number().int().min(1).max(100).default(5),
});

/** scoring-worker settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
