import { envVars, parseEnv, serviceEnv } from "@pointwise/config";
import { z } from "zod";

/** read-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  PORT: envVars.port(4002),
  HOST: z.string().default("127.0.0.1"),
  /** How long a built leaderboard or score response is served from the cache (ms). */
  CACHE_TTL_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /** Base of avatar URLs for users with a linked X account: `{AVATAR_PROXY_URL}/x/<username>`. */
  AVATAR_PROXY_URL: z.url().default("https://avatars.pointwise.example"),
  /** Generated SVG avatar for everyone else: `{GENERATED_AVATAR_URL}?seed=<seed>`. */
  GENERATED_AVATAR_URL: z.url().default("https://avatars.pointwise.example/svg"),
});

/** read-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
