// The indexer's health and metrics port (METRICS_PORT): liveness, readiness and Prometheus metrics of a running indexer.
import type { Server } from "node:http";
import type { EngineObserver } from "@pointwise/indexer-engine";
import type { Logger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { closeServer, createHttpApp, finishHttpApp, listen } from "@pointwise/runtime";
import { Counter, Gauge } from "prom-client";

/** A running health and metrics server and the observer the engine reports to. */
export interface IndexerMonitor {
  url: string;
  observer: EngineObserver;
  /** The engine is built (keys checked, state store reached): readiness may now turn true. */
  started(): void;
  close(): Promise<void>;
}

/** Where the monitor listens and how stale the chain head may get before the indexer is not ready. */
export interface IndexerMonitorOptions {
  port: number;
  host: string;
  logger: Logger;
  /** Readiness is false when no chain head was read for this long (ms). */
  headStaleMs: number;
  /** Collect process CPU and memory metrics (on in the service, off in tests running several monitors). */
  processMetrics?: boolean;
}

/**
 * Serves `/healthz` (the process is alive), `/readyz` (the engine is running and read the chain head
 * within `headStaleMs`) and `/metrics`: blocks and logs indexed (rates per second in Prometheus), the
 * distance to the chain's safe head, and sink write errors.
 */
export async function startIndexerMonitor(options: IndexerMonitorOptions): Promise<IndexerMonitor> {
  const metrics = createServiceMetrics({ service: "indexer-service", processMetrics: options.processMetrics ?? true });
  const registers = [metrics.registry];
  const blocks = new Counter({ name: "pointwise_indexer_blocks_total", help: "Blocks indexed and committed", registers });
  const logs = new Counter({ name: "pointwise_indexer_logs_total", help: "Logs of the adapter's filters read in committed ranges", registers });
  const distance = new Gauge({
    name: "pointwise_indexer_head_distance_blocks",
    help: "Blocks between the next block to index and the chain's safe head (head minus finality); 0 when caught up",
    registers,
  });
  const safeHead = new Gauge({ name: "pointwise_indexer_safe_head_block", help: "The chain's last safe head read (head minus finality)", registers });
  const sinkErrors = new Counter({ name: "pointwise_indexer_sink_errors_total", help: "Failed sink writes, by sink id", labelNames: ["sink"], registers });
  let running = false;
  let lastHeadAt = 0;
  const app = createHttpApp({
    logger: options.logger,
    metrics,
    readiness: [
      { name: "engine", check: async () => running },
      { name: "chain", check: async () => running && Date.now() - lastHeadAt <= options.headStaleMs },
    ],
  });
  const server: Server = await listen(finishHttpApp(app, options.logger), options.port, options.host);
  const address = server.address();
  const url = `http://${options.host}:${typeof address === "object" && address !== null ? address.port : options.port}`;
  options.logger.info({ url }, "indexer health and metrics listening");
  return {
    url,
    observer: {
      head(head, nextBlock) {
        lastHeadAt = Date.now();
        safeHead.set(head);
        distance.set(Math.max(0, head - nextBlock + 1));
      },
      range(blockCount, logCount) {
        blocks.inc(blockCount);
        logs.inc(logCount);
      },
      sinkError: (sink) => sinkErrors.inc({ sink }),
    },
    started() {
      running = true;
    },
    async close() {
      running = false;
      await closeServer(server);
    },
  };
}
