// A sink's outbox in the state store: numbered events waiting to be sent, and the chunk in flight.
import type { RedisClientType } from "redis";

/** How far a sink's outbox has been sent, and the chunk recorded as in flight (resent as it is after a restart). */
export interface OutboxProgress {
  sent: number;
  inflight: { from: number; to: number } | undefined;
}

/** Events a sink has staged, numbered by sequence, with the bounds of the chunk it is sending. */
export interface SinkOutbox {
  /** Removes the events numbered after `seq` (staged by a batch whose checkpoint never committed); returns how many. */
  dropAfter(seq: number): Promise<number>;
  /** Stages events under their sequence numbers. */
  append(entries: readonly { seq: number; value: string }[]): Promise<void>;
  /** What has been sent, and the chunk in flight if one was recorded. */
  progress(): Promise<OutboxProgress>;
  /** Records [from, to] as the chunk in flight before it is sent. */
  beginChunk(from: number, to: number): Promise<void>;
  /** The staged values numbered from `from` to `to`, in order. */
  read(from: number, to: number): Promise<string[]>;
  /** Marks everything up to `to` as sent and removes it, in one MULTI. */
  finishChunk(to: number): Promise<void>;
}

/** The outbox kept under `keyPrefix` (`<prefix>:outbox`, a sorted set, and `<prefix>:state`, a hash). */
export function redisOutbox(client: RedisClientType, keyPrefix: string): SinkOutbox {
  const outbox = `${keyPrefix}:outbox`;
  const state = `${keyPrefix}:state`;
  return {
    dropAfter: (seq) => client.zRemRangeByScore(outbox, `(${seq}`, "+inf"),
    async append(entries) {
      if (entries.length > 0)
        await client.zAdd(
          outbox,
          entries.map((e) => ({ score: e.seq, value: e.value })),
        );
    },
    async progress() {
      const s = await client.hGetAll(state);
      const inflight = s.inflightFrom !== undefined && s.inflightTo !== undefined ? { from: Number(s.inflightFrom), to: Number(s.inflightTo) } : undefined;
      return { sent: Number(s.sent ?? 0), inflight };
    },
    async beginChunk(from, to) {
      await client.hSet(state, { inflightFrom: String(from), inflightTo: String(to) });
    },
    read: (from, to) => client.zRangeByScore(outbox, from, to),
    async finishChunk(to) {
      await client.multi().hSet(state, "sent", String(to)).hDel(state, ["inflightFrom", "inflightTo"]).zRemRangeByScore(outbox, "-inf", to).exec();
    },
  };
}
