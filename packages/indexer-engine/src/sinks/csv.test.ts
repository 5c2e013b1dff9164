import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("refuses a file shorter than its checkpoint, or a missing one", async () => {
    const path = join(dir, "short.csv");
    await writeFile(path, "rowType\n");
    await expect(new CsvSink("0-csv", path, logger).recover("5000")).rejects.toMatchObject({ code: "csv-sink-behind" });
    await expect(new CsvSink("0-csv", join(dir, "gone.csv"), logger).recover("10")).rejects.toMatchObject({ code: "csv-sink-missing" });
  });
});
