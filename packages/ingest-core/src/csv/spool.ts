// Temporary line files a CSV import spools valid events and bad rows to between its two passes.
import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

/** An append-only temporary file of lines, written with backpressure and read back as a stream. */
export class LineSpool {
  readonly #stream: WriteStream;
  #closed = false;

  constructor(readonly file: string) {
    this.#stream = createWriteStream(file, { flags: "w" });
  }

  /** Appends text (one or more whole lines); waits when the disk is behind. */
  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    if (!this.#stream.write(text)) await once(this.#stream, "drain");
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await new Promise<void>((resolve, reject) => this.#stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  /** Reads the lines back one at a time. */
  lines(): AsyncIterable<string> {
    return createInterface({ input: createReadStream(this.file), crlfDelay: Number.POSITIVE_INFINITY });
  }
}

/** A private temporary folder for one import's spools; `remove` deletes it and everything in it. */
export async function makeSpoolDir(parent: string = os.tmpdir()): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(parent, "pw-csv-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
