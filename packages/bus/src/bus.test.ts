// The bus's named operations against the real NATS: the raw event stream, "scores changed", and a bus that connects late.
import type { ScoresChanged } from "@pointwise/schemas";
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { createTestBus, startNatsServer, uniqueName, waitUntil } from "@pointwise/testkit";
import { createBus } from "./bus";
import { testEvent } from "./test-event";

jest.setTimeout(60_000);

const event = testEvent;

const change = (campaignId: string, over: Partial<ScoresChanged> = {}): ScoresChanged => ({
  v: 1,
  campaign_id: campaignId,
  reason: "events",
  rule_version: 1,
  currencies: ["xp"],
  user_ids: ["u1"],
  last_seq: "7",
  at: new Date().toISOString(),
  ...over,
});

describe("the raw event stream", () => {
  it("reports its size and range and returns what it stores, oldest first", async () => {
    const bus = await createTestBus();
    try {
      expect(await bus.eventsStreamState()).toEqual({ name: bus.names.eventsStream, messages: 0, firstSeq: 0, lastSeq: 0 });
      expect(await bus.storedEvents()).toEqual([]);
      const events = [event("strm-0001"), event("strm-0002")];
      for (const e of events) await bus.publishRawEvent(e);
      await bus.publishBytes(bus.names.eventSubject("strm-0003"), "{not json");
      await waitUntil(async () => (await bus.eventsStreamState()).messages === 3, 5000, "3 stored messages");

      expect(await bus.eventsStreamState()).toEqual({ name: bus.names.eventsStream, messages: 3, firstSeq: 1, lastSeq: 3 });
      const stored = await bus.storedEvents();
      expect(stored.map((m) => [m.seq, m.subject])).toEqual(
        [
          [1, "strm-0001"],
          [2, "strm-0002"],
          [3, "strm-0003"],
        ].map(([seq, c]) => [seq, bus.names.eventSubject(c as string)]),
      );
      expect(stored.slice(0, 2).map((m) => m.json())).toEqual(events);
      expect(new TextDecoder().decode(stored[2]?.data)).toBe("{not json");
      expect((await bus.storedEvent(2)).json()).toEqual(events[1]);
    } finally {
      await bus.drop();
    }
  });

  it("refuses an event that is not a raw event before publishing it", async () => {
    const bus = await createTestBus();
    try {
      await expect(bus.publishRawEvent({ ...event("strm-0001"), amount: "-1" })).rejects.toThrow(/at most 18 digits/);
      expect((await bus.eventsStreamState()).messages).toBe(0);
    } finally {
      await bus.drop();
    }
  });

  it("is deleted with every message, and deleting it again does nothing", async () => {
    const bus = await createTestBus();
    try {
      await bus.publishRawEvent(event("strm-0001"));
      await bus.deleteStreams();
      await expect(bus.eventsStreamState()).rejects.toMatchObject({ code: "stream-not-found" });
      await bus.deleteStreams();
      await bus.ensureStreams();
      expect((await bus.eventsStreamState()).messages).toBe(0);
    } finally {
      await bus.drop();
    }
  });
});

describe("scores changed", () => {
  it("delivers a published change to every campaign's subscriber and to that campaign's, not another's", async () => {
    const bus = await createTestBus();
    const all: ScoresChanged[] = [];
    const one: ScoresChanged[] = [];
    const other: ScoresChanged[] = [];
    const subs = [
      bus.subscribeScoresChanged((c) => void all.push(c)),
      bus.subscribeScoresChanged((c) => void one.push(c), { campaignId: "scor-0001" }),
      bus.subscribeScoresChanged((c) => void other.push(c), { campaignId: "scor-0002" }),
    ];
    try {
      await Promise.all(subs.map((s) => s.ready));
      const first = change("scor-0001");
      const recompute = change("scor-0001", { reason: "recompute", user_ids: null, last_seq: null, rule_version: 2 });
      bus.publishScoresChanged(first);
      bus.publishScoresChanged(recompute);
      await waitUntil(() => all.length === 2 && one.length === 2, 5000, "both changes");
      expect(all).toEqual([first, recompute]);
      expect(one).toEqual([first, recompute]);
      expect(other).toEqual([]);
    } finally {
      for (const s of subs) await s.close();
      await bus.drop();
    }
  });

  it("reports a message that is not a valid change, or that its handler failed on, and goes on", async () => {
    const bus = await createTestBus();
    const seen: ScoresChanged[] = [];
    const errors: string[] = [];
    const sub = bus.subscribeScoresChanged(
      (c) => {
        if (c.campaign_id === "scor-fail") throw new Error("handler failed");
        seen.push(c);
      },
      { onError: (_err, subject) => errors.push(subject) },
    );
    try {
      await sub.ready;
      await bus.publishBytes(bus.names.scoresSubject("scor-0001"), "not json");
      await bus.publishBytes(bus.names.scoresSubject("scor-0001"), JSON.stringify({ ...change("scor-0001"), reason: "something-else" }));
      bus.publishScoresChanged(change("scor-fail"));
      const good = change("scor-0001");
      bus.publishScoresChanged(good);
      await waitUntil(() => seen.length === 1, 5000, "the valid change");
      expect(seen).toEqual([good]);
      expect(errors).toEqual([bus.names.scoresSubject("scor-0001"), bus.names.scoresSubject("scor-0001"), bus.names.scoresSubject("scor-fail")]);
    } finally {
      await sub.close();
      await bus.drop();
    }
  });

  it("stops delivering once its subscription is closed", async () => {
    const bus = await createTestBus();
    const seen: ScoresChanged[] = [];
    const sub = bus.subscribeScoresChanged((c) => void seen.push(c));
    const witness: ScoresChanged[] = [];
    const later = bus.subscribeScoresChanged((c) => void witness.push(c));
    try {
      await Promise.all([sub.ready, later.ready]);
      await sub.close();
      bus.publishScoresChanged(change("scor-0001"));
      await waitUntil(() => witness.length === 1, 5000, "the witness to see the change");
      expect(seen).toEqual([]);
    } finally {
      await later.close();
      await bus.drop();
    }
  });
});

describe("a bus that connects in the background", () => {
  it("starts while NATS is down, says so, and subscribes and publishes once NATS is up", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    const bus = await createBus({ url: nats.url, namespace: uniqueName("t"), name: "late", firstConnect: "background" });
    const seen: ScoresChanged[] = [];
    const sub = bus.subscribeScoresChanged((c) => void seen.push(c));
    try {
      expect(await bus.ping()).toBe(false);
      let refused: unknown;
      try {
        bus.publishScoresChanged(change("late-0001"));
      } catch (err) {
        refused = err;
      }
      expect(refused).toMatchObject({ code: "bus-unavailable", retryable: true });
      await expect(bus.publishRawEvent(event("late-0001"))).rejects.toMatchObject({ code: "bus-unavailable" });
      // An announcement of a committed change does not throw: it is dropped with one warning.
      const warnings: { context: object; message: string }[] = [];
      const logger = { warn: (context: object, message: string) => void warnings.push({ context, message }) };
      const dropped = change("late-0001", { reason: "adjustments" });
      expect(bus.announceScoresChanged(dropped, logger)).toBe(false);
      expect(warnings).toEqual([
        {
          context: { err: expect.objectContaining({ code: "bus-unavailable" }), campaign_id: "late-0001", reason: "adjustments" },
          message: "publishing a score change failed; readers catch up within their cache window",
        },
      ]);

      await nats.start();
      await sub.ready;
      expect(await bus.ping()).toBe(true);
      const c = change("late-0001");
      bus.publishScoresChanged(c);
      await waitUntil(() => seen.length === 1, 5000, "the change");
      expect(seen).toEqual([c]);
      const announced = change("late-0001", { reason: "redemptions" });
      expect(bus.announceScoresChanged(announced, logger)).toBe(true);
      await waitUntil(() => seen.length === 2, 5000, "the announced change");
      expect(seen[1]).toEqual(announced);
      expect(warnings).toHaveLength(1);
    } finally {
      await sub.close();
      await bus.close();
      await nats.destroy();
    }
  });

  it("closes before it ever connected, and drops the connection that comes up afterwards", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    try {
      const bus = await createBus({ url: nats.url, namespace: uniqueName("t"), firstConnect: "background" });
      const sub = bus.subscribeScoresChanged(() => undefined);
      await bus.close();
      expect(await bus.ping()).toBe(false);
      // The attempt still under way connects once NATS is up, and is closed at once.
      await nats.start();
      await sub.ready;
      expect(await bus.ping()).toBe(false);
    } finally {
      await nats.destroy();
    }
  });
});
