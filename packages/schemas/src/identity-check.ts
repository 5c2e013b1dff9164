import { JsonNumberText } from "./json-number";

/**
 * The result of checking one account_id against the rules of its identity type.
 * A failed check is an expected outcome, so it is a value; `normalizeAccountId` turns it into a ValidationError.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A passed check carrying its value. */
export function ok<T>(value: T): Checked<T> {
  return { ok: true, value };
}

/** A failed check; `reason` completes the sentence "account_id is not a valid <TYPE>: ...". */
export function fail<T = never>(reason: string): Checked<T> {
  return { ok: false, reason };
}

/** Names one character for an error message without echoing the whole (possibly personal) value. */
export function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x21 && code <= 0x7e) return `'${char}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Names the JSON-ish type of a value for an error message: "null", "an array", "a number", "an object". */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  // A number literal kept as its text (parseJsonExact) was sent as a number.
  if (value instanceof JsonNumberText) return "a number";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
