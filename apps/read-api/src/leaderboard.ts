// Builds leaderboard and around-me responses: decayed totals, competition ranks, public profiles.
import { rankingColumnOf } from "@pointwise/db";
import { NotFoundError } from "@pointwise/errors";
import type { LeaderboardResponseBody } from "@pointwise/schemas";
import { type CampaignView, loadCampaign } from "./campaign";
import type { Deps } from "./deps";
import { toEntries } from "./entries";
import type { AvatarUrls } from "./privacy";
import { loadUsers, type RankedUser, type RankingColumn, topUsers, usersAround } from "./queries";
import { decayFactors } from "./scores";

/** The avatar settings of a deployment. */
export function avatarUrls(deps: Pick<Deps, "env">): AvatarUrls {
  return { avatarProxyUrl: deps.env.AVATAR_PROXY_URL, generatedAvatarUrl: deps.env.GENERATED_AVATAR_URL };
}

/** Loads a campaign or throws NotFoundError `campaign-not-found`. */
export async function requireCampaign(deps: Pick<Deps, "db" | "badWords">, campaignId: string): Promise<CampaignView> {
  const view = await loadCampaign(deps.db, campaignId, deps.badWords);
  if (!view) throw new NotFoundError(`campaign ${campaignId} not found`, { code: "campaign-not-found" });
  return view;
}

/** The score column a campaign's board ranks by: total when it ranks by what users earned, balance when by what they can spend. */
export function rankingColumn(view: CampaignView): RankingColumn {
  return rankingColumnOf(view.ranking);
}

async function boardOf(deps: Deps, view: CampaignView, ranked: RankedUser[], now: Date): Promise<LeaderboardResponseBody> {
  const users = await loadUsers(
    deps.db,
    view.id,
    ranked.map((r) => r.user_id),
  );
  return {
    campaign_id: view.id,
    cached_at: now.toISOString(),
    currency_names: view.currencyNames,
    entries: toEntries(ranked, users, view, decayFactors(view, now), avatarUrls(deps), view.ranking === "balance"),
  };
}

/**
 * Builds the leaderboard of a campaign: ordered by the primary currency's total, or its balance when
 * the campaign ranks by balance (decayed to `now`),
 * ties share a rank (competition ranking) and are listed earliest-to-reach first.
 */
export async function buildLeaderboard(deps: Deps, campaignId: string, limit: number, now: Date = new Date()): Promise<LeaderboardResponseBody> {
  const view = await requireCampaign(deps, campaignId);
  const ranked = await topUsers(deps.db, view.id, view.primaryCurrency, limit, rankingColumn(view));
  return boardOf(deps, view, ranked, now);
}

/**
 * Builds the window of a campaign's board around one user: their entry with up to `n` entries above
 * and below, in the leaderboard's shape. A user without points in the primary currency (or of
 * another campaign) is not on the board: NotFoundError `user-not-found`.
 */
export async function buildAround(deps: Deps, campaignId: string, userId: string, n: number, now: Date = new Date()): Promise<LeaderboardResponseBody> {
  const view = await requireCampaign(deps, campaignId);
  const ranked = await usersAround(deps.db, view.id, view.primaryCurrency, userId, n, rankingColumn(view));
  if (ranked.length === 0) throw new NotFoundError(`user ${userId} is not on the leaderboard of campaign ${campaignId}`, { code: "user-not-found" });
  return boardOf(deps, view, ranked, now);
}
