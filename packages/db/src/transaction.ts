// One transaction on one pooled connection, and what may run inside it: statements, COPY, campaign locks, a statement queue.
import type { Pool, PoolClient } from "pg";
import { copyIn } from "./copy-text";
import { mapDbErrors } from "./errors";
import { lockCampaign, tryLockCampaign } from "./locks";
import { type Queryable, type QueryResult, type Row, type StatementQueue, withStatementQueue } from "./statement-queue";

/** The isolation level of a transaction (PostgreSQL's default is read committed). */
export type IsolationLevel = "read committed" | "repeatable read" | "serializable";

/** What a transaction started with `db.transaction(...)` offers; it is valid until that call returns. */
export interface Transaction extends Queryable {
  /** Runs `COPY ... FROM STDIN` of `data` (rows in COPY's text format); resolves with the row count. */
  copy(statement: string, data: string): Promise<number>;
  /** Takes the campaign's lock for `purpose` until the transaction ends, waiting for the current holder. */
  lockCampaign(purpose: string, campaignId: string): Promise<void>;
  /** Tries to take the campaign's lock for `purpose` until the transaction ends; false at once when another transaction holds it. */
  tryLockCampaign(purpose: string, campaignId: string): Promise<boolean>;
  /**
   * Runs `fn` with a statement queue on the transaction's connection and waits for every statement
   * it queued; nothing else may use the transaction until it returns.
   */
  queue<T>(fn: (queue: StatementQueue) => Promise<T>): Promise<T>;
}

function transactionOn(client: PoolClient): Transaction {
  return {
    query: <R extends Row = Row>(text: string, values?: unknown[]): Promise<QueryResult<R>> => mapDbErrors(client.query<R>(text, values)),
    copy: (statement, data) => mapDbErrors(copyIn(client, statement, data)),
    lockCampaign: (purpose, campaignId) => mapDbErrors(lockCampaign(client, purpose, campaignId)),
    tryLockCampaign: (purpose, campaignId) => mapDbErrors(tryLockCampaign(client, purpose, campaignId)),
    queue: (fn) => withStatementQueue(client, fn),
  };
}

/**
 * Runs `fn` in one transaction on one pooled connection: COMMIT when it returns, ROLLBACK when it
 * throws. A connection whose ROLLBACK fails is discarded rather than handed to the next caller.
 */
export async function runTransaction<T>(pool: Pool, fn: (tx: Transaction) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
  // The pool gives every client an 'error' listener (pool.ts): a connection the server drops between
  // two statements fails the next statement rather than crashing the process.
  const client = await mapDbErrors(pool.connect());
  let broken = false;
  try {
    await mapDbErrors(client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}` : "BEGIN"));
    const result = await fn(transactionOn(client));
    await mapDbErrors(client.query("COMMIT"));
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
