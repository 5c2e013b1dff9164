import type { PoolClient, QueryResult, QueryResultRow } from "pg";
import { copyIn } from "./copy-text";

/** Anything that runs a parameterised statement: a pool, one of its clients, or a Pipeline. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * Statements queued on one connection without waiting for each: each is sent as soon as the one
 * before it has answered, so JavaScript work done after queueing a statement (running the engine,
 * serialising the next document) overlaps with PostgreSQL executing it. Once a statement fails,
 * the ones queued behind it are not sent (the transaction is aborted anyway) and fail with the
 * same error, so whichever of them a caller awaits reports the real cause.
 */
export class Pipeline implements Queryable {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private failure: { error: unknown } | undefined;
  private pending: Promise<unknown>[] = [];

  constructor(readonly client: PoolClient) {}

  /** Queues a statement; its promise may be awaited for its rows, and `flush` waits for it too. */
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>> {
    return this.enqueue(() => this.client.query<R>(text, values));
  }

  /**
   * Queues a `COPY ... FROM STDIN` of `data` (rows in COPY's text format); resolves with the number
   * of rows once PostgreSQL has taken all of them.
   */
  copy(statement: string, data: string): Promise<number> {
    return this.enqueue(() => copyIn(this.client, statement, data));
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    const send = (): Promise<T> => {
      if (this.failure) return Promise.reject(this.failure.error);
      return run().catch((error: unknown) => {
        this.failure ??= { error };
        throw error;
      });
    };
    // An idle connection gets the statement at once rather than a microtask later, which matters
    // when the caller goes on with a long stretch of synchronous work.
    const result = this.queued === 0 ? send() : this.tail.then(send);
    this.queued++;
    this.tail = result.then(
      () => this.queued--,
      () => this.queued--,
    );
    return this.track(result);
  }

  /**
   * Tracks work built on queued statements (an async function that queries through this pipeline
   * and then maps the rows): `flush` waits for it too, and its failure never goes unhandled.
   */
  track<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    this.pending.push(work);
    return work;
  }

  /** Waits for every queued statement and tracked piece of work; throws the first failure. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.allSettled(pending);
    if (this.failure) throw this.failure.error;
  }

  /** Resolves once nothing is in flight on the connection, whatever the outcome (before a ROLLBACK). */
  async idle(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}

/**
 * Runs `fn` with a pipeline on the client and waits for everything it queued; on failure it waits
 * until the connection is idle before rethrowing, so the caller's ROLLBACK is the next statement.
 */
export async function pipelined<T>(client: PoolClient, fn: (p: Pipeline) => Promise<T>): Promise<T> {
  const p = new Pipeline(client);
  try {
    const result = await fn(p);
    await p.flush();
    return result;
  } catch (err) {
    await p.idle();
    throw err;
  }
}
