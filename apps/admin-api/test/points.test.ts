// The dashboard prints points with every digit the admin API sends, only adding thousands separators.
import { formatPoints } from "../web/src/points";

describe("formatPoints", () => {
  it.each([
    ["0.370370367037037034", "0.370370367037037034"],
    ["9223372036854775.8", "9,223,372,036,854,775.8"],
    ["999999999999999999999999999999.999999999999999999", "999,999,999,999,999,999,999,999,999,999.999999999999999999"],
    ["1234", "1,234"],
    ["-1234.5", "-1,234.5"],
    ["0", "0"],
    ["100", "100"],
  ])("shows %s as %s", (value, shown) => {
    expect(formatPoints(value)).toBe(shown);
  });
});
