// The Idempotency-Key rule every service shares.
import { idempotencyKeyProblem, isValidIdempotencyKey } from "./idempotency-key";

describe("isValidIdempotencyKey", () => {
  it("accepts 1 to 255 printable ASCII characters and nothing else", () => {
    expect(isValidIdempotencyKey("a")).toBe(true);
    expect(isValidIdempotencyKey("x".repeat(255))).toBe(true);
    expect(isValidIdempotencyKey("0c5b1e2e-0b6a-4f0e-9a56-3f1f0d0d7c11")).toBe(true);
    expect(isValidIdempotencyKey("")).toBe(false);
    expect(isValidIdempotencyKey("x".repeat(256))).toBe(false);
    expect(isValidIdempotencyKey("with space")).toBe(false);
    expect(isValidIdempotencyKey("tab\t")).toBe(false);
    expect(isValidIdempotencyKey("naïve")).toBe(false);
  });
});

describe("idempotencyKeyProblem", () => {
  it("names the rule for a key it refuses and says nothing of one it takes", () => {
    expect(idempotencyKeyProblem("x".repeat(256))).toBe("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces");
    expect(idempotencyKeyProblem("x".repeat(255))).toBeNull();
  });
});
