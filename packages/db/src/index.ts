export { type ReadCampaignLogOptions, readCampaignLog } from "./campaign-log";
export { createDatabase, type Database, Prisma, PrismaClient } from "./client";
export { copyField, copyIn, copyRow } from "./copy-text";
export { lockCampaign, tryLockCampaign } from "./locks";
export { dropSchema, MIGRATIONS_DIR, type MigrateResult, type Migration, migrate, readMigrations } from "./migrate";
export { createPool, type PoolOptions, quoteSchema } from "./pool";
export { Pipeline, pipelined, type Queryable } from "./statement-queue";
export { withTransaction } from "./tx";
