// Lock waits for race tests: a transaction is held open until another backend is seen waiting on one of its locks.
import type { Queryable } from "@pointwise/db";
import { waitUntil } from "./processes";

/** The server process id of the connection `tx` runs on; its open transaction holds its locks. */
export async function backendPid(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const pid = rows[0]?.pid;
  if (pid === undefined) throw new Error("pg_backend_pid() returned no row");
  return pid;
}

/**
 * Resolves once a backend (`options.waiter` when given, any other otherwise) waits for a lock, row, table or advisory,
 * that the backend `holder` holds (PostgreSQL's pg_blocking_pids); fails after `options.timeoutMs` (10 s) naming
 * `what`. Each test works in its own schema, so a backend waiting on the test's own transaction is the test's.
 */
export async function waitUntilBlockedBy(db: Queryable, holder: number, what: string, options: { waiter?: number; timeoutMs?: number } = {}): Promise<void> {
  const { waiter, timeoutMs = 10_000 } = options;
  await waitUntil(
    async () => {
      const { rows } = await db.query<{ blocked: boolean }>(
        waiter === undefined
          ? "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))) AS blocked"
          : "SELECT $1::int = ANY(pg_blocking_pids($2)) AS blocked",
        waiter === undefined ? [holder] : [holder, waiter],
      );
      return rows[0]?.blocked === true;
    },
    timeoutMs,
    what,
  );
}
