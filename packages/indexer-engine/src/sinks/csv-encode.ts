// Encodes output rows as CSV straight into a byte buffer: the same bytes as csvLine's text in UTF-8, without the line.
import type { OutputRow } from "../rows";

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: quoted when it holds a comma, quote or line break; null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const COMMA = 44;
const NEWLINE = 10;
const QUOTE = 34;
const CR = 13;

const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");

/**
 * Writes CSV rows into a growing buffer, one field at a time, in ROW_COLUMNS order. A line built as a string first
 * costs a template of 26 parts and a flattening copy per row, which made the csv sink the largest source of garbage
 * of a run; here ASCII text is copied byte by byte while it is scanned for characters that need quotes, integers
 * are written digit by digit, and only a field that needs quoting or holds other characters goes through csvField
 * and the UTF-8 encoder. The bytes equal csvLine's line encoded as UTF-8 (a test holds the two together). Every
 * write first makes room for exactly the bytes it writes.
 */
export class CsvEncoder {
  #buffer: Buffer;
  #at = 0;
  // The runner columns are the same on every row of a run: their bytes are kept for the last runner seen.
  #runner: { indexerId: string; chainId: number; adapterId: string; adapterVersion: string } | undefined;
  #runnerBytes: Buffer = Buffer.alloc(0);

  constructor(initialBytes = 1 << 20) {
    this.#buffer = Buffer.allocUnsafe(initialBytes);
  }

  /** Bytes written since the last reset. */
  get length(): number {
    return this.#at;
  }

  /** The buffer holding the bytes written since the last reset (its first `length` bytes; reused after a reset). */
  get bytes(): Buffer {
    return this.#buffer;
  }

  /** Starts over at the beginning of the buffer, which is kept for the next rows. */
  reset(): void {
    this.#at = 0;
  }

  /** Appends one row's line, ending in a newline. */
  row(r: OutputRow): void {
    this.#text(r.rowType);
    this.#comma();
    this.#text(r.id);
    this.#comma();
    this.#runnerColumns(r);
    this.#comma();
    this.#text(r.user);
    this.#comma();
    this.#text(r.asset);
    this.#comma();
    this.#text(r.activity);
    this.#comma();
    this.#text(r.amount);
    this.#comma();
    this.#plain(r.priceable);
    this.#comma();
    this.#plain(r.active);
    this.#comma();
    this.#plain(r.startTs);
    this.#comma();
    this.#plain(r.endTs);
    this.#comma();
    this.#plain(r.durationMs);
    this.#comma();
    this.#plain(r.startBlock);
    this.#comma();
    this.#plain(r.endBlock);
    this.#comma();
    this.#plain(r.ts);
    this.#comma();
    this.#plain(r.height);
    this.#comma();
    this.#text(r.txHash);
    this.#comma();
    this.#plain(r.logIndex);
    this.#comma();
    this.#text(r.trigger);
    this.#comma();
    this.#text(r.priceUsd);
    this.#comma();
    this.#text(r.valueUsd);
    this.#comma();
    this.#text(r.usdHours);
    this.#comma();
    this.#text(r.meta);
    this.#byte(NEWLINE);
  }

  #comma(): void {
    this.#byte(COMMA);
  }

  #byte(byte: number): void {
    this.#room(1);
    this.#buffer[this.#at++] = byte;
  }

  /** Makes sure `bytes` more fit, growing the buffer (keeping what it holds) at least twofold when they would not. */
  #room(bytes: number): void {
    const need = this.#at + bytes;
    if (need <= this.#buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(need, this.#buffer.length * 2));
    this.#buffer.copy(next, 0, 0, this.#at);
    this.#buffer = next;
  }

  /** A text column: copied as it is while it is plain ASCII without a comma, quote or line break; otherwise csvField's text. */
  #text(value: string | null): void {
    if (value == null) return;
    const n = value.length;
    // Room for the text as it is, one byte per character: all that plain ASCII takes.
    this.#room(n);
    const buffer = this.#buffer;
    const start = this.#at;
    let at = start;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the general path writes the same bytes for any text, so sending it more only costs time
      if (c > 0x7f || c === COMMA || c === QUOTE || c === NEWLINE || c === CR) {
        // Rare: quoting or multi-byte characters; written from the start of the field by the general path.
        this.#encoded(csvField(value));
        return;
      }
      buffer[at++] = c;
    }
    this.#at = at;
  }

  /** Text of any characters, as UTF-8. */
  #encoded(text: string): void {
    this.#room(Buffer.byteLength(text));
    this.#at += this.#buffer.write(text, this.#at);
  }

  /** A number or boolean column, never quoted; null is empty. */
  #plain(value: number | boolean | null): void {
    if (value == null) return;
    // Stryker disable next-line all: String() of a boolean, the general path below, writes the same bytes
    if (typeof value === "boolean") {
      this.#copy(value ? TRUE : FALSE);
      return;
    }
    // Stryker disable next-line all: String() of such an integer, the general path below, writes the same digits
    if (Number.isSafeInteger(value) && value >= 0) {
      this.#digits(value);
      return;
    }
    // Negative numbers, fractions and the like print as String() prints them (-0 prints as 0).
    this.#encoded(String(value));
  }

  #copy(bytes: Buffer): void {
    this.#room(bytes.length);
    this.#at += bytes.copy(this.#buffer, this.#at);
  }

  /** A non-negative safe integer in decimal, as String() prints it. */
  #digits(value: number): void {
    let width = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) width++;
    this.#room(width);
    const buffer = this.#buffer;
    let at = this.#at + width;
    this.#at = at;
    let rest = value;
    do {
      const next = Math.floor(rest / 10);
      buffer[--at] = 48 + (rest - next * 10);
      rest = next;
    } while (rest > 0);
  }

  /** The four runner columns (indexerId, chainId, adapterId, adapterVersion), encoded once per runner. */
  #runnerColumns(r: OutputRow): void {
    const last = this.#runner;
    // Stryker disable next-line ConditionalExpression: with no runner seen the cache is rebuilt either way, and a rebuilt cache holds the same bytes
    if (
      last === undefined ||
      last.indexerId !== r.indexerId ||
      last.chainId !== r.chainId ||
      last.adapterId !== r.adapterId ||
      last.adapterVersion !== r.adapterVersion
    ) {
      // Stryker disable next-line ObjectLiteral: a runner that never matches only rebuilds the same bytes on every row
      this.#runner = { indexerId: r.indexerId, chainId: r.chainId, adapterId: r.adapterId, adapterVersion: r.adapterVersion };
      this.#runnerBytes = Buffer.from(`${csvField(r.indexerId)},${csvField(r.chainId)},${csvField(r.adapterId)},${csvField(r.adapterVersion)}`);
    }
    this.#copy(this.#runnerBytes);
  }
}
