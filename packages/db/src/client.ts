import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import type { Pool } from "pg";
import { createPool, type PoolOptions } from "./pool";

export { Prisma, PrismaClient } from "@prisma/client";

/** The database handles an app needs: a pg pool for set-based SQL and Prisma for everything else. */
export interface Database {
  pool: Pool;
  prisma: PrismaClient;
  schema: string;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens one pool and a Prisma client on top of it (no second pool, one search_path). */
export function createDatabase(options: PoolOptions): Database {
  const schema = options.schema ?? "public";
  const pool = createPool(options);
  // The pool has no 'error' listener by default: an idle client dropped by the server would crash the process.
  pool.on("error", () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
  return {
    pool,
    prisma,
    schema,
    async ping() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
