// Active periods, weekly schedules and cooldowns at their exact edges, and how periodKey assigns UTC periods.
import { BOB, LOGIN, log, rules, run, SWAP } from "../test/fixtures";
import { periodKey } from "./index";

const fixed = (extra: object) => rules({ rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, ...extra }] });
const at = (...times: string[]) => log(times.map((occurredAt) => ({ regEventId: LOGIN, occurredAt })));
const seqsPaid = (result: ReturnType<typeof run>) => result.entries.map((e) => e.seq);

describe("time-based rules", () => {
  it("active from March 1 until March 31: pays at 2025-03-01T00:00Z, not one millisecond before, not at March 31 00:00", () => {
    const rv = fixed({ activeFrom: "2025-03-01T00:00:00Z", activeUntil: "2025-03-31T00:00:00Z" });
    const result = run(rv, at("2025-02-28T23:59:59.999Z", "2025-03-01T00:00:00.000Z", "2025-03-30T23:59:59.999Z", "2025-03-31T00:00:00.000Z"));
    expect(seqsPaid(result)).toEqual(["2", "3"]);
  });

  it("weekend-only schedule: Friday 23:59 UTC earns nothing, Saturday 00:00 and Sunday 23:59 earn 10 xp, Monday nothing", () => {
    const rv = fixed({ schedule: [{ days: ["sat", "sun"] }] });
    const result = run(rv, at("2025-03-07T23:59:00Z", "2025-03-08T00:00:00Z", "2025-03-09T23:59:00Z", "2025-03-10T00:00:00Z"));
    expect(seqsPaid(result)).toEqual(["2", "3"]);
  });

  it("schedule of two windows (weekdays 9-17 UTC or Sunday all day): Wednesday 08:59 no, 09:00 yes, 17:00 no, Sunday 03:00 yes", () => {
    const rv = fixed({ schedule: [{ days: ["mon", "tue", "wed", "thu", "fri"], hours: { from: 9, to: 17 } }, { days: ["sun"] }] });
    const result = run(rv, at("2025-03-05T08:59:59Z", "2025-03-05T09:00:00Z", "2025-03-05T17:00:00Z", "2025-03-09T03:00:00Z"));
    expect(seqsPaid(result)).toEqual(["2", "4"]);
  });

  it("cooldown 3600 s: logins at 10:00, 10:30, 11:00 and 11:20 pay at 10:00 and 11:00 only", () => {
    const rv = fixed({ cooldownSeconds: 3600 });
    const result = run(rv, at("2025-03-05T10:00:00Z", "2025-03-05T10:30:00Z", "2025-03-05T11:00:00Z", "2025-03-05T11:20:00Z"));
    expect(seqsPaid(result)).toEqual(["1", "3"]);
  });

  it("cooldown is per user: Alice at 10:00 does not stop Bob at 10:01", () => {
    const rv = fixed({ cooldownSeconds: 3600 });
    const events = log([
      { regEventId: LOGIN, occurredAt: "2025-03-05T10:00:00Z" },
      { regEventId: LOGIN, occurredAt: "2025-03-05T10:01:00Z", userId: BOB },
    ]);
    expect(seqsPaid(run(rv, events))).toEqual(["1", "2"]);
  });

  it("cooldown is per event type: a swap right after a login still pays", () => {
    const rv = rules({
      rules: [
        { id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, cooldownSeconds: 3600 },
        { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" }, cooldownSeconds: 3600 },
      ],
    });
    const events = log([
      { regEventId: LOGIN, occurredAt: "2025-03-05T10:00:00Z" },
      { regEventId: SWAP, occurredAt: "2025-03-05T10:00:01Z" },
    ]);
    expect(run(rv, events).entries.map((e) => e.ruleId)).toEqual(["login", "swap"]);
  });

  it("a late event an hour before the last counted one counts under a 60 s cooldown: the cooldown is measured in event time", () => {
    const rv = fixed({ cooldownSeconds: 60 });
    expect(seqsPaid(run(rv, at("2025-03-05T10:00:00Z", "2025-03-05T09:00:00Z")))).toEqual(["1", "2"]);
  });
});

describe("periodKey", () => {
  it("day is the UTC date: 2025-03-05T23:59:59-01:00 is 2025-03-06", () => {
    expect(periodKey("day", Date.parse("2025-03-05T23:59:59-01:00"))).toBe("2025-03-06");
  });

  it("week is the Monday that starts the ISO week: Sunday 2025-03-09 is in the week of 2025-03-03, Monday 2025-03-10 starts the next", () => {
    expect(periodKey("week", Date.parse("2025-03-09T23:59:59Z"))).toBe("2025-03-03");
    expect(periodKey("week", Date.parse("2025-03-10T00:00:00Z"))).toBe("2025-03-10");
  });

  it("week crosses a year boundary: Thursday 2026-01-01 belongs to the week of Monday 2025-12-29", () => {
    expect(periodKey("week", Date.parse("2026-01-01T12:00:00Z"))).toBe("2025-12-29");
  });

  it("month is the UTC calendar month and campaign is one period", () => {
    expect(periodKey("month", Date.parse("2025-02-28T23:59:59Z"))).toBe("2025-02");
    expect(periodKey("campaign", Date.parse("2030-01-01T00:00:00Z"))).toBe("all");
  });
});
