/**
 * Typed errors with stable codes. A consumer decides what to do by class:
 * a RetryableError may succeed later (nak and retry); anything else will not (ack, dead-letter, 4xx).
 */

/** Options shared by every error: the underlying cause and structured details for logs or clients. */
export interface ErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** The root of every error this project throws on purpose; `code` is stable and machine-readable. */
export class BaseError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** Whether doing the same thing again later can succeed. */
  readonly retryable: boolean = false;

  constructor(code: string, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
  }
}

/** A transient failure of a dependency (connection lost, timeout, unavailable): retrying can help. */
export class RetryableError extends BaseError {
  override readonly retryable = true;
}

/** Input that breaks a rule; the message names the field and the rule. */
export class ValidationError extends BaseError {
  readonly field: string | undefined;
  constructor(message: string, options: ErrorOptions & { field?: string; code?: string } = {}) {
    super(options.code ?? "validation-failed", message, options);
    this.field = options.field;
  }
}

/** A referenced thing does not exist (or must not be revealed to exist). */
export class NotFoundError extends BaseError {
  constructor(message: string, options: ErrorOptions & { code?: string } = {}) {
    super(options.code ?? "not-found", message, options);
  }
}

/** Missing, unknown or insufficient credentials. */
export class AuthError extends BaseError {
  constructor(code: string, message: string, options: ErrorOptions = {}) {
    super(code, message, options);
  }
}

/** A request conflicts with existing state (duplicate id, reused idempotency key, ...). */
export class ConflictError extends BaseError {
  constructor(code: string, message: string, options: ErrorOptions = {}) {
    super(code, message, options);
  }
}

/** Too many requests of one kind in a while; `retryAfterSeconds` says when trying again can succeed. */
export class RateLimitError extends BaseError {
  readonly retryAfterSeconds: number;
  constructor(code: string, message: string, retryAfterSeconds: number, options: ErrorOptions = {}) {
    super(code, message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Configuration that cannot work; the process should stop and say why. */
export class ConfigError extends BaseError {
  constructor(message: string, options: ErrorOptions = {}) {
    super("config-invalid", message, options);
  }
}

/** True when `err` is a BaseError that says retrying may help. */
export function isRetryable(err: unknown): boolean {
  return err instanceof BaseError && err.retryable;
}
