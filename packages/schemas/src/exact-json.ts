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

function write(value: unknown, out: string[]): boolean {
  if (value instanceof JsonDecimal) {
    out.push(value.text);
    return true;
  }
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      if (!write(value[i], out)) out.push("null");
    }
    out.push("]");
    return true;
  }
  out.push("{");
  let first = true;
  for (const key of Object.keys(value)) {
    const mark = out.length;
    out.push(first ? "" : ",", JSON.stringify(key), ":");
    // A member whose value JSON has no text for (undefined, a function) is left out, as JSON.stringify does.
    if (write((value as Record<string, unknown>)[key], out)) first = false;
    else out.length = mark;
  }
  out.push("}");
  return true;
}

/**
 * The JSON text of `value`, byte for byte what JSON.stringify writes, except that every `JsonDecimal`
 * is written as a number literal with exactly its digits. JSON.stringify cannot do that: it writes a
 * JS number, whose 64-bit float keeps about 15 significant digits.
 */
export function stringifyJson(value: unknown): string {
  const out: string[] = [];
  if (!write(value, out)) throw new TypeError("stringifyJson needs a value JSON can represent");
  return out.join("");
}
