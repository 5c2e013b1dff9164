export { type ReadCampaignLogOptions, readCampaignLog } from "./campaign-log";
export { createDatabase, type Database, Prisma, PrismaClient } from "./client";
export { lockCampaign, tryLockCampaign } from "./locks";
export { dropSchema, MIGRATIONS_DIR, type MigrateResult, type Migration, migrate, readMigrations } from "./migrate";
export { createPool, type PoolOptions, quoteSchema } from "./pool";
export { withTransaction } from "./tx";
