// The UTC time helpers at their edges: which of two times is later, a time that does not parse, weekdays and
// recurring hours that wrap past midnight.
import { inRecurringWindow, laterTime, timeOf, weekdayOf } from "./time";

/** An event time as the engine holds it: the canonical ISO string and its milliseconds. */
const event = (iso: string) => [iso, Date.parse(iso)] as const;

describe("laterTime", () => {
  it("keeps the later of two canonical UTC strings, and the event's on a tie", () => {
    expect(laterTime("2025-03-05T12:00:00.000Z", ...event("2025-03-05T11:59:59.999Z"))).toBe("2025-03-05T12:00:00.000Z");
    expect(laterTime("2025-03-05T11:59:59.999Z", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T12:00:00.000Z");
    expect(laterTime("2025-03-05T12:00:00.000Z", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T12:00:00.000Z");
  });

  it("compares a stored time with an offset by its instant, not its text", () => {
    // 13:00+02:00 is 11:00Z: earlier than 12:00Z although its text sorts after it.
    expect(laterTime("2025-03-05T13:00:00+02:00", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T12:00:00.000Z");
    // 11:00-02:00 is 13:00Z: later than 12:00Z although its text sorts before it; the stored text is kept as it was.
    expect(laterTime("2025-03-05T11:00:00-02:00", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T11:00:00-02:00");
    // The same instant as the event: the event's canonical text.
    expect(laterTime("2025-03-05T14:00:00+02:00", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T12:00:00.000Z");
  });

  it("compares by instant when the event's time is past year 9999, whose ISO text does not sort with four-digit years", () => {
    // toISOString writes year 10000 as "+010000-…", which sorts before "9999-…" as text.
    const late = new Date(Date.UTC(10_000, 0, 1)).toISOString();
    expect(late).toBe("+010000-01-01T00:00:00.000Z");
    expect(laterTime("9999-12-31T23:59:59.999Z", late, Date.UTC(10_000, 0, 1))).toBe(late);
  });

  it("takes the event's time when the stored one does not parse", () => {
    expect(laterTime("not a time", ...event("2025-03-05T12:00:00.000Z"))).toBe("2025-03-05T12:00:00.000Z");
  });
});

describe("timeOf", () => {
  it("gives the milliseconds of a time and refuses one that does not parse with a RangeError naming it", () => {
    expect(timeOf("1970-01-01T00:00:01.5Z")).toBe(1_500);
    expect(() => timeOf("2025-13-01T00:00:00Z")).toThrow(new RangeError("not a time: 2025-13-01T00:00:00Z"));
  });
});

describe("weekdayOf", () => {
  it("names the UTC weekday from Monday to Sunday and refuses an instant that is not a number", () => {
    // 2025-03-03 is a Monday.
    const days = [3, 4, 5, 6, 7, 8, 9].map((d) => weekdayOf(Date.UTC(2025, 2, d, 23, 59)));
    expect(days).toEqual(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
    expect(() => weekdayOf(Number.NaN)).toThrow(new RangeError("weekday out of range"));
  });
});

describe("inRecurringWindow", () => {
  const hour = (h: number) => Date.UTC(2025, 2, 5, h, 30);
  it("with hours wrapping past midnight (22 to 2) includes 22:00 to 01:59 and nothing from 02:00 to 21:59", () => {
    const inside = Array.from({ length: 24 }, (_, h) => h).filter((h) => inRecurringWindow(hour(h), { hours: { from: 22, to: 2 } }));
    expect(inside).toEqual([0, 1, 22, 23]);
  });

  it("with hours within one day (9 to 17) includes 09:00 to 16:59", () => {
    const inside = Array.from({ length: 24 }, (_, h) => h).filter((h) => inRecurringWindow(hour(h), { hours: { from: 9, to: 17 } }));
    expect(inside).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
  });
});
