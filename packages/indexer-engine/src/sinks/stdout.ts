// The stdout sink: prints committed rows as text or JSON lines, for watching a run, not keeping records.
import { type OutputRow, ROW_COLUMNS } from "../rows";
import type { Sink } from "./sink";

/** A line of a row for people: `window id=... user=... amount=...` with only the columns that apply. */
export function textLine(row: OutputRow): string {
  const fields = ROW_COLUMNS.filter((c) => c !== "rowType" && row[c] !== null).map((c) => `${c}=${String(row[c])}`);
  return `${row.rowType} ${fields.join(" ")}\n`;
}

/** A line of a row as JSON, keys in column order. */
export function jsonLine(row: OutputRow): string {
  return `${JSON.stringify(Object.fromEntries(ROW_COLUMNS.map((c) => [c, row[c]])))}\n`;
}

/**
 * Prints rows to stdout (as JSON lines when `json`). Rows are printed after their checkpoint is committed, so a
 * restart never prints a row twice; a crash between commit and print loses that batch's lines (stdout cannot be
 * taken back, so this sink is for watching, not for records).
 */
export class StdoutSink implements Sink {
  #pending: string[] = [];

  constructor(
    readonly id: string,
    private readonly json: boolean,
    private readonly out: NodeJS.WritableStream = process.stdout,
  ) {}

  async recover(): Promise<void> {
    this.#pending = [];
  }

  async write(rows: readonly OutputRow[]): Promise<undefined> {
    this.#pending = rows.map((row) => (this.json ? jsonLine(row) : textLine(row)));
    return undefined;
  }

  async committed(): Promise<void> {
    if (this.#pending.length > 0) this.out.write(this.#pending.join(""));
    this.#pending = [];
  }

  async close(): Promise<void> {}
}
