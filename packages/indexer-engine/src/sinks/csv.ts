import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { BaseError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { type OutputRow, ROW_COLUMNS } from "../rows";
import type { Sink } from "./sink";

/** One CSV field: quoted when it holds a comma, quote or line break; null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of a row, in ROW_COLUMNS order, ending in a newline. */
export function csvLine(row: OutputRow): string {
  return `${ROW_COLUMNS.map((c) => csvField(row[c])).join(",")}\n`;
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
      throw new BaseError("csv-sink-behind", `csv sink file ${this.path} has ${size} bytes, fewer than the ${committed} its checkpoint recorded`);
    }
    if (size > committed) this.logger.warn({ sink: this.id, path: this.path, dropped: size - committed }, "csv sink cut uncommitted bytes after restart");
    await this.#file.truncate(committed);
    this.#offset = committed;
  }

  async write(rows: readonly OutputRow[]): Promise<string> {
    if (rows.length > 0) await this.#append(rows.map(csvLine).join(""));
    return String(this.#offset);
  }

  async committed(): Promise<void> {}

  async #append(text: string): Promise<void> {
    const file = this.#file;
    if (file === undefined) throw new BaseError("csv-sink-closed", "csv sink used before recover");
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += (await file.write(bytes, written, bytes.length - written, this.#offset + written)).bytesWritten;
    await file.sync();
    this.#offset += bytes.length;
  }

  async close(): Promise<void> {
    await this.#file?.close();
    this.#file = undefined;
  }
}
