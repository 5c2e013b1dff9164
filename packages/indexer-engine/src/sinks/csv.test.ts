// The csv sink: quoting, one header across restarts, cutting back to the committed cursor, and column order.
import { appendFile, type FileHandle, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import { capturingLogger, row } from "../testing/fixtures";
import { CSV_HEADER, CsvSink, csvField, csvLine } from "./csv";

/**
 * The most bytes one positioned write of a file opened through fs/promises writes (a short write, as a full disk or a
 * signal can cause); unlimited unless a test sets it.
 */
const mockShortWrites = { max: Number.POSITIVE_INFINITY };
jest.mock("node:fs/promises", () => {
  const actual = jest.requireActual("node:fs/promises");
  return {
    ...actual,
    open: async (...args: Parameters<typeof actual.open>) => {
      const handle: FileHandle = await actual.open(...args);
      const write = handle.write.bind(handle) as (b: Buffer, o: number, l: number, p: number) => Promise<{ bytesWritten: number; buffer: Buffer }>;
      Object.assign(handle, { write: (b: Buffer, o: number, l: number, p: number) => write(b, o, Math.min(l, mockShortWrites.max), p) });
      return handle;
    },
  };
});

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

  it("starts a new file with the header line, creating its folders and replacing what was there", async () => {
    const path = join(dir, "new", "deeper", "out.csv");
    const { logger: log, lines } = capturingLogger();
    const first = new CsvSink("3-csv", path, log);
    await first.recover(undefined);
    await first.write([row({ id: "old" })]);
    await first.close();
    const again = new CsvSink("3-csv", path, log);
    await again.recover(undefined);
    await again.close();
    expect(await readFile(path, "utf8")).toBe(
      "rowType,id,indexerId,chainId,adapterId,adapterVersion,user,asset,activity,amount,priceable,active,startTs,endTs,durationMs," +
        "startBlock,endBlock,ts,height,txHash,logIndex,trigger,priceUsd,valueUsd,usdHours,meta\n",
    );
    expect(lines.map((l) => [l.level, l.msg, l.sink, l.path])).toEqual([
      ["info", "csv sink started a new file", "3-csv", path],
      ["info", "csv sink started a new file", "3-csv", path],
    ]);
  });

  it("returns the file length after each batch as the cursor, and the same cursor for an empty batch", async () => {
    const path = join(dir, "cursor.csv");
    const sink = new CsvSink("0-csv", path, logger);
    await sink.recover(undefined);
    const one = await sink.write([row({ id: "c1" })]);
    expect(Number(one)).toBe((await stat(path)).size);
    expect(await sink.write([])).toBe(one);
    const two = await sink.write([row({ id: "c2" }), row({ id: "c3" })]);
    await sink.committed();
    await sink.close();
    expect(Number(two)).toBe((await stat(path)).size);
    expect(Number(two) - Number(one)).toBe(Buffer.byteLength(csvLine(row({ id: "c2" })) + csvLine(row({ id: "c3" }))));
  });

  it("warns with the number of bytes cut on restart, and says nothing when the file ends at the cursor", async () => {
    const path = join(dir, "warn.csv");
    const sink = new CsvSink("0-csv", path, logger);
    await sink.recover(undefined);
    const cursor = await sink.write([row({ id: "w1" })]);
    await sink.close();
    const quiet = capturingLogger();
    const clean = new CsvSink("0-csv", path, quiet.logger);
    await clean.recover(cursor);
    await clean.close();
    expect(quiet.lines).toEqual([]);
    await appendFile(path, "action,half");
    const noisy = capturingLogger();
    const cut = new CsvSink("0-csv", path, noisy.logger);
    await cut.recover(cursor);
    const next = await cut.write([row({ id: "w2" })]);
    await cut.close();
    expect(noisy.lines.map((l) => [l.level, l.msg, l.sink, l.path, l.dropped])).toEqual([
      ["warn", "csv sink cut uncommitted bytes after restart", "0-csv", path, 11],
    ]);
    expect(Number(next)).toBe(Number(cursor) + Buffer.byteLength(csvLine(row({ id: "w2" }))));
  });

  it("names the file and byte counts when it is shorter than the checkpoint, and is closed afterwards", async () => {
    const path = join(dir, "behind.csv");
    await writeFile(path, "rowType\n");
    const sink = new CsvSink("0-csv", path, logger);
    await expect(sink.recover("100")).rejects.toMatchObject({
      code: "csv-sink-behind",
      message: `csv sink file ${path} has 8 bytes, fewer than the 100 its checkpoint recorded`,
    });
    await expect(sink.write([row({ id: "late" })])).rejects.toMatchObject({ code: "csv-sink-closed" });
    expect(await readFile(path, "utf8")).toBe("rowType\n");
  });

  it("names a missing file with the open error as cause", async () => {
    const path = join(dir, "missing.csv");
    const failure = new CsvSink("0-csv", path, logger).recover("10");
    await expect(failure).rejects.toMatchObject({
      code: "csv-sink-missing",
      message: `csv sink file ${path} is missing but the checkpoint has rows in it`,
      cause: { code: "ENOENT" },
    });
  });

  it("refuses rows before recover, but returns cursor 0 for an empty batch and closes without a file", async () => {
    const sink = new CsvSink("0-csv", join(dir, "never.csv"), logger);
    await expect(sink.write([row({ id: "early" })])).rejects.toMatchObject({ code: "csv-sink-closed", message: "csv sink used before recover" });
    await expect(sink.write([])).resolves.toBe("0");
    await expect(sink.close()).resolves.toBeUndefined();
  });

  it("completes a batch the file system takes a few bytes at a time", async () => {
    const path = join(dir, "short-writes.csv");
    const sink = new CsvSink("0-csv", path, logger);
    mockShortWrites.max = 7;
    try {
      await sink.recover(undefined);
      await sink.write([row({ id: "s1", meta: "é€😀" })]);
      const cursor = await sink.write([row({ id: "s2" }), row({ id: "s3" })]);
      await sink.close();
      const expected = CSV_HEADER + csvLine(row({ id: "s1", meta: "é€😀" })) + csvLine(row({ id: "s2" })) + csvLine(row({ id: "s3" }));
      expect(await readFile(path, "utf8")).toBe(expected);
      expect(Number(cursor)).toBe(Buffer.byteLength(expected));
    } finally {
      mockShortWrites.max = Number.POSITIVE_INFINITY;
    }
  });
});

describe("csvLine", () => {
  it("writes a column that is absent from the row as an empty field, like null", () => {
    const absent = { ...row({ id: "u" }), asset: undefined, logIndex: undefined } as unknown as OutputRow;
    const fields = csvLine(absent).split(",");
    expect([fields[7], fields[20]]).toEqual(["", ""]);
  });

  it("joins the runner columns once while they stay the same: the next row's are only read to compare", () => {
    const runner = ["indexerId", "chainId", "adapterId", "adapterVersion"] as const;
    /** A row that counts how often each runner column is read. */
    const counted = (r: OutputRow) => {
      const reads: Record<string, number> = {};
      const proxy = new Proxy(r, {
        get(target, key, receiver) {
          if (typeof key === "string" && (runner as readonly string[]).includes(key)) reads[key] = (reads[key] ?? 0) + 1;
          return Reflect.get(target, key, receiver);
        },
      });
      return { proxy, reads };
    };
    csvLine(row({ id: "first", indexerId: "cached" }));
    const second = counted(row({ id: "second", indexerId: "cached" }));
    expect(csvLine(second.proxy)).toBe(csvLine(row({ id: "second", indexerId: "cached" })));
    expect(second.reads).toEqual({ indexerId: 1, chainId: 1, adapterId: 1, adapterVersion: 1 });
  });
});
