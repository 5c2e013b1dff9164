export { MAX_AMOUNT_INTEGER_DIGITS, MAX_AMOUNT_SCALE, parseAmount } from "./amount";
export { EVENT_SOURCES, rawEventMessageSchema, type EventSource, type RawEventMessage } from "./bus";
export { CAMPAIGN_ID_PATTERN, UUID_PATTERN, campaignIdSchema, currencyKeySchema, currencyNamesSchema, isCampaignId } from "./campaign";
export { EARN_EVENT_FIELDS, validateEarnEvent, type EarnEvent, type EarnEventResult, type FieldProblem } from "./earn-event";
export { IDENTITY_TYPES, isIdentityType, normalizeAccountId, type IdentityType } from "./identity";
export { leaderboardResponseSchema, scoreObjectSchema, userScoresResponseSchema, type LeaderboardEntry, type LeaderboardResponse, type ScoreObject, type UserScoresResponse } from "./read";
