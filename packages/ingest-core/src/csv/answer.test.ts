// csvImportAnswer: the streamed JSON body of a finished import, and where it cuts its chunks.

import { csvImportAnswer } from "./answer";
import type { CsvImportResult } from "./import";
import type { CsvRowError } from "./jobs";

function result(rows: CsvRowError[]): CsvImportResult {
  return {
    importId: "imp-1",
    mode: "all-or-nothing",
    status: "rejected",
    rowsRead: 5,
    rowsValid: 3,
    rowsInvalid: rows.length,
    rowsPublished: 0,
    async *invalidRows() {
      yield* rows;
    },
    dispose: async () => {},
  };
}

async function chunks(r: CsvImportResult): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of csvImportAnswer(r)) out.push(chunk);
  return out;
}

const row = (line: number, message: string): CsvRowError => ({ line, errors: [{ message, extensions: { code: "invalid-amount" } }] });

describe("csvImportAnswer", () => {
  it("writes the head fields in snake_case and every invalid row, as one JSON document", async () => {
    const rows = [row(2, "amount must not be negative"), row(4, 'amount must be a decimal number such as "12"')];
    const body = (await chunks(result(rows))).join("");
    expect(JSON.parse(body)).toEqual({
      data: {
        import_id: "imp-1",
        mode: "all-or-nothing",
        status: "rejected",
        rows_read: 5,
        rows_valid: 3,
        rows_invalid: 2,
        rows_published: 0,
        invalid_rows: rows,
      },
    });
  });

  it("answers an import without invalid rows with an empty list", async () => {
    expect(await chunks(result([]))).toEqual([
      '{"data":{"import_id":"imp-1","mode":"all-or-nothing","status":"rejected","rows_read":5,"rows_valid":3,"rows_invalid":0,"rows_published":0,"invalid_rows":[',
      "]}}",
    ]);
  });

  it("yields the buffered rows as soon as they reach 64 KiB, and the rest with the closing brackets", async () => {
    // Two rows of 32768 and 32767 characters plus the comma between them fill exactly 65536.
    const first = row(1, "a".repeat(32768 - JSON.stringify(row(1, "")).length));
    const second = row(2, "b".repeat(32767 - JSON.stringify(row(2, "")).length));
    const third = row(3, "c");
    expect(JSON.stringify(first)).toHaveLength(32768);
    expect(JSON.stringify(second)).toHaveLength(32767);
    const out = await chunks(result([first, second, third]));
    expect(out).toHaveLength(3);
    expect(out[1]).toBe(`${JSON.stringify(first)},${JSON.stringify(second)}`);
    expect(out[1]).toHaveLength(65536);
    expect(out[2]).toBe(`,${JSON.stringify(third)}]}}`);
    expect(JSON.parse(out.join("")).data.invalid_rows).toEqual([first, second, third]);
  });

  it("keeps each chunk near 64 KiB however many rows there are", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => row(i + 2, `bad row ${i}`));
    const out = await chunks(result(rows));
    const body = out.slice(1, -1);
    expect(body.length).toBeGreaterThan(1);
    for (const chunk of body) expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
    for (const chunk of body) expect(chunk.length).toBeLessThan(64 * 1024 + 100);
    expect(JSON.parse(out.join("")).data.invalid_rows).toHaveLength(3000);
  });
});
