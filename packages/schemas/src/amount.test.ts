// parseAmount: exact decimal strings and JSON numbers, exponents within digit bounds, negatives and garbage.
import { ValidationError } from "@pointwise/errors";
import fc from "fast-check";
import { MAX_AMOUNT_INTEGER_DIGITS, MAX_AMOUNT_SCALE, parseAmount } from "./amount";
import { JsonNumberText } from "./json-number";

function rejection(value: unknown): ValidationError {
  try {
    parseAmount(value);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected ${String(value)} to be rejected`);
}

/** Canonical form of a plain decimal, computed with string operations only (no decimal library). */
function canonical(integer: string, fraction: string): string {
  const int = integer.replace(/^0+/, "") || "0";
  const frac = fraction.replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

/** Moves the decimal point of integer.fraction by `shift` places (a power-of-ten exponent), by string operations. */
function shifted(integer: string, fraction: string, shift: number): { integer: string; fraction: string } {
  const digits = integer + fraction;
  const point = integer.length + shift;
  if (point <= 0) return { integer: "0", fraction: "0".repeat(-point) + digits };
  if (point >= digits.length) return { integer: digits + "0".repeat(point - digits.length), fraction: "" };
  return { integer: digits.slice(0, point), fraction: digits.slice(point) };
}

describe("parseAmount", () => {
  it.each([
    [12, "12"],
    [0, "0"],
    [-0, "0"],
    [0.5, "0.5"],
    [1e-7, "0.0000001"],
    [1.5e3, "1500"],
    [0.1 + 0.2, "0.30000000000000004"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    ["12", "12"],
    ["0", "0"],
    ["-0", "0"],
    ["-0.000", "0"],
    ["0e99999999999999999999", "0"],
    ["0.50", "0.5"],
    ["100.000", "100"],
    ["1e3", "1000"],
    ["1.5E-3", "0.0015"],
    ["2.5e+2", "250"],
    ["1.000000000000000000000", "1"],
    ["123456789012345678901234567890.123456789012345678", "123456789012345678901234567890.123456789012345678"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["1e-18", "0.000000000000000001"],
    ["9007199254740993", "9007199254740993"],
    [10n, "10"],
    [new JsonNumberText("123456789012.3456789"), "123456789012.3456789"],
    [new JsonNumberText("9007199254740993"), "9007199254740993"],
    [new JsonNumberText("1.23456789012345678e5"), "123456.789012345678"],
  ])("reads %p as %j", (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  it("accepts a numeric string of exactly 128 characters and refuses 129", () => {
    // Trailing zeros count towards the length but not towards the 18 places.
    const longest = `1.${"0".repeat(126)}`;
    expect(longest).toHaveLength(128);
    expect(parseAmount(longest)).toBe("1");
    expect(parseAmount(`0.${"0".repeat(126)}`)).toBe("0");
    expect(rejection(`${longest}0`).message).toBe("amount must be at most 128 characters long");
  });

  it.each([
    ["0e5", "0"],
    ["-0E-5", "0"],
    ["0.0e+12", "0"],
    ["10e-1", "1"],
    ["0.01e2", "1"],
    ["-0.01", null],
    ["-1e-5", null],
  ])("decides zero on the digits before the exponent: %j", (input, expected) => {
    if (expected === null) expect(rejection(input).code).toBe("negative-amount");
    else expect(parseAmount(input)).toBe(expected);
  });

  it.each([
    ["+0x10", "amount must be a decimal number, not hexadecimal"],
    ["-0X1f", "amount must be a decimal number, not hexadecimal"],
    ["10x10", 'amount must be a decimal number such as "12", "0.5" or "1e3"'],
    ["a0x1", 'amount must be a decimal number such as "12", "0.5" or "1e3"'],
    ["+Infinity", "amount must be a finite number"],
    ["-infinity", "amount must be a finite number"],
    ["-NaN", "amount must be a finite number"],
    ["Infinity1", 'amount must be a decimal number such as "12", "0.5" or "1e3"'],
    ["1NaN", 'amount must be a decimal number such as "12", "0.5" or "1e3"'],
  ])("names hexadecimal and non-finite text only when the whole string is one: %j", (input, message) => {
    expect(rejection(input).message).toBe(message);
  });

  it.each([-1, -0.000001, -1e-7, -1e25, Number.MIN_SAFE_INTEGER, "-5", "-1e-30", "-0.1", -3n])("rejects the negative amount %p", (input) => {
    const err = rejection(input);
    expect(err.code).toBe("negative-amount");
    expect(err.field).toBe("amount");
    expect(err.message).toBe("amount must not be negative");
  });

  it.each([
    [Number.NaN, "amount must be a finite number"],
    [Number.POSITIVE_INFINITY, "amount must be a finite number"],
    [Number.NEGATIVE_INFINITY, "amount must be a finite number"],
    ["Infinity", "amount must be a finite number"],
    ["NaN", "amount must be a finite number"],
    [Number.MAX_SAFE_INTEGER + 1, "amount above 9007199254740991 must be sent as a numeric string to stay exact"],
    [new JsonNumberText("1.0000000000000000001"), "amount must have at most 18 digits after the decimal point"],
    [new JsonNumberText("1e-400"), "amount must have at most 18 digits after the decimal point"],
    [new JsonNumberText("1e400"), "amount must have at most 30 digits before the decimal point"],
    [1e25, "amount above 9007199254740991 must be sent as a numeric string to stay exact"],
    ["", "amount must not be empty"],
    ["0x10", "amount must be a decimal number, not hexadecimal"],
    ["1".repeat(129), "amount must be at most 128 characters long"],
    ["1".repeat(31), "amount must have at most 30 digits before the decimal point"],
    ["1e30", "amount must have at most 30 digits before the decimal point"],
    ["1e99999999999999999999", "amount must have at most 30 digits before the decimal point"],
    ["0.0000000000000000001", "amount must have at most 18 digits after the decimal point"],
    ["1e-19", "amount must have at most 18 digits after the decimal point"],
    ["1e-99999999999999999999", "amount must have at most 18 digits after the decimal point"],
    [1e-19, "amount must have at most 18 digits after the decimal point"],
    [null, "amount must be a number or a numeric string, got null"],
    [undefined, "amount must be a number or a numeric string, got undefined"],
    [true, "amount must be a number or a numeric string, got a boolean"],
    [{}, "amount must be a number or a numeric string, got an object"],
    [["1"], "amount must be a number or a numeric string, got an array"],
  ])("rejects %p: %s", (input, message) => {
    const err = rejection(input);
    expect(err.code).toBe("invalid-amount");
    expect(err.field).toBe("amount");
    expect(err.message).toBe(message);
  });

  it.each(["+1", "01", ".5", "5.", "1,000", "1_000", " 1", "1 ", "1e", "e3", "1.2.3", "١", "12abc", "--1"])("rejects the non-numeric string %j", (input) => {
    const err = rejection(input);
    expect(err.code).toBe("invalid-amount");
    expect(err.message).toBe('amount must be a decimal number such as "12", "0.5" or "1e3"');
  });

  const integerPart = fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,29}$/));
  const fractionPart = fc.stringMatching(/^[0-9]{0,18}$/);

  it("reads every in-bounds decimal string exactly", () => {
    fc.assert(
      fc.property(integerPart, fractionPart, (integer, fraction) => {
        const text = fraction ? `${integer}.${fraction}` : integer;
        expect(parseAmount(text)).toBe(canonical(integer, fraction));
      }),
    );
  });

  it("reads exponent notation exactly, or rejects it by the digit bounds", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9][0-9]{0,19}$/),
        fc.stringMatching(/^[0-9]{0,10}$/),
        fc.integer({ min: -40, max: 40 }),
        (integer, fraction, exponent) => {
          const text = `${integer}${fraction ? `.${fraction}` : ""}e${exponent}`;
          const moved = shifted(integer, fraction, exponent);
          const expected = canonical(moved.integer, moved.fraction);
          const [int = "", frac = ""] = expected.split(".");
          if (int.length <= MAX_AMOUNT_INTEGER_DIGITS && frac.length <= MAX_AMOUNT_SCALE) {
            expect(parseAmount(text)).toBe(expected);
          } else {
            expect(rejection(text).code).toBe("invalid-amount");
          }
        },
      ),
    );
  });

  it("reads a JSON number of up to 15 significant digits as exactly the digits the client wrote", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9][0-9]{0,14}$/), fc.integer({ min: 0, max: 15 }), (digits, scale) => {
        fc.pre(scale <= digits.length);
        const integer = digits.slice(0, digits.length - scale) || "0";
        const fraction = digits.slice(digits.length - scale);
        const written = fraction ? `${integer}.${fraction}` : integer;
        // JSON.parse is how the number reaches the API; parseAmount only ever sees the double.
        expect(parseAmount(JSON.parse(written))).toBe(canonical(integer, fraction));
      }),
    );
  });

  it("rejects the negation of every positive amount as negative", () => {
    fc.assert(
      fc.property(integerPart, fractionPart, (integer, fraction) => {
        const value = canonical(integer, fraction);
        fc.pre(value !== "0");
        expect(rejection(`-${value}`).code).toBe("negative-amount");
      }),
    );
  });

  it("throws nothing but an amount ValidationError for arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.double(), fc.stringMatching(/^-?[0-9.eE+-]{0,30}$/)), (input) => {
        try {
          const result = parseAmount(input);
          expect(result).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect(["invalid-amount", "negative-amount"]).toContain((err as ValidationError).code);
          expect((err as ValidationError).field).toBe("amount");
        }
      }),
      { numRuns: 500 },
    );
  });
});
