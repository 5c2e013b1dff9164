// parseJsonExact: JSON.parse's values, except that a number literal a 64-bit float would change comes back as its text.
import fc from "fast-check";
import { JsonNumberText, parseJsonExact } from "./json-number";

/** The value of a JSON number literal as a canonical plain decimal, by string operations only (no number, no library). */
function canonicalOf(literal: string): string {
  const negative = literal.startsWith("-");
  const [mantissa = "", exponent = "0"] = (negative ? literal.slice(1) : literal).toLowerCase().split("e");
  const [integer = "", fraction = ""] = mantissa.split(".");
  const digits = integer + fraction;
  const point = integer.length + Number(exponent);
  let int: string;
  let frac: string;
  if (point <= 0) [int, frac] = ["0", "0".repeat(-point) + digits];
  else if (point >= digits.length) [int, frac] = [digits + "0".repeat(point - digits.length), ""];
  else [int, frac] = [digits.slice(0, point), digits.slice(point)];
  int = int.replace(/^0+/, "") || "0";
  frac = frac.replace(/0+$/, "");
  const plain = frac ? `${int}.${frac}` : int;
  return negative && plain !== "0" ? `-${plain}` : plain;
}

const amountOf = (literal: string) => (parseJsonExact(`{"amount":${literal}}`) as { amount: unknown }).amount;

describe("parseJsonExact", () => {
  it("keeps a literal a float would round as its text", () => {
    for (const literal of ["1.0000000000000000001", "123456789012.3456789", "0.12345678901234567890", "-98765432109876543.21"]) {
      expect(amountOf(literal)).toEqual(new JsonNumberText(literal));
    }
  });

  it("keeps a literal beyond a float's range, or past 2^53 - 1, as its text", () => {
    for (const literal of ["1e400", "-1e400", "1e-400", "9007199254740993", "9007199254740992", "1e20", "9.1e15", "-12345678901234567"]) {
      expect(amountOf(literal)).toEqual(new JsonNumberText(literal));
    }
  });

  it("gives a number for a literal a float holds exactly, as JSON.parse does", () => {
    for (const literal of ["0", "-0", "0.1", "10.5", "1e3", "1.5E-7", "9e15", "9007199254740991", "123456789012345", "0.000000000000001"]) {
      expect(amountOf(literal)).toBe(JSON.parse(literal));
    }
  });

  it("leaves strings alone, however many digits they hold, and one that looks like its marker", () => {
    const text = '{"a":"12345678901234567890","b":"\\u00000","c":["\\u0000x:0", 12345678901234567890]}';
    expect(parseJsonExact(text)).toEqual({ a: "12345678901234567890", b: "\u00000", c: ["\u0000x:0", new JsonNumberText("12345678901234567890")] });
  });

  it("finds literals anywhere: nested, in arrays, after escaped quotes, several in one text", () => {
    const text = '{"s":"a\\"1234567890123456789\\"","n":{"deep":[1, 1.00000000000000001, {"x":-12345678901234567.5}]},"m":1e999}';
    expect(parseJsonExact(text)).toEqual({
      s: 'a"1234567890123456789"',
      n: { deep: [1, new JsonNumberText("1.00000000000000001"), { x: new JsonNumberText("-12345678901234567.5") }] },
      m: new JsonNumberText("1e999"),
    });
  });

  it("throws where JSON.parse throws, also when a long literal stands where no value may", () => {
    for (const text of ["{12345678901234567890: 1}", "[1.2.3456789012345678]", "", "{", '{"a":01234567890123456789}', "[1e400,]"]) {
      expect(() => parseJsonExact(text)).toThrow(SyntaxError);
    }
  });

  it("never hands back a number whose value differs from its literal's, and keeps every float-exact literal a number", () => {
    const literal = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,39}$/)),
        fc.stringMatching(/^[0-9]{0,40}$/),
        fc.option(fc.integer({ min: -420, max: 420 }), { nil: undefined }),
      )
      .map(
        ([negative, integer, fraction, exponent]) =>
          `${negative ? "-" : ""}${integer}${fraction ? `.${fraction}` : ""}${exponent === undefined ? "" : `e${exponent}`}`,
      );
    fc.assert(
      fc.property(literal, (text) => {
        const value = amountOf(text);
        if (value instanceof JsonNumberText) {
          expect(value.text).toBe(text);
          // Kept as text only where a number would not do: another value, or beyond 2^53.
          const double = Number(text);
          const differs = !Number.isFinite(double) || canonicalOf(String(double)) !== canonicalOf(text);
          expect(differs || Math.abs(double) > Number.MAX_SAFE_INTEGER).toBe(true);
        } else {
          expect(typeof value).toBe("number");
          expect(canonicalOf(String(value))).toBe(canonicalOf(text));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("parses any JSON value as JSON.parse does when its numbers are floats within 2^53", () => {
    const safe = fc.jsonValue().filter(function within(v: unknown): boolean {
      if (typeof v === "number") return Math.abs(v) <= Number.MAX_SAFE_INTEGER;
      if (Array.isArray(v)) return v.every(within);
      if (v !== null && typeof v === "object") return Object.values(v).every(within);
      return true;
    });
    fc.assert(
      fc.property(safe, (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonExact(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});
