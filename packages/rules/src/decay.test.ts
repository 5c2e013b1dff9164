// Decay by half-life: stored values scaled to the epoch, decayed on reading, ranking unchanged by decay.
import { ValidationError } from "@pointwise/errors";
import Decimal from "decimal.js";
import fc from "fast-check";
import { log, rules, run, SWAP } from "../test/fixtures";
import { scalePoints } from "./decay";
import { dec } from "./decimal";
import { type DecayConfig, decayedScores, decayedValue, decayFactor, MAX_HALF_LIVES, rankRows, replayCampaign } from "./index";

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

  it(`refuses an award more than ${MAX_HALF_LIVES} half-lives after the epoch with decay-range-exceeded`, () => {
    const far = () => run(decaying, log([{ amount: "1", occurredAt: iso(MAX_HALF_LIVES + 1) }]));
    expect(far).toThrow(ValidationError);
    expect(far).toThrow(/more than 4000 half-lives from decay.epoch/);
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
