// Decay by half-life: stored values scaled to the epoch, decayed on reading, ranking unchanged by decay.
import { ValidationError } from "@pointwise/errors";
import { Fixed } from "@pointwise/fixed";
import Decimal from "decimal.js";
import fc from "fast-check";
import { log, rules, run, SWAP } from "../test/fixtures";
import { scaleFixed, scalePoints } from "./decay";
import { dec } from "./decimal";
import { type DecayConfig, decayedScores, decayedValue, decayFactor, decayRangeEnd, MAX_HALF_LIVES, rankRows, replayCampaign } from "./index";

const DAY = 86_400;
const decay: DecayConfig = { halfLifeSeconds: DAY, epoch: "2025-01-01T00:00:00Z" };
const decaying = rules({
  currencies: { xp: { name: "Experience", decay } },
  rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
});
const iso = (days: number) => new Date(Date.parse(decay.epoch) + days * DAY * 1000).toISOString();

describe("decay", () => {
  it("half-life 1 day: 100 xp at the epoch is stored as 100, 100 xp one day later as 200", () => {
    const result = run(
      decaying,
      log([
        { amount: "100", occurredAt: iso(0) },
        { amount: "100", occurredAt: iso(1) },
      ]),
    );
    expect(result.entries.map((e) => [e.paid, e.scaledPaid])).toEqual([
      ["100", "100"],
      ["100", "200"],
    ]);
    expect(result.scoreDeltas[0]).toMatchObject({ score: "300", lifetime: "200" });
  });

  it("stored 300 read two days after the epoch is 100/4 + 100/2 = 75 xp, while lifetime stays 200", () => {
    expect(decayedValue("300", iso(2), decay)).toBe("75");
  });

  it("100 xp earned half a half-life after the epoch is stored as 100 x 2^0.5 = 141.42135623730950488...", () => {
    const [entry] = run(decaying, log([{ amount: "100", occurredAt: iso(0.5) }])).entries;
    expect(Number(entry?.scaledPaid)).toBeCloseTo(100 * Math.SQRT2, 12);
    // sqrt(2) = 1.41421356237309504880168872...; cut to 18 places and written without the trailing zero.
    expect(entry?.scaledPaid).toBe("141.42135623730950488");
  });

  it("an award one day before the epoch is stored at half: 100 xp -> 50", () => {
    expect(run(decaying, log([{ amount: "100", occurredAt: iso(-1) }])).entries[0]?.scaledPaid).toBe("50");
  });

  it("decayFactor is 1 at the epoch, 0.5 one half-life later and 4 two half-lives before", () => {
    expect(decayFactor(iso(0), decay)).toBe("1");
    expect(decayFactor(iso(1), decay)).toBe("0.5");
    expect(decayFactor(new Date(iso(-2)), decay)).toBe("4");
  });

  it("without decay the stored value is the value: decayedValue('42.5', any time) = 42.5 and the factor is 1", () => {
    expect(decayedValue("42.5", iso(100), undefined)).toBe("42.5");
    // A NUMERIC(48,18) column's text keeps its trailing zeros; without decay they come back untouched.
    expect(decayedValue("42.500000000000000000", iso(100), undefined)).toBe("42.500000000000000000");
    expect(decayFactor(iso(100), undefined)).toBe("1");
  });

  it("decayedScores: 100 xp earned on day 1 reads as 100 / 2^2 = 25 on day 3 for score and total", () => {
    const [row] = replayCampaign(decaying, log([{ amount: "100", occurredAt: iso(1) }])).rows;
    if (!row) throw new Error("expected a row");
    expect(decayedScores(row, decaying, iso(3))).toEqual({ score: "25", referralScore: "0", total: "25" });
  });

  it("decayedScores shows what the read API shows: 80 xp read 2.5 half-lives later is 80 / 2^2.5 = 14.142... rounded to 2 places, 14.14", () => {
    const [row] = replayCampaign(decaying, log([{ amount: "80", occurredAt: iso(0) }])).rows;
    if (!row) throw new Error("expected a row");
    // decimals defaults to 2; 80 / 5.65685424949238... = 14.1421356237309...
    expect(decayedScores(row, decaying, iso(2.5))).toEqual({ score: "14.14", referralScore: "0", total: "14.14" });
  });

  it("the bigint 2^f agrees with decimal.js pow to 30 significant digits at any fraction of a half-life", () => {
    const Ref = Decimal.clone({ precision: 60 });
    fc.assert(
      fc.property(fc.integer({ min: -5 * DAY * 1000, max: 5 * DAY * 1000 }), fc.integer({ min: 1, max: 10 ** 9 }), (offsetMs, units) => {
        const points = dec(String(units)).div(100);
        const got = scalePoints(points, Date.parse(decay.epoch) + offsetMs, decay);
        const want = new Ref(2).pow(new Ref(offsetMs).div(DAY * 1000)).mul(points.toString());
        // The stored value is cut to 18 places, so compare relative error above that cut.
        expect(new Ref(got.toString()).sub(want).abs().lte(want.mul("1e-30").add("1e-18"))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an award more than MAX_HALF_LIVES half-lives after the epoch with decay-range-exceeded on decay.epoch", () => {
    // 2025-01-01 to 2036-01-01 is 11 x 365 + 2 leap days = 4017 days, so day 4001 is 2035-12-16.
    const occurredAt = "2035-12-16T00:00:00.000Z";
    expect(iso(MAX_HALF_LIVES + 1)).toBe(occurredAt);
    let err: unknown;
    try {
      run(decaying, log([{ amount: "1", occurredAt }]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ code: "decay-range-exceeded", field: "decay.epoch" });
    expect((err as Error).message).toBe(
      `occurredAt ${occurredAt} is 4001 or more half-lives after decay.epoch 2025-01-01T00:00:00Z; publish a rule version with a later epoch`,
    );
    // The first instant it can no longer score is that one; a millisecond before is still 4000 whole half-lives on.
    expect(decayRangeEnd(decay).toISOString()).toBe(occurredAt);
    expect(run(decaying, log([{ amount: "1", occurredAt: "2035-12-15T23:59:59.999Z" }])).entries[0]?.scaledPaid).toMatch(/^\d{1205}/);
  });

  it(`accepts an award exactly ${MAX_HALF_LIVES} half-lives after the epoch (1 xp stored as 2^4000), and any award before it`, () => {
    const after = run(decaying, log([{ amount: "1", occurredAt: iso(MAX_HALF_LIVES) }])).entries[0]?.scaledPaid;
    expect(after).toBe((2n ** 4000n).toString());
    // 2^-4000 and 2^-5000 are far below 10^-18: the stored value is cut to 0, which is what it is worth at any read after the epoch.
    expect(run(decaying, log([{ amount: "1", occurredAt: iso(-MAX_HALF_LIVES) }])).entries[0]?.scaledPaid).toBe("0");
    expect(run(decaying, log([{ amount: "1", occurredAt: iso(-5000) }])).entries[0]?.scaledPaid).toBe("0");
    // 2^-4000 = 10^(-4000 log10 2) = 10^-1204.12 = 7.586e-1205.
    expect(decayFactor(iso(MAX_HALF_LIVES), decay)).toMatch(/^0\.0{1204}7586/);
    expect(() => decayFactor(iso(MAX_HALF_LIVES + 1), decay)).toThrow(expect.objectContaining({ code: "decay-range-exceeded" }));
    // Read 5000 days before the epoch, a stored 1 is worth 2^5000 = 1.4124e1505 (1506 digits).
    expect(decayFactor(iso(-5000), decay)).toMatch(/^14124\d{1501}$/);
  });

  it("stores an award 1000.5 half-lives before the epoch as 2^-1000.5 of it, exact to 18 places", () => {
    // 10^320 x 2^-1000.5 = 10^320 / (2^1000 x sqrt 2): computed with 400 digits, then cut to 18 places.
    const Ref = Decimal.clone({ precision: 400 });
    const want = new Ref(10)
      .pow(320)
      .div(new Ref(2).pow(1000).mul(new Ref(2).sqrt()))
      .toDecimalPlaces(18, Decimal.ROUND_DOWN);
    const got = scalePoints(dec(`1${"0".repeat(320)}`), Date.parse(iso(-1000.5)), decay);
    expect(new Ref(got.toString()).sub(want).abs().lte("1e-18")).toBe(true);
    expect(got.toString().split(".")[0]).toBe(want.toFixed().split(".")[0]);
  });

  it("keeps the milliseconds of a Date: the factor at epoch + 1.5 s with a one-second half-life is 2^-1.5", () => {
    const second: DecayConfig = { halfLifeSeconds: 1, epoch: "2025-01-01T00:00:00Z" };
    const at = new Date(Date.parse(second.epoch) + 1_500);
    expect(at.getUTCMilliseconds()).toBe(500);
    // 2^-1.5 = sqrt(2) / 4 = 0.35355339059327376220042218105242451964...
    expect(decayFactor(at, second).slice(0, 40)).toBe("0.35355339059327376220042218105242451964");
    expect(decayFactor(at.toISOString(), second)).toBe(decayFactor(at, second));
    // 8 x 2^-1.5 = sqrt 8 = 2.82842712474619009760337..., rounded to 18 places.
    expect(decayedValue("8", at, second)).toBe("2.828427124746190098");
  });

  it("rounds a decayed value to 18 places half to even: 1e-18 halved reads 0, 3e-18 halved reads 2e-18", () => {
    expect(decayedValue("0.000000000000000001", iso(1), decay)).toBe("0");
    expect(decayedValue("0.000000000000000003", iso(1), decay)).toBe("0.000000000000000002");
    expect(decayedValue("0.000000000000000005", iso(1), decay)).toBe("0.000000000000000002");
  });

  it("leaves zero points unscaled at any time, even beyond the range an award may have", () => {
    expect(scalePoints(dec("0"), Date.parse(iso(MAX_HALF_LIVES * 2)), decay).toString()).toBe("0");
    expect(scalePoints(dec("12.5"), Date.parse(iso(3)), undefined).toString()).toBe("12.5");
  });

  it("scales points whose scale is negative (numbers past 2000 digits, rounded): 5 x 10^40 one half-life on is 10^41", () => {
    const compiled = { config: decay, epochMs: BigInt(Date.parse(decay.epoch)), halfLifeMs: BigInt(DAY * 1000) };
    expect(scaleFixed(new Fixed(5n, -40), Date.parse(iso(1)), compiled).toString()).toBe(`1${"0".repeat(41)}`);
    expect(scaleFixed(new Fixed(7n, -10), Date.parse(iso(-1)), compiled).toString()).toBe(`35${"0".repeat(9)}`);
  });

  it("refuses points with more than 18 decimal places instead of rounding them", () => {
    expect(() => scalePoints(dec("0.0000000000000000001"), Date.parse(iso(1)), decay)).toThrow(
      new RangeError("points 0.0000000000000000001 must have at most 18 decimal places to be scaled"),
    );
    expect(scalePoints(dec("0.000000000000000001"), Date.parse(iso(1)), decay).toString()).toBe("0.000000000000000002");
  });

  it("ranking by the stored total equals ranking by the decayed total at any later time (float check computed apart)", () => {
    const award = fc.record({ user: fc.constantFrom("u1", "u2", "u3", "u4"), amount: fc.integer({ min: 1, max: 1000 }), day: fc.integer({ min: 0, max: 60 }) });
    fc.assert(
      fc.property(fc.array(award, { minLength: 1, maxLength: 20 }), fc.integer({ min: 60, max: 90 }), (awards, readDay) => {
        const sorted = [...awards].sort((a, b) => a.day - b.day);
        const events = log(sorted.map((a) => ({ userId: a.user, amount: String(a.amount), occurredAt: iso(a.day) })));
        const ranked = rankRows(replayCampaign(decaying, events).rows, "xp").map((r) => r.userId);
        // Independent model: decayed value of each award at the read day, in floating point.
        const value = new Map<string, number>();
        for (const a of sorted) value.set(a.user, (value.get(a.user) ?? 0) + a.amount * 2 ** (a.day - readDay));
        const expected = [...value.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([u]) => u);
        // Ties in floating point may hide exact differences; compare only where values differ clearly.
        for (let i = 0; i + 1 < expected.length; i++) {
          const hi = value.get(expected[i] as string) as number;
          const lo = value.get(expected[i + 1] as string) as number;
          if (hi - lo > 1e-9 * hi) expect(ranked.indexOf(expected[i] as string)).toBeLessThan(ranked.indexOf(expected[i + 1] as string));
        }
      }),
      { numRuns: 100 },
    );
  });
});
