// Test fixtures for config validation: a registry of two test adapters, a valid base config and a helper that breaks one rule.
import { z } from "zod";
import { defineAdapter } from "../adapter";
import { type ConfigResult, validateConfig } from "../config/validate";
import { AdapterRegistry } from "../registry";

/** A config open to any edit, so a test can break one rule at a time. */
// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary parts of a config to break one rule at a time.
export type Config = Record<string, any>;

/** The token address the base config's adapter params and its one feed rule name. */
export const TOKEN = "0x1111111111111111111111111111111111111111";

const holdTest = defineAdapter({
  id: "hold-test",
  version: "1.0.0",
  description: "test adapter with a required token and a defaulted activity",
  paramsSchema: z.object({ token: z.string().regex(/^0x[0-9a-f]{40}$/, "must be a lowercase address"), activity: z.string().default("hold") }).strict(),
  create: () => ({ filters: [], contracts: [], handle: () => [] }),
});

const noParams = defineAdapter({
  id: "no-params",
  version: "1.0.0",
  description: "test adapter that takes no params",
  paramsSchema: z.object({}).strict(),
  create: () => ({ filters: [], contracts: [], handle: () => [] }),
});

/** A registry with `hold-test` (params `token`, `activity` default `hold`) and `no-params`. */
export const registry = new AdapterRegistry([holdTest, noParams]);

/** A fresh valid config using every top-level field. */
export function base(): Config {
  return {
    kind: "evm",
    indexerId: "my-indexer",
    flushMs: 3_600_000,
    stateStoreUrl: "redis://127.0.0.1:6379",
    network: { chainId: 1, gatewayUrl: "https://gateway.example.org", rpcUrl: "https://rpc.example.org" },
    range: { fromBlock: 100, toBlock: 200 },
    pricingRange: { type: "block", fromBlock: 150 },
    sinkConfig: { sinks: [{ sinkType: "stdout", json: true }] },
    adapterConfig: { adapterId: "hold-test", params: { token: TOKEN } },
    assetFeedConfig: [{ match: { key: TOKEN }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } }],
  };
}

/** Validates the base config after `edit`. */
export function validateEdited(edit: (c: Config) => void): ConfigResult {
  const config = base();
  edit(config);
  return validateConfig(config, registry);
}

/** Applies `edit` to a fresh valid config and returns the messages of the issues found. */
export function messages(edit: (c: Config) => void): string[] {
  const result = validateEdited(edit);
  return result.ok ? [] : result.issues.map((i) => i.message);
}
