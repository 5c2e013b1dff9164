// Entry point of @pointwise/schemas: the wire formats and validation shared by every app.
export { MAX_AMOUNT_INTEGER_DIGITS, MAX_AMOUNT_SCALE, parseAmount } from "./amount";
export { isBigintId, PG_BIGINT_MAX, PG_INTEGER_MAX, storedTimeProblem, storedTimeSchema } from "./bounds";
export { EVENT_SOURCES, type EventSource, occurredAtOf, type RawEventMessage, rawEventMessageSchema } from "./bus";
export { CAMPAIGN_ID_PATTERN, campaignIdSchema, currencyKeySchema, currencyNamesSchema, isCampaignId, UUID_PATTERN } from "./campaign";
export { DISPLAY_NAME_MAX_LENGTH, displayNameProblem, displayNameSchema, MAX_COMBINING_MARKS_IN_A_ROW } from "./display-name";
export {
  EARN_EVENT_FIELDS,
  EARN_EVENT_OPTIONAL_FIELDS,
  type EarnEvent,
  type EarnEventResult,
  type FieldProblem,
  parseOccurredAt,
  validateEarnEvent,
} from "./earn-event";
export { EVM_ADDRESS_PATTERN, isEvmAddress, isZeroEvmAddress, ZERO_EVM_ADDRESS } from "./evm-address";
export { JsonDecimal, stringifyJson } from "./exact-json";
export { idempotencyKeyProblem, isValidIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH } from "./idempotency-key";
export { type AccountIdOptions, IDENTITY_TYPES, type IdentityType, isIdentityType, normalizeAccountId } from "./identity";
export { JsonNumberText, parseJsonExact } from "./json-number";
export { type BoardNameLists, containsBadWord, parseBadWords, refuseHiddenDisplayName, revealsIdentity } from "./name-match";
export { keysetPage } from "./paging";
export {
  balanceObjectSchema,
  type ExactBalanceObject,
  type ExactScoreObject,
  type LeaderboardEntry,
  type LeaderboardEntryBody,
  type LeaderboardResponse,
  type LeaderboardResponseBody,
  leaderboardResponseSchema,
  type ScoreObject,
  scoreObjectSchema,
  type UserScoresResponse,
  type UserScoresResponseBody,
  userScoresResponseSchema,
} from "./read";
export {
  type ChangedScoreRows,
  MAX_USERS_NAMED,
  SCORES_CHANGED_REASONS,
  type ScoresChanged,
  type ScoresChangedReason,
  scoresChangedSchema,
  scoresChangeOf,
} from "./scores-changed";
export { firstInvalidUtf8, INVALID_UTF8, invalidUtf8 } from "./utf8";
