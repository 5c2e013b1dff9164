// Cooldown spans: exact edges, merging, and equality with a brute-force check over every counted time.
import fc from "fast-check";
import { addCounted, isBlocked, type Span } from "./cooldown";

const C = 10;

/** Counts each time in turn when it is not blocked; returns the spans and the counted times. */
function count(times: readonly number[], cooldown = C): { spans: Span[]; counted: number[] } {
  const spans: Span[] = [];
  const counted: number[] = [];
  for (const t of times) {
    if (isBlocked(spans, t, cooldown)) continue;
    addCounted(spans, t, cooldown);
    counted.push(t);
  }
  return { spans, counted };
}

// The brute force: every counted time kept, a time is blocked by any counted one less than the cooldown away.
const bruteBlocked = (counted: readonly number[], t: number, cooldown: number) => counted.some((s) => Math.abs(s - t) < cooldown);

/** Spans written out from the definition: sorted counted times cut wherever two neighbours are 2 x cooldown or more apart. */
function bruteSpans(counted: readonly number[], cooldown: number): Span[] {
  const sorted = [...counted].sort((a, b) => a - b);
  const out: Span[] = [];
  for (const t of sorted) {
    const last = out.at(-1);
    if (last && t - last[1] < 2 * cooldown) last[1] = t;
    else out.push([t, t]);
  }
  return out;
}

describe("cooldown spans", () => {
  it("blocks less than the cooldown away on either side, and allows exactly the cooldown apart", () => {
    const { spans } = count([100]);
    expect([89, 90, 91, 100, 109, 110, 111].map((t) => isBlocked(spans, t, C))).toEqual([false, false, true, true, true, false, false]);
  });

  it("counted times 100 and 119 (19 < 20 apart) form one span, so 109.5 between them is blocked by both", () => {
    const { spans, counted } = count([100, 119]);
    expect(counted).toEqual([100, 119]);
    expect(spans).toEqual([[100, 119]]);
    expect(isBlocked(spans, 109.5, C)).toBe(true);
  });

  it("counted times 100 and 120 (exactly 2 x 10 apart) stay two spans, and 110 between them is allowed", () => {
    const { spans } = count([100, 120]);
    expect(spans).toEqual([
      [100, 100],
      [120, 120],
    ]);
    expect(isBlocked(spans, 110, C)).toBe(false);
    addCounted(spans, 110, C);
    expect(spans).toEqual([[100, 120]]);
  });

  it("a late time between two spans joins the one before, the one after, both, or neither", () => {
    const base = [0, 100];
    expect(count([...base, 15]).spans).toEqual([
      [0, 15],
      [100, 100],
    ]);
    expect(count([...base, 85]).spans).toEqual([
      [0, 0],
      [85, 100],
    ]);
    expect(count([0, 38, 19]).spans).toEqual([[0, 38]]);
    expect(count([...base, 50]).spans).toEqual([
      [0, 0],
      [50, 50],
      [100, 100],
    ]);
  });

  it("in time order it is the old rule: a time counts when it is at least the cooldown after the last counted one", () => {
    const { counted } = count([0, 5, 10, 19, 20, 35, 40]);
    expect(counted).toEqual([0, 10, 20, 35]);
  });

  it("equals the brute force over every counted time, for any order of times (ties included)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (times, cooldown) => {
        const spans: Span[] = [];
        const counted: number[] = [];
        // Mismatches are collected and asserted once: an expect per step costs more than the check.
        const wrong: string[] = [];
        for (const t of times) {
          const blocked = isBlocked(spans, t, cooldown);
          if (blocked !== bruteBlocked(counted, t, cooldown)) wrong.push(`arriving ${t}`);
          if (!blocked) {
            addCounted(spans, t, cooldown);
            counted.push(t);
          }
          if (JSON.stringify(spans) !== JSON.stringify(bruteSpans(counted, cooldown))) wrong.push(`spans after ${t}`);
        }
        // Every instant of the range, not only the ones that arrived, is judged the same way.
        for (let t = -30; t <= 230; t++) if (isBlocked(spans, t, cooldown) !== bruteBlocked(counted, t, cooldown)) wrong.push(`instant ${t}`);
        expect(wrong).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
