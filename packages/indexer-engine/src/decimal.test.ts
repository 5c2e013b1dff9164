// Converting the price decimal type to exact fixed point: the value is kept exactly, once per decimal object.
import { Dec, fixedOfDec } from "./decimal";

describe("fixedOfDec", () => {
  it("keeps a decimal's exact value and converts each decimal object once", () => {
    const price = new Dec(`2451.37${"0".repeat(51)}1`);
    const fixed = fixedOfDec(price);
    // 2451.37, 51 zeros and a 1: 2 + 51 + 1 = 54 decimal places.
    expect([fixed.units, fixed.scale]).toEqual([BigInt(`245137${"0".repeat(51)}1`), 54]);
    expect(fixedOfDec(price)).toBe(fixed);
    expect(fixedOfDec(new Dec("1e-30")).toString()).toBe(`0.${"0".repeat(29)}1`);
    expect(fixedOfDec(new Dec("-2.5e3")).toString()).toBe("-2500");
  });
});
