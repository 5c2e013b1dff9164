/**
 * Exact parsing of the raw event `amount`. The canonical string this returns goes to a
 * NUMERIC(48,18) column unchanged, so no value is ever rounded between the request and PostgreSQL.
 */
import { ValidationError } from "@pointwise/errors";
import Decimal from "decimal.js";
import { describeType } from "./identity-check";
import { JsonNumberText } from "./json-number";

/** Most digits allowed before the decimal point (NUMERIC(48,18) leaves 30). */
export const MAX_AMOUNT_INTEGER_DIGITS = 30;
/** Most digits allowed after the decimal point, once trailing zeros are dropped. */
export const MAX_AMOUNT_SCALE = 18;
/** Longest numeric string accepted; a valid amount needs about 50 characters, the rest is slack for zeros. */
export const MAX_AMOUNT_STRING_LENGTH = 128;

// A private constructor so a global Decimal.set() elsewhere cannot change how amounts parse.
// Parsing a string is exact whatever the precision setting; only arithmetic rounds.
const ExactDecimal = Decimal.clone();

// A numeric string is exactly the text a JSON number may have (RFC 8259), exponent included:
// an integrator can quote whatever their JSON encoder would have written, and nothing else
// (no "+", no leading zeros, no ".5", no spaces, no hex) has to be given a meaning.
const JSON_NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const HEX_TEXT = /^[+-]?0[xX]/;
const NON_FINITE_TEXT = /^[+-]?(?:infinity|nan)$/i;
// JSON-number text whose digits before any exponent are all zeros.
const ZERO_TEXT = /^-?[0.]*(?:[eE].*)?$/;

function invalidAmount(rule: string): ValidationError {
  return new ValidationError(`amount ${rule}`, { field: "amount", code: "invalid-amount" });
}

function negativeAmount(): ValidationError {
  return new ValidationError("amount must not be negative", { field: "amount", code: "negative-amount" });
}

/** Turns any accepted input into JSON-number text, or throws for input that has none. */
function amountText(value: unknown): string {
  // A JSON number a JS number would have rounded, as parseJsonExact keeps it: its literal, exactly as sent.
  if (value instanceof JsonNumberText) return amountText(value.text);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalidAmount("must be a finite number");
    // Above 2^53 a JSON number may have been rounded by JSON.parse before we see it, and we cannot tell
    // whether it was: refuse it rather than store a value the client never sent. (parseJsonExact, which the
    // ingest API parses with, hands such a literal over as a JsonNumberText instead.)
    if (value > Number.MAX_SAFE_INTEGER) {
      throw invalidAmount(`above ${Number.MAX_SAFE_INTEGER} must be sent as a numeric string to stay exact`);
    }
    // String() gives the shortest decimal that parses back to the same double. Any decimal text
    // of up to 15 significant digits survives JSON.parse into a double and back unchanged, and a
    // client that serialised a double (JS, Python, Go, Java) wrote exactly this shortest form,
    // so the text we parse is the text the client sent; a longer literal that a double would change
    // reaches us as a JsonNumberText from parseJsonExact. (-0 becomes "0" here; a negative number's
    // text starts with "-" and is refused as negative below, whatever its size.)
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "string") throw invalidAmount(`must be a number or a numeric string, got ${describeType(value)}`);
  if (value.length === 0) throw invalidAmount("must not be empty");
  if (value.length > MAX_AMOUNT_STRING_LENGTH) {
    throw invalidAmount(`must be at most ${MAX_AMOUNT_STRING_LENGTH} characters long`);
  }
  if (HEX_TEXT.test(value)) throw invalidAmount("must be a decimal number, not hexadecimal");
  if (NON_FINITE_TEXT.test(value)) throw invalidAmount("must be a finite number");
  if (!JSON_NUMBER_TEXT.test(value)) throw invalidAmount('must be a decimal number such as "12", "0.5" or "1e3"');
  return value;
}

/**
 * Parses an amount given as a JSON number or numeric string into its canonical exact decimal string
 * (no exponent, no float rounding, no trailing zeros after the point, "0" for zero). Throws
 * ValidationError with field "amount": code "negative-amount" and message "amount must not be negative"
 * for a negative value; code "invalid-amount" with a message naming the rule for anything else.
 */
export function parseAmount(value: unknown): string {
  const text = amountText(value);
  // Decided on the digits, not on a parsed value: "-0", "-0.0" and "-0e5" are zero, not negative.
  if (ZERO_TEXT.test(text)) return "0";
  if (text.startsWith("-")) throw negativeAmount();
  const amount = new ExactDecimal(text);
  // Decimal.js turns exponents beyond its range into Infinity or 0; both mean "far out of bounds".
  if (!amount.isFinite() || amount.e + 1 > MAX_AMOUNT_INTEGER_DIGITS) {
    throw invalidAmount(`must have at most ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point`);
  }
  if (amount.isZero() || amount.decimalPlaces() > MAX_AMOUNT_SCALE) {
    throw invalidAmount(`must have at most ${MAX_AMOUNT_SCALE} digits after the decimal point`);
  }
  return amount.toFixed();
}
