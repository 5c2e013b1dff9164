// The backfill benchmark's floor: a minimal client that fetches a workload's logs and the headers of their blocks as
// fast as it can (the indexer's own transport: batched, eight requests in flight) and does nothing with them.
import { RpcTransport } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";

const logger = createLogger({ service: "bench-floor", level: "silent" });
const hex = (n: number) => `0x${n.toString(16)}`;

/** Fetches every log of `address` in [from, to] in ranges of 2,000 blocks, then the headers of their blocks; logs and seconds. */
export async function floorFetch(url: string, address: string, from: number, to: number): Promise<{ logs: number; seconds: number }> {
  const started = performance.now();
  const rpc = new RpcTransport({ url, logger, concurrency: 8, batchSize: 1 });
  const headers = new RpcTransport({ url, logger, concurrency: 8, batchSize: 100 });
  const ranges = [];
  for (let a = from; a <= to; a += 2_000)
    ranges.push({ method: "eth_getLogs", params: [{ address, fromBlock: hex(a), toBlock: hex(Math.min(to, a + 1_999)) }] });
  const blocks = new Set<string>();
  let logs = 0;
  for (const outcome of await rpc.batch(ranges)) {
    const list = outcome.ok ? (outcome.result as { blockNumber: string }[]) : [];
    logs += list.length;
    for (const log of list) blocks.add(log.blockNumber);
  }
  const answers = await headers.batch([...blocks].map((b) => ({ method: "eth_getBlockByNumber", params: [b, false] })));
  if (answers.some((a) => !a.ok || a.result == null)) throw new Error("the node left headers out");
  rpc.close();
  headers.close();
  return { logs, seconds: (performance.now() - started) / 1000 };
}
