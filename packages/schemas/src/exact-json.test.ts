// stringifyJson: JSON.stringify's text, except that decimal figures are number literals with exactly their digits.
import fc from "fast-check";
import { JsonDecimal, stringifyJson } from "./exact-json";

describe("stringifyJson", () => {
  it("writes a JsonDecimal as the number literal of its exact digits, where JSON.stringify of a number rounds", () => {
    const body = { score: new JsonDecimal("0.370370367037037034"), total: new JsonDecimal("9223372036854775.8"), n: 1 };
    expect(stringifyJson(body)).toBe('{"score":0.370370367037037034,"total":9223372036854775.8,"n":1}');
    // What the rounding looked like: the digits a 64-bit float keeps.
    expect(JSON.stringify({ score: Number("0.370370367037037034"), total: Number("9223372036854775.8") })).toBe(
      '{"score":0.370370367037037,"total":9223372036854776}',
    );
    expect(stringifyJson([new JsonDecimal("999999999999999999999999999999.999999999999999999"), new JsonDecimal("0")])).toBe(
      "[999999999999999999999999999999.999999999999999999,0]",
    );
  });

  it("writes everything else exactly as JSON.stringify does", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, false, undefined, Number.NaN, Number.POSITIVE_INFINITY, -0),
        fc.double(),
        fc.string({ unit: "binary" }),
        fc.date({ noInvalidDate: true }),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: "binary" }), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      // A top-level undefined has no JSON text at all (JSON.stringify answers undefined, stringifyJson throws).
      fc.property(
        json.filter((v) => v !== undefined),
        (value) => {
          expect(stringifyJson(value)).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("parses back to the same numbers a client reads when the digits fit a float", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const digits = units.toString().padStart(scale + 1, "0");
        const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        expect(JSON.parse(stringifyJson({ v: new JsonDecimal(text) })).v).toBe(Number(text));
      }),
    );
  });

  it("refuses text that is not a plain decimal, and refuses to be written by JSON.stringify", () => {
    for (const text of ["", "1e5", "+1", "01", ".5", "1.", "NaN", "1 ", "0x10", "1,5"]) {
      expect(() => new JsonDecimal(text)).toThrow(expect.objectContaining({ code: "invalid-decimal" }));
    }
    expect(() => JSON.stringify({ score: new JsonDecimal("1") })).toThrow(/stringifyJson/);
    expect(() => stringifyJson({ n: 1n })).toThrow(TypeError);
    expect(() => stringifyJson(undefined)).toThrow(new TypeError("stringifyJson needs a value JSON can represent"));
  });

  it("writes negative figures and fractions below one with their sign and leading zero", () => {
    const body = { loss: new JsonDecimal("-3.5"), small: new JsonDecimal("0.05"), zero: new JsonDecimal("-0"), whole: new JsonDecimal("-12") };
    expect(stringifyJson(body)).toBe('{"loss":-3.5,"small":0.05,"zero":-0,"whole":-12}');
  });

  it("names the refused text in its message, cut to its first 64 characters", () => {
    expect(() => new JsonDecimal("1e5")).toThrow('a JSON decimal must be a plain decimal number such as "12" or "0.5", got "1e5"');
    const long = `${"9".repeat(64)}x${"9".repeat(35)}`;
    expect(() => new JsonDecimal(long)).toThrow(`a JSON decimal must be a plain decimal number such as "12" or "0.5", got "${"9".repeat(64)}"`);
  });

  it("refuses to be written by JSON.stringify, which would round its digits, with invalid-decimal", () => {
    let thrown: unknown;
    try {
      JSON.stringify({ score: new JsonDecimal("0.1") });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({
      code: "invalid-decimal",
      message: "a JsonDecimal is written with stringifyJson, not JSON.stringify, which cannot keep its digits",
    });
  });
});
