// JSON.parse that keeps every number literal's exact value: a literal a 64-bit float would change reaches the caller as its text.
import Decimal from "decimal.js";

/**
 * A JSON number literal whose exact value a JS number would not hold (more significant digits than a
 * 64-bit float keeps, beyond its range, or above 2^53), kept as the text that was sent.
 */
export class JsonNumberText {
  /** The literal as sent, in JSON number syntax ("1.0000000000000000001", "123456789012345678901", "1e400"). */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

// Where such a literal can be: where a value starts (the text's start, or after ":", "," or "["), a run of 16 digits
// (with a point among them) or digits before an exponent. Anything else is at most 15 significant digits below 10^15,
// which a float holds exactly as written. Hex in ids and addresses ("3e", long digit runs) only matches inside a
// string after such a character, which the scan then tells apart.
const MAYBE_INEXACT = /(?:^|[:,[])\s*-?[0-9](?:[0-9.]{15}|[0-9.]*[eE])/;
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;

// Comparison only: parsing a string into a Decimal is exact whatever its precision setting.
const ExactDecimal = Decimal.clone();

/** Whether a JS number holds `literal` as written: String() of the parsed double is the same decimal, and it is a safe magnitude. */
function keptExactly(literal: string): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return false;
  return new ExactDecimal(literal).eq(String(value));
}

/** The number literals of JSON `text` (outside strings) that a JS number would not keep, in order of appearance. */
function inexactLiterals(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string, escapes included; an unterminated one is JSON.parse's to refuse.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      i++;
    } else if (c === MINUS || (c >= 48 && c <= 57)) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        // Digits, point, exponent and its sign: the characters a number literal is made of.
        if (!((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === MINUS)) break;
      }
      const literal = text.slice(start, i);
      // Text that is no number literal is left to JSON.parse, which refuses it.
      if (NUMBER_TEXT.test(literal) && !keptExactly(literal)) found.push({ start, end: i });
    } else {
      i++;
    }
  }
  return found;
}

/**
 * Parses JSON text as JSON.parse does, except that a number literal a JS number would not keep exactly (see
 * JsonNumberText) becomes a JsonNumberText holding the literal, so no value is rounded before it is checked.
 * Every other number is a JS number whose String() is the literal's exact value. Throws as JSON.parse throws.
 */
export function parseJsonExact(text: string): unknown {
  // Parsed as it is first: the text must be valid JSON as sent, not only once its literals are replaced.
  const plain: unknown = JSON.parse(text);
  if (!MAYBE_INEXACT.test(text)) return plain;
  const literals = inexactLiterals(text);
  if (literals.length === 0) return plain;
  // Each such literal is replaced by a string holding a NUL and a key drawn for this parse, which the reviver turns
  // back: a sent string may hold "\u0000" too, but cannot guess the key.
  const marker = `\u0000${globalThis.crypto.randomUUID()}:`;
  let rewritten = "";
  let at = 0;
  for (const [k, { start, end }] of literals.entries()) {
    rewritten += `${text.slice(at, start)}"\\u0000${marker.slice(1)}${k}"`;
    at = end;
  }
  rewritten += text.slice(at);
  return JSON.parse(rewritten, (_key, value: unknown) => {
    if (typeof value !== "string" || !value.startsWith(marker)) return value;
    const literal = literals[Number(value.slice(marker.length))];
    return literal === undefined ? value : new JsonNumberText(text.slice(literal.start, literal.end));
  });
}
