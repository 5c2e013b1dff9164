// Turns ranked users into board entries, copying out only whitelisted, privacy-safe fields.
import type { LeaderboardEntryBody } from "@pointwise/schemas";
import type { CampaignView } from "./campaign";
import { type AvatarUrls, displayOf, type PublicProfile } from "./privacy";
import type { RankedUser, UserRecord } from "./queries";
import { presentBalances, presentScores } from "./scores";

/** The linked X username of a user: the handle of their earliest-linked X account, when it has one. */
export function xUsernameOf(user: UserRecord): string | null {
  return user.identities.find((i) => i.type === "X_PROVIDER_ID" && i.handle !== null)?.handle ?? null;
}

/** The privacy-safe name, avatar and identities of a user under a campaign's bad words. */
export function profileOf(user: UserRecord, view: CampaignView, urls: AvatarUrls): PublicProfile {
  return displayOf(
    { displayName: user.display_name, xUsername: xUsernameOf(user), secretSeed: user.secret_seed, accountIds: user.identities.map((i) => i.account_id) },
    view.badWords,
    urls,
  );
}

/**
 * Board entries in the order of `ranked` (with each user's balances on a board that ranks by balance). Only whitelisted fields are copied out of a user record,
 * so nothing else it holds (seed, account ids) can reach a response.
 */
export function toEntries(
  ranked: readonly RankedUser[],
  users: ReadonlyMap<string, UserRecord>,
  view: CampaignView,
  factors: Record<string, string>,
  urls: AvatarUrls,
  withBalances = false,
): LeaderboardEntryBody[] {
  const entries: LeaderboardEntryBody[] = [];
  for (const r of ranked) {
    const user = users.get(r.user_id);
    // A score row always has its user; one missing here was deleted between the two reads, so skip it.
    if (!user) continue;
    const profile = profileOf(user, view, urls);
    entries.push({
      rank: r.rank,
      user_id: r.user_id,
      display_name: profile.display_name,
      avatar_url: profile.avatar_url,
      identities: profile.identities,
      scores: presentScores(user.scores, view, factors),
      ...(withBalances ? { balances: presentBalances(user.scores, view, factors) } : {}),
    });
  }
  return entries;
}
