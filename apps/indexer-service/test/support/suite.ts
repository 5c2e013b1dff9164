// Test support for the indexer: a local chain with the scenario run once per file, configs cleaned up after.
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AdapterRegistry, IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { type LocalChain, startChain } from "./chain";
import { buildConfig, clearIndexer, REDIS_URL, uniqueId } from "./harness";
import { runScenario, type ScenarioResult } from "./scenario";
import { type RpcProxy, startRpcProxy } from "./servers";

/** What a test gives a config; the rest (kind, ids, hourly flush, state store, a csv sink) is filled in. */
export type ConfigInput = Omit<IndexerConfigInput, "kind" | "indexerId" | "flushMs" | "stateStoreUrl" | "sinkConfig"> & {
  sinkConfig?: IndexerConfigInput["sinkConfig"];
};

/** A local chain with the recorded scenario on it, and what a test file's tests leave behind for cleaning up. */
export interface ScenarioSuite {
  chain: LocalChain;
  scenario: ScenarioResult;
  /** Indexers whose state is cleared after the file. */
  configs: IndexerConfig[];
  /** Files removed after the file. */
  files: string[];
  /** Servers and clients closed after the file. */
  closers: { close(): Promise<void> }[];
  /** A JSON-RPC proxy in front of the chain (closed after the file). */
  proxy(options?: Omit<Parameters<typeof startRpcProxy>[0], "target">): Promise<RpcProxy>;
  /**
   * A validated config with a csv sink of its own and a unique indexer id, both cleaned up after the
   * file; `input` overrides the rest. Validated with the service's registry unless another is given.
   */
  csvConfig(label: string, input: ConfigInput, registry?: AdapterRegistry): { config: IndexerConfig; csv: string };
}

/** Starts a local chain and runs the scenario before the calling file's tests; after them, cleans up what they registered. */
export function useScenarioChain(): ScenarioSuite {
  const suite = {
    configs: [],
    files: [],
    closers: [],
    async proxy(options = {}) {
      const p = await startRpcProxy({ target: suite.chain.url, ...options });
      suite.closers.push(p);
      return p;
    },
    csvConfig(label, input, registry) {
      const csv = join(tmpdir(), `${uniqueId(label)}.csv`);
      const config = buildConfig(
        {
          kind: "evm",
          indexerId: uniqueId(label),
          flushMs: 3_600_000,
          stateStoreUrl: REDIS_URL,
          sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
          ...input,
        } as IndexerConfigInput,
        registry,
      );
      suite.configs.push(config);
      suite.files.push(csv);
      return { config, csv };
    },
  } as Omit<ScenarioSuite, "chain" | "scenario"> as ScenarioSuite;
  beforeAll(async () => {
    suite.chain = await startChain();
    suite.scenario = await runScenario(suite.chain);
  }, 120_000);
  afterAll(async () => {
    for (const config of suite.configs) await clearIndexer(config);
    for (const file of suite.files) await rm(file, { force: true });
    for (const c of suite.closers) await c.close();
    await suite.chain?.stop();
  });
  return suite;
}
