// The campaign window: edges (start inclusive, end exclusive, null open), what an outside event leaves untouched, bad windows.
import { ValidationError } from "@pointwise/errors";
import { ALICE, BOB, log, rules, type run, SWAP, thrownBy } from "../test/fixtures";
import { compileWindow } from "./campaign-window";
import { type ApplyInput, applyEvents, type CampaignWindow, dryRunDiff, emptyCampaignState, emptyUserState, replayCampaign } from "./index";

const rv = rules({
  rules: [
    {
      id: "swap",
      regEventId: SWAP,
      currency: "xp",
      base: { kind: "perUnit", points: "1" },
      cooldownSeconds: 3600,
      caps: [{ period: "day", limit: "100" }],
      milestones: [{ id: "first", metric: "count", level: "1", points: "5" }],
    },
  ],
});
const at = (...times: string[]) => log(times.map((occurredAt) => ({ occurredAt, amount: "1" })));
const WINDOW: CampaignWindow = { startsAt: "2025-03-05T00:00:00Z", endsAt: "2025-03-10T00:00:00Z" };
const apply = (events: ApplyInput["events"], campaignWindow: CampaignWindow | null, extra: Partial<ApplyInput> = {}) =>
  applyEvents({ rules: rv, events, campaignWindow, ...extra });
const baseSeqs = (result: ReturnType<typeof run>) => result.entries.filter((e) => e.kind === "base").map((e) => e.seq);
const outsideSeqs = (result: ReturnType<typeof run>) => result.outsideCampaign.map((o) => o.seq);

const errorOf = (fn: () => unknown) => thrownBy(fn, ValidationError);

describe("campaign window", () => {
  it("startsAt is inclusive and endsAt exclusive: 1 ms before the start and the end itself are outside", () => {
    // Each a day apart, so the cooldown never decides.
    const result = apply(at("2025-03-04T23:59:59.999Z", "2025-03-05T00:00:00.000Z", "2025-03-09T23:59:59.999Z", "2025-03-10T00:00:00.000Z"), WINDOW);
    expect(baseSeqs(result)).toEqual(["2", "3"]);
    expect(result.outsideCampaign).toEqual([
      { eventId: "00000000-0000-4000-8000-000000000001", seq: "1", userId: ALICE },
      { eventId: "00000000-0000-4000-8000-000000000004", seq: "4", userId: ALICE },
    ]);
  });

  it("compares instants, not text: 2025-03-05T01:00:00+01:00 is the start itself, and a start written with an offset works the same", () => {
    expect(baseSeqs(apply(at("2025-03-05T00:59:59.999+01:00", "2025-03-05T01:00:00+01:00"), WINDOW))).toEqual(["2"]);
    const offsetWindow = { startsAt: "2025-03-04T19:00:00-05:00", endsAt: null };
    expect(outsideSeqs(apply(at("2025-03-04T23:59:59.999Z", "2025-03-05T00:00:00Z"), offsetWindow))).toEqual(["1"]);
  });

  it("null is open on that side: no start lets 2020 in, no end lets 2030 in, both null is no window", () => {
    const times = at("2020-01-01T00:00:00Z", "2025-03-06T00:00:00Z", "2030-01-01T00:00:00Z");
    expect(outsideSeqs(apply(times, { startsAt: null, endsAt: WINDOW.endsAt }))).toEqual(["3"]);
    expect(outsideSeqs(apply(times, { startsAt: WINDOW.startsAt, endsAt: null }))).toEqual(["1"]);
    expect(outsideSeqs(apply(times, { startsAt: null, endsAt: null }))).toEqual([]);
    expect(outsideSeqs(apply(times, null))).toEqual([]);
    expect(outsideSeqs(applyEvents({ rules: rv, events: times }))).toEqual([]);
  });

  it("an outside event changes no progress, cap, cooldown, milestone or tier: only lastSeq moves", () => {
    const result = apply(at("2025-03-10T00:00:00Z"), WINDOW);
    expect(result.entries).toEqual([]);
    expect(result.scoreDeltas).toEqual([]);
    expect(result.users[ALICE]).toEqual({ ...emptyUserState(rv), lastSeq: "1" });
  });

  it("an outside event does not start a cooldown: the event 1 s later, inside, counts and reaches the milestone", () => {
    const events = log([
      { occurredAt: "2025-03-04T23:59:59Z", amount: "1" },
      { occurredAt: "2025-03-05T00:00:00Z", amount: "1" },
    ]);
    const result = apply(events, WINDOW);
    expect(result.entries.map((e) => [e.seq, e.kind, e.paid])).toEqual([
      ["2", "base", "1"],
      ["2", "milestone", "5"],
    ]);
  });

  it("an outside event applied again is a repeat: skipped, not listed as outside twice", () => {
    const events = at("2025-03-11T00:00:00Z");
    const first = apply(events, WINDOW);
    const again = apply(events, WINDOW, { users: first.users });
    expect(again.outsideCampaign).toEqual([]);
    expect(again.skipped).toEqual([{ eventId: "00000000-0000-4000-8000-000000000001", seq: "1", userId: ALICE, reason: "already-applied" }]);
  });

  it("with a budget, an outside event uses none of it and moves the campaign's lastSeq past it", () => {
    const budget = rules({
      currencies: { xp: { name: "Experience", budget: "10" } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const events = log([
      { occurredAt: "2025-03-11T00:00:00Z", amount: "8" },
      { occurredAt: "2025-03-06T00:00:00Z", amount: "8", userId: BOB },
    ]);
    const result = applyEvents({ rules: budget, events, campaignWindow: WINDOW });
    expect(result.entries.map((e) => [e.userId, e.paid])).toEqual([[BOB, "8"]]);
    expect(result.campaign).toEqual({ ...emptyCampaignState(budget), lastSeq: "2", budgetUsed: { xp: "8" } });
  });

  it("a rejected event is reported as rejected, not as outside, even when its time is outside", () => {
    const result = apply(log([{ occurredAt: "2025-03-11T00:00:00Z", amount: "-1" }]), WINDOW);
    expect(result.rejected.map((r) => r.code)).toEqual(["amount-invalid"]);
    expect(result.outsideCampaign).toEqual([]);
  });

  it("replayCampaign and dryRunDiff apply the window to the whole log", () => {
    const events = log([
      { occurredAt: "2025-03-06T00:00:00Z", amount: "3" },
      { occurredAt: "2025-03-12T00:00:00Z", amount: "4", userId: BOB },
    ]);
    const replay = replayCampaign(rv, events, WINDOW);
    expect(replay.rows.map((r) => [r.userId, r.total])).toEqual([[ALICE, "8"]]);
    expect(replay.outsideCampaign.map((o) => o.userId)).toEqual([BOB]);
    const after = rules({ version: 2, rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "2" } }] });
    const diff = dryRunDiff({ before: rv, after, events, at: "2025-03-20T00:00:00Z", campaignWindow: WINDOW });
    // Alice: 3 + milestone 5 = 8 before, 3 x 2 = 6 after; Bob is outside the window under both versions.
    expect(diff.moves).toEqual([{ userId: ALICE, rankBefore: 1, rankAfter: 1, rankChange: 0, pointsBefore: "8", pointsAfter: "6", pointsChange: "-2" }]);
    expect(diff.usersAfter).toBe(1);
  });

  it.each([
    [{ startsAt: "soon", endsAt: null }, "campaignWindow.startsAt", 'campaignWindow.startsAt must be an ISO 8601 time or null, got "soon"'],
    [{ startsAt: null, endsAt: "" }, "campaignWindow.endsAt", 'campaignWindow.endsAt must be an ISO 8601 time or null, got ""'],
    [{ startsAt: 5, endsAt: null }, "campaignWindow.startsAt", "campaignWindow.startsAt must be an ISO 8601 time or null"],
    [{ endsAt: null }, "campaignWindow.startsAt", "campaignWindow.startsAt must be an ISO 8601 time or null"],
    [
      { startsAt: "2025-03-05T00:00:00Z", endsAt: "2025-03-05T01:00:00+01:00" },
      "campaignWindow.endsAt",
      "campaignWindow.endsAt must be later than campaignWindow.startsAt",
    ],
    ["2025", "campaignWindow", "campaignWindow must be an object { startsAt, endsAt } or null"],
    [
      { startsAt: `x${"9".repeat(60)}`, endsAt: null },
      "campaignWindow.startsAt",
      `campaignWindow.startsAt must be an ISO 8601 time or null, got "x${"9".repeat(39)}"`,
    ],
  ])("refuses the window %j with campaign-window-invalid naming %s", (window, field, message) => {
    const err = errorOf(() => apply(at("2025-03-06T00:00:00Z"), window as unknown as CampaignWindow));
    expect({ code: err.code, field: err.field, message: err.message }).toEqual({ code: "campaign-window-invalid", field, message });
  });
});

describe("compileWindow", () => {
  it("gives no window for both sides open, and the instants in milliseconds otherwise", () => {
    expect(compileWindow({ startsAt: null, endsAt: null })).toBeUndefined();
    expect(compileWindow(null)).toBeUndefined();
    expect(compileWindow({ startsAt: "2025-03-05T00:00:00Z", endsAt: null })).toEqual({ from: Date.UTC(2025, 2, 5), until: Number.POSITIVE_INFINITY });
    expect(compileWindow({ startsAt: null, endsAt: "2025-03-06T00:00:00Z" })).toEqual({ from: Number.NEGATIVE_INFINITY, until: Date.UTC(2025, 2, 6) });
  });
});
