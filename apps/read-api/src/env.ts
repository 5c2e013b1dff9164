// read-api configuration: the zod schema of its environment variables, parsed once at start.
import path from "node:path";
import { envVars, parseEnv, redisEnv, serviceEnv } from "@pointwise/config";
import { z } from "zod";
import { DEFAULT_PORTAL_MAX_AGE_S } from "./jwt";

const baseUrl = z
  .url()
  .refine((v) => /^https?:\/\//.test(v), { message: "must be an http:// or https:// URL" })
  .transform((v) => v.replace(/\/+$/, ""));

// Operators often paste a PEM into one line with literal "\n"; accept both forms.
const pem = z
  .string()
  .transform((v) => v.replace(/\\n/g, "\n").trim())
  .refine((v) => v.startsWith("-----BEGIN PUBLIC KEY-----") || v.startsWith("-----BEGIN RSA PUBLIC KEY-----"), {
    message: "must be a PEM public key (-----BEGIN PUBLIC KEY-----)",
  });

/** read-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  ...redisEnv,
  PORT: envVars.port(4002),
  HOST: envVars.host(),
  /** How long a built leaderboard, around-me or score response is served from the cache (ms). */
  CACHE_TTL_MS: envVars.int(1000, 600_000, 60_000),
  /** How long the last good copy of each response is kept to answer while PostgreSQL is down (ms). */
  STALE_TTL_MS: envVars.int(1000, 7 * 86_400_000, 3_600_000),
  /** How long a resolved API key is trusted in-process before it is looked up again (revocation delay, ms). */
  API_KEY_CACHE_MS: envVars.int(0, 300_000, 10_000),
  /** Base of avatar URLs for users with a linked X account: `{AVATAR_PROXY_URL}/x/<username>`. */
  AVATAR_PROXY_URL: baseUrl.default("https://avatars.pointwise.example"),
  /** Generated SVG avatar for everyone else: `{GENERATED_AVATAR_URL}?seed=<seed>`. */
  GENERATED_AVATAR_URL: baseUrl.default("https://avatars.pointwise.example/svg"),
  /** File with the default bad words (one per line, `#` comments); campaigns add their own. */
  BAD_WORDS_FILE: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "data", "bad-words.txt")),
  /** Shared secret of portal JWTs signed with HS256 (at least 32 characters). */
  PORTAL_JWT_SECRET: envVars.secret(32).optional(),
  /** PEM public key of portal JWTs signed with RS256 (RSA key) or ES256 (P-256 key). */
  PORTAL_JWT_PUBLIC_KEY: pem.optional(),
  /** The portal's published keys (portal-api's `/.well-known/jwks.json`): ES256 or RS256 tokens naming a `kid` of this set are accepted. */
  PORTAL_JWKS_URL: baseUrl.optional(),
  /** The `iss` every portal JWT must carry. */
  PORTAL_JWT_ISSUER: z.string().min(1).default("pointwise-portal"),
  /** The `aud` every portal JWT must carry. */
  PORTAL_JWT_AUDIENCE: z.string().min(1).default("pointwise-read-api"),
  /** The longest life a portal JWT may claim (exp - iat, or exp - now without iat); longer ones are refused (seconds). */
  PORTAL_JWT_MAX_AGE_S: envVars.int(60, 30 * 86_400, DEFAULT_PORTAL_MAX_AGE_S),
  /** Browser origins allowed to call the API (CORS): comma-separated exact origins, or `*` for any. */
  CORS_ALLOWED_ORIGINS: envVars.corsOrigins(),
  /** A streaming replica to read from while it keeps up (unset or empty: every read goes to DATABASE_URL). */
  DATABASE_READ_URL: z.preprocess((v) => (v === "" ? undefined : v), envVars.url(["postgres", "postgresql"], { socket: true }).optional()),
  /** The most replication lag at which reads still go to the replica (ms); beyond it they go to the primary. */
  READ_REPLICA_MAX_LAG_MS: envVars.int(0, 600_000, 10_000),
  /** How often the replica's lag is measured (ms). */
  READ_REPLICA_CHECK_MS: envVars.int(100, 60_000, 1000),
});

/** read-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
