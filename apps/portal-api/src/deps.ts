// The typed bag of dependencies every portal-api handler is built from.
import type { Bus } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { ServiceMetrics } from "@pointwise/metrics";
import type { Env } from "./env";
import type { TokenKeys } from "./keys";
import type { Mailer } from "./mailer";
import type { EvmChain } from "./wallet-evm";

/** Everything portal-api's handlers need; main.ts builds it, tests build the same against real services. */
export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** NATS, connected in the background: redemptions announce score changes on it (best effort). */
  bus: Bus;
  keys: TokenKeys;
  mailer: Mailer;
  /** The chain contract wallets are checked on (PORTAL_EVM_RPC_URL), or null. */
  chain: EvmChain | null;
  /** The default bad-word list (BAD_WORDS_FILE), read once at start. */
  badWords: readonly string[];
  /** The app's Prometheus metrics, served on /metrics (main.ts sets it). */
  metrics?: ServiceMetrics;
}
