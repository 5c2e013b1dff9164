// Test fixtures for the indexer engine: isolated Redis state stores, a capturing logger and sample rows.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { createLogger, type Logger } from "@pointwise/logger";
import { createClient } from "redis";
import type { OutputRow } from "../rows";
import { StateStore } from "../state/store";

/** The Redis the tests use. */
export const REDIS_URL = "redis://127.0.0.1:6379";

/** A state store in a key prefix no other test uses; `clearIndexer` removes everything it wrote. */
export async function testStore(label: string): Promise<StateStore> {
  const logger = createLogger({ service: "test", level: "silent" });
  return StateStore.connect({ url: REDIS_URL, keyPrefix: `pwt-${randomBytes(4).toString("hex")}`, indexerId: label, configHash: "cfg" }, logger);
}

/** A logger whose JSON lines are kept for assertions. */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service: "test", level: "debug", destination: sink }), lines };
}

/** A row with every column, for sink tests. */
export function row(overrides: Partial<OutputRow>): OutputRow {
  return {
    indexerId: "idx",
    chainId: 1,
    adapterId: "amm-v2",
    adapterVersion: "0.0.1",
    rowType: "action",
    id: "id",
    user: "0x00000000000000000000000000000000000000aa",
    asset: "0x00000000000000000000000000000000000000bb",
    activity: "swap",
    amount: "1",
    priceable: true,
    active: null,
    startTs: null,
    endTs: null,
    durationMs: null,
    startBlock: null,
    endBlock: null,
    ts: 1_700_000_000_000,
    height: 10,
    txHash: "0xabc",
    logIndex: 0,
    trigger: null,
    priceUsd: "2",
    valueUsd: "2",
    usdHours: null,
    meta: null,
    ...overrides,
  };
}

/** Runs `use` with a Redis connection of its own, to read and write a store's keys behind its back. */
export async function withClient<T>(use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.quit();
  }
}
