import type { Logger } from "@pointwise/logger";
import { connect, type NatsConnection } from "nats";
import { z } from "zod";
import type { ResponseCache } from "./response-cache";

/** The score-change message the scoring worker publishes on `<ns>.scores.<campaign_id>` (docs/scoring.md). */
const scoreChangeSchema = z.object({
  v: z.literal(1),
  campaign_id: z.string(),
  reason: z.enum(["events", "recompute"]),
  user_ids: z.array(z.string()).nullable(),
});

/** A score-change message. */
export type ScoreChange = z.infer<typeof scoreChangeSchema>;

/**
 * What a score change drops from the cache. The public leaderboard keeps its promise of identical
 * bytes for the whole window after a batch (the window bounds its age), but a user's own scores are
 * dropped so they see their points at once; a recompute (new rules or linked identities) replaces
 * every score, so every cached response of the campaign goes, and every user entry with it (user
 * entries are keyed by user alone).
 */
export async function applyScoreChange(responses: ResponseCache, change: ScoreChange): Promise<void> {
  if (change.reason === "recompute" || change.user_ids === null) {
    await responses.drop(["lb", change.campaign_id]);
    await responses.drop(["around", change.campaign_id]);
    await responses.drop(["user"]);
    return;
  }
  for (const userId of change.user_ids) await responses.drop(["user", userId]);
}

/** A running subscription. */
export interface Invalidations {
  close(): Promise<void>;
}

/**
 * Subscribes to `<namespace>.scores.*` (core NATS, best effort). It connects in the background, so
 * read-api serves from the cache and PostgreSQL even while NATS is away; the cache window stays the
 * bound on staleness.
 */
export function subscribeInvalidations(options: { url: string; namespace: string; responses: ResponseCache; logger: Logger }): Invalidations {
  const { logger } = options;
  let nc: NatsConnection | undefined;
  let closed = false;
  const ready = connect({ servers: options.url, name: "read-api", maxReconnectAttempts: -1, reconnectTimeWait: 1000, waitOnFirstConnect: true })
    .then((conn) => {
      nc = conn;
      if (closed) return conn.close();
      const sub = conn.subscribe(`${options.namespace}.scores.*`);
      void (async () => {
        for await (const msg of sub) {
          try {
            const change = scoreChangeSchema.parse(msg.json());
            await applyScoreChange(options.responses, change);
          } catch (err) {
            logger.warn({ err, subject: msg.subject }, "ignored a score-change message");
          }
        }
      })();
      logger.info({ subject: `${options.namespace}.scores.*` }, "listening for score changes");
    })
    .catch((err) => logger.warn({ err }, "score-change subscription failed; cached responses expire by their window"));
  return {
    async close() {
      closed = true;
      if (nc && !nc.isClosed()) await nc.drain().catch(() => undefined);
      else void ready;
    },
  };
}
