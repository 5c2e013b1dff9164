// Reads from a streaming replica while it keeps up: lag measured in the background, reads moved to the primary when it falls behind or away.
import type { Database } from "./client";
import type { Queryable, Row } from "./statement-queue";

/** Where a replica stands, as it reports itself. */
export interface ReplicaState {
  /** False when the server is not a standby (promoted, or a primary given as the replica): its data is current. */
  standby: boolean;
  /** How far the replica's data is behind the primary (ms); 0 when it has replayed everything it received while streaming. */
  lagMs: number;
}

/**
 * Asks a server how far behind its primary it is. While its WAL receiver streams and every received
 * record is replayed it is current (0), whatever the time since the last transaction (an idle primary
 * writes none); otherwise the lag is the time since the last replayed transaction, which keeps growing
 * while the replica is cut off from its primary (Infinity when it has replayed none).
 */
export async function replicaState(db: Queryable): Promise<ReplicaState> {
  const { rows } = await db.query<{ standby: boolean; streaming: boolean; caught_up: boolean | null; since_replay_ms: number | null }>(
    `SELECT pg_is_in_recovery() AS standby,
            EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') AS streaming,
            pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AS caught_up,
            (EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS since_replay_ms`,
  );
  const row = rows[0];
  if (row === undefined || !row.standby) return { standby: false, lagMs: 0 };
  if (row.streaming && row.caught_up === true) return { standby: true, lagMs: 0 };
  return { standby: true, lagMs: row.since_replay_ms === null ? Number.POSITIVE_INFINITY : Math.max(0, row.since_replay_ms) };
}

/** Where routing says which database it reads from (a pino logger fits; this package does not log otherwise). */
export interface RoutingLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/** Settings of read routing. */
export interface ReadRoutingOptions {
  primary: Database;
  replica: Database;
  /** The most lag (ms) at which reads still go to the replica; beyond it they go to the primary until it catches up. */
  maxLagMs: number;
  /** How often the replica's lag is measured (ms). */
  checkEveryMs: number;
  logger: RoutingLogger;
  /** The replica's URL as its log lines show it: masked by the caller (this package does not know what is secret in it). */
  replicaUrl: string;
}

/** Where reads go now, and the replica's last measured lag. */
export interface ReadRoutingStatus {
  target: "replica" | "primary";
  /** The last measured lag (ms); null before the first measurement or while the replica does not answer. */
  lagMs: number | null;
}

/** A Database whose reads go to the replica while it is within `maxLagMs`, and to the primary otherwise. */
export interface ReadRouting {
  /** Use it as the app's Database: `query`, `prisma`, `transaction` and `ping` go to the current target; `copy` always to the primary. */
  db: Database;
  status(): ReadRoutingStatus;
  /** Measures the lag now and chooses the target (the background check does this every `checkEveryMs`). */
  check(): Promise<ReadRoutingStatus>;
  /** Stops the checks and closes both databases. */
  close(): Promise<void>;
}

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Routes reads to a replica. Until the first measurement, and whenever the replica does not answer or
 * lags more than `maxLagMs`, reads go to the primary: an answer is never older than the lag allowed.
 * The first measurement and each switch are logged once.
 */
export function routeReads(options: ReadRoutingOptions): ReadRouting {
  const { primary, replica, maxLagMs, logger, replicaUrl } = options;
  let status: ReadRoutingStatus = { target: "primary", lagMs: null };
  // Reads start on the primary, so a replica that never answers (or lags from the start) would cause no
  // switch and no line: the first measurement is reported whichever way it goes.
  let measured = false;
  let closed = false;
  const current = (): Database => (status.target === "replica" ? replica : primary);

  const check = async (): Promise<ReadRoutingStatus> => {
    let lagMs: number | null;
    let reason: string | undefined;
    try {
      lagMs = (await bounded(replicaState(replica), Math.max(1000, options.checkEveryMs))).lagMs;
    } catch (err) {
      lagMs = null;
      reason = `replica does not answer: ${(err as Error).message}`;
    }
    const target = lagMs !== null && lagMs <= maxLagMs ? "replica" : "primary";
    if (target !== status.target || !measured) {
      if (target === "replica") logger.info({ url: replicaUrl, lag_ms: lagMs, max_lag_ms: maxLagMs }, "reading from the replica");
      else
        logger.warn(
          { url: replicaUrl, lag_ms: lagMs, max_lag_ms: maxLagMs, reason: reason ?? "replica lags too far behind" },
          "reading from the primary until the replica catches up",
        );
    }
    measured = true;
    status = { target, lagMs: lagMs === Number.POSITIVE_INFINITY ? null : lagMs };
    return status;
  };

  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    await check();
    if (!closed) {
      timer = setTimeout(() => void loop(), options.checkEveryMs);
      timer.unref();
    }
  };
  void loop();

  const db: Database = {
    get prisma() {
      return current().prisma;
    },
    schema: primary.schema,
    query: <R extends Row = Row>(text: string, values?: unknown[]) => current().query<R>(text, values),
    copy: (statement, data) => primary.copy(statement, data),
    transaction: (fn, opts) => current().transaction(fn, opts),
    ping: () => current().ping(),
    checkConnection: () => primary.checkConnection(),
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await Promise.all([primary.close(), replica.close()]);
    },
  };
  return { db, status: () => status, check, close: () => db.close() };
}
