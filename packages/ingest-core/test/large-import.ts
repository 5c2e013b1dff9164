// Imports a generated CSV file of ROWS rows through importCsv (both passes, accept-valid) in a process of
// its own, sampling the retained heap after full garbage collections, and prints one JSON line:
// { rows, bytes, published, stored, peakHeapGrowth, ms }. Needs --expose-gc; run by import-large.test.ts.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { importCsv } from "../src/csv/import";
import { getCsvImport } from "../src/csv/jobs";
import { createIngestPipeline } from "../src/pipeline";
import { seed } from "./fixtures";

const rows = Number(process.argv[2] ?? 200_000);
const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  if (gc === undefined) throw new Error("run with --expose-gc");
  const s = await seed();
  const pipeline = createIngestPipeline({ db: s.db, bus: s.bus, logger: s.logger });
  let bytes = 0;
  async function* file() {
    const header = "account_id,identity_type,amount,reg_event_id\n";
    bytes += header.length;
    yield header;
    for (let i = 0; i < rows; i += 1000) {
      let chunk = "";
      for (let j = i; j < Math.min(rows, i + 1000); j++) chunk += `0x${(j + 1).toString(16).padStart(40, "0")},EVM_ADDRESS,${j}.125,${s.regEventId}\n`;
      bytes += chunk.length;
      yield chunk;
    }
  }
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), "pw-test-spool-"));
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const sample = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  };
  const sampler = setInterval(sample, 1000);
  const started = Date.now();
  try {
    const result = await importCsv(pipeline, { campaignId: s.campaignId, input: Readable.from(file()), mode: "accept-valid", origin: "admin-api", spoolDir });
    clearInterval(sampler);
    sample();
    const job = await getCsvImport(s.db, s.campaignId, result.importId);
    await result.dispose();
    process.stdout.write(
      `${JSON.stringify({
        rows,
        bytes,
        status: result.status,
        published: result.rowsPublished,
        jobPublished: job?.rows_published,
        stored: await s.count(),
        peakHeapGrowth: peak,
        spoolsLeft: readdirSync(spoolDir).length,
        ms: Date.now() - started,
      })}\n`,
    );
  } finally {
    clearInterval(sampler);
    rmSync(spoolDir, { recursive: true, force: true });
    await pipeline.close();
    await s.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
