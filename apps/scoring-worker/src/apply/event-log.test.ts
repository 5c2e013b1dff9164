// The log's normal forms of an amount and a receive time, checked against what PostgreSQL stores.
import { logAmount, logTime } from "./event-log";

describe("values as the log returns them", () => {
  it.each([
    ["125.50", "125.5"],
    ["0010", "10"],
    ["0.000", "0"],
    ["0", "0"],
    [`1.${"0".repeat(17)}1`, `1.${"0".repeat(17)}1`],
    ["100.0100", "100.01"],
  ])("reads the amount %s back as %s, as trim_scale(NUMERIC(48,18)) does", (amount, expected) => {
    expect(logAmount(amount)).toBe(expected);
  });

  it.each(["-1", "1e3", "1.", ".5", `1.${"0".repeat(18)}1`, ""])("refuses the amount %p with event-invalid", (amount) => {
    expect(() => logAmount(amount)).toThrow(expect.objectContaining({ code: "event-invalid" }));
  });

  it("reads a receive time back at millisecond precision in UTC", () => {
    expect(logTime("2026-03-07T10:00:00Z")).toBe("2026-03-07T10:00:00.000Z");
    expect(logTime("2026-03-07T10:00:00.5Z")).toBe("2026-03-07T10:00:00.500Z");
  });

  it.each(["2026-03-07T10:00:00.1234Z", "2026-03-07T10:00:00+01:00", "2026-02-30T10:00:00Z", "yesterday"])("refuses the time %p with event-invalid", (time) => {
    expect(() => logTime(time)).toThrow(expect.objectContaining({ code: "event-invalid" }));
  });
});
