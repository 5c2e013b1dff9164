// COPY through the statement queue against a real PostgreSQL: what goes in is what comes back.
import { createDatabase, type Database } from "./client";
import { copyRow } from "./copy-text";
import { dropSchema } from "./migrate";
import { quoteSchema } from "./pool";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_statement_queue_${process.pid}_${Date.now().toString(36)}`;
let db: Database;

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 3 });
  await db.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
  await db.query("CREATE TABLE copied(ord int, label text, doc json, amount numeric)");
});
afterAll(async () => {
  await dropSchema(db);
  await db.close();
});

describe("COPY through the statement queue", () => {
  it("stores backslashes, tabs, newlines, quotes and NULLs exactly as given, in order, between other statements", async () => {
    const labels = ["plain", "tab\there", "line\nbreak", "back\\slash", "\\N", 'quote"d', "cr\rlf\r\n"];
    const docs = labels.map((label) => JSON.stringify({ label }));
    const counts = await db.transaction((tx) =>
      tx.queue(async (p) => {
        const before = p.query("SELECT 1");
        const copied = p.copy(
          "COPY copied(ord, label, doc, amount) FROM STDIN",
          labels.map((label, i) => copyRow([i, label, docs[i] as string, i === 3 ? null : `${i}.25`])).join(""),
        );
        const after = p.query<{ n: string }>("SELECT count(*)::text AS n FROM copied");
        return { before: (await before).rowCount, copied: await copied, after: (await after).rows[0]?.n };
      }),
    );
    expect(counts).toEqual({ before: 1, copied: labels.length, after: String(labels.length) });
    const { rows } = await db.query<{ label: string; doc: { label: string }; amount: string | null }>(
      "SELECT label, doc, amount::text AS amount FROM copied ORDER BY ord",
    );
    expect(rows.map((r) => r.label)).toEqual(labels);
    expect(rows.map((r) => r.doc.label)).toEqual(labels);
    expect(rows.map((r) => r.amount)).toEqual(["0.25", "1.25", "2.25", null, "4.25", "5.25", "6.25"]);
  });

  it("fails the statements queued behind a COPY that PostgreSQL refuses, with the COPY's error", async () => {
    const run = db.transaction((tx) =>
      tx.queue(async (p) => {
        p.copy("COPY copied(ord, label, doc, amount) FROM STDIN", copyRow([1, "bad", "{not json", "1"]));
        await p.query("SELECT 1");
      }),
    );
    await expect(run).rejects.toThrow(/json/i);
  });
});
