// Prometheus metrics of ingest-api: requests by outcome, errors by code, events published, durations.
import { Counter, Histogram, Registry } from "prom-client";

/** The ingest metrics of one app instance, in a registry of its own (tests run several apps in one process). */
export interface IngestMetrics {
  registry: Registry;
  requests: Counter<"route" | "outcome">;
  errors: Counter<"route" | "code">;
  published: Counter<"source">;
  duration: Histogram<"route">;
}

/** Creates the metrics: requests by outcome, errors by code, events published by source, and request durations. */
export function createMetrics(): IngestMetrics {
  const registry = new Registry();
  return {
    registry,
    requests: new Counter({
      name: "pointwise_ingest_requests_total",
      help: "Ingest requests by route and outcome",
      labelNames: ["route", "outcome"],
      registers: [registry],
    }),
    errors: new Counter({
      name: "pointwise_ingest_errors_total",
      help: "Ingest error codes answered, by route",
      labelNames: ["route", "code"],
      registers: [registry],
    }),
    published: new Counter({
      name: "pointwise_ingest_events_published_total",
      help: "Events durably published, by source",
      labelNames: ["source"],
      registers: [registry],
    }),
    duration: new Histogram({
      name: "pointwise_ingest_request_duration_seconds",
      help: "Ingest request duration",
      labelNames: ["route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
