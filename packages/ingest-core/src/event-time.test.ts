// checkEventTime: each bound of occurred_at at its edge, in the documented order, with its code and message.
import { checkEventTime, type EventTimeRights } from "./event-time";

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const limits = { maxSkewMs: 5 * 60_000, maxAgeMs: 24 * H };
const open: EventTimeRights = { backfill: false, startsAt: null, endsAt: null };
const code = (at: number | undefined, rights: EventTimeRights = open) => checkEventTime(at, NOW, rights, limits)?.code ?? "ok";

describe("checkEventTime", () => {
  it("accepts up to the skew allowance ahead and refuses a millisecond more with occurred-at-in-future", () => {
    expect(code(NOW + 5 * 60_000)).toBe("ok");
    expect(checkEventTime(NOW + 5 * 60_000 + 1, NOW, open, limits)).toEqual({
      message: "occurred_at 2026-11-26T12:05:00.001Z is more than 300 s ahead of the service's clock (2026-11-26T12:00:00.000Z)",
      code: "occurred-at-in-future",
    });
  });

  it("lets an ordinary key report a day back, not a millisecond more, and a backfill key any time since the start", () => {
    expect(code(NOW - 24 * H)).toBe("ok");
    expect(checkEventTime(NOW - 24 * H - 1, NOW, open, limits)).toEqual({
      message: "occurred_at 2026-11-25T11:59:59.999Z is more than 1 d in the past; this API key may not backfill (an operator can allow it for the key)",
      code: "occurred-at-too-old",
    });
    expect(code(NOW - 400 * 24 * H, { ...open, backfill: true })).toBe("ok");
  });

  it("refuses a time before starts_at and one at or after ends_at, for backfill keys too", () => {
    const dates = { backfill: true, startsAt: NOW - 10 * 24 * H, endsAt: NOW + H };
    expect(code(NOW - 10 * 24 * H, dates)).toBe("ok");
    expect(checkEventTime(NOW - 10 * 24 * H - 1, NOW, dates, limits)).toEqual({
      message: "occurred_at 2026-11-16T11:59:59.999Z is before the campaign starts (2026-11-16T12:00:00.000Z)",
      code: "occurred-at-before-campaign",
    });
    const ended = { ...dates, endsAt: NOW - H };
    expect(code(NOW - H - 1, ended)).toBe("ok");
    expect(checkEventTime(NOW - H, NOW, ended, limits)).toEqual({
      message: "occurred_at 2026-11-26T11:00:00.000Z is not before the campaign ends (2026-11-26T11:00:00.000Z)",
      code: "occurred-at-after-campaign",
    });
  });

  it("holds an event without occurred_at (received now) to the campaign's dates only", () => {
    expect(code(undefined)).toBe("ok");
    expect(checkEventTime(undefined, NOW, { ...open, startsAt: NOW + 1 }, limits)).toEqual({
      message: "the event (received now) is before the campaign starts (2026-11-26T12:00:00.001Z)",
      code: "occurred-at-before-campaign",
    });
    expect(code(undefined, { ...open, endsAt: NOW })).toBe("occurred-at-after-campaign");
    // With no allowance at all, the time of receipt is neither ahead nor too old.
    expect(checkEventTime(undefined, NOW, open, { maxSkewMs: 0, maxAgeMs: 0 })).toBeNull();
    expect(checkEventTime(NOW, NOW, open, { maxSkewMs: 0, maxAgeMs: 0 })).toBeNull();
  });

  it("refuses no past time, however old, when the campaign has no starts_at and the key may backfill", () => {
    const backfill = { ...open, backfill: true };
    expect(code(Date.UTC(2020, 0, 1), backfill)).toBe("ok");
    // Before 1970: epoch milliseconds below zero are still after an open start.
    expect(code(Date.UTC(1969, 11, 31, 23, 59, 59), backfill)).toBe("ok");
    expect(code(Date.UTC(1969, 11, 31, 23, 59, 59))).toBe("occurred-at-too-old");
  });

  it("names the first broken bound: future before campaign dates, campaign dates before age", () => {
    expect(code(NOW + H, { backfill: false, startsAt: null, endsAt: NOW })).toBe("occurred-at-in-future");
    expect(code(NOW - 48 * H, { backfill: false, startsAt: NOW - 24 * H, endsAt: null })).toBe("occurred-at-before-campaign");
  });
  it("names each allowance in the largest unit that divides it: days, hours, seconds, else milliseconds", () => {
    const skew = (maxSkewMs: number) => checkEventTime(NOW + maxSkewMs + 1, NOW, open, { ...limits, maxSkewMs })?.message;
    const age = (maxAgeMs: number) => checkEventTime(NOW - maxAgeMs - 1, NOW, open, { ...limits, maxAgeMs })?.message;
    // 2 h = 7,200,000 ms; 36 h is 1.5 d, so hours; 90,000 ms = 90 s; 1,500 ms is 1.5 s, so milliseconds.
    expect(skew(2 * H)).toBe("occurred_at 2026-11-26T14:00:00.001Z is more than 2 h ahead of the service's clock (2026-11-26T12:00:00.000Z)");
    expect(skew(90_000)).toBe("occurred_at 2026-11-26T12:01:30.001Z is more than 90 s ahead of the service's clock (2026-11-26T12:00:00.000Z)");
    expect(skew(1500)).toBe("occurred_at 2026-11-26T12:00:01.501Z is more than 1500 ms ahead of the service's clock (2026-11-26T12:00:00.000Z)");
    expect(age(36 * H)).toBe(
      "occurred_at 2026-11-24T23:59:59.999Z is more than 36 h in the past; this API key may not backfill (an operator can allow it for the key)",
    );
    expect(age(2 * 24 * H)).toBe(
      "occurred_at 2026-11-24T11:59:59.999Z is more than 2 d in the past; this API key may not backfill (an operator can allow it for the key)",
    );
  });
});
