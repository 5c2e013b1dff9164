// Validation of a raw earn event body into a normalised event, with a stable code for each problem.
import { ValidationError } from "@pointwise/errors";
import { parseAmount } from "./amount";
import { UUID_PATTERN } from "./campaign";
import { type IdentityType, isIdentityType, normalizeAccountId } from "./identity";

/** The fields of a raw earn event body, in the order the spec lists them. */
export const EARN_EVENT_FIELDS = ["account_id", "identity_type", "amount", "reg_event_id"] as const;

/** A validated, normalised earn event. */
export interface EarnEvent {
  account_id: string;
  identity_type: IdentityType;
  /** Canonical exact decimal string. */
  amount: string;
  /** Lowercase UUID. */
  reg_event_id: string;
}

/** One problem with a body: what the client reads and the stable code for it. */
export interface FieldProblem {
  message: string;
  code: string;
  field?: string;
}

/** The outcome of validating a body: the event, or every problem found. */
export type EarnEventResult = { ok: true; event: EarnEvent } | { ok: false; problems: FieldProblem[] };

const ALLOWED = new Set<string>(EARN_EVENT_FIELDS);
/** Unknown keys reported one by one; the rest are summed up, so a hostile body cannot make a huge answer. */
const MAX_UNKNOWN_REPORTED = 10;
/** Longest key name echoed back in a message. */
const MAX_KEY_ECHO = 64;

function echoKey(key: string): string {
  return JSON.stringify(key.length > MAX_KEY_ECHO ? `${key.slice(0, MAX_KEY_ECHO)}...` : key);
}

function problemOf(err: unknown, field: string): FieldProblem {
  if (err instanceof ValidationError) return { message: err.message, code: err.code, field };
  throw err;
}

/**
 * Validates one raw earn event body. All four fields are required; any other key is refused
 * (including `__proto__`, `constructor` and `prototype`, which JSON.parse keeps as own keys).
 */
export function validateEarnEvent(body: unknown): EarnEventResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, problems: [{ message: "body must be a JSON object", code: "invalid-body" }] };
  }
  const problems: FieldProblem[] = [];
  const unknown = Object.keys(body).filter((key) => !ALLOWED.has(key));
  for (const key of unknown.slice(0, MAX_UNKNOWN_REPORTED)) {
    problems.push({ message: `unknown field ${echoKey(key)}`, code: "unknown-field", field: key });
  }
  if (unknown.length > MAX_UNKNOWN_REPORTED) {
    problems.push({ message: `${unknown.length - MAX_UNKNOWN_REPORTED} more unknown fields`, code: "unknown-field" });
  }
  const record = body as Record<string, unknown>;
  for (const field of EARN_EVENT_FIELDS) {
    if (!Object.hasOwn(record, field) || record[field] === null || record[field] === undefined) {
      problems.push({ message: `${field} is required`, code: "missing-field", field });
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  let identityType: IdentityType | undefined;
  if (isIdentityType(record.identity_type)) identityType = record.identity_type;
  else problems.push({ message: "invalid identity_type", code: "validation-failed", field: "identity_type" });

  let accountId: string | undefined;
  if (identityType) {
    // The message names the type for a wrong JSON type too ("... X_PROVIDER_ID: must be a string, got a number").
    try {
      accountId = normalizeAccountId(identityType, record.account_id);
    } catch (err) {
      problems.push(problemOf(err, "account_id"));
    }
  } else if (typeof record.account_id !== "string") {
    problems.push({ message: "account_id must be a string", code: "invalid-account-id", field: "account_id" });
  }

  let amount: string | undefined;
  try {
    amount = parseAmount(record.amount);
  } catch (err) {
    problems.push(problemOf(err, "amount"));
  }

  const reg = record.reg_event_id;
  if (typeof reg !== "string" || !UUID_PATTERN.test(reg)) {
    problems.push({ message: "reg_event_id must be a UUID", code: "invalid-reg-event-id", field: "reg_event_id" });
  }

  if (problems.length > 0 || !identityType || accountId === undefined || amount === undefined) return { ok: false, problems };
  return { ok: true, event: { account_id: accountId, identity_type: identityType, amount, reg_event_id: (reg as string).toLowerCase() } };
}
