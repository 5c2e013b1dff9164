// Fixed-point decimals against decimal.js as an exact reference: parsing, arithmetic and half-to-even rounding.
import DecimalJs from "decimal.js";
import fc from "fast-check";
import {
  addFixed,
  divRoundHalfEven,
  eqFixed,
  Fixed,
  formatFixed,
  formatScaled,
  fx,
  halveFixed,
  mulFixed,
  parseFixed,
  plainDecimal,
  sig,
  trimDecimal,
} from "./fixed";

// The reference: decimal.js with far more digits than any value here, so its results are exact, and its own
// half-to-even rounding at the output.
const R = DecimalJs.clone({ precision: 400, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -500, toExpPos: 500 });
const ref = (f: Fixed) => new R(f.units.toString()).div(new R(10).pow(f.scale));
const out = (d: DecimalJs, dp = 18) => {
  const text = d.toDecimalPlaces(dp, R.ROUND_HALF_EVEN).toFixed();
  return text === "-0" ? "0" : text;
};

const fixedArb = fc
  .record({ units: fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }), scale: fc.integer({ min: 0, max: 30 }) })
  .map(({ units, scale }) => new Fixed(units, scale));

describe("fixed-point decimals", () => {
  it("eqFixed compares values, at the same scale and across scales", () => {
    expect(eqFixed(new Fixed(125n, 2), new Fixed(125n, 2))).toBe(true);
    expect(eqFixed(new Fixed(125n, 2), new Fixed(126n, 2))).toBe(false);
    // 1.25 = 1.250 and 0 = 0.0, but 1.25 is not 12.5.
    expect(eqFixed(new Fixed(125n, 2), new Fixed(1250n, 3))).toBe(true);
    expect(eqFixed(new Fixed(0n, 0), new Fixed(0n, 1))).toBe(true);
    expect(eqFixed(new Fixed(125n, 2), new Fixed(125n, 1))).toBe(false);
  });

  it("parses and prints plain decimals exactly, without exponent or trailing zeros", () => {
    expect(parseFixed("-12.50")).toEqual({ units: -1250n, scale: 2 });
    expect(plainDecimal(-1250n, 2)).toBe("-12.5");
    expect(plainDecimal(0n, 7)).toBe("0");
    expect(plainDecimal(5n, 20)).toBe("0.00000000000000000005");
    expect(plainDecimal(10n ** 70n, 0)).toBe(`1${"0".repeat(70)}`);
    for (const bad of ["1e5", ".5", "1.", "", "0x10", " 1", "1 "]) expect(() => parseFixed(bad)).toThrow(`"${bad}" is not a plain decimal number`);
  });

  it("round-trips any decimal string to its canonical form (property)", () => {
    fc.assert(
      fc.property(fixedArb, (f) => {
        const text = plainDecimal(f.units, f.scale);
        expect(text).toBe(ref(f).toFixed() === "-0" ? "0" : ref(f).toFixed());
        expect(eqFixed(parseFixed(text), f)).toBe(true);
      }),
    );
  });

  it("adds, multiplies and halves exactly at any size (property)", () => {
    fc.assert(
      fc.property(fixedArb, fixedArb, (a, b) => {
        expect(ref(addFixed(a, b)).eq(ref(a).plus(ref(b)))).toBe(true);
        expect(ref(mulFixed(a, b)).eq(ref(a).times(ref(b)))).toBe(true);
        expect(ref(halveFixed(a)).eq(ref(a).div(2))).toBe(true);
      }),
    );
  });

  it("rounds half to even, symmetrically around zero", () => {
    expect([5n, 15n, 25n, -5n, -15n, 14n, 16n, -16n].map((n) => divRoundHalfEven(n, 10n))).toEqual([0n, 2n, 2n, 0n, -2n, 1n, 2n, -2n]);
    expect(formatFixed(parseFixed("0.0000000000000000025"), 18)).toBe("0.000000000000000002");
    expect(formatFixed(parseFixed("0.0000000000000000035"), 18)).toBe("0.000000000000000004");
    expect(formatFixed(parseFixed("-0.0000000000000000001"), 18)).toBe("0");
  });

  it("formats to at most 18 places exactly as decimal.js rounds the exact value (property)", () => {
    fc.assert(
      fc.property(fixedArb, fc.integer({ min: 0, max: 20 }), (f, dp) => {
        expect(formatFixed(f, dp)).toBe(out(ref(f), dp));
      }),
    );
  });

  it("scales by a ratio with a single rounding, as for USD x hours (property)", () => {
    const ratio = fc.record({ n: fc.bigInt({ min: 0n, max: 10n ** 12n }), d: fc.bigInt({ min: 1n, max: 10n ** 9n }) });
    fc.assert(
      fc.property(fixedArb, ratio, ({ units, scale }, { n, d }) => {
        const f = new Fixed(units, scale);
        expect(formatScaled(f, n, d, 18)).toBe(out(ref(f).times(n.toString()).div(d.toString())));
      }),
    );
    // 7.5 USD held for 20 minutes: 2.5 USD-hours; 1 USD for 1 ms: 1/3,600,000 rounded at 18 places.
    expect(formatScaled(parseFixed("7.5"), 1_200_000n, 3_600_000n, 18)).toBe("2.5");
    expect(formatScaled(parseFixed("1"), 1n, 3_600_000n, 18)).toBe("0.000000277777777778");
  });

  it("adds, subtracts, multiplies and compares exactly with the methods, as decimal.js does below 2000 digits (property)", () => {
    fc.assert(
      fc.property(fixedArb, fixedArb, (a, b) => {
        expect(ref(a.add(b)).eq(ref(a).plus(ref(b)))).toBe(true);
        expect(ref(a.sub(b)).eq(ref(a).minus(ref(b)))).toBe(true);
        expect(ref(a.mul(b)).eq(ref(a).times(ref(b)))).toBe(true);
        expect(a.cmp(b)).toBe(ref(a).cmp(ref(b)));
        expect(a.toString()).toBe(plainDecimal(a.units, a.scale));
      }),
    );
  });

  it("rounds a result past 2000 significant digits half to even, and cuts places towards zero", () => {
    // 10^2000 + 5 has 2001 digits: the 5 is exactly half a unit of the 2000th digit and the kept digit (0) is even.
    expect(sig(10n ** 2000n + 5n, 0).toString()).toBe(`1${"0".repeat(2000)}`);
    expect(sig(10n ** 2000n + 15n, 0).toString()).toBe(`1${"0".repeat(1998)}20`);
    expect(fx("-12.3456").floorTo(2).toString()).toBe("-12.34");
    expect(fx("12.3456").floorTo(6)).toEqual(fx("12.3456"));
  });
});

describe("trimDecimal", () => {
  it.each([
    ["41.500000", "41.5"],
    ["3.000", "3"],
    ["-0.000", "0"],
    ["0.0", "0"],
    ["-12.340", "-12.34"],
    ["100.0100", "100.01"],
    ["100", "100"],
    ["1000000000000000000000000000000.000000000000000000000000000001", "1000000000000000000000000000000.000000000000000000000000000001"],
  ])("prints %s as %s", (text, shortest) => {
    expect(trimDecimal(text)).toBe(shortest);
  });

  it("keeps every digit of a decimal padded to any scale: its value and decimal.js's shortest text are unchanged", () => {
    fc.assert(
      fc.property(fixedArb, fc.integer({ min: 0, max: 20 }), (f, pad) => {
        const padded = ref(f).toFixed(f.scale + pad);
        expect(trimDecimal(padded)).toBe(out(ref(f), f.scale));
      }),
    );
  });
});
