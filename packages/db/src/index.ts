// Entry point of @pointwise/db: client, statement queue, COPY, transactions, migrations, attempt counters and typed errors.
export { type AttemptLimit, type AttemptTable, countAttempt, forgetAttempts } from "./attempts";
export { type ReadCampaignLogOptions, readCampaignLog } from "./campaign-log";
export { readCampaignWindow } from "./campaign-window";
export { createDatabase, type Database, Prisma, PrismaClient } from "./client";
export { copyField, copyRow } from "./copy-text";
export {
  DatabaseError,
  DbBusyError,
  DbConnectionError,
  type DbError,
  type DbErrorOptions,
  InvalidValueError,
  isDbError,
  isUniqueViolation,
  SerializationError,
  toDbError,
  UniqueConstraintError,
} from "./errors";
export { addAdjustmentScores, excludedUsers, readAdjustments } from "./fair-play";
export { guardIdentityMove, guardMovedPoints, type IdentityMove, linkingIdentity } from "./identity-moves";
export { type BoardPlace, ON_BOARD_SQL, type RankingColumn, rankingColumnOf, topOfBoard, topOfBoardSql } from "./leaderboard";
export { dropSchema, MIGRATIONS_DIR, type MigrateResult, type Migration, migrate, migrateSchema, readMigrations } from "./migrate";
export { applicationNameOf, type PoolOptions, quoteSchema } from "./pool";
export { queueRecompute, type RecomputeReason } from "./recompute";
export { linkReferrer } from "./referrals";
export { type ReadRouting, type ReadRoutingOptions, type ReadRoutingStatus, type ReplicaState, replicaState, routeReads } from "./replica";
export { REDEMPTION_COLUMNS, REWARD_COLUMNS, type RedemptionRow, type RewardRow, redemptionJson, rewardJson } from "./reward-rows";
export { addSpent, lockSpendableRow, readSpends, type SpendableRow, type StoredSpend, setSpentScores } from "./rewards";
export { ACTIVE_RULE_VERSION_SQL, type ActiveRuleVersion, activateRuleVersion, activeRuleVersion } from "./rule-versions";
export type { Queryable, QueryResult, Row, StatementQueue } from "./statement-queue";
export type { IsolationLevel, Transaction } from "./transaction";
