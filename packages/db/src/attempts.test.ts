// The attempt counter on PostgreSQL: counts per key, refuses past the limit with the time left, and forgets.
import type { RateLimitError } from "@pointwise/errors";
import { createTestDatabase, uniqueName } from "@pointwise/testkit";
import { countAttempt, forgetAttempts } from "./attempts";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase(uniqueName("attempts"));
});
afterAll(() => db.drop());

const limit = { attempts: 3, windowSeconds: 600 };
const rowsOf = async (table: string) => (await db.query<{ key: string; attempts: number }>(`SELECT key, attempts FROM ${table} ORDER BY key`)).rows;

describe("countAttempt", () => {
  it.each(["sign_in_attempt", "portal_attempt"] as const)(
    "counts each key of %s on its own and refuses the attempt past the limit with the seconds left",
    async (table) => {
      for (let i = 0; i < 3; i++) await countAttempt(db, table, "ip:198.51.100.1", limit, "sign-in attempts from this address");
      await countAttempt(db, table, "ip:198.51.100.2", limit, "sign-in attempts from this address");
      const err = (await countAttempt(db, table, "ip:198.51.100.1", limit, "sign-in attempts from this address").catch((e) => e)) as RateLimitError;
      expect(err.code).toBe("too-many-attempts");
      expect(err.retryAfterSeconds).toBeGreaterThan(590);
      expect(err.retryAfterSeconds).toBeLessThanOrEqual(600);
      expect(err.message).toBe(`too many sign-in attempts from this address; try again in ${err.retryAfterSeconds} s`);
      // A refused attempt counts too: the window holds 4 now.
      expect(await rowsOf(table)).toEqual([
        { key: "ip:198.51.100.1", attempts: 4 },
        { key: "ip:198.51.100.2", attempts: 1 },
      ]);
    },
  );

  it("lets no more attempts through than the limit when they arrive all at once", async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => countAttempt(db, "portal_attempt", "id:burst", limit, "attempts")));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
  });

  it("starts a new window with the first attempt after the last one ended", async () => {
    for (let i = 0; i < 4; i++) await countAttempt(db, "sign_in_attempt", "email:late@pointwise.test", limit, "attempts").catch(() => undefined);
    await db.query("UPDATE sign_in_attempt SET window_start = window_start - interval '601 seconds' WHERE key = 'email:late@pointwise.test'");
    await countAttempt(db, "sign_in_attempt", "email:late@pointwise.test", limit, "attempts");
    const { rows } = await db.query<{ attempts: number }>("SELECT attempts FROM sign_in_attempt WHERE key = 'email:late@pointwise.test'");
    expect(rows).toEqual([{ attempts: 1 }]);
  });
});

describe("forgetAttempts", () => {
  it("forgets the keys given and every ended window of the table, and keeps the rest", async () => {
    await db.query("DELETE FROM portal_attempt");
    for (const key of ["a", "b", "c"]) await countAttempt(db, "portal_attempt", key, limit, "attempts");
    await db.query("UPDATE portal_attempt SET window_start = window_start - interval '601 seconds' WHERE key = 'c'");
    await forgetAttempts(db, "portal_attempt", ["a"], limit.windowSeconds);
    expect(await rowsOf("portal_attempt")).toEqual([{ key: "b", attempts: 1 }]);
  });
});
