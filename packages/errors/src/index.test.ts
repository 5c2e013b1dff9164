// The error classes: stable codes, messages and causes, which are retryable, and validation defaults.
import { BaseError, ConfigError, isRetryable, NotFoundError, RetryableError, ValidationError } from "./index";

describe("errors", () => {
  it("keeps a stable code, the message and the cause", () => {
    const cause = new Error("socket closed");
    const err = new RetryableError("bus-unavailable", "event bus unavailable", { cause });
    expect(err.code).toBe("bus-unavailable");
    expect(err.message).toBe("event bus unavailable");
    expect(err.cause).toBe(cause);
    expect(err.name).toBe("RetryableError");
    expect(err).toBeInstanceOf(BaseError);
  });

  it("marks only retryable errors as retryable", () => {
    expect(isRetryable(new RetryableError("timeout", "timed out"))).toBe(true);
    expect(isRetryable(new ValidationError("amount must not be negative", { field: "amount" }))).toBe(false);
    expect(isRetryable(new NotFoundError("no such campaign"))).toBe(false);
    expect(isRetryable(new Error("plain"))).toBe(false);
  });

  it("defaults validation errors to the validation-failed code and records the field", () => {
    const err = new ValidationError("invalid identity_type", { field: "identity_type" });
    expect(err.code).toBe("validation-failed");
    expect(err.field).toBe("identity_type");
    expect(new ConfigError("flushMs must be at least 3600000").code).toBe("config-invalid");
  });
});
