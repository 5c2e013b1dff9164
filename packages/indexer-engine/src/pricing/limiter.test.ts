// IntervalLimiter: request slots spaced 60000 / perMinute ms apart, booked from `now`, pushed back by pauses and by
// sends that went out late.
import fc from "fast-check";
import { IntervalLimiter } from "./limiter";

describe("interval limiter", () => {
  it("refuses a rate that is not a positive number", () => {
    for (const rate of [0, -1, -0.5, Number.NaN]) expect(() => new IntervalLimiter(rate)).toThrow(new RangeError("perMinute must be positive"));
    expect(() => new IntervalLimiter(0.001)).not.toThrow();
  });

  it("lets the first request go at once and spaces the next ones 60000 / perMinute ms apart", () => {
    // 30 a minute: one request every 2000 ms.
    const limiter = new IntervalLimiter(30);
    expect(limiter.reserve(10_000)).toBe(0);
    expect(limiter.reserve(10_000)).toBe(2_000);
    expect(limiter.reserve(10_500)).toBe(3_500);
    // Slots booked so far: 10000, 12000, 14000; the next is 16000.
    expect(limiter.reserve(15_000)).toBe(1_000);
  });

  it("books a request that comes after the next free slot at its own time", () => {
    // 120 a minute: one request every 500 ms.
    const limiter = new IntervalLimiter(120);
    expect(limiter.reserve(1_000)).toBe(0);
    expect(limiter.reserve(5_000)).toBe(0);
    // The slot at 5000 holds the next free slot at 5500.
    expect(limiter.reserve(5_100)).toBe(400);
  });

  it("waits until a pause ends, and ignores a pause that ends before the next free slot", () => {
    const limiter = new IntervalLimiter(60);
    expect(limiter.reserve(0)).toBe(0);
    limiter.pauseUntil(7_000);
    expect(limiter.reserve(2_000)).toBe(5_000);
    // The slot at 7000 makes 8000 the next free slot; a pause to 7500 leaves it there.
    limiter.pauseUntil(7_500);
    expect(limiter.reserve(7_000)).toBe(1_000);
  });

  it("spaces the next slot from a send that went out later than its slot", () => {
    // 300 a minute: one request every 200 ms.
    const limiter = new IntervalLimiter(300);
    expect(limiter.reserve(0)).toBe(0);
    limiter.sent(0);
    expect(limiter.reserve(50)).toBe(150);
    // Its wait ran 30 ms late: sent at 230, so the next slot is 430, not the 400 that follows its slot.
    limiter.sent(230);
    expect(limiter.reserve(250)).toBe(180);
    // A send on time moves nothing.
    limiter.sent(430);
    expect(limiter.reserve(430)).toBe(200);
  });

  it("never lets one send follow another closer than the interval when each waits for its slot, however late (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6_000 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 20_000 }), late: fc.integer({ min: 0, max: 5_000 }) }), { minLength: 1, maxLength: 30 }),
        (perMinute, requests) => {
          const limiter = new IntervalLimiter(perMinute);
          const interval = 60_000 / perMinute;
          let now = 0;
          const sends: number[] = [];
          // One request after another, as the market client sends them: wait for the slot (a wait that ends `late` ms
          // after it should), record the send, and ask for the next `gap` ms after it.
          for (const { gap, late } of requests) {
            const wait = limiter.reserve(now);
            now += wait > 0 ? wait + late : 0;
            limiter.sent(now);
            sends.push(now);
            now += gap;
          }
          for (let i = 1; i < sends.length; i++) expect((sends[i] as number) - (sends[i - 1] as number)).toBeGreaterThanOrEqual(interval - 1e-6);
        },
      ),
    );
  });

  it("never books two slots closer than the interval (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6_000 }), fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 30 }), (perMinute, gaps) => {
        const limiter = new IntervalLimiter(perMinute);
        const interval = 60_000 / perMinute;
        let now = 0;
        let previousSlot = Number.NEGATIVE_INFINITY;
        for (const gap of gaps) {
          now += gap;
          const wait = limiter.reserve(now);
          const slot = now + wait;
          expect(wait).toBeGreaterThanOrEqual(0);
          // The slot is the later of now and one interval after the previous slot.
          expect(slot).toBeCloseTo(Math.max(now, previousSlot + interval), 6);
          previousSlot = slot;
        }
      }),
    );
  });
});
