// checkConnection: one bounded attempt a start-up loop can retry, typed by why it failed.
import { createDatabase } from "./client";
import { DbConnectionError } from "./errors";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describe("checkConnection", () => {
  it("resolves when PostgreSQL answers", async () => {
    const db = createDatabase({ url, max: 1 });
    try {
      await expect(db.checkConnection()).resolves.toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it("rejects at once with a retryable DbConnectionError when nothing listens", async () => {
    const db = createDatabase({ url: "postgres://app:s3cret@127.0.0.1:1/none", max: 1 });
    try {
      const started = Date.now();
      const err = await db.checkConnection().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DbConnectionError);
      expect(err).toMatchObject({ code: "database-unavailable", retryable: true });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await db.close();
    }
  });
});
