// The Idempotency-Key header of admin-api requests (adjustments, event CSV uploads), checked by the rule every service shares.
import { ValidationError } from "@pointwise/errors";
import { idempotencyKeyProblem } from "@pointwise/schemas";
import type { Request } from "express";

/** The Idempotency-Key header of a request, checked, or undefined when it has none; a bad one is `invalid-idempotency-key`. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get("idempotency-key");
  const problem = key === undefined ? null : idempotencyKeyProblem(key);
  if (problem) throw new ValidationError(problem, { code: "invalid-idempotency-key" });
  return key;
}
