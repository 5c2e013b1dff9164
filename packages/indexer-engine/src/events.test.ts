import { Dec, formatDecimal, isDecimalString, unitsFromRaw } from "./decimal";
import { invalidEventReason } from "./events";

const U = "0x00000000000000000000000000000000000000aa";

describe("decimals", () => {
  it("converts base units to token units exactly", () => {
    expect(unitsFromRaw(1_500_000n, 6)).toBe("1.5");
    expect(unitsFromRaw(1n, 18)).toBe("0.000000000000000001");
    expect(unitsFromRaw(-123_000_000_000_000_000_000n, 18)).toBe("-123");
    expect(unitsFromRaw(0n, 18)).toBe("0");
    expect(unitsFromRaw(42n, 0)).toBe("42");
  });

  it("formats without exponent or trailing zeros, rounding half to even at 18 places", () => {
    expect(formatDecimal(new Dec("1e-20"))).toBe("0");
    expect(formatDecimal(new Dec("12345678901234567890123"))).toBe("12345678901234567890123");
    expect(formatDecimal(new Dec("2.5000"))).toBe("2.5");
    expect(formatDecimal(new Dec("0.0000000000000000025"))).toBe("0.000000000000000002");
    expect(formatDecimal(new Dec(1).div(3))).toBe("0.333333333333333333");
  });

  it("recognises plain decimal strings only", () => {
    expect(["1", "-0.5", "100.000"].every(isDecimalString)).toBe(true);
    expect(["1e5", ".5", "1.", "", "NaN", "0x10"].some(isDecimalString)).toBe(false);
  });
});

describe("event validation", () => {
  it("accepts well-formed events", () => {
    expect(invalidEventReason({ type: "balanceDelta", user: U, asset: U, amount: "-1.5", activity: "hold" })).toBeUndefined();
    expect(invalidEventReason({ type: "action", key: "k", activity: "claim", user: U, priceable: false })).toBeUndefined();
  });

  it("names the field and rule of an invalid event", () => {
    expect(invalidEventReason({ type: "action", key: "k", activity: "swap", user: U, priceable: true })).toBe(
      "action.amount a priceable action must carry amount.asset and amount.amount",
    );
    expect(invalidEventReason({ type: "balanceDelta", user: "0xABC", asset: U, amount: "1", activity: "hold" })).toBe(
      "balanceDelta.user must be a lowercase 0x-prefixed 20-byte address",
    );
    expect(invalidEventReason({ type: "balanceDelta", user: U, asset: U, amount: "1e3", activity: "hold" })).toBe(
      "balanceDelta.amount must be a decimal string",
    );
    expect(invalidEventReason({ type: "mint" })).toBe("type must be one of balanceDelta, measureDelta, positionUpdate, positionStatusChange, reprice, action");
  });
});
