// The scoring benchmark's baseline: a naive consumer of the same JetStream backlog the worker drains,
// one Prisma upsert per event into a score table, then ack. Bare code with its own clients.

import { Prisma, PrismaClient } from "@pointwise/db";
import { rawEventMessageSchema } from "@pointwise/schemas";
import { PrismaPg } from "@prisma/adapter-pg";
import type { NatsConnection } from "nats";
import type pg from "pg";
import { backlogConsumer } from "./floor";

/** One measured slice of the baseline: events consumed and wall seconds. */
export interface Slice {
  events: number;
  seconds: number;
}

/**
 * Creates the naive consumer. Each call of the returned function consumes the next messages of the
 * backlog, at most `events` and for about `ms`, and says how many it consumed in how long.
 */
export async function baseline(nc: NatsConnection, stream: string, pool: pg.Pool, schema: string): Promise<(events: number, ms?: number) => Promise<Slice>> {
  const consumer = await backlogConsumer(nc, stream, "bench-baseline");
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
  return async (events, ms = Number.POSITIVE_INFINITY) => {
    const t0 = performance.now();
    let done = 0;
    // Batches of 100 keep a timed slice within about 0.3 s of its length.
    while (done < events && performance.now() - t0 < ms) {
      for await (const msg of await consumer.fetch({ max_messages: Math.min(100, events - done), expires: 5000 })) {
        const event = rawEventMessageSchema.parse(msg.json());
        const points = new Prisma.Decimal(event.amount).mul("1.5");
        const where = { campaignId: "base-0001", userId: userIdOf(event.account_id), currency: "xp" };
        await prisma.score.upsert({
          where: { campaignId_userId_currency: where },
          create: { ...where, score: points, total: points, lifetime: points },
          update: { score: { increment: points }, total: { increment: points }, lifetime: { increment: points } },
        });
        msg.ack();
        done++;
      }
    }
    return { events: done, seconds: (performance.now() - t0) / 1000 };
  };
}

/** A stable uuid per account for the baseline's score rows (the baseline does no identity resolution). */
function userIdOf(account: string): string {
  const hex = account.toLowerCase().slice(2, 34).padEnd(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
