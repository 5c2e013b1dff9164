// The scoring benchmark's baseline: a naive consumer, one Prisma upsert per event into a score table,
// measured in slices of the same backlog the worker drains.
import { type Bus, decodeRawEvent } from "@pointwise/bus";
import { Prisma } from "@pointwise/db";
import { AckPolicy, DeliverPolicy, nanos } from "nats";
import type { Fixture } from "../lib/fixture";

/** One measured slice of the baseline: events consumed, wall seconds, and this process's CPU seconds meanwhile. */
export interface Slice {
  events: number;
  seconds: number;
  cpuSeconds: number;
}

/**
 * The naive consumer: one Prisma upsert per event (Prisma sends it as one INSERT … ON CONFLICT),
 * then ack. Each call of the returned function consumes the next messages of the backlog, at most
 * `events` and, given `ms`, for about that long (it stops at the first batch boundary after it),
 * and says how many it consumed in how long and with how much of this process's CPU (the consumer
 * is all this process does while a slice runs: the worker is paused and nothing polls).
 */
export async function baseline({ fx, bus }: { fx: Fixture; bus: Bus }): Promise<(events: number, ms?: number) => Promise<Slice>> {
  await bus.jsm.consumers.add(bus.names.eventsStream, {
    durable_name: "bench-baseline",
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(60_000),
  });
  const consumer = await bus.js.consumers.get(bus.names.eventsStream, "bench-baseline");
  return async (events, ms = Number.POSITIVE_INFINITY) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let done = 0;
    // Batches of 100 keep a timed slice within about 0.3 s of its length; a fetch costs one round
    // trip, under 1% of a hundred upserts.
    while (done < events && performance.now() - t0 < ms) {
      const batch = await consumer.fetch({ max_messages: Math.min(100, events - done), expires: 5000 });
      for await (const msg of batch) {
        const decoded = decodeRawEvent(msg);
        if (!decoded.ok) throw new Error(decoded.reason);
        const points = new Prisma.Decimal(decoded.event.amount).mul("1.5");
        const userId = userIdOf(decoded.event.account_id);
        await fx.db.prisma.score.upsert({
          where: { campaignId_userId_currency: { campaignId: "base-0001", userId, currency: "xp" } },
          create: { campaignId: "base-0001", userId, currency: "xp", score: points, total: points, lifetime: points },
          update: { score: { increment: points }, total: { increment: points }, lifetime: { increment: points } },
        });
        msg.ack();
        done++;
      }
    }
    const cpu = process.cpuUsage(cpu0);
    return { events: done, seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  };
}

/** A stable uuid per account for the baseline's score rows (the baseline does no identity resolution). */
function userIdOf(account: string): string {
  const hex = Buffer.from(account.toLowerCase().slice(2, 34).padEnd(32, "0"), "hex").toString("hex").padEnd(32, "0").slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
