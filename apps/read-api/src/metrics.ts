// Prometheus metrics of read-api beyond the shared HTTP ones: how each cached answer was found, and the read replica.
import type { ReadRouting } from "@pointwise/db";
import type { ServiceMetrics } from "@pointwise/metrics";
import { Counter, Gauge } from "prom-client";
import type { LookupOutcome } from "./response-cache";

const LOOKUPS = "pointwise_read_cache_lookups_total";

/** Counts answers by how their body was found (`hit`, `miss`, `stale`, `bypass`); the counter is registered once per registry. */
export function cacheLookupCounter(metrics: ServiceMetrics): (outcome: LookupOutcome) => void {
  const existing = metrics.registry.getSingleMetric(LOOKUPS) as Counter<"outcome"> | undefined;
  const counter =
    existing ??
    new Counter({
      name: LOOKUPS,
      help: "Read answers by how their body was found: hit (a cached copy), miss (built from PostgreSQL), stale (last good copy during an outage), bypass (Redis unreachable)",
      labelNames: ["outcome"],
      registers: [metrics.registry],
    });
  // Every outcome is present from the start, so a rate over hits and misses is defined before the first miss.
  for (const outcome of ["hit", "miss", "stale", "bypass"] as const) counter.inc({ outcome }, 0);
  return (outcome) => counter.inc({ outcome });
}

/** Reports where reads go (`pointwise_read_replica_in_use`) and the replica's lag (`pointwise_read_replica_lag_seconds`), at each scrape. */
export function replicaMetrics(metrics: ServiceMetrics, routing: ReadRouting): void {
  new Gauge({
    name: "pointwise_read_replica_in_use",
    help: "1 while reads go to the replica (DATABASE_READ_URL), 0 while they go to the primary because the replica lags or is away",
    registers: [metrics.registry],
    collect() {
      this.set(routing.status().target === "replica" ? 1 : 0);
    },
  });
  new Gauge({
    name: "pointwise_read_replica_lag_seconds",
    help: "The replica's last measured replication lag; absent while the replica does not answer",
    registers: [metrics.registry],
    collect() {
      const { lagMs } = routing.status();
      // remove(), not reset(): reset() puts an unlabelled gauge back at 0, a lag the replica never reported.
      if (lagMs === null) this.remove();
      else this.set(lagMs / 1000);
    },
  });
}
