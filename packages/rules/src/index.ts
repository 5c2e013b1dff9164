/**
 * @pointwise/rules: the pure scoring engine. Rule versions in, raw events in log order in,
 * ledger entries, score deltas and new state out. No I/O; see docs/rules.md.
 */
export { type Adjustment, type AdjustmentDelta, adjustmentDeltas, storedAdjustment } from "./adjustments";
export type { CampaignWindow } from "./campaign-window";
export { needsGlobalOrder } from "./compile";
export { decayedValue, decayFactor, decayRangeEnd, MAX_HALF_LIVES } from "./decay";
export { type DecayedScores, type DryRunInput, type DryRunResult, decayedScores, dryRunDiff, type LeaderboardMove } from "./dry-run";
export { type ApplyInput, type ApplyResult, applyEvents } from "./engine";
export { withoutExcluded } from "./exclusions";
export {
  decideRedemption,
  type RedemptionContext,
  type RedemptionDecision,
  type RedemptionRefusal,
  type RewardTerms,
  type Spend,
  type SpendDelta,
  spendDeltas,
  storedSpend,
} from "./redemption";
export { type ReplayResult, replayCampaign } from "./replay";
export {
  CAP_PERIODS,
  type Cap,
  type CapPeriod,
  type CurrencyConfig,
  type DecayConfig,
  type Multiplier,
  parseRuleVersion,
  type RecurringWindow,
  type Rule,
  type RuleIssue,
  type RuleVersion,
  type RuleVersionInput,
  ruleVersionSchema,
  safeParseRuleVersion,
  type Tier,
  WEEKDAYS,
} from "./schema";
export { combineScoreDeltas, mergeScoreDeltas, type RankedRow, rankRows, type ScoreDelta, type ScoreRow } from "./scores";
export { type ShownScore, type StoredScoreValues, shownFactor, shownScore } from "./shown";
export {
  type CampaignState,
  emptyCampaignState,
  emptyUserState,
  parseCampaignState,
  parseUserState,
  type RuleProgress,
  STATE_FORMAT,
  type UserState,
} from "./state";
export { periodKey } from "./time";
export type { AppliedMultiplier, EntryKind, LedgerEntry, OutsideCampaignEvent, RawEvent, RejectedEvent, SkippedEvent } from "./types";
