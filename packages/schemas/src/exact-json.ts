// JSON text whose decimal figures are number literals with exactly their digits, never a JS number on the way.
import { BaseError } from "@pointwise/errors";

// A JSON number literal (RFC 8259) without exponent: what an exact decimal's plain notation looks like.
const PLAIN_DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** A decimal figure that `stringifyJson` writes as a JSON number literal with exactly these digits. */
export class JsonDecimal {
  /** The exact digits in plain notation ("0.370370367037037034", "12", "-3.5"). */
  readonly text: string;

  constructor(text: string) {
    if (!PLAIN_DECIMAL.test(text)) {
      throw new BaseError("invalid-decimal", `a JSON decimal must be a plain decimal number such as "12" or "0.5", got "${text.slice(0, 64)}"`);
    }
    this.text = text;
  }

  /** JSON.stringify cannot write a number literal it did not compute, so it must not be used with one. */
  toJSON(): never {
    throw new BaseError("invalid-decimal", "a JsonDecimal is written with stringifyJson, not JSON.stringify, which cannot keep its digits");
  }
}

// Strings are built by concatenation (V8 joins them lazily), which costs about half of collecting parts in an array.
function write(value: unknown): string | undefined {
  if (value instanceof JsonDecimal) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return write((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += `${i > 0 ? "," : ""}${write(value[i]) ?? "null"}`;
    return `${text}]`;
  }
  let text = "{";
  for (const key of Object.keys(value)) {
    // A member whose value JSON has no text for (undefined, a function) is left out, as JSON.stringify does.
    const member = write((value as Record<string, unknown>)[key]);
    if (member !== undefined) text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${member}`;
  }
  return `${text}}`;
}

/**
 * The JSON text of `value`, byte for byte what JSON.stringify writes, except that every `JsonDecimal`
 * is written as a number literal with exactly its digits. JSON.stringify cannot do that: it writes a
 * JS number, whose 64-bit float keeps about 15 significant digits.
 */
export function stringifyJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError("stringifyJson needs a value JSON can represent");
  return text;
}
