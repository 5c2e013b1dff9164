// Streams the JSON answer of a finished CSV import chunk by chunk, however many rows were invalid.
import type { CsvImportResult } from "./import";

/**
 * The success body of a finished import as JSON text chunks, so a file with a million bad rows is
 * answered without building the whole body in memory:
 * `{ "data": { "import_id", "mode", "status", "rows_read", "rows_valid", "rows_invalid", "rows_published", "invalid_rows": [ { "line", "errors" } ] } }`.
 */
export async function* csvImportAnswer(result: CsvImportResult): AsyncGenerator<string> {
  const head = {
    import_id: result.importId,
    mode: result.mode,
    status: result.status,
    rows_read: result.rowsRead,
    rows_valid: result.rowsValid,
    rows_invalid: result.rowsInvalid,
    rows_published: result.rowsPublished,
  };
  yield `{"data":${JSON.stringify(head).slice(0, -1)},"invalid_rows":[`;
  let first = true;
  let buffer = "";
  for await (const row of result.invalidRows()) {
    buffer += (first ? "" : ",") + JSON.stringify(row);
    first = false;
    if (buffer.length >= 64 * 1024) {
      yield buffer;
      buffer = "";
    }
  }
  yield `${buffer}]}}`;
}
