// Starts and stops the worker's three loops (intake, apply, recompute) and counts what they did.
import { RetryableError } from "@pointwise/errors";
import type { ScoresChanged } from "@pointwise/schemas";
import { createApplier } from "./apply/inbox-drainer";
import type { WorkerDeps } from "./deps";
import { startIntake } from "./intake/consumer";
import { batchChange } from "./invalidate";
import { runNextJob } from "./recompute/recompute-job";
import { RuleVersionCache } from "./scoring/rule-version-cache";

/** A running worker: intake, applier and recompute loops. */
export interface Worker {
  /** Stops taking messages, finishes what is in hand (commit and ack) or releases it, then resolves. */
  stop(): Promise<void>;
  stats(): WorkerStats;
}

/** Counters since start. */
export interface WorkerStats {
  /** Messages staged into the inbox and acknowledged. */
  staged: number;
  /** Events new to the log. */
  logged: number;
  /** Apply transactions committed. */
  batches: number;
  /** Recompute jobs run. */
  recomputes: number;
}

/** A promise that resolves after `ms` or as soon as `poke` is called, whichever is first. */
function napper() {
  let poke: (() => void) | undefined;
  return {
    nap(ms: number) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        poke = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
    poke() {
      poke?.();
      poke = undefined;
    },
  };
}

/**
 * Starts the worker: the intake stages bus messages into the inbox and acknowledges them, the
 * applier moves them into the log and the scores in stream order, and the recompute loop runs
 * queued rule activations and identity-link recomputes.
 */
export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { env, logger, db, bus } = deps;
  const rules = new RuleVersionCache();
  const stats: WorkerStats = { staged: 0, logged: 0, batches: 0, recomputes: 0 };
  let stopping = false;
  const applyNap = napper();
  const recomputeNap = napper();

  const publish = (change: ScoresChanged) => void bus.announceScoresChanged(change, logger);

  const intake = await startIntake({
    bus,
    db,
    logger,
    consumerName: env.CONSUMER_NAME,
    batchSize: env.BATCH_SIZE,
    ackWaitMs: env.ACK_WAIT_MS,
    pullExpiresMs: env.FETCH_EXPIRES_MS,
    maxDeliver: env.MAX_DELIVER,
    retryDelayMs: env.RETRY_DELAY_MS,
    onStaged(count) {
      stats.staged += count;
      deps.metrics?.staged(count);
      applyNap.poke();
    },
    onDeadLetter: (stage) => deps.metrics?.deadLettered(stage),
  });

  const applier = createApplier({
    db,
    logger,
    rules,
    stream: bus.names.eventsStream,
    batchSize: env.APPLY_BATCH_SIZE,
    maxAttempts: env.MAX_DELIVER,
    retryDelayMs: env.RETRY_DELAY_MS,
    floor: () => intake.floor(),
    onDeadLetter: () => deps.metrics?.deadLettered("apply"),
    onHeld: (count) => deps.metrics?.campaignsHeld(count),
    stopping: () => stopping,
    onApplied(campaignId, outcome) {
      stats.batches++;
      stats.logged += outcome.logged.length;
      deps.metrics?.applied(outcome.rows, outcome.logged.length);
      const last = outcome.logged.at(-1)?.seq ?? null;
      logger.debug({ campaign_id: campaignId, rows: outcome.rows, logged: outcome.logged.length, last_seq: last }, "batch applied");
      if (outcome.result && outcome.ruleVersion !== null) {
        const change = batchChange(campaignId, outcome.ruleVersion, outcome.result, last, new Date());
        if (change) publish(change);
      }
    },
  });

  const applyLoop = (async () => {
    while (!stopping) {
      try {
        const started = process.hrtime.bigint();
        // A pass cut short by a stop may have applied nothing: no nap then, the loop ends.
        if ((await applier.runOnce()) === 0 && !stopping) await applyNap.nap(env.APPLY_IDLE_MS);
        else deps.metrics?.applyPass(Number(process.hrtime.bigint() - started) / 1e9);
      } catch (err) {
        if (stopping) break;
        logger.warn({ err }, "applying failed; retrying");
        await applyNap.nap(env.RETRY_DELAY_MS);
      }
    }
  })();

  const recomputeLoop = (async () => {
    while (!stopping) {
      try {
        const ran = await runNextJob({
          db,
          logger,
          rules,
          chunkSize: env.RECOMPUTE_CHUNK,
          leaseMs: env.RECOMPUTE_LEASE_MS,
          onSwitched(change) {
            stats.recomputes++;
            deps.metrics?.recomputeSwitched();
            publish(change);
          },
          async afterChunk(job) {
            deps.metrics?.recomputeChunk(BigInt(job.eventsDone));
            await deps.afterRecomputeChunk?.(job);
            // Between chunks is a safe place to stop: the job resumes from its checkpoint elsewhere.
            if (stopping) throw new RetryableError("worker-stopping", "the worker is stopping");
          },
        });
        if (!ran) await recomputeNap.nap(env.RECOMPUTE_POLL_MS);
      } catch (err) {
        if (stopping) break;
        logger.warn({ err }, "recompute loop failed; retrying");
        await recomputeNap.nap(env.RETRY_DELAY_MS);
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      await intake.stop();
      applyNap.poke();
      recomputeNap.poke();
      await Promise.all([applyLoop, recomputeLoop]);
    },
    stats: () => ({ ...stats }),
  };
}
