// Statements queued on one connection so that JavaScript work overlaps with PostgreSQL running them.
import type { PoolClient } from "pg";
import { copyIn } from "./copy-text";
import { mapDbErrors } from "./errors";

/** A row as the driver returns it: column name to value (NUMERIC and BIGINT as strings). */
// biome-ignore lint/suspicious/noExplicitAny: a row's columns are typed by the caller's type argument.
export type Row = Record<string, any>;

/** What a statement returned: its rows, and how many rows it touched. */
// biome-ignore lint/suspicious/noExplicitAny: untyped rows are any, as pg's own default.
export interface QueryResult<R extends Row = any> {
  rows: R[];
  rowCount: number | null;
}

/** Anything that runs a parameterised statement: the database, a transaction, or a statement queue. */
export interface Queryable {
  /** Runs one statement; a failure is thrown as a typed database error. */
  // biome-ignore lint/suspicious/noExplicitAny: untyped rows are any, as pg's own default.
  query<R extends Row = any>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * Statements queued on one connection without waiting for each: each is sent as soon as the one
 * before it has answered, so JavaScript work done after queueing a statement (running the engine,
 * serialising the next document) overlaps with PostgreSQL executing it. Once a statement fails,
 * the ones queued behind it are not sent (the transaction is aborted anyway) and fail with the
 * same error, so whichever of them a caller awaits reports the real cause.
 */
export class StatementQueue implements Queryable {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private failure: { error: unknown } | undefined;
  private pending: Promise<unknown>[] = [];

  constructor(private readonly client: PoolClient) {}

  /** Queues a statement; its promise may be awaited for its rows, and `flush` waits for it too. */
  // biome-ignore lint/suspicious/noExplicitAny: untyped rows are any, as pg's own default.
  query<R extends Row = any>(text: string, values?: unknown[]): Promise<QueryResult<R>> {
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
      return mapDbErrors(run()).catch((error: unknown) => {
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
   * Tracks work built on queued statements (an async function that queries through this queue
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
 * Runs `fn` with a statement queue on the client and waits for everything it queued; on failure it
 * waits until the connection is idle before rethrowing, so the caller's ROLLBACK is the next statement.
 */
export async function withStatementQueue<T>(client: PoolClient, fn: (queue: StatementQueue) => Promise<T>): Promise<T> {
  const queue = new StatementQueue(client);
  try {
    const result = await fn(queue);
    await queue.flush();
    return result;
  } catch (err) {
    await queue.idle();
    throw err;
  }
}
