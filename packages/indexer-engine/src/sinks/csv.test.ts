// The csv sink: quoting, one header across restarts, cutting back to the committed cursor, and column order.
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import { capturingLogger, row } from "../testing/fixtures";
import { CSV_HEADER, CsvSink, csvField, csvLine } from "./csv";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pw-csv-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const { logger } = capturingLogger();

describe("csv sink", () => {
  it("quotes fields that hold commas, quotes or line breaks", () => {
    expect(csvField('{"a":"b,c"}')).toBe('"{""a"":""b,c""}"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(false)).toBe("false");
  });

  it("writes the header once across restarts", async () => {
    const path = join(dir, "once.csv");
    const first = new CsvSink("0-csv", path, logger);
    await first.recover(undefined);
    const cursor = await first.write([row({ id: "r1" })]);
    await first.close();
    const second = new CsvSink("0-csv", path, logger);
    await second.recover(cursor);
    await second.write([row({ id: "r2" })]);
    await second.close();
    expect(await readFile(path, "utf8")).toBe(CSV_HEADER + csvLine(row({ id: "r1" })) + csvLine(row({ id: "r2" })));
  });

  it("cuts rows of an uncommitted batch and a torn line back to the committed cursor", async () => {
    const path = join(dir, "torn.csv");
    const sink = new CsvSink("0-csv", path, logger);
    await sink.recover(undefined);
    const committed = await sink.write([row({ id: "kept" })]);
    await sink.write([row({ id: "never-committed" })]);
    await sink.close();
    await appendFile(path, "action,torn");
    const restarted = new CsvSink("0-csv", path, logger);
    await restarted.recover(committed);
    await restarted.close();
    // Nothing follows the committed rows, not even the start of a line.
    expect(await readFile(path, "utf8")).toBe(CSV_HEADER + csvLine(row({ id: "kept" })));
  });

  it("writes every column in ROW_COLUMNS order for any row (property)", () => {
    const text = fc.oneof(fc.string(), fc.constantFrom("a,b", 'say "hi"', "two\nlines", "cr\r", "é€😀"), fc.constant(null));
    const num = fc.oneof(fc.integer(), fc.constant(1_700_000_000_123), fc.constant(null));
    const anyRow = fc.record({
      id: fc.string(),
      activity: fc.string(),
      user: fc.string(),
      asset: text,
      amount: text,
      priceable: fc.oneof(fc.boolean(), fc.constant(null)),
      active: fc.oneof(fc.boolean(), fc.constant(null)),
      startTs: num,
      endTs: num,
      durationMs: num,
      startBlock: num,
      endBlock: num,
      txHash: text,
      logIndex: num,
      trigger: text,
      priceUsd: text,
      valueUsd: text,
      usdHours: text,
      meta: text,
    });
    fc.assert(
      fc.property(anyRow, (overrides) => {
        const r = row(overrides as Partial<OutputRow>);
        expect(csvLine(r)).toBe(`${ROW_COLUMNS.map((c) => csvField(r[c])).join(",")}\n`);
      }),
    );
  });

  it("writes a batch larger than its buffer, with multi-byte text, byte for byte", async () => {
    const path = join(dir, "large.csv");
    const sink = new CsvSink("0-csv", path, logger);
    await sink.recover(undefined);
    const rows = Array.from({ length: 40 }, (_, i) => row({ id: `r${i}`, meta: JSON.stringify({ note: `"é€😀",${"x".repeat(60_000)}` }) }));
    const cursor = await sink.write(rows);
    await sink.write([row({ id: "after" })]);
    await sink.close();
    const expected = CSV_HEADER + rows.map(csvLine).join("");
    expect(Number(cursor)).toBe(Buffer.byteLength(expected));
    expect(await readFile(path, "utf8")).toBe(expected + csvLine(row({ id: "after" })));
  });

  it("refuses a file shorter than its checkpoint, or a missing one", async () => {
    const path = join(dir, "short.csv");
    await writeFile(path, "rowType\n");
    await expect(new CsvSink("0-csv", path, logger).recover("5000")).rejects.toMatchObject({ code: "csv-sink-behind" });
    await expect(new CsvSink("0-csv", join(dir, "gone.csv"), logger).recover("10")).rejects.toMatchObject({ code: "csv-sink-missing" });
  });
});
