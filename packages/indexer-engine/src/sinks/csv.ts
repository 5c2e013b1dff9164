// The CSV sink: appends rows with fsync and truncates back to the committed length after a crash.
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { BaseError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import { CsvEncoder, csvField } from "./csv-encode";
import type { Sink } from "./sink";

export { csvField };

const NEEDS_QUOTES = /[",\r\n]/;

/** A text column: quoted only when it needs it (the same answer as csvField for a string or null). */
function textField(value: string | null): string {
  if (value === null || value === undefined) return "";
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A number or boolean column: never quoted (the same answer as csvField for those or null). */
function plainField(value: number | boolean | null): string | number | boolean {
  return value === null || value === undefined ? "" : value;
}

// The runner columns are the same on every row of a run: their text is kept with the last runner seen.
let runnerOf: { indexerId: string; chainId: number; adapterId: string; adapterVersion: string; text: string } | undefined;

/** The four runner columns (indexerId, chainId, adapterId, adapterVersion) of a row, joined. */
function runnerFields(r: OutputRow): string {
  const last = runnerOf;
  if (
    last !== undefined &&
    last.indexerId === r.indexerId &&
    last.chainId === r.chainId &&
    last.adapterId === r.adapterId &&
    last.adapterVersion === r.adapterVersion
  )
    return last.text;
  const text = `${csvField(r.indexerId)},${csvField(r.chainId)},${csvField(r.adapterId)},${csvField(r.adapterVersion)}`;
  runnerOf = { indexerId: r.indexerId, chainId: r.chainId, adapterId: r.adapterId, adapterVersion: r.adapterVersion, text };
  return text;
}

/**
 * One CSV line of a row, in ROW_COLUMNS order, ending in a newline. Written out column by column (a test holds
 * it to ROW_COLUMNS): reading each property by name is several times cheaper than looking columns up by key.
 * Only text columns are scanned for characters that need quotes; numbers and booleans go in as they print, and
 * the runner columns, the same on every row, are joined once.
 */
export function csvLine(r: OutputRow): string {
  const t = textField;
  const p = plainField;
  return `${t(r.rowType)},${t(r.id)},${runnerFields(r)},${t(r.user)},${t(r.asset)},${t(r.activity)},${t(r.amount)},${p(r.priceable)},${p(r.active)},${p(r.startTs)},${p(r.endTs)},${p(r.durationMs)},${p(r.startBlock)},${p(r.endBlock)},${p(r.ts)},${p(r.height)},${t(r.txHash)},${p(r.logIndex)},${t(r.trigger)},${t(r.priceUsd)},${t(r.valueUsd)},${t(r.usdHours)},${t(r.meta)}\n`;
}

/** The header line. */
export const CSV_HEADER = `${ROW_COLUMNS.join(",")}\n`;

/**
 * Writes rows to a CSV file with the header once. Each batch is one positioned write followed by fsync; the
 * cursor is the file length after it. On restart the file is cut back to the committed length, which removes
 * rows of a batch whose checkpoint was never committed and any torn line a crash left behind.
 */
export class CsvSink implements Sink {
  #file: FileHandle | undefined;
  #offset = 0;
  readonly #encoder = new CsvEncoder();

  constructor(
    readonly id: string,
    private readonly path: string,
    private readonly logger: Logger,
  ) {}

  async recover(cursor: string | undefined): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    if (cursor === undefined) {
      this.#file = await open(this.path, "w");
      this.#offset = 0;
      await this.#append(CSV_HEADER);
      this.logger.info({ sink: this.id, path: this.path }, "csv sink started a new file");
      return;
    }
    const committed = Number(cursor);
    this.#file = await open(this.path, "r+").catch((err: unknown) => {
      throw new BaseError("csv-sink-missing", `csv sink file ${this.path} is missing but the checkpoint has rows in it`, { cause: err });
    });
    const { size } = await this.#file.stat();
    if (size < committed) {
      await this.close();
      throw new BaseError("csv-sink-behind", `csv sink file ${this.path} has ${size} bytes, fewer than the ${committed} its checkpoint recorded`);
    }
    if (size > committed) this.logger.warn({ sink: this.id, path: this.path, dropped: size - committed }, "csv sink cut uncommitted bytes after restart");
    await this.#file.truncate(committed);
    this.#offset = committed;
  }

  async write(rows: readonly OutputRow[]): Promise<string> {
    if (rows.length > 0) {
      // Rows are encoded field by field into a buffer kept between batches (csv-encode.ts): no line strings at all.
      const encoder = this.#encoder;
      encoder.reset();
      for (const row of rows) encoder.row(row);
      await this.#appendBytes(encoder.bytes, encoder.length);
    }
    return String(this.#offset);
  }

  async committed(): Promise<void> {}

  async #append(text: string): Promise<void> {
    const bytes = Buffer.from(text);
    await this.#appendBytes(bytes, bytes.length);
  }

  async #appendBytes(bytes: Buffer, length: number): Promise<void> {
    const file = this.#file;
    if (file === undefined) throw new BaseError("csv-sink-closed", "csv sink used before recover");
    let written = 0;
    while (written < length) written += (await file.write(bytes, written, length - written, this.#offset + written)).bytesWritten;
    await file.sync();
    this.#offset += length;
  }

  async close(): Promise<void> {
    await this.#file?.close();
    this.#file = undefined;
  }
}
