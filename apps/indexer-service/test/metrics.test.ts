// The indexer's /metrics and /readyz while it follows a local chain live: blocks and logs counted as the
// chain itself reports them, the safe head and the distance to it, newly mined blocks counted; and the
// run ending (health port closed) when its RPC endpoint goes away.
import { sampleValue } from "@pointwise/metrics";
import { id } from "ethers";
import { runInProcess, testEnv } from "./support/harness";
import { freePort } from "./support/net";
import { useScenarioChain } from "./support/suite";

const suite = useScenarioChain();

describe("indexer-service /metrics", () => {
  it("counts every block and every Transfer log of the token up to the head, is ready with distance 0, and counts mined blocks", async () => {
    const { chain, scenario } = suite;
    const { config } = suite.csvConfig("metrics", {
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: 0 },
      adapterConfig: { adapterId: "erc20-holdings", params: { tokenAddress: scenario.token0 } },
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const controller = new AbortController();
    const running = runInProcess(config, testEnv({ RPC_URL: chain.url, INDEXER_POLL_INTERVAL_MS: "50", METRICS_PORT: String(port) }), {
      signal: controller.signal,
    });
    const scrape = async () => (await fetch(`${base}/metrics`)).text();
    const until = async (what: (text: string) => boolean, label: string) => {
      for (let i = 0; i < 300; i++) {
        const text = await scrape().catch(() => "");
        if (what(text)) return text;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out waiting for ${label}\n${await scrape().catch(() => "")}`);
    };
    try {
      const head = await chain.provider.getBlockNumber();
      // The chain's own answer: every Transfer of the token from block 0 to the head.
      const transfers = await chain.provider.getLogs({
        address: scenario.token0,
        topics: [id("Transfer(address,address,uint256)")],
        fromBlock: 0,
        toBlock: head,
      });
      expect(transfers.length).toBeGreaterThan(5);
      let text = await until((t) => sampleValue(t, "pointwise_indexer_blocks_total") === head + 1, `blocks 0..${head}`);
      expect(sampleValue(text, "pointwise_indexer_logs_total")).toBe(transfers.length);
      expect(sampleValue(text, "pointwise_indexer_safe_head_block")).toBe(head);
      expect(sampleValue(text, "pointwise_indexer_head_distance_blocks")).toBe(0);
      expect(sampleValue(text, "pointwise_indexer_sink_errors_total")).toBeUndefined();
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready", checks: { engine: true, chain: true } });

      for (let i = 0; i < 3; i++) await chain.rpc("evm_mine");
      text = await until((t) => sampleValue(t, "pointwise_indexer_blocks_total") === head + 4, "three mined blocks");
      expect(sampleValue(text, "pointwise_indexer_logs_total")).toBe(transfers.length);
      expect(sampleValue(text, "pointwise_indexer_safe_head_block")).toBe(head + 3);
      expect(sampleValue(text, "pointwise_indexer_head_distance_blocks")).toBe(0);
    } finally {
      controller.abort();
      await running;
    }
  }, 60_000);

  it("stops with rpc-connection-failed once the RPC endpoint is gone, and its health port then refuses (a failed probe), after answering ready", async () => {
    const { scenario } = suite;
    const rpc = await suite.proxy();
    const { config } = suite.csvConfig("metrics-down", {
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: 0 },
      adapterConfig: { adapterId: "erc20-holdings", params: { tokenAddress: scenario.token0 } },
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const controller = new AbortController();
    const running = runInProcess(config, testEnv({ RPC_URL: rpc.url, INDEXER_POLL_INTERVAL_MS: "50", METRICS_PORT: String(port) }), {
      signal: controller.signal,
    }).then(
      () => undefined,
      (err: unknown) => err as { code?: string },
    );
    const status = async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status ?? 0;
    for (let i = 0; (await status()) !== 200; i++) {
      if (i > 200) throw new Error("the indexer never became ready");
      await new Promise((r) => setTimeout(r, 50));
    }
    await rpc.close();
    let timer: NodeJS.Timeout | undefined;
    const failure = await Promise.race([
      running,
      new Promise((r) => {
        timer = setTimeout(() => r("still running"), 30_000);
      }),
    ]);
    clearTimeout(timer);
    controller.abort();
    expect(failure).toMatchObject({ code: "rpc-connection-failed" });
    expect(await status()).toBe(0);
  }, 60_000);
});
