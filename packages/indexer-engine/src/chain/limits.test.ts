// The transport's admission limits: the semaphore's slots and arrival order, the token bucket's rate, cap and debt.
import { Semaphore, TokenBucket } from "./limits";

/**
 * node:timers/promises' setTimeout, replaced: in "fake" mode a sleep records its length and moves the test clock on
 * by it at once; in "real" mode it sleeps for real. Either way a runaway loop of sleeps fails instead of hanging.
 */
const mockTimers = { mode: "fake" as "fake" | "real", clock: 0, sleeps: [] as number[], calls: 0 };
jest.mock("node:timers/promises", () => {
  const actual = jest.requireActual("node:timers/promises");
  return {
    ...actual,
    setTimeout: async (ms: number) => {
      if (++mockTimers.calls > 100) throw new Error("too many sleeps");
      if (mockTimers.mode === "real") return actual.setTimeout(ms);
      mockTimers.sleeps.push(ms);
      mockTimers.clock += ms;
    },
  };
});

beforeEach(() => {
  mockTimers.mode = "fake";
  mockTimers.clock = 0;
  mockTimers.sleeps = [];
  mockTimers.calls = 0;
});

/** Whether `p` has settled after the current turn of the event loop. */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("Semaphore", () => {
  it("admits `limit` holders at once and makes the next wait until one gives its slot back", async () => {
    const sem = new Semaphore(2);
    const first = await sem.acquire();
    await sem.acquire();
    const third = sem.acquire();
    expect(await isSettled(third)).toBe(false);
    first();
    expect(await isSettled(third)).toBe(true);
    expect(await isSettled(sem.acquire())).toBe(false);
  });

  it("serves waiters in arrival order", async () => {
    const sem = new Semaphore(1);
    let release = await sem.acquire();
    const order: string[] = [];
    const waiters = ["a", "b", "c"].map((name) =>
      sem.acquire().then((r) => {
        order.push(name);
        return r;
      }),
    );
    for (let i = 0; i < 3; i++) {
      release();
      release = await (waiters[i] as Promise<() => void>);
      expect(order).toEqual(["a", "b", "c"].slice(0, i + 1));
    }
  });

  it("hands a released slot to the waiter, so a newcomer cannot overtake it", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    const waiter = sem.acquire();
    release();
    const newcomer = sem.acquire();
    expect(await isSettled(waiter)).toBe(true);
    expect(await isSettled(newcomer)).toBe(false);
  });

  it("gives a slot back only once however often the release is called", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    release();
    release();
    await sem.acquire();
    expect(await isSettled(sem.acquire())).toBe(false);
  });

  it("frees the slot for a later holder when nobody waits", async () => {
    const sem = new Semaphore(1);
    (await sem.acquire())();
    expect(await isSettled(sem.acquire())).toBe(true);
  });

  it("admits one holder at a time when the limit is 0", async () => {
    const sem = new Semaphore(0);
    expect(await isSettled(sem.acquire())).toBe(true);
    expect(await isSettled(sem.acquire())).toBe(false);
  });
});

/** A token bucket on the test clock. */
function bucket(perSecond: number) {
  let reads = 0;
  const b = new TokenBucket(perSecond, () => {
    reads++;
    return mockTimers.clock;
  });
  return { b, reads: () => reads };
}

describe("TokenBucket", () => {
  it("starts full and then waits exactly until each missing token has refilled", async () => {
    const { b } = bucket(10);
    await b.take(10);
    expect(mockTimers.sleeps).toEqual([]);
    await b.take(1);
    await b.take(1);
    // 10 per second: one token every 100 ms.
    expect(mockTimers.sleeps).toEqual([100, 100]);
    expect(mockTimers.clock).toBe(200);
  });

  it("counts the time between takes towards the refill", async () => {
    const { b } = bucket(10);
    await b.take(10);
    mockTimers.clock = 50;
    await b.take(1);
    await b.take(2);
    // Half a token after 50 ms, so 50 ms more for the first; two more tokens take 200 ms.
    expect(mockTimers.sleeps).toEqual([50, 200]);
  });

  it("holds at most one second's worth of tokens after a long idle time", async () => {
    const { b } = bucket(10);
    mockTimers.clock = 60_000;
    await b.take(10);
    expect(mockTimers.sleeps).toEqual([]);
    await b.take(1);
    expect(mockTimers.sleeps).toEqual([100]);
  });

  it("rounds a fractional wait up, so a single wait suffices", async () => {
    const { b } = bucket(3);
    await b.take(3);
    await b.take(1);
    // 1000 / 3 = 333.33 ms, waited as 334 ms.
    expect(mockTimers.sleeps).toEqual([334]);
  });

  it("waits for a full bucket for a take larger than it, and leaves it in debt", async () => {
    const { b } = bucket(10);
    await b.take(10);
    await b.take(25);
    // A full bucket is 10 tokens: 1000 ms. Then 15 tokens are owed, plus 1 for the next take: 1600 ms.
    await b.take(1);
    expect(mockTimers.sleeps).toEqual([1_000, 1_600]);
  });

  it("serves takers in arrival order, each after the previous one", async () => {
    const { b } = bucket(10);
    const order: string[] = [];
    const takes = [
      ["big", 10],
      ["second big", 10],
      ["small", 1],
    ] as const;
    await Promise.all(takes.map(([name, count]) => b.take(count).then(() => order.push(name))));
    expect(order).toEqual(["big", "second big", "small"]);
    expect(mockTimers.sleeps).toEqual([1_000, 100]);
  });

  it("does not limit at all with 0 calls per second", async () => {
    const { b, reads } = bucket(0);
    for (let i = 0; i < 5; i++) await b.take(1_000);
    expect(mockTimers.sleeps).toEqual([]);
    // Only the constructor looked at the clock.
    expect(reads()).toBe(1);
  });

  it("uses the monotonic clock by default", async () => {
    mockTimers.mode = "real";
    const b = new TokenBucket(20);
    const started = performance.now();
    await b.take(20);
    expect(performance.now() - started).toBeLessThan(40);
    await b.take(1);
    // One token of 20 per second: 50 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});
