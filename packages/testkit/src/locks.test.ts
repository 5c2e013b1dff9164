// waitUntilBlockedBy on the real PostgreSQL: it sees a row lock wait on the held transaction, and only that one.
import { backendPid, waitUntilBlockedBy } from "./locks";
import { createTestDatabase } from "./services";

let db: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query("CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL)");
  await db.query("INSERT INTO item VALUES (1, 0), (2, 0)");
});

afterAll(async () => {
  await db.drop();
});

/** Runs `body` inside a transaction that holds the row lock of item `id` until `body` returns. */
async function holding<T>(id: number, body: (holder: number) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("UPDATE item SET n = n + 1 WHERE id = $1", [id]);
    return body(await backendPid(tx));
  });
}

describe("waitUntilBlockedBy", () => {
  it("resolves once another backend waits on a row the holder has locked, and names the backends by pid", async () => {
    let waiterPid = 0;
    // Handed out in an object: returning the promise itself would make the holder wait on its own waiter.
    const { waiter } = await holding(1, async (holder) => {
      const waiter = db.transaction(async (tx) => {
        waiterPid = await backendPid(tx);
        await tx.query("UPDATE item SET n = n + 1 WHERE id = 1");
      });
      await waitUntilBlockedBy(db, holder, "the second update to wait");
      expect(waiterPid).not.toBe(holder);
      // The same wait, named by its waiter.
      await waitUntilBlockedBy(db, holder, "the second update, by pid", { waiter: waiterPid });
      return { waiter };
    });
    await waiter;
    const { rows } = await db.query<{ n: number }>("SELECT n FROM item WHERE id = 1");
    expect(rows[0]?.n).toBe(2);
  });

  it("times out naming what it waited for while nothing waits on the holder, even as another row is waited on", async () => {
    await holding(2, async (holder) => {
      await expect(waitUntilBlockedBy(db, holder, "nothing in particular", { timeoutMs: 300 })).rejects.toThrow(
        "timed out after 300 ms waiting for nothing in particular",
      );
    });
  });
});
