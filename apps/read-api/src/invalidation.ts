// Score-change messages into cache drops: what each "scores changed" message removes from the response cache.
import type { Bus } from "@pointwise/bus";
import type { Logger } from "@pointwise/logger";
import type { ScoresChanged } from "@pointwise/schemas";
import type { ResponseCache } from "./response-cache";

/**
 * What a score change drops from the cache. The public leaderboard keeps its promise of identical
 * bytes for the whole window after a batch, an adjustment or a redemption (the window bounds its
 * age), but a user's own scores are dropped so they see their points and balance at once. A recompute
 * (new rules or linked identities) replaces every score, so every cached response of the campaign
 * goes, and every user entry with it (user entries are keyed by user alone); so does any change that
 * names no users. An exclusion removes the named users from every board at once, so the campaign's
 * boards go too.
 */
export async function applyScoreChange(responses: ResponseCache, change: ScoresChanged): Promise<void> {
  if (change.reason === "recompute" || change.user_ids === null) {
    await dropBoards(responses, change.campaign_id);
    await responses.drop(["user"]);
    return;
  }
  switch (change.reason) {
    case "exclusions":
      await dropBoards(responses, change.campaign_id);
      break;
    case "events":
    case "adjustments":
    case "redemptions":
      break;
    default:
      // A reason added to the schema must be decided here before it compiles.
      change.reason satisfies never;
  }
  for (const userId of change.user_ids) await responses.drop(["user", userId]);
}

/** Drops the campaign's cached leaderboards and around-me pages. */
async function dropBoards(responses: ResponseCache, campaignId: string): Promise<void> {
  await responses.drop(["lb", campaignId]);
  await responses.drop(["around", campaignId]);
}

/** A running subscription. */
export interface Invalidations {
  close(): Promise<void>;
}

/**
 * Subscribes to every campaign's "scores changed" messages (core NATS, best effort) from the scoring
 * worker, admin-api and portal-api. The bus may still
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
