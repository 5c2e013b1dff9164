// Reads a small CSV list upload (exclusions, adjustments): a header row naming the columns, then one record per line.
import { isUtf8 } from "node:buffer";
import { ValidationError } from "@pointwise/errors";
import { firstInvalidUtf8, invalidUtf8 } from "@pointwise/schemas";
import { CsvError, parse } from "csv-parse/sync";

/** Most rows one list upload may have. */
export const MAX_LIST_ROWS = 50_000;

/** One record of a list upload with its line number (the header is line 1). */
export interface ListRow {
  line: number;
  values: Record<string, string>;
}

/** A bad row of a list upload: its line and why, in the API's error shape. */
export interface ListRowError {
  line: number;
  code: string;
  message: string;
}

/**
 * A row's first column holding the character U+0000, as a row error's message: no text column can store it, so
 * the row is refused (named) like a JSON body's field rather than failing the query that writes it.
 */
export function nulProblem(row: ListRow): string | null {
  for (const [column, value] of Object.entries(row.values)) if (value.includes("\u0000")) return `${column}: must not contain the character U+0000`;
  return null;
}

/**
 * Parses the upload. The header must name every required column, may name optional ones and nothing
 * else; whole-file problems throw `csv-invalid-header`, `csv-malformed` or `too-many-rows`.
 */
export function parseList(body: Buffer, required: readonly string[], optional: readonly string[]): ListRow[] {
  if (!isUtf8(body)) throw invalidUtf8("CSV file", firstInvalidUtf8(body));
  return parseText(body.toString("utf8"), required, optional);
}

function parseText(text: string, required: readonly string[], optional: readonly string[]): ListRow[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, { bom: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof parsed;
  } catch (err) {
    if (err instanceof CsvError) throw new ValidationError(`CSV is malformed: ${err.message}`, { code: "csv-malformed" });
    throw err;
  }
  const header = parsed[0]?.record;
  if (!header) throw new ValidationError(`CSV header must name the columns ${required.join(",")}`, { code: "csv-invalid-header" });
  const allowed = new Set([...required, ...optional]);
  const unknown = header.filter((h) => !allowed.has(h));
  const missing = required.filter((r) => !header.includes(r));
  if (unknown.length > 0 || missing.length > 0 || new Set(header).size !== header.length) {
    const problems = [missing.length ? `missing ${missing.join(", ")}` : "", unknown.length ? `unknown ${unknown.join(", ")}` : ""].filter(Boolean).join("; ");
    throw new ValidationError(
      `CSV header must name the columns ${required.join(",")}${optional.length ? ` (optional: ${optional.join(",")})` : ""}, each once${problems ? `: ${problems}` : ""}`,
      { code: "csv-invalid-header" },
    );
  }
  if (parsed.length - 1 > MAX_LIST_ROWS) throw new ValidationError(`CSV has more than ${MAX_LIST_ROWS} rows; split it`, { code: "too-many-rows" });
  return parsed.slice(1).map((r) => ({ line: r.info.lines, values: Object.fromEntries(header.map((h, j) => [h, r.record[j] ?? ""])) }));
}
