// PostgreSQL and driver failures as typed errors: the one place that reads SQLSTATEs, Node socket codes and pg's message text.
import { BaseError, type ErrorOptions, RetryableError } from "@pointwise/errors";

/** Where a database error came from: the driver's error and PostgreSQL's SQLSTATE when the server sent one. */
export interface DbErrorOptions extends ErrorOptions {
  sqlState?: string;
}

/** A database failure that fits no narrower class (a statement PostgreSQL refuses, a broken constraint other than a unique one, ...). */
export class DatabaseError extends BaseError {
  /** PostgreSQL's SQLSTATE, when the server answered with one. */
  readonly sqlState: string | undefined;
  constructor(message: string, options: DbErrorOptions & { code?: string } = {}) {
    super(options.code ?? "database-error", message, options);
    this.sqlState = options.sqlState;
  }
}

/** The database cannot be reached or dropped the connection (refused, reset, terminated, shut down, pool connect timeout). */
export class DbConnectionError extends RetryableError {
  /** PostgreSQL's SQLSTATE, when the server answered with one. */
  readonly sqlState: string | undefined;
  constructor(message: string, options: DbErrorOptions = {}) {
    super("database-unavailable", message, options);
    this.sqlState = options.sqlState;
  }
}

/** PostgreSQL is up but shedding work (out of connections, memory or disk, a cancelled statement, a system error). */
export class DbBusyError extends RetryableError {
  /** PostgreSQL's SQLSTATE. */
  readonly sqlState: string | undefined;
  constructor(message: string, options: DbErrorOptions = {}) {
    super("database-busy", message, options);
    this.sqlState = options.sqlState;
  }
}

/** A transaction was rolled back so that another could commit (a serialization failure or a broken deadlock); running it again can succeed. */
export class SerializationError extends RetryableError {
  /** 40001 (serialization failure) or 40P01 (deadlock detected). */
  readonly sqlState: string | undefined;
  constructor(message: string, options: DbErrorOptions = {}) {
    super(options.sqlState === DEADLOCK ? "database-deadlock" : "database-serialization-failure", message, options);
    this.sqlState = options.sqlState;
  }
}

/** A row would duplicate another's value of a unique index or primary key; `constraint` names it. */
export class UniqueConstraintError extends BaseError {
  /** PostgreSQL's SQLSTATE (23505). */
  readonly sqlState: string | undefined;
  /** The name of the violated constraint or index, when PostgreSQL reported it. */
  readonly constraint: string | undefined;
  constructor(message: string, options: DbErrorOptions & { constraint?: string } = {}) {
    super("unique-violation", message, options);
    this.sqlState = options.sqlState;
    this.constraint = options.constraint;
  }
}

/** A value PostgreSQL refuses for its type (out of range, invalid text, bad date or encoding); the same value fails the same way every time. */
export class InvalidValueError extends BaseError {
  /** PostgreSQL's SQLSTATE (class 22, data exception). */
  readonly sqlState: string | undefined;
  constructor(message: string, options: DbErrorOptions = {}) {
    super("invalid-value", message, options);
    this.sqlState = options.sqlState;
  }
}

/** Any of the errors the database wrapper throws. */
export type DbError = DatabaseError | DbConnectionError | DbBusyError | SerializationError | UniqueConstraintError | InvalidValueError;

const DEADLOCK = "40P01";
const SERIALIZATION_FAILURE = "40001";
const UNIQUE_VIOLATION = "23505";
const SQLSTATE = /^[0-9A-Z]{5}$/;
// 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
const CONNECTION_SQLSTATE = /^(08...|57P0[1-3])$/;
// 53: insufficient resources; 57: operator intervention (a cancelled statement); 58: system error.
const BUSY_SQLSTATE = /^(53|57|58)/;
const CONNECTION_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// node-postgres reports a dropped, refused or timed-out connection without a SQLSTATE or socket code.
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Cannot use a pool after calling end/i;

interface DriverError {
  code?: unknown;
  message?: unknown;
  constraint?: unknown;
  errors?: unknown;
}

// Prisma's pg adapter reports the driver's failure as a DriverAdapterError whose `cause` says what
// happened ({ kind: "postgres", originalCode: SQLSTATE } or a connection kind); the client turns some
// of those into request errors with a P-code, keeping the adapter's error in meta.driverAdapterError.
const PRISMA_CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
// P1001 cannot reach the server, P1002 / P1008 timed out, P1017 the server closed the connection.
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);

// PostgreSQL's message of a unique violation: duplicate key value violates unique constraint "<name>".
const UNIQUE_CONSTRAINT_NAME = /unique constraint "([^"]+)"/;

interface PrismaFailure {
  name?: unknown;
  code?: unknown;
  cause?: { kind?: unknown; originalCode?: unknown; originalMessage?: unknown };
  meta?: { driverAdapterError?: unknown };
}

/**
 * The driver-level view of an error Prisma threw: the SQLSTATE PostgreSQL sent, or whether the
 * connection was lost; undefined for an error that did not come from Prisma's adapter.
 */
function prismaFailure(err: unknown): { sqlState?: string; connection: boolean; message: string; constraint?: string } | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { name, code, cause, meta } = err as PrismaFailure;
  if (name === "DriverAdapterError" && typeof cause === "object" && cause !== null) {
    const sqlState = typeof cause.originalCode === "string" && SQLSTATE.test(cause.originalCode) ? cause.originalCode : undefined;
    const connection = PRISMA_CONNECTION_KINDS.has(String(cause.kind)) || (sqlState !== undefined && CONNECTION_SQLSTATE.test(sqlState));
    const message = typeof cause.originalMessage === "string" ? cause.originalMessage : String((err as Error).message);
    // The adapter names a unique violation's columns, not its constraint; PostgreSQL's message does.
    const constraint = sqlState === UNIQUE_VIOLATION ? UNIQUE_CONSTRAINT_NAME.exec(message)?.[1] : undefined;
    return { ...(sqlState ? { sqlState } : {}), connection, message, ...(constraint ? { constraint } : {}) };
  }
  if (name === "PrismaClientKnownRequestError" || name === "PrismaClientInitializationError") {
    const inner = meta?.driverAdapterError === undefined ? undefined : prismaFailure(meta.driverAdapterError);
    const connection = (typeof code === "string" && PRISMA_CONNECTION_CODES.has(code)) || inner?.connection === true;
    return { ...inner, connection, message: inner?.message ?? String((err as Error).message) };
  }
  return undefined;
}

// Duck-typed on purpose: a socket error may come from another realm (jest's sandbox), where instanceof fails.
function isConnectionFailure(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code, message, errors } = err as DriverError;
  if (typeof code === "string" && (CONNECTION_NODE_CODES.has(code) || CONNECTION_SQLSTATE.test(code))) return true;
  if (Array.isArray(errors) && errors.some(isConnectionFailure)) return true;
  return typeof message === "string" && CONNECTION_MESSAGES.test(message);
}

/**
 * The typed error for a driver or PostgreSQL failure, classified by SQLSTATE, Node error code and
 * (for pg's own connection messages only) text. An error that is already typed passes through.
 */
export function toDbError(err: unknown): BaseError {
  if (err instanceof BaseError) return err;
  const prisma = prismaFailure(err);
  if (prisma) return classify(err, prisma.message, prisma.sqlState, prisma.connection, prisma.constraint);
  const { code, message, constraint } = (typeof err === "object" && err !== null ? err : {}) as DriverError;
  const text = typeof message === "string" && message ? message : String(err);
  const sqlState = typeof code === "string" && SQLSTATE.test(code) ? code : undefined;
  return classify(err, text, sqlState, isConnectionFailure(err), typeof constraint === "string" ? constraint : undefined);
}

function classify(err: unknown, text: string, sqlState: string | undefined, connection: boolean, constraint: string | undefined): BaseError {
  const options = { cause: err, sqlState };
  if (connection) return new DbConnectionError(text, options);
  if (sqlState === SERIALIZATION_FAILURE || sqlState === DEADLOCK) return new SerializationError(text, options);
  if (sqlState === UNIQUE_VIOLATION) return new UniqueConstraintError(text, { ...options, constraint });
  if (sqlState?.startsWith("22")) return new InvalidValueError(text, options);
  if (sqlState && BUSY_SQLSTATE.test(sqlState)) return new DbBusyError(text, options);
  return new DatabaseError(text, options);
}

/**
 * True when `err` (a driver's, Prisma's or an already typed failure) is a duplicate key of the unique index or
 * constraint `constraint`: the case a check-then-insert loses to a concurrent insert, told apart from any other.
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const typed = toDbError(err);
  return typed instanceof UniqueConstraintError && typed.constraint === constraint;
}

/** True for an error the database wrapper threw. */
export function isDbError(err: unknown): err is DbError {
  return (
    err instanceof DatabaseError ||
    err instanceof DbConnectionError ||
    err instanceof DbBusyError ||
    err instanceof SerializationError ||
    err instanceof UniqueConstraintError ||
    err instanceof InvalidValueError
  );
}

/**
 * Rethrows a failure of a Prisma call as a typed error when a retry can help (the connection was
 * lost, PostgreSQL was busy, a transaction lost a conflict), so callers answer 503 or retry as
 * for any statement; every other Prisma error passes as Prisma threw it.
 */
export function toRetryableDbError(err: unknown): unknown {
  if (prismaFailure(err) === undefined) return err;
  const typed = toDbError(err);
  return typed instanceof DbConnectionError || typed instanceof DbBusyError || typed instanceof SerializationError ? typed : err;
}

/** Awaits a driver call and rethrows its failure as a typed error. */
export async function mapDbErrors<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw toDbError(err);
  }
}
