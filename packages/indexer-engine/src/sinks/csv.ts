// The CSV sink: appends rows with fsync and truncates back to the committed length after a crash.
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { BaseError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import type { Sink } from "./sink";

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: quoted when it holds a comma, quote or line break; null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  // Numbers and booleans never need quotes; only text is scanned.
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One CSV line of a row, in ROW_COLUMNS order, ending in a newline. Written out column by column (a test holds
 * it to ROW_COLUMNS): reading each property by name is several times cheaper than looking columns up by key.
 */
export function csvLine(r: OutputRow): string {
  const f = csvField;
  return `${f(r.rowType)},${f(r.id)},${f(r.indexerId)},${f(r.chainId)},${f(r.adapterId)},${f(r.adapterVersion)},${f(r.user)},${f(r.asset)},${f(r.activity)},${f(r.amount)},${f(r.priceable)},${f(r.active)},${f(r.startTs)},${f(r.endTs)},${f(r.durationMs)},${f(r.startBlock)},${f(r.endBlock)},${f(r.ts)},${f(r.height)},${f(r.txHash)},${f(r.logIndex)},${f(r.trigger)},${f(r.priceUsd)},${f(r.valueUsd)},${f(r.usdHours)},${f(r.meta)}\n`;
}

/** A larger copy of `buffer` holding `size` bytes, with its first `used` bytes kept. */
function grow(buffer: Buffer, used: number, size: number): Buffer {
  const next = Buffer.allocUnsafe(size);
  buffer.copy(next, 0, 0, used);
  return next;
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
  #buffer: Buffer = Buffer.allocUnsafe(1 << 20);

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
      // Lines are encoded one by one into a buffer kept between batches: joining a batch into one string first and
      // encoding that cost more than building the lines themselves.
      let length = 0;
      for (const row of rows) {
        const line = csvLine(row);
        const room = length + line.length * 3; // at most three UTF-8 bytes per UTF-16 unit
        if (room > this.#buffer.length) this.#buffer = grow(this.#buffer, length, Math.max(room, this.#buffer.length * 2));
        length += this.#buffer.write(line, length, "utf8");
      }
      await this.#appendBytes(this.#buffer, length);
    }
    return String(this.#offset);
  }

  async committed(): Promise<void> {}

  async #append(text: string): Promise<void> {
    const bytes = Buffer.from(text, "utf8");
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
