import { envVars, parseEnv, serviceEnv } from "@pointwise/config";
import { z } from "zod";

/** ingest-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  PORT: envVars.port(4001),
  HOST: z.string().default("127.0.0.1"),
  /** Largest accepted request body, in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(64 * 1024),
  /** How long a publish waits for JetStream before answering bus-unavailable (ms). */
  PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** How long a resolved API key or event type is trusted before it is looked up again (ms). */
  LOOKUP_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
});

/** ingest-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
