// Test support for the indexer: configs, run environments, in-process runs with captured logs, cleanup.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import {
  type AdapterRegistry,
  type Checkpoint,
  configHash,
  type IndexerConfig,
  type IndexerConfigInput,
  type RunResult,
  StateStore,
  unwrapConfig,
  validateConfig,
} from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { createRegistry } from "../../src/adapters";
import { loadRunEnv, type RunEnv } from "../../src/env";
import { runIndexer } from "../../src/run";

/** The Redis the tests use. */
export const REDIS_URL = "redis://127.0.0.1:6379";

/** A unique id for a test's indexer, so its keys never meet another test's. */
export function uniqueId(label: string): string {
  return `t-${label}-${randomBytes(4).toString("hex")}`;
}

/** Collects JSON log lines written by a pino logger. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    for (const line of chunk.toString().split("\n")) if (line.trim() !== "") this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
  /** Messages logged, in order. */
  messages(): string[] {
    return this.lines.map((l) => String(l.msg));
  }
}

/** Validates a config with the service's registry, or another one (throws with every issue when invalid). */
export function buildConfig(input: IndexerConfigInput, registry: AdapterRegistry = createRegistry()): IndexerConfig {
  return unwrapConfig(validateConfig(input, registry));
}

/** A run environment for tests. */
export function testEnv(overrides: Record<string, string>): RunEnv {
  return loadRunEnv({
    POINTWISE_API_KEY: "pw_test_key",
    INDEXER_CONFIG_FILE: "/dev/null",
    PRICE_API_KEY: "price-test-key",
    STATE_KEY_PREFIX: "pwtest",
    LOG_LEVEL: "info",
    ...overrides,
  });
}

/** Runs the indexer in-process until the range is done (or caught up), capturing its logs. */
export async function runInProcess(
  config: IndexerConfig,
  env: RunEnv,
  options: {
    untilCaughtUp?: boolean;
    signal?: AbortSignal;
    logs?: LogCapture;
    registry?: AdapterRegistry;
    /** Retry settings instead of the quick-failing test defaults (a long run on a busy machine). */
    retries?: { rpcRetryBaseMs: number; rpcMaxAttempts: number };
  } = {},
): Promise<{ result: RunResult; logs: LogCapture }> {
  const logs = options.logs ?? new LogCapture();
  const logger = createLogger({ service: "indexer-service", level: "debug", destination: logs });
  const result = await runIndexer({
    env,
    config,
    registry: options.registry ?? createRegistry(),
    logger,
    signal: options.signal ?? new AbortController().signal,
    tuning: { rpcRetryBaseMs: 10, rpcMaxAttempts: 2, rpcRateLimitAttempts: 3, pointwiseRetryBaseMs: 5, ...options.retries },
    ...(options.untilCaughtUp === undefined ? {} : { untilCaughtUp: options.untilCaughtUp }),
  });
  return { result, logs };
}

/** Deletes every state-store key of an indexer. */
export async function clearIndexer(config: IndexerConfig, keyPrefix = "pwtest"): Promise<void> {
  const logger = createLogger({ service: "test", level: "silent" });
  const store = await StateStore.connect({ url: REDIS_URL, keyPrefix, indexerId: config.indexerId, configHash: configHash(config) }, logger);
  await store.clearIndexer();
  await store.close();
}

/** The committed checkpoint of an indexer, or undefined before its first commit. */
export async function checkpointOf(config: IndexerConfig, keyPrefix = "pwtest"): Promise<Checkpoint | undefined> {
  const logger = createLogger({ service: "test", level: "silent" });
  const store = await StateStore.connect({ url: REDIS_URL, keyPrefix, indexerId: config.indexerId, configHash: configHash(config) }, logger);
  try {
    return await store.loadCheckpoint();
  } finally {
    await store.close();
  }
}

/** The hash the node has for block `block` now, read from the node itself. */
export async function blockHashOf(rpc: <T>(method: string, params?: unknown[]) => Promise<T>, block: number): Promise<string> {
  return (await rpc<{ hash: string }>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false])).hash;
}

/** Timestamps (Unix ms) of every block up to `end`. */
export async function blockTimestamps(rpc: <T>(method: string, params?: unknown[]) => Promise<T>, end: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  await Promise.all(
    Array.from({ length: end + 1 }, async (_, block) => {
      const b = await rpc<{ timestamp: string }>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
      out.set(block, Number(b.timestamp) * 1000);
    }),
  );
  return out;
}
