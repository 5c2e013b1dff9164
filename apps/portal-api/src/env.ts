// portal-api configuration: the zod schema of its environment variables, parsed once at start.
import path from "node:path";
import { voucherKeyProblem } from "@pointwise/auth";
import { whyUnsafeKey } from "@pointwise/claims";
import { envVars, parseEnv, serviceEnv, whenParsed } from "@pointwise/config";
import { z } from "zod";

const baseUrl = z
  .url()
  .refine((v) => /^https?:\/\//.test(v), { message: "must be an http:// or https:// URL" })
  .transform((v) => v.replace(/\/+$/, ""));

// Operators often paste a PEM into one line with literal "\n"; accept both forms. Several keys follow each other.
const privateKeys = z
  .string()
  .transform((v) => v.replace(/\\n/g, "\n").trim())
  .transform((v) => v.match(/-----BEGIN (?:EC )?PRIVATE KEY-----[\s\S]+?-----END (?:EC )?PRIVATE KEY-----/g) ?? [])
  .refine((keys) => keys.length > 0, { message: "must hold at least one PEM private key (-----BEGIN PRIVATE KEY-----)" });

const chainIds = z
  .string()
  .default("1")
  .transform((v) => v.split(",").map((s) => s.trim()))
  .refine((ids) => ids.every((id) => /^[1-9][0-9]{0,15}$/.test(id)), { message: "must be a comma-separated list of chain ids (whole numbers from 1)" })
  .transform((ids) => ids.map(Number));

const seconds = envVars.int;

/** The OAuth providers a participant may link, with their endpoints (the provider's own unless given). */
export const OAUTH_PROVIDERS = {
  x: {
    identityType: "X_PROVIDER_ID",
    authorize_url: "https://x.com/i/oauth2/authorize",
    token_url: "https://api.x.com/2/oauth2/token",
    userinfo_url: "https://api.x.com/2/users/me",
    scope: "users.read tweet.read",
  },
  discord: {
    identityType: "DISCORD_PROVIDER_ID",
    authorize_url: "https://discord.com/oauth2/authorize",
    token_url: "https://discord.com/api/oauth2/token",
    userinfo_url: "https://discord.com/api/users/@me",
    scope: "identify",
  },
  github: {
    identityType: "GITHUB_PROVIDER_ID",
    authorize_url: "https://github.com/login/oauth/authorize",
    token_url: "https://github.com/login/oauth/access_token",
    userinfo_url: "https://api.github.com/user",
    scope: "read:user",
  },
} as const;

/** A provider this service can link: x, discord or github. */
export type OAuthProviderName = keyof typeof OAUTH_PROVIDERS;

const providerSettings = z.strictObject({
  client_id: z.string().min(1, "must not be empty"),
  client_secret: z.string().min(1).optional(),
  authorize_url: baseUrl.optional(),
  token_url: baseUrl.optional(),
  userinfo_url: baseUrl.optional(),
  scope: z.string().min(1).optional(),
});

// One JSON object, so a provider's settings (and its secret) travel together: {"github": {"client_id": ...}}.
const oauthProviders = z
  .string()
  .default("{}")
  .transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON object" });
      return z.NEVER;
    }
  })
  .pipe(z.strictObject({ x: providerSettings.optional(), discord: providerSettings.optional(), github: providerSettings.optional() }));

/** portal-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  PORT: envVars.port(4005),
  HOST: envVars.host(),
  /** P-256 private keys (PEM, PKCS#8 or SEC1) that sign portal tokens (ES256): the first signs, all are published in the JWKS. */
  PORTAL_SIGNING_KEYS: privateKeys,
  /** The `iss` of issued tokens; the read API's PORTAL_JWT_ISSUER must be the same. */
  PORTAL_JWT_ISSUER: z.string().min(1).default("pointwise-portal"),
  /** The `aud` of issued tokens; the read API's PORTAL_JWT_AUDIENCE must be the same. */
  PORTAL_JWT_AUDIENCE: z.string().min(1).default("pointwise-read-api"),
  /** Life of an access token (seconds). */
  PORTAL_ACCESS_TOKEN_TTL_S: seconds(60, 86_400, 900),
  /** Life of a session and its refresh token, from sign-in (seconds). */
  PORTAL_SESSION_TTL_S: seconds(300, 90 * 86_400, 30 * 86_400),
  /** The domain (host[:port]) sign-in messages must name: the portal's own, as the wallet shows it. */
  PORTAL_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:[0-9]{1,5})?$/, "must be a host name with an optional :port, without scheme")
    .default("127.0.0.1:4005"),
  /** EVM chain ids a sign-in message may name. */
  PORTAL_EVM_CHAIN_IDS: chainIds,
  /** Solana clusters a sign-in message's Chain ID may name. */
  PORTAL_SOLANA_CLUSTERS: z
    .string()
    .default("mainnet")
    .transform((v) => v.split(",").map((s) => s.trim()))
    .refine((ids) => ids.every((id) => /^[a-z][a-z0-9-]{0,31}$/.test(id)), {
      message: "must be a comma-separated list of cluster names (mainnet, devnet, ...)",
    }),
  /** JSON-RPC URL of the chain smart-contract wallets (EIP-1271) are checked on; without it only key-held wallets sign in. */
  PORTAL_EVM_RPC_URL: envVars.url(["http", "https"]).optional(),
  /** How long a wallet nonce may be used, and the longest a sign-in message may live (seconds). */
  PORTAL_NONCE_TTL_S: seconds(30, 3600, 300),
  /** How long an e-mail code may be used (seconds). */
  PORTAL_EMAIL_CODE_TTL_S: seconds(60, 3600, 600),
  /** Wrong entries one e-mail code survives before it is void. */
  PORTAL_EMAIL_CODE_ATTEMPTS: envVars.int(1, 20, 5),
  /** How codes are sent: `log` writes them to the service log (development), `smtp` sends them through PORTAL_SMTP_URL. */
  PORTAL_MAILER: z.enum(["log", "smtp"], { message: "must be log or smtp" }).default("log"),
  /** The SMTP server of PORTAL_MAILER=smtp: `smtp://user:password@host:587` or `smtps://...:465`. */
  PORTAL_SMTP_URL: envVars.url(["smtp", "smtps"]).optional(),
  /** The sender of code mails (PORTAL_MAILER=smtp), e.g. `Season 1 <no-reply@example.com>`. */
  PORTAL_MAIL_FROM: z.string().min(3).optional(),
  /** Sign-in and code attempts one client IP address gets per window. */
  PORTAL_ATTEMPTS_PER_IP: envVars.int(1, 100_000, 60),
  /** Sign-in and code attempts one identity (wallet or e-mail) gets per window. */
  PORTAL_ATTEMPTS_PER_IDENTITY: envVars.int(1, 10_000, 10),
  /** Length of an attempt window, which starts at its first attempt (seconds). */
  PORTAL_ATTEMPT_WINDOW_S: seconds(1, 86_400, 900),
  /**
   * How many proxies in front append to X-Forwarded-For: the client address is the entry the outermost of them
   * wrote, counted from the right, never one the client could write itself. `false`/`0`: the socket's address;
   * `true`: one proxy.
   */
  PORTAL_TRUST_PROXY: envVars.trustProxy(),
  /** Most wallets (EVM and Solana together) one user may hold. */
  PORTAL_MAX_WALLETS: envVars.int(1, 100, 11),
  /** Most accounts of one social provider (X, Discord, GitHub) one user may hold. */
  PORTAL_MAX_ACCOUNTS_PER_PROVIDER: envVars.int(1, 10, 1),
  /** File with the default bad words (one per line, `#` comments), the read API's list unless set. */
  BAD_WORDS_FILE: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "..", "read-api", "data", "bad-words.txt")),
  /** Public URL of this service; OAuth providers call back to `{PORTAL_PUBLIC_URL}/oauth/<provider>/callback`. */
  PORTAL_PUBLIC_URL: baseUrl.default("http://127.0.0.1:4005"),
  /** OAuth clients, as JSON: {"x"|"discord"|"github": {client_id, client_secret, authorize_url, token_url, userinfo_url, scope}}. */
  PORTAL_OAUTH_PROVIDERS: oauthProviders,
  /** Browser origins allowed to call the API (CORS): comma-separated exact origins, or `*` for any. */
  CORS_ALLOWED_ORIGINS: envVars.corsOrigins(),
  /** The read API as the participant page's browser reaches it, for the user's own scores (allow this service's origin in its CORS_ALLOWED_ORIGINS). */
  PORTAL_READ_API_URL: baseUrl.default("http://127.0.0.1:4002"),
  /** The participant page served at `/` (static files). */
  PORTAL_WEB_DIR: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "web")),
  /** Key of the voucher codes at rest (64 hex digits, the same as admin-api's): shows a voucher redemption's code to its owner. */
  VOUCHER_CODE_KEY: envVars.checked(voucherKeyProblem).optional(),
  /** Address of the PointwiseClaims contract participants claim from (proofs and burn vouchers name it). */
  CLAIMS_CONTRACT: envVars.evmAddress().optional(),
  /** Chain id of the claim contract's chain (part of a burn voucher's EIP-712 domain). */
  CLAIMS_CHAIN_ID: envVars.chainId(),
  /** Private key of the contract's voucher signer: signs burn vouchers of burn-voucher rewards. */
  CLAIMS_VOUCHER_SIGNER_KEY: envVars.privateKey(whyUnsafeKey).optional(),
  /** How long a burn voucher may be redeemed after it is signed (seconds). */
  CLAIMS_VOUCHER_TTL_S: seconds(60, 365 * 86_400, 7 * 86_400),
  /** The OpenAPI document served at /openapi.yaml. */
  OPENAPI_FILE: z
    .string()
    .min(1)
    .default(path.join(__dirname, "..", "..", "..", "docs", "api", "portal.openapi.yaml")),
});

// Settings that only matter together: the voucher signer needs its contract and chain, the SMTP mailer its server
// and sender. Each check runs when the variables it reads parsed, so it is reported next to any other bad variable.
const withMailer = envSchema
  .superRefine(
    (env, ctx) => {
      if (env.CLAIMS_VOUCHER_SIGNER_KEY && (!env.CLAIMS_CONTRACT || !env.CLAIMS_CHAIN_ID))
        ctx.addIssue({ code: "custom", path: ["CLAIMS_CONTRACT"], message: "CLAIMS_CONTRACT and CLAIMS_CHAIN_ID are required with CLAIMS_VOUCHER_SIGNER_KEY" });
    },
    whenParsed("CLAIMS_VOUCHER_SIGNER_KEY", "CLAIMS_CONTRACT", "CLAIMS_CHAIN_ID"),
  )
  .superRefine(
    (env, ctx) => {
      if (env.PORTAL_MAILER !== "smtp") return;
      if (!env.PORTAL_SMTP_URL) ctx.addIssue({ code: "custom", path: ["PORTAL_SMTP_URL"], message: "is required when PORTAL_MAILER is smtp" });
      if (!env.PORTAL_MAIL_FROM) ctx.addIssue({ code: "custom", path: ["PORTAL_MAIL_FROM"], message: "is required when PORTAL_MAILER is smtp" });
    },
    whenParsed("PORTAL_MAILER", "PORTAL_SMTP_URL", "PORTAL_MAIL_FROM"),
  );

/** portal-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(withMailer, env);
}
