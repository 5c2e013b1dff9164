// Prometheus metrics of the scoring worker: consumer lag, batch sizes, apply latency, held campaigns, dead letters and recompute progress.
import type { Bus } from "@pointwise/bus";
import type { ServiceMetrics } from "@pointwise/metrics";
import { Counter, Gauge, Histogram } from "prom-client";

/** What the worker's loops report; every method is cheap (no I/O). */
export interface WorkerMetrics {
  /** A batch of `count` messages was staged into the inbox and acknowledged. */
  staged(count: number): void;
  /** One apply transaction committed `rows` inbox rows, `logged` of them new to the log. */
  applied(rows: number, logged: number): void;
  /** One apply pass (every campaign with staged rows) took `seconds`. */
  applyPass(seconds: number): void;
  /** A recompute chunk committed; `eventsDone` is its job's running total. */
  recomputeChunk(eventsDone: bigint): void;
  /** A recompute job switched its campaign to the new scores. */
  recomputeSwitched(): void;
  /** A message or event went to the dead-letter table, at `stage`. */
  deadLettered(stage: "decode" | "stage" | "apply"): void;
  /** After an apply pass: how many campaigns this replica holds back for a failure that is not about one event. */
  campaignsHeld(count: number): void;
}

const SIZE_BUCKETS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/**
 * Registers the worker's metrics in the app's registry. Consumer lag is read from JetStream at each
 * scrape (`pending`: in the stream, not yet delivered; `ack_pending`: delivered, not yet acknowledged);
 * it is the consumer's, shared by every replica, so alert on its max over replicas, not its sum.
 */
export function createWorkerMetrics(metrics: ServiceMetrics, bus: Bus, consumerName: string): WorkerMetrics {
  const registers = [metrics.registry];
  const consumer = new Gauge({
    name: "pointwise_worker_consumer_messages",
    help: "Messages of the durable consumer by state: pending (stored, not yet delivered) and ack_pending (delivered, not yet acknowledged); absent while NATS does not answer",
    labelNames: ["state"],
    registers,
    async collect() {
      this.reset();
      const state = await bus.eventsConsumerState(consumerName).catch(() => undefined);
      if (state === undefined) return;
      this.set({ state: "pending" }, state.pending);
      this.set({ state: "ack_pending" }, state.ackPending);
    },
  });
  void consumer;
  const stagedSize = new Histogram({
    name: "pointwise_worker_staged_batch_size",
    help: "Messages staged into the inbox per transaction",
    buckets: SIZE_BUCKETS,
    registers,
  });
  const appliedSize = new Histogram({
    name: "pointwise_worker_apply_batch_size",
    help: "Inbox rows logged and scored per apply transaction",
    buckets: SIZE_BUCKETS,
    registers,
  });
  const logged = new Counter({ name: "pointwise_worker_events_logged_total", help: "Events new to the event log (scored)", registers });
  const applyPass = new Histogram({
    name: "pointwise_worker_apply_pass_seconds",
    help: "Duration of one apply pass that applied rows (every campaign with staged rows, in stream order)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const recomputeDone = new Gauge({
    name: "pointwise_worker_recompute_events_done",
    help: "Log events the recompute job this replica runs has replayed so far (its checkpoint); 0 when it runs none",
    registers,
  });
  const recomputeChunks = new Counter({ name: "pointwise_worker_recompute_chunks_total", help: "Recompute chunks committed", registers });
  const deadLetters = new Counter({
    name: "pointwise_worker_dead_letters_total",
    help: "Messages and events moved to the dead-letter table (never logged or scored), by stage: decode (not a raw event), stage, apply",
    labelNames: ["stage"],
    registers,
  });
  for (const stage of ["decode", "stage", "apply"]) deadLetters.inc({ stage }, 0);
  const held = new Gauge({
    name: "pointwise_worker_campaigns_held",
    help: "Campaigns whose staged events this replica holds back after its last apply pass because applying them fails for a reason that is not about one event (transient, or a broken deployment, or a rule version whose decay epoch cannot reach them); they wait, none is dead-lettered",
    registers,
  });
  const recomputeJobs = new Counter({
    name: "pointwise_worker_recompute_jobs_total",
    help: "Recompute jobs that switched their campaign to the new scores",
    registers,
  });
  return {
    staged: (count) => stagedSize.observe(count),
    applied(rows, loggedCount) {
      appliedSize.observe(rows);
      logged.inc(loggedCount);
    },
    applyPass: (seconds) => applyPass.observe(seconds),
    deadLettered: (stage) => deadLetters.inc({ stage }),
    campaignsHeld: (count) => held.set(count),
    recomputeChunk(eventsDone) {
      recomputeChunks.inc();
      recomputeDone.set(Number(eventsDone));
    },
    recomputeSwitched() {
      recomputeJobs.inc();
      recomputeDone.set(0);
    },
  };
}
