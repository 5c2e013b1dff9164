// importCsv against real services: bad rows, size limits, spool cleanup, and retries while the bus is away.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { type NatsServer, startNatsServer, waitUntil } from "@pointwise/testkit";
import { seed } from "../../test/fixtures";
import { createIngestPipeline } from "../pipeline";
import { csvImportAnswer } from "./answer";
import { importCsv } from "./import";
import { failInterruptedCsvImports, getCsvImport } from "./jobs";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const HEADER = "account_id,identity_type,amount,reg_event_id";
async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe("importCsv (as admin-api calls it)", () => {
  let s: Awaited<ReturnType<typeof seed>>;
  let pipeline: ReturnType<typeof createIngestPipeline>;
  beforeAll(async () => {
    s = await seed();
    pipeline = createIngestPipeline({ db: s.db, bus: s.bus, logger: s.logger });
  });
  afterAll(async () => {
    await pipeline?.close();
    await s?.drop();
  });

  it("rejects the whole file in all-or-nothing mode and keeps the first bad rows on the job row", async () => {
    const text = `${HEADER}\n1,DISCORD_PROVIDER_ID,1,${s.regEventId}\n2,DISCORD_PROVIDER_ID,x,${s.regEventId}\n`;
    let started = "";
    const result = await importCsv(pipeline, {
      campaignId: s.campaignId,
      input: Readable.from([text]),
      origin: "admin-api",
      fileName: "june.csv",
      onStart: (id) => (started = id),
    });
    expect(started).toBe(result.importId);
    expect(result).toMatchObject({ status: "rejected", mode: "all-or-nothing", rowsRead: 2, rowsValid: 1, rowsInvalid: 1, rowsPublished: 0 });
    const job = await getCsvImport(s.db, s.campaignId, result.importId);
    expect(job).toMatchObject({ origin: "admin-api", file_name: "june.csv", status: "rejected", rows_invalid: 1 });
    expect(job?.sample_errors).toEqual([{ line: 3, errors: [{ message: expect.stringContaining("amount"), extensions: { code: "invalid-amount" } }] }]);
    const body = JSON.parse((await collect(csvImportAnswer(result))).join(""));
    expect(body.data.invalid_rows).toEqual(job?.sample_errors);
    expect(body.data).toMatchObject({ import_id: result.importId, status: "rejected", rows_read: 2 });
    await result.dispose();
    expect(await s.count()).toBe(0);
    expect(await getCsvImport(s.db, "othr-0000", result.importId)).toBeNull();
    expect(await getCsvImport(s.db, s.campaignId, "not-a-uuid")).toBeNull();
  });

  it("names the rows of an upload by its key and their lines: the same file sent again with the same key is the same events", async () => {
    const text = `${HEADER}\n7,DISCORD_PROVIDER_ID,1,${s.regEventId}\n\n8,DISCORD_PROVIDER_ID,2,${s.regEventId}\n`;
    const upload = async (uploadKey?: string) => {
      const result = await importCsv(pipeline, {
        campaignId: s.campaignId,
        input: Readable.from([text]),
        origin: "admin-api",
        ...(uploadKey === undefined ? {} : { uploadKey }),
      });
      await result.dispose();
      expect(result).toMatchObject({ status: "done", rowsPublished: 2 });
    };
    // JetStream drops a message whose id it has seen within its duplicate window: the stream's count tells new events.
    const before = await s.count();
    await upload("june-import-1");
    expect(await s.count()).toBe(before + 2);
    await upload("june-import-1");
    expect(await s.count()).toBe(before + 2);
    // Another key, or none, is another upload: new events.
    await upload("june-import-2");
    expect(await s.count()).toBe(before + 4);
    await upload();
    await upload();
    expect(await s.count()).toBe(before + 8);
    // The same key with one row changed: that row is a new event (not dropped as the old line's), the other is not.
    const edited = text.replace("7,DISCORD_PROVIDER_ID,1,", "7,DISCORD_PROVIDER_ID,5,");
    const result = await importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from([edited]), origin: "admin-api", uploadKey: "june-import-1" });
    await result.dispose();
    expect(await s.count()).toBe(before + 9);
  });

  it("publishes only the rest of a file whose import stopped part way, when it is sent again with the same key", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `${900 + i},DISCORD_PROVIDER_ID,${i + 1},${s.regEventId}`);
    // An import that stopped after its first four rows went out published what a file of those four rows publishes.
    const stopped = `${HEADER}\n${rows.slice(0, 4).join("\n")}\n`;
    const whole = `${HEADER}\n${rows.join("\n")}\n`;
    const before = await s.count();
    for (const text of [stopped, whole]) {
      const result = await importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from([text]), origin: "admin-api", uploadKey: "stopped-1" });
      await result.dispose();
    }
    expect(await s.count()).toBe(before + 10);
  });

  it("tells its row it is alive while the upload stalls and takes back a row marked interrupted; a row nobody beats stays failed", async () => {
    const input = new PassThrough();
    let importId = "";
    const running = importCsv(pipeline, {
      campaignId: s.campaignId,
      input,
      origin: "admin-api",
      mode: "accept-valid",
      heartbeatMs: 100,
      onStart: (id) => (importId = id),
    });
    input.write(`${HEADER}\n31,DISCORD_PROVIDER_ID,1,${s.regEventId}\n`);
    await waitUntil(async () => importId !== "", 5000, "the import to start");
    const updated = async () => (await getCsvImport(s.db, s.campaignId, importId))?.updated_at ?? "";
    const first = await updated();
    // No row arrives for a while, as with a slow client: the row still hears from the import.
    await waitUntil(async () => (await updated()) > first, 5000, "a heartbeat");
    // Marked interrupted while alive (as when no beat got through for 2 minutes: here, any silence counts), the import
    // takes its row back at its next beat.
    expect(await failInterruptedCsvImports(s.db, 0)).toEqual([importId]);
    await waitUntil(async () => (await getCsvImport(s.db, s.campaignId, importId))?.status === "validating", 5000, "the import to take its row back");
    expect(await getCsvImport(s.db, s.campaignId, importId)).toMatchObject({ error: null, finished_at: null });
    const { rows } = await s.db.query<{ id: string }>(
      "INSERT INTO csv_import(campaign_id, mode, origin, status, rows_published, updated_at) VALUES ($1, 'accept-valid', 'ingest-api', 'publishing', 7, now() - interval '3 minutes') RETURNING id",
      [s.campaignId],
    );
    const stale = rows[0]?.id as string;
    expect(await failInterruptedCsvImports(s.db)).toEqual([stale]);
    expect(await getCsvImport(s.db, s.campaignId, stale)).toMatchObject({
      status: "failed",
      finished_at: expect.any(String),
      error:
        "import-interrupted: the service running this import stopped before it finished, with 7 rows published; send the file again with the same Idempotency-Key to publish the rest (rows already published count once)",
    });
    input.end(`32,DISCORD_PROVIDER_ID,2,${s.regEventId}\n`);
    const result = await running;
    await result.dispose();
    expect(await getCsvImport(s.db, s.campaignId, importId)).toMatchObject({ status: "done", rows_published: 2, error: null, finished_at: expect.any(String) });
    // Finished rows are never marked interrupted, however old.
    await s.db.query("UPDATE csv_import SET updated_at = now() - interval '1 day' WHERE id = $1", [importId]);
    expect(await failInterruptedCsvImports(s.db)).toEqual([]);
  });

  it("streams the answer of a file with many bad rows in order", async () => {
    let text = `${HEADER}\n`;
    for (let i = 0; i < 5000; i++) text += `x${i},EMAIL,1,${s.regEventId}\n`;
    const result = await importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from([text]), origin: "admin-api" });
    const chunks = await collect(csvImportAnswer(result));
    expect(chunks.length).toBeGreaterThan(2);
    const body = JSON.parse(chunks.join(""));
    expect(body.data.invalid_rows).toHaveLength(5000);
    expect(body.data.invalid_rows.map((r: { line: number }) => r.line)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 2));
    expect((await getCsvImport(s.db, s.campaignId, result.importId))?.sample_errors).toHaveLength(100);
    await result.dispose();
  });

  it("fails with the error of an input that failed before it was read, instead of waiting for it to end", async () => {
    const input = new PassThrough();
    // As admin-api's gate does, a listener keeps the stream's error from counting as unhandled.
    input.on("error", () => undefined);
    const refused = new Error("the upload's audit entry could not be written");
    const result = importCsv(pipeline, {
      campaignId: s.campaignId,
      input,
      origin: "admin-api",
      // The input fails (and emits its error) as the job starts, before the import reads it.
      onStart: () => input.destroy(refused),
    });
    await expect(result).rejects.toMatchObject({ code: "invalid-body", message: "the CSV upload could not be read to its end", cause: refused });
  });

  it("stops reading a stream past maxBytes with payload-too-large", async () => {
    async function* endless() {
      yield `${HEADER}\n`;
      for (let i = 0; i < 10_000; i++) yield `${i + 1},GITHUB_PROVIDER_ID,1,${s.regEventId}\n`;
    }
    await expect(importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from(endless()), origin: "admin-api", maxBytes: 4096 })).rejects.toMatchObject(
      {
        code: "payload-too-large",
        message: "CSV file is larger than 4096 bytes",
      },
    );
  });

  it("treats a row longer than 64 KiB as a malformed file, naming the line", async () => {
    const text = `${HEADER}\n1,GITHUB_PROVIDER_ID,1,${s.regEventId}\n${"x".repeat(70_000)},EMAIL,1,${s.regEventId}\n`;
    await expect(importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from([text]), origin: "admin-api" })).rejects.toMatchObject({
      code: "csv-malformed",
      message: expect.stringMatching(/^CSV is malformed at line 3: a row is longer than 65536 characters/),
    });
  });

  it("removes its spool files whether it succeeds or fails", async () => {
    const spoolDir = mkdtempSync(path.join(os.tmpdir(), "pw-test-spool-"));
    try {
      const ok = await importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from([`${HEADER}\n1,EMAIL,1,x\n`]), origin: "admin-api", spoolDir });
      expect(readdirSync(spoolDir)).toHaveLength(1);
      await ok.dispose();
      expect(readdirSync(spoolDir)).toEqual([]);
      await expect(importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from(["nope\n"]), origin: "admin-api", spoolDir })).rejects.toMatchObject({
        code: "csv-invalid-header",
      });
      expect(readdirSync(spoolDir)).toEqual([]);
    } finally {
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});

describe("importCsv while the bus is away", () => {
  let nats: NatsServer;
  let s: Awaited<ReturnType<typeof seed>>;
  let pipeline: ReturnType<typeof createIngestPipeline>;
  beforeAll(async () => {
    nats = await startNatsServer();
    s = await seed({ natsUrl: nats.url });
    pipeline = createIngestPipeline({ db: s.db, bus: s.bus, logger: s.logger }, { publishTimeoutMs: 500 });
  });
  afterAll(async () => {
    await pipeline?.close();
    await s?.drop();
    await nats?.destroy();
  });

  const file = (n: number) => {
    let text = `${HEADER}\n`;
    for (let i = 1; i <= n; i++) text += `${i},GITHUB_PROVIDER_ID,${i},${s.regEventId}\n`;
    return text;
  };

  it("keeps retrying with the same event ids and publishes every row exactly once when the bus comes back", async () => {
    await nats.stop();
    const restart = setTimeout(() => void nats.start(), 700);
    const result = await importCsv(pipeline, {
      campaignId: s.campaignId,
      input: Readable.from([file(2500)]),
      mode: "accept-valid",
      origin: "admin-api",
      publishRetryMs: 20_000,
    });
    clearTimeout(restart);
    expect(result).toMatchObject({ status: "done", rowsPublished: 2500 });
    expect(await s.count()).toBe(2500);
    await result.dispose();
  });

  it("fails with bus-unavailable after its retry window, saying how many rows went out, and records it", async () => {
    await nats.stop();
    const error = await importCsv(pipeline, {
      campaignId: s.campaignId,
      input: Readable.from([file(10)]),
      mode: "accept-valid",
      origin: "admin-api",
      publishRetryMs: 300,
    }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: "bus-unavailable", message: expect.stringMatching(/^event bus unavailable; 0 of 10 rows were published/) });
    const { rows } = await s.db.query<{ id: string }>("SELECT id FROM csv_import ORDER BY created_at DESC LIMIT 1");
    const job = await getCsvImport(s.db, s.campaignId, rows[0]?.id ?? "");
    expect(job).toMatchObject({ status: "failed", rows_valid: 10, rows_published: 0, error: expect.stringMatching(/^bus-unavailable: /) });
    expect(job?.finished_at).not.toBeNull();
    await nats.start();
  });
});
