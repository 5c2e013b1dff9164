// csvLine's fast path held to RFC 4180 quoting written out here, for any row and runner columns that change.
import fc from "fast-check";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import { row } from "../testing/fixtures";
import { csvField, csvLine } from "./csv";

/** RFC 4180, section 2: a field holding a comma, a double quote, CR or LF is enclosed in quotes, its quotes doubled. */
function rfc4180(value: unknown): string {
  if (value === null) return "";
  const text = String(value);
  let special = false;
  for (const ch of text) if (ch === "," || ch === '"' || ch === "\r" || ch === "\n") special = true;
  if (!special) return text;
  let out = '"';
  for (const ch of text) out += ch === '"' ? '""' : ch;
  return `${out}"`;
}

const text = fc.oneof(fc.string(), fc.constantFrom("a,b", 'say "hi"', "two\nlines", "cr\r", '"', ",", "é€😀", "0xabc"), fc.constant(null));
const num = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constant(1_700_000_000_123), fc.constant(-0), fc.constant(null));
const bool = fc.oneof(fc.boolean(), fc.constant(null));
// Every column gets values of its own type: the runner columns from a few values (so consecutive rows both share
// and change them), numbers and booleans (or null) where the row type has them, any text elsewhere.
const RUNNER: Partial<Record<keyof OutputRow, fc.Arbitrary<unknown>>> = {
  indexerId: fc.constantFrom("idx", "a,b", 'q"x'),
  chainId: fc.constantFrom(1, 31337),
  adapterId: fc.constantFrom("amm-v2", "erc20-holdings", "x\ny"),
  adapterVersion: fc.constantFrom("0.0.1", "1.2.3"),
  rowType: fc.constantFrom("window", "action"),
  ts: fc.integer(),
  height: fc.nat(),
};
const NUMERIC = new Set<keyof OutputRow>(["startTs", "endTs", "durationMs", "startBlock", "endBlock", "logIndex"]);
const BOOLEAN = new Set<keyof OutputRow>(["priceable", "active"]);
const arbitraryOf = (column: keyof OutputRow) => RUNNER[column] ?? (NUMERIC.has(column) ? num : BOOLEAN.has(column) ? bool : text);
const anyRow = fc.record(Object.fromEntries(ROW_COLUMNS.map((c) => [c, arbitraryOf(c)])));

describe("csvLine", () => {
  it("equals RFC 4180 quoting of every column in ROW_COLUMNS order, row after row (property)", () => {
    fc.assert(
      fc.property(fc.array(anyRow, { minLength: 1, maxLength: 6 }), (rows) => {
        for (const overrides of rows) {
          const r = row(overrides as Partial<OutputRow>);
          expect(csvLine(r)).toBe(`${ROW_COLUMNS.map((c) => rfc4180(r[c])).join(",")}\n`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("gives csvField the same answers as RFC 4180 for text, numbers, booleans and null (property)", () => {
    fc.assert(
      fc.property(fc.oneof(text, num, bool), (value) => {
        expect(csvField(value)).toBe(rfc4180(value));
      }),
    );
  });

  it("changes the runner columns when the row's runner changes", () => {
    expect(csvLine(row({ indexerId: "one" })).split(",")[2]).toBe("one");
    expect(
      csvLine(row({ indexerId: "two", chainId: 10 }))
        .split(",")
        .slice(2, 4),
    ).toEqual(["two", "10"]);
    expect(csvLine(row({ indexerId: "two", chainId: 10, adapterVersion: "9.9.9" })).split(",")[5]).toBe("9.9.9");
    expect(
      csvLine(row({ indexerId: "a,b" }))
        .split(",")
        .slice(2, 4),
    ).toEqual(['"a', 'b"']);
  });
});
