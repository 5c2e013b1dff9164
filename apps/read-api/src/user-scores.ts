// Builds one user's scores answer: rank, privacy-safe profile, decayed scores and tiers.
import { NotFoundError } from "@pointwise/errors";
import type { UserScoresResponseBody } from "@pointwise/schemas";
import type { Deps } from "./deps";
import { profileOf } from "./entries";
import { avatarUrls, rankingColumn, requireCampaign } from "./leaderboard";
import { campaignOfUser, loadUsers, rankOf } from "./queries";
import { decayFactors, presentBalances, presentScores, presentTiers } from "./scores";

/** The not-found answer for a user; the same whether the user is unknown or belongs to another campaign. */
export function userNotFound(userId: string): NotFoundError {
  return new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
}

/** Builds one user's scores record: rank by the primary currency, privacy-safe profile, decayed scores and tiers. */
export async function buildUserScores(deps: Deps, userId: string, now: Date = new Date()): Promise<UserScoresResponseBody> {
  const campaignId = await campaignOfUser(deps.db, userId);
  if (campaignId === null) throw userNotFound(userId);
  const view = await requireCampaign(deps, campaignId);
  const [users, rank] = await Promise.all([
    loadUsers(deps.db, campaignId, [userId]),
    rankOf(deps.db, campaignId, view.primaryCurrency, userId, rankingColumn(view)),
  ]);
  const user = users.get(userId);
  if (!user) throw userNotFound(userId);
  const profile = profileOf(user, view, avatarUrls(deps));
  const factors = decayFactors(view, now);
  return {
    user_id: userId,
    rank,
    cached_at: now.toISOString(),
    display_name: profile.display_name,
    avatar_url: profile.avatar_url,
    identities: profile.identities,
    currency_names: view.currencyNames,
    scores: presentScores(user.scores, view, factors),
    balances: presentBalances(user.scores, view, factors),
    tiers: presentTiers(user.scores, view),
  };
}
