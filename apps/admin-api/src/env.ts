// admin-api configuration: the zod schema of its environment variables, parsed once at start.
import path from "node:path";
import { voucherKeyProblem } from "@pointwise/auth";
import { whyUnsafeKey } from "@pointwise/claims";
import { envVars, parseEnv, serviceEnv, streamEnv, whenParsed } from "@pointwise/config";
import { z } from "zod";

const baseUrl = z
  .url()
  .refine((v) => /^https?:\/\//.test(v), { message: "must be an http:// or https:// URL" })
  .transform((v) => v.replace(/\/+$/, ""));

/** admin-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  ...streamEnv,
  PORT: envVars.port(4003),
  HOST: envVars.host(),
  /** HS256 secret for operator session tokens; at least 32 characters. */
  ADMIN_JWT_SECRET: envVars.secret(32),
  /** Life of an operator session token: sessions are signed for this long, and tokens claiming a longer life are refused (seconds). */
  ADMIN_SESSION_MAX_AGE_S: envVars.int(60, 30 * 86_400, 12 * 3600),
  /** The first operator of the demo project, created at start when absent. */
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: envVars.secret(12).optional(),
  ADMIN_PROJECT_NAME: z.string().default("Demo project"),
  /** Password checks one e-mail gets per sign-in window; further attempts get 429 until it ends. */
  ADMIN_SIGN_IN_ATTEMPTS: envVars.int(1, 1000, 5),
  /** Sign-ins one client address gets per sign-in window, whatever e-mails they name; further attempts get 429 until it ends. */
  ADMIN_SIGN_IN_ATTEMPTS_PER_IP: envVars.int(1, 100_000, 30),
  /** Length of the sign-in window, which starts at its first attempt (seconds). */
  ADMIN_SIGN_IN_WINDOW_S: envVars.int(1, 86_400, 900),
  /**
   * How many proxies in front append to X-Forwarded-For: the client address sign-ins are counted by is the entry the
   * outermost of them wrote, counted from the right. `false`/`0`: the socket's address; `true`: one proxy.
   */
  ADMIN_TRUST_PROXY: envVars.trustProxy(),
  /** The ingest API as integrators reach it; the dashboard puts it into its ready-made curl command. */
  INGEST_PUBLIC_URL: baseUrl.default("http://127.0.0.1:4001"),
  /** The public read API, shown in the dashboard next to the leaderboard preview. */
  READ_API_URL: baseUrl.default("http://127.0.0.1:4002"),
  /** A dry run replays the whole campaign log in memory twice; larger logs are refused. */
  DRY_RUN_MAX_EVENTS: envVars.int(1, 5_000_000, 200_000),
  /** Key the voucher codes are encrypted under at rest (64 hex digits; portal-api needs the same to show a code to its owner). */
  VOUCHER_CODE_KEY: envVars.checked(voucherKeyProblem).optional(),
  /** JSON-RPC URL of the chain the claim contract is on (token-claim epochs are published there). */
  CLAIMS_RPC_URL: envVars.url(["http", "https"]).optional(),
  /** Address of the PointwiseClaims contract (npm run claims:deploy). */
  CLAIMS_CONTRACT: envVars.evmAddress().optional(),
  /** Chain id of that chain; checked against the RPC before a root is published. */
  CLAIMS_CHAIN_ID: envVars.chainId(),
  /** Private key of the contract's owner, which publishes epoch roots. */
  CLAIMS_PUBLISHER_KEY: envVars.privateKey(whyUnsafeKey).optional(),
  /** File with the default bad words (one per line, `#` comments) operator-set display names are checked against; the read API's list unless set. */
  BAD_WORDS_FILE: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "..", "read-api", "data", "bad-words.txt")),
  /** The built dashboard (vite output) served at `/`. */
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "web", "dist")),
  /** The OpenAPI document served at /api/openapi.yaml. */
  OPENAPI_FILE: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "..", "..", "docs", "api", "admin.openapi.yaml")),
});

/** admin-api settings. */
export type Env = z.infer<typeof envSchema>;

// The claim settings only work together: all four or none.
const CLAIMS_SETTINGS = ["CLAIMS_RPC_URL", "CLAIMS_CONTRACT", "CLAIMS_CHAIN_ID", "CLAIMS_PUBLISHER_KEY"] as const;
const withClaims = envSchema.superRefine(
  (env, ctx) => {
    const given = CLAIMS_SETTINGS.filter((k) => env[k] !== undefined);
    if (given.length === 0 || given.length === CLAIMS_SETTINGS.length) return;
    for (const k of CLAIMS_SETTINGS.filter((k) => env[k] === undefined))
      ctx.addIssue({ code: "custom", path: [k], message: `is required with ${given.join(", ")} (the claim settings go together)` });
  },
  // Presence is all it reads, so it waits on no variable parsing and runs whatever else failed: a malformed claim setting still counts as given.
  whenParsed(),
);

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(withClaims, env);
}
