// Score-change messages into cache drops: what each "scores changed" message removes from the response cache.
import type { Bus } from "@pointwise/bus";
import type { Logger } from "@pointwise/logger";
import type { ScoresChanged } from "@pointwise/schemas";
import type { ResponseCache } from "./response-cache";

/**
 * What a score change drops from the cache. The public leaderboard keeps its promise of identical
 * bytes for the whole window after a batch (the window bounds its age), but a user's own scores are
 * dropped so they see their points at once; a recompute (new rules or linked identities) replaces
 * every score, so every cached response of the campaign goes, and every user entry with it (user
 * entries are keyed by user alone).
 */
export async function applyScoreChange(responses: ResponseCache, change: ScoresChanged): Promise<void> {
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
 * Subscribes to every campaign's "scores changed" messages (core NATS, best effort). The bus may still
 * be connecting (read-api creates it with firstConnect "background"), so read-api serves from the cache and
 * PostgreSQL even while NATS is away; the cache window stays the bound on staleness.
 */
export function subscribeInvalidations(options: { bus: Bus; responses: ResponseCache; logger: Logger }): Invalidations {
  const { bus, logger } = options;
  const subscription = bus.subscribeScoresChanged((change) => applyScoreChange(options.responses, change), {
    onError: (err, subject) => logger.warn({ err, subject }, "ignored a score-change message"),
  });
  subscription.ready.then(
    () => logger.info({ subject: bus.names.scoresSubjects }, "listening for score changes"),
    (err: unknown) => logger.warn({ err }, "score-change subscription failed; cached responses expire by their window"),
  );
  return { close: () => subscription.close() };
}
