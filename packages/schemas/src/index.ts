// Entry point of @pointwise/schemas: the wire formats and validation shared by every app.
export { MAX_AMOUNT_INTEGER_DIGITS, MAX_AMOUNT_SCALE, parseAmount } from "./amount";
export { isBigintId, PG_BIGINT_MAX, PG_INTEGER_MAX } from "./bounds";
export { EVENT_SOURCES, type EventSource, type RawEventMessage, rawEventMessageSchema } from "./bus";
export { CAMPAIGN_ID_PATTERN, campaignIdSchema, currencyKeySchema, currencyNamesSchema, isCampaignId, UUID_PATTERN } from "./campaign";
export { EARN_EVENT_FIELDS, type EarnEvent, type EarnEventResult, type FieldProblem, validateEarnEvent } from "./earn-event";
export { IDENTITY_TYPES, type IdentityType, isIdentityType, normalizeAccountId } from "./identity";
export {
  type LeaderboardEntry,
  type LeaderboardResponse,
  leaderboardResponseSchema,
  type ScoreObject,
  scoreObjectSchema,
  type UserScoresResponse,
  userScoresResponseSchema,
} from "./read";
export { type ScoresChanged, scoresChangedSchema } from "./scores-changed";
