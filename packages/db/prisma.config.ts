// Prisma CLI configuration for @pointwise/db: schema and migration folders, JS engine over node-postgres.
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// Prisma 6 with the JS engine: `prisma generate` and `prisma migrate diff` run offline; migrations
// are applied by our own runner (src/migrate.ts) because `migrate deploy` needs a downloaded engine.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" });
  },
});
