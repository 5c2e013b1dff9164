// COPY through the worker's pipeline against a real PostgreSQL: what goes in is what comes back.
import { createTestDatabase, uniqueName } from "@pointwise/testkit";
import { copyRow } from "./copy-text";
import { pipelined } from "./statement-queue";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_copy"));
  await db.pool.query("CREATE TABLE copied(ord int, label text, doc json, amount numeric)");
});
afterAll(async () => {
  await db?.drop();
});

describe("COPY through the pipeline", () => {
  it("stores backslashes, tabs, newlines, quotes and NULLs exactly as given, in order, between other statements", async () => {
    const labels = ["plain", "tab\there", "line\nbreak", "back\\slash", "\\N", 'quote"d', "cr\rlf\r\n"];
    const docs = labels.map((label) => JSON.stringify({ label }));
    const client = await db.pool.connect();
    try {
      const counts = await pipelined(client, async (p) => {
        const before = p.query("SELECT 1");
        const copied = p.copy(
          "COPY copied(ord, label, doc, amount) FROM STDIN",
          labels.map((label, i) => copyRow([i, label, docs[i] as string, i === 3 ? null : `${i}.25`])).join(""),
        );
        const after = p.query<{ n: string }>("SELECT count(*)::text AS n FROM copied");
        return { before: (await before).rowCount, copied: await copied, after: (await after).rows[0]?.n };
      });
      expect(counts).toEqual({ before: 1, copied: labels.length, after: String(labels.length) });
    } finally {
      client.release();
    }
    const { rows } = await db.pool.query<{ label: string; doc: { label: string }; amount: string | null }>(
      "SELECT label, doc, amount::text AS amount FROM copied ORDER BY ord",
    );
    expect(rows.map((r) => r.label)).toEqual(labels);
    expect(rows.map((r) => r.doc.label)).toEqual(labels);
    expect(rows.map((r) => r.amount)).toEqual(["0.25", "1.25", "2.25", null, "4.25", "5.25", "6.25"]);
  });

  it("fails the statements queued behind a COPY that PostgreSQL refuses, with the COPY's error", async () => {
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const run = pipelined(client, async (p) => {
        p.copy("COPY copied(ord, label, doc, amount) FROM STDIN", copyRow([1, "bad", "{not json", "1"]));
        await p.query("SELECT 1");
      });
      await expect(run).rejects.toThrow(/json/i);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });
});
