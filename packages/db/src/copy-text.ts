// Rows in PostgreSQL's COPY text format (and sending them with COPY FROM STDIN): tab-separated fields, one row a line, \N for NULL.
// https://www.postgresql.org/docs/15/sql-copy.html ("Text Format"): a backslash, and the tab, newline
// and carriage return that would otherwise end a field or row, are written as backslash sequences.
import { finished } from "node:stream/promises";
import type { PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One field in COPY text format (null becomes \N). */
export function copyField(value: string | number | null): string {
  if (value === null) return "\\N";
  const text = String(value);
  // Most fields (uuids, decimals, ids) need no escaping; testing first skips the replace.
  return SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] as string) : text;
}

/** One row in COPY text format, newline included. */
export function copyRow(fields: readonly (string | number | null)[]): string {
  let line = "";
  for (let i = 0; i < fields.length; i++) line += (i === 0 ? "" : "\t") + copyField(fields[i] as string | number | null);
  return `${line}\n`;
}

/** Runs `COPY ... FROM STDIN` of `data` (rows in the text format above) on `client`; resolves with the row count once PostgreSQL has taken them all. */
export async function copyIn(client: PoolClient, statement: string, data: string): Promise<number> {
  const stream = client.query(copyFrom(statement));
  stream.end(data);
  await finished(stream);
  return stream.rowCount;
}
