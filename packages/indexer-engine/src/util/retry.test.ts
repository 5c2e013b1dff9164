// Backoff with full jitter (bounds pinned by fixing Math.random), Retry-After read and honoured, the retry loop's budget,
// errors and stop signal, and mapLimit's order and concurrency bound.
import { BaseError, RetryableError } from "@pointwise/errors";
import fc from "fast-check";
import { type AttemptOutcome, backoffMs, MAX_RETRY_AFTER_MS, mapLimit, type RetryLoop, retryAfterMs, retryTransient, stretchToRetryAfter } from "./retry";

const JUST_UNDER_ONE = 1 - 2 ** -53;

describe("backoffMs", () => {
  afterEach(() => jest.restoreAllMocks());

  it("waits exactly the base delay when the random draw is 0", () => {
    jest.spyOn(Math, "random").mockReturnValue(0);
    expect(backoffMs(0, 250, 8_000)).toBe(250);
    expect(backoffMs(3, 250, 8_000)).toBe(250);
    expect(backoffMs(9, 250, 8_000)).toBe(250);
  });

  it("stays just below base * 2^attempt when the draw is just under 1", () => {
    jest.spyOn(Math, "random").mockReturnValue(JUST_UNDER_ONE);
    // attempt 3: ceiling 250 * 8 = 2000, so the longest delay is 1999.
    expect(backoffMs(3, 250, 8_000)).toBe(1_999);
    // attempt 1: ceiling 200.
    expect(backoffMs(1, 100, 8_000)).toBe(199);
  });

  it("caps the ceiling at the maximum delay", () => {
    jest.spyOn(Math, "random").mockReturnValue(JUST_UNDER_ONE);
    // 250 * 2^10 = 256000 is capped at 8000.
    expect(backoffMs(10, 250, 8_000)).toBe(7_999);
  });

  it("draws uniformly between base and the ceiling", () => {
    jest.spyOn(Math, "random").mockReturnValue(0.5);
    // attempt 2: ceiling 400, base 100: 100 + floor(0.5 * 300) = 250.
    expect(backoffMs(2, 100, 10_000)).toBe(250);
    // attempt 0: the ceiling is the base itself, no jitter.
    expect(backoffMs(0, 100, 10_000)).toBe(100);
  });

  it("waits the base delay when the maximum is below the base", () => {
    jest.spyOn(Math, "random").mockReturnValue(0.5);
    expect(backoffMs(4, 500, 100)).toBe(500);
  });

  it("always lies in [base, min(max, base * 2^attempt)] (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 100_000 }), (attempt, base, max) => {
        const delay = backoffMs(attempt, base, max);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(Math.max(base, Math.min(max, base * 2 ** attempt)));
      }),
    );
  });
});

/** A task that records how many run at once and finishes after a few turns of the event loop. */
function tracked<T, R>(work: (item: T) => R) {
  const log = { inFlight: 0, peak: 0, calls: [] as T[] };
  const task = async (item: T) => {
    log.calls.push(item);
    log.inFlight++;
    log.peak = Math.max(log.peak, log.inFlight);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    log.inFlight--;
    return work(item);
  };
  return { log, task };
}

describe("mapLimit", () => {
  it("returns the results in the order of the items and calls the task once per item", async () => {
    const { log, task } = tracked((n: number) => n * 10);
    const results = await mapLimit([1, 2, 3, 4, 5], 2, task);
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(log.calls).toEqual([1, 2, 3, 4, 5]);
    expect(log.peak).toBe(2);
  });

  it("runs no more than the items when the limit is larger", async () => {
    const { log, task } = tracked((s: string) => s.toUpperCase());
    expect(await mapLimit(["a", "b"], 8, task)).toEqual(["A", "B"]);
    expect(log.calls).toEqual(["a", "b"]);
    expect(log.peak).toBe(2);
  });

  it("returns an empty array for no items without calling the task", async () => {
    const task = jest.fn(async (n: number) => n);
    expect(await mapLimit([], 3, task)).toEqual([]);
    expect(task).not.toHaveBeenCalled();
  });

  it("keeps order with tasks finishing out of order, running exactly min(limit, items) at once (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), async (delays, limit) => {
        let inFlight = 0;
        let peak = 0;
        const results = await mapLimit(delays, limit, async (d) => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          for (let i = 0; i < d; i++) await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return d + 100;
        });
        expect(results).toEqual(delays.map((d) => d + 100));
        expect(peak).toBe(Math.min(limit, delays.length));
      }),
      { numRuns: 60 },
    );
  });

  it("fails with the first task failure", async () => {
    await expect(
      mapLimit([1, 2], 2, async (n) => {
        if (n === 2) throw new Error("task 2 failed");
        return n;
      }),
    ).rejects.toThrow("task 2 failed");
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-11-21T10:00:00Z");

  it("reads a delay in whole seconds", () => {
    expect(retryAfterMs("12", now)).toBe(12_000);
    expect(retryAfterMs("7", now)).toBe(7_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("-3", now)).toBeUndefined();
  });

  it("ignores text that is not only digits, and blank or absent headers", () => {
    expect(retryAfterMs("x5", now)).toBeUndefined();
    expect(retryAfterMs("5x", now)).toBeUndefined();
    expect(retryAfterMs("1.5", now)).toBeUndefined();
    expect(retryAfterMs("", now)).toBeUndefined();
    expect(retryAfterMs("   ", now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(["5"], now)).toBeUndefined();
  });

  it("reads an HTTP date in either letter case as the time left until it", () => {
    expect(retryAfterMs("Zzz, 21 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("aaa, 21 nov 2026 10:01:00 GMT", now)).toBe(60_000);
    expect(retryAfterMs("AAA, 21 NOV 2026 10:00:05 GMT", now)).toBe(5_000);
    // A date already past asks for no wait.
    expect(retryAfterMs("Sat, 21 Nov 2026 09:59:00 GMT", now)).toBe(0);
  });

  it("ignores dates not in the fixed HTTP form, or that name no day", () => {
    expect(retryAfterMs("Sat, 99 Nov 2026 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 1 Nov 2026 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 21 Nov 26 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 21 Nov 2026 10:00:30 UTC", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 21 Nov 2026 10:00:30 GMT+1", now)).toBeUndefined();
    expect(retryAfterMs("x Sat, 21 Nov 2026 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sa1, 21 Nov 2026 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 21 N1v 2026 10:00:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 21 Nov 2026 10:0:30 GMT", now)).toBeUndefined();
    expect(retryAfterMs("Sat, 2a Nov 2026 10:00:30 GMT", now)).toBeUndefined();
  });
});

describe("stretchToRetryAfter", () => {
  it("waits what Retry-After asks when it is longer than the backoff, at most a minute, and never less than the backoff", () => {
    expect(stretchToRetryAfter(250, 45_000)).toBe(45_000);
    expect(stretchToRetryAfter(250, 90_000)).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(60_000);
    expect(stretchToRetryAfter(250, 100)).toBe(250);
    expect(stretchToRetryAfter(250, 0)).toBe(250);
    expect(stretchToRetryAfter(250, undefined)).toBe(250);
  });
});

describe("retryTransient", () => {
  afterEach(() => jest.restoreAllMocks());

  /** A loop of `maxAttempts` with a 1 ms base that records its retries and failures. */
  function loop(overrides: Partial<RetryLoop> = {}) {
    const retries: { attempt: number; failure: string; delayMs: number }[] = [];
    let failures = 0;
    const settings: RetryLoop = {
      maxAttempts: 4,
      baseMs: 1,
      maxMs: 8,
      exhausted: (failure) => new RetryableError("test-unavailable", `gave up: ${failure}`),
      onFailure: () => failures++,
      onRetry: (retry) => retries.push(retry),
      ...overrides,
    };
    return { settings, retries, failures: () => failures };
  }

  /** An attempt function answering each call with the next of `outcomes` (a thrown Error for an Error). */
  function answers<T>(outcomes: (AttemptOutcome<T> | Error)[]) {
    const calls: number[] = [];
    const attempt = async (n: number): Promise<AttemptOutcome<T>> => {
      calls.push(n);
      const next = outcomes[n];
      if (next === undefined) throw new Error(`no answer for attempt ${n}`);
      if (next instanceof Error) throw next;
      return next;
    };
    return { attempt, calls };
  }

  it("returns the value of the first attempt that is done, retrying failures and thrown network errors in between", async () => {
    jest.spyOn(Math, "random").mockReturnValue(0);
    const { settings, retries, failures } = loop();
    const { attempt, calls } = answers<string>([{ done: false, failure: "rate-limited" }, new TypeError("fetch failed"), { done: true, value: "ok" }]);
    expect(await retryTransient(settings, attempt)).toBe("ok");
    expect(calls).toEqual([0, 1, 2]);
    // With a draw of 0 every backoff is the base delay.
    expect(retries).toEqual([
      { attempt: 1, failure: "rate-limited", delayMs: 1 },
      { attempt: 2, failure: "fetch failed", delayMs: 1 },
    ]);
    expect(failures()).toBe(2);
  });

  it("throws a BaseError of an attempt at once, without another attempt or a failure counted", async () => {
    const { settings, retries, failures } = loop();
    const refused = new BaseError("invalid-api-key", "refused");
    const { attempt, calls } = answers<string>([refused, { done: true, value: "never" }]);
    await expect(retryTransient(settings, attempt)).rejects.toBe(refused);
    expect(calls).toEqual([0]);
    expect(retries).toEqual([]);
    expect(failures()).toBe(0);
  });

  it("throws exhausted with the last failure after maxAttempts, counting every failure but retrying one fewer", async () => {
    const { settings, retries, failures } = loop({ maxAttempts: 3 });
    const { attempt, calls } = answers<string>([
      { done: false, failure: "starting" },
      { done: false, failure: "internal" },
      new Error("connect ECONNREFUSED http://user:secret@127.0.0.1:9/x"),
    ]);
    await expect(retryTransient(settings, attempt)).rejects.toMatchObject({
      code: "test-unavailable",
      message: "gave up: connect ECONNREFUSED http://***@127.0.0.1:9/x",
    });
    expect(calls).toEqual([0, 1, 2]);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(failures()).toBe(3);
  });

  it("waits as long as a failure's Retry-After asks when that is longer than its backoff", async () => {
    jest.spyOn(Math, "random").mockReturnValue(0);
    const waited: number[] = [];
    const { settings, retries } = loop({ wait: async (ms) => void waited.push(ms) });
    const { attempt } = answers<string>([
      { done: false, failure: "rate-limited", retryAfterMs: 2_000 },
      { done: false, failure: "rate-limited", retryAfterMs: 0 },
      { done: true, value: "ok" },
    ]);
    expect(await retryTransient(settings, attempt)).toBe("ok");
    expect(retries.map((r) => r.delayMs)).toEqual([2_000, 1]);
    // A caller's own wait gets each delay instead of the loop's sleep (a 2 s sleep would outlast this test's pace).
    expect(waited).toEqual([2_000, 1]);
  });

  it("stops with the stop error after a failure once its signal is aborted, without another attempt or a retry", async () => {
    const stop = new AbortController();
    stop.abort();
    const { settings, retries, failures } = loop({ stop: { signal: stop.signal, error: () => new RetryableError("test-interrupted", "stopped") } });
    const { attempt, calls } = answers<string>([
      { done: false, failure: "starting" },
      { done: true, value: "never" },
    ]);
    await expect(retryTransient(settings, attempt)).rejects.toMatchObject({ code: "test-interrupted" });
    expect(calls).toEqual([0]);
    expect(retries).toEqual([]);
    expect(failures()).toBe(1);
  });

  it("ends a wait at once when its signal is aborted during it, without another attempt", async () => {
    const stop = new AbortController();
    // A minute's wait: only the abort can end it within the test.
    const { settings } = loop({ baseMs: 60_000, maxMs: 60_000, stop: { signal: stop.signal, error: () => new RetryableError("test-interrupted", "stopped") } });
    const { attempt, calls } = answers<string>([
      { done: false, failure: "starting" },
      { done: true, value: "never" },
    ]);
    const run = retryTransient(settings, attempt);
    setTimeout(() => stop.abort(), 20);
    await expect(run).rejects.toMatchObject({ code: "test-interrupted" });
    expect(calls).toEqual([0]);
  });
});
