// Scores a whole campaign log from empty state: the reference every incremental application must equal.
import type { CampaignWindow } from "./campaign-window";
import { applyEvents } from "./engine";
import type { RuleVersion } from "./schema";
import { mergeScoreDeltas, type ScoreRow } from "./scores";
import type { CampaignState, UserState } from "./state";
import type { LedgerEntry, OutsideCampaignEvent, RawEvent, RejectedEvent } from "./types";

/** The outcome of scoring a whole campaign log from nothing under one rule version. */
export interface ReplayResult {
  /** Final score rows per (user, currency), sorted by user then currency. */
  rows: ScoreRow[];
  entries: LedgerEntry[];
  /** Final state of every user in the log; what the worker stores when it switches to this version. */
  users: Record<string, UserState>;
  /** Final campaign state (null when the rule version has no budget). */
  campaign: CampaignState | null;
  rejected: RejectedEvent[];
  /** Events outside the campaign window (they earned nothing). */
  outsideCampaign: OutsideCampaignEvent[];
}

/**
 * Scores a whole campaign log (events of many users in log order) from empty state, within the
 * campaign window when one is given. This is the reference every incremental application must
 * equal, and what activating a rule version computes.
 */
export function replayCampaign(rules: RuleVersion, events: readonly RawEvent[], campaignWindow?: CampaignWindow | null): ReplayResult {
  const result = applyEvents({ rules, events, campaignWindow });
  return {
    rows: mergeScoreDeltas([], result.scoreDeltas),
    entries: result.entries,
    users: result.users,
    campaign: result.campaign,
    rejected: result.rejected,
    outsideCampaign: result.outsideCampaign,
  };
}
