// The byte encoder of the csv sink held to RFC 4180 in UTF-8, for any row, runner change and buffer size.
import fc from "fast-check";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import { row } from "../testing/fixtures";
import { CsvEncoder, csvField } from "./csv-encode";

/** RFC 4180, section 2, rules 6 and 7: enclose a field with a comma, quote, CR or LF in quotes and double its quotes. */
function expectedField(value: unknown): string {
  if (value === null) return "";
  const text = typeof value === "string" ? value : String(value);
  return /[,"\r\n]/.test(text) ? `"${text.split('"').join('""')}"` : text;
}

const expectedBytes = (rows: OutputRow[]) => Buffer.from(rows.map((r) => `${ROW_COLUMNS.map((c) => expectedField(r[c])).join(",")}\n`).join(""), "utf8");

const encoded = (encoder: CsvEncoder) => Buffer.from(encoder.bytes.subarray(0, encoder.length));

const texts = fc.oneof(
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("0x00000000000000000000000000000000000000aa", "x,y", 'a "b"', "line\r\nnext", "ünïcödé €", "😀,", ""),
  fc.constant(null),
);
const numbers = fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, 2 ** 60, 1e21, 0.1), fc.constant(null));
const booleans = fc.oneof(fc.boolean(), fc.constant(null));
const NUMBER_COLUMNS: ReadonlySet<string> = new Set(["chainId", "startTs", "endTs", "durationMs", "startBlock", "endBlock", "ts", "height", "logIndex"]);
const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set(["priceable", "active"]);
const anyRow = fc
  .record(Object.fromEntries(ROW_COLUMNS.map((c) => [c, NUMBER_COLUMNS.has(c) ? numbers : BOOLEAN_COLUMNS.has(c) ? booleans : texts])))
  .map((columns) => row(columns as Partial<OutputRow>));

describe("CsvEncoder", () => {
  it("writes the UTF-8 bytes of RFC 4180 lines for any rows, growing from a tiny buffer (property)", () => {
    fc.assert(
      fc.property(fc.array(anyRow, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 64 }), (rows, initial) => {
        const encoder = new CsvEncoder(initial);
        for (const r of rows) encoder.row(r);
        expect(encoded(encoder)).toEqual(expectedBytes(rows));
      }),
      { numRuns: 400 },
    );
  });

  it("writes integers digit by digit as decimal text: 0, 7, 10, 1700000000123 and 2^53 - 1", () => {
    const encoder = new CsvEncoder();
    const values = [0, 7, 10, 1_700_000_000_123, 9_007_199_254_740_991];
    for (const ts of values) encoder.row(row({ ts }));
    const tsColumn = ROW_COLUMNS.indexOf("ts");
    const lines = encoded(encoder).toString("utf8").trimEnd().split("\n");
    expect(lines.map((line) => line.split(",")[tsColumn])).toEqual(["0", "7", "10", "1700000000123", "9007199254740991"]);
  });

  it("quotes any text column holding a comma, a quote, a CR or a LF, and writes booleans as true and false", () => {
    const textColumns = ROW_COLUMNS.filter((c) => !NUMBER_COLUMNS.has(c) && !BOOLEAN_COLUMNS.has(c));
    const rows = textColumns.flatMap((c) => [",", '"', "\r", "\n"].map((special) => row({ [c]: `a${special}b` })));
    rows.push(row({ priceable: false, active: true }));
    const encoder = new CsvEncoder(1);
    for (const r of rows) encoder.row(r);
    expect(encoded(encoder)).toEqual(expectedBytes(rows));
    expect(encoded(encoder).toString("utf8").endsWith(",swap,1,false,true,,,,,,1700000000000,10,0xabc,0,,2,2,,\n")).toBe(true);
  });

  it("writes text of thousands of multi-byte characters, quoted, from a one-byte buffer", () => {
    // 3,000 euro signs (3 bytes each in UTF-8) around a comma: 9,001 bytes plus the two quotes.
    const long = `${"€".repeat(1_500)},${"€".repeat(1_500)}`;
    const rows = [row({ meta: long }), row({ activity: long, meta: long })];
    const encoder = new CsvEncoder(1);
    for (const r of rows) encoder.row(r);
    expect(encoded(encoder)).toEqual(expectedBytes(rows));
  });

  it("writes the runner columns again when only one of them changes", () => {
    const rows = [
      row({}),
      row({ indexerId: "other" }),
      row({ indexerId: "other", chainId: 10 }),
      row({ indexerId: "other", chainId: 10, adapterId: "vault" }),
      row({ indexerId: "other", chainId: 10, adapterId: "vault", adapterVersion: "0.0.2" }),
    ];
    const encoder = new CsvEncoder();
    for (const r of rows) encoder.row(r);
    expect(encoded(encoder)).toEqual(expectedBytes(rows));
  });

  it("gives an absent field as empty, as null", () => {
    expect([csvField(undefined), csvField(null)]).toEqual(["", ""]);
  });

  it("starts over after reset and writes the runner columns again when they change", () => {
    const encoder = new CsvEncoder(16);
    encoder.row(row({ indexerId: "first" }));
    encoder.reset();
    expect(encoder.length).toBe(0);
    const second = row({ indexerId: "a,b", adapterVersion: "2.0.0" });
    encoder.row(second);
    const line = encoded(encoder).toString("utf8");
    expect(line.startsWith('action,id,"a,b",1,amm-v2,2.0.0,')).toBe(true);
    expect(encoded(encoder)).toEqual(expectedBytes([second]));
  });

  it("keeps its buffer when a row fills it to the last byte", () => {
    const r = row({ meta: "m" });
    const size = expectedBytes([r]).length;
    const encoder = new CsvEncoder(size);
    const buffer = encoder.bytes;
    encoder.row(r);
    expect(encoder.length).toBe(size);
    expect(encoder.bytes).toBe(buffer);
    expect(encoded(encoder)).toEqual(expectedBytes([r]));
  });

  it("grows its buffer at least twofold each time, keeping what it holds, and keeps it after a reset", () => {
    const rows = [row({}), row({ meta: `{"note":"${"x".repeat(300)}"}` }), row({ activity: "€,€", ts: 2 ** 40 })];
    const encoder = new CsvEncoder(4);
    let size = encoder.bytes.length;
    let growths = 0;
    for (const r of rows) {
      encoder.row(r);
      if (encoder.bytes.length !== size) {
        expect(encoder.bytes.length).toBeGreaterThanOrEqual(2 * size);
        size = encoder.bytes.length;
        growths++;
      }
    }
    expect(growths).toBeGreaterThan(0);
    expect(encoded(encoder)).toEqual(expectedBytes(rows));
    const buffer = encoder.bytes;
    encoder.reset();
    encoder.row(rows[0] as OutputRow);
    expect(encoder.bytes).toBe(buffer);
    expect(encoded(encoder)).toEqual(expectedBytes([rows[0] as OutputRow]));
  });

  it("writes numbers and booleans as String() does, without quotes", () => {
    expect([0, -0, 7, -12, 0.5, 1e21, Number.NaN, true, false].map(csvField)).toEqual(["0", "0", "7", "-12", "0.5", "1e+21", "NaN", "true", "false"]);
  });
});
