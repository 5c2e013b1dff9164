// The canonical decimal text the engine stores and compares: plain notation, no trailing zeros, never "-0".
import { D, isDecimalString, MAX_DECIMAL_LENGTH, str } from "./decimal";

describe("str", () => {
  it("writes zero as 0 whatever its sign, and other values in plain notation without trailing zeros", () => {
    expect(str(new D("-0"))).toBe("0");
    expect(str(new D(5).minus(5).neg())).toBe("0");
    expect(str(new D("1.500"))).toBe("1.5");
    expect(str(new D("1e25"))).toBe("10000000000000000000000000");
    expect(str(new D("-1e-20"))).toBe("-0.00000000000000000001");
  });
});

describe("isDecimalString", () => {
  it("accepts plain non-negative decimals up to the length limit and nothing else", () => {
    expect(["0", "10", "0.5", "1234.000001", "9".repeat(MAX_DECIMAL_LENGTH)].map(isDecimalString)).toEqual([true, true, true, true, true]);
    expect(["", "-1", "1.", ".5", "1e5", " 1", "1 ", "0x10", "9".repeat(MAX_DECIMAL_LENGTH + 1)].map(isDecimalString)).toEqual(Array(9).fill(false));
  });
});
