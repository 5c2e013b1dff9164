// Config hashes that decide when an indexer resumes its state and when it starts a fresh namespace.
import { createHash } from "node:crypto";
import type { IndexerConfig } from "./schema";

/** JSON with object keys sorted at every level, so equal configs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    // The default sort orders strings by UTF-16 code units, the same order on every machine and in every locale.
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** First 16 hex characters of the SHA-256 of the canonical JSON of `value`. */
export function shortHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/**
 * Hash of the parts of a config that decide what the indexer writes. Connection details (rpcUrl, gatewayUrl,
 * finality) and `range.toBlock` are left out so that changing them, or extending a finished range, resumes the
 * same state instead of starting over; anything else starts a fresh namespace.
 */
export function configHash(config: IndexerConfig): string {
  return shortHash({
    kind: config.kind,
    indexerId: config.indexerId,
    flushMs: config.flushMs,
    chainId: config.network.chainId,
    fromBlock: config.range.fromBlock ?? null,
    pricingRange: config.pricingRange ?? null,
    sinks: config.sinkConfig.sinks,
    adapter: config.adapterConfig,
    assetFeedConfig: config.assetFeedConfig,
  });
}

/** Hash of `{adapterId, params}`: the prefix of an adapter's own cache keys. */
export function adapterConfigHash(config: IndexerConfig): string {
  return shortHash(config.adapterConfig);
}
