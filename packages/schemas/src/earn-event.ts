// Validation of a raw earn event body into a normalised event, with a stable code for each problem.
import { ValidationError } from "@pointwise/errors";
import { parseAmount } from "./amount";
import { storedTimeProblem } from "./bounds";
import { UUID_PATTERN } from "./campaign";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "./idempotency-key";
import { type IdentityType, isIdentityType, normalizeAccountId } from "./identity";

/** The fields of a raw earn event body, in the order the spec lists them; all four are required. */
export const EARN_EVENT_FIELDS = ["account_id", "identity_type", "amount", "reg_event_id"] as const;

/** Optional fields beyond the spec's four: when the activity happened, and the event's own idempotency key. */
export const EARN_EVENT_OPTIONAL_FIELDS = ["occurred_at", "idempotency_key"] as const;

// RFC 3339 section 5.6 (NOTE) lets the "T" and "Z" be lowercase; both are uppercased before parsing.
// Stryker disable next-line Regex: Date.parse and the comparison with the canonical form refuse text before or after the
// time as well; the anchors keep the rule from resting on the engine's parser
const OCCURRED_AT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?[Zz]$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** A validated, normalised earn event. */
export interface EarnEvent {
  account_id: string;
  identity_type: IdentityType;
  /** Canonical exact decimal string. */
  amount: string;
  /** Lowercase UUID. */
  reg_event_id: string;
  /** When the activity happened, as `YYYY-MM-DDTHH:MM:SS.sssZ`; absent: when it is received. */
  occurred_at?: string;
  /** The client's key of this event: the same key in the same campaign is one event, however often it is sent. */
  idempotency_key?: string;
}

/**
 * An RFC 3339 time in UTC (`Z`, or `z`; `T` or `t`) with at most millisecond precision, as the canonical
 * `YYYY-MM-DDTHH:MM:SS.sssZ`; throws ValidationError `invalid-occurred-at` otherwise. A date that
 * does not exist (February 30) and a leap second are refused, not rolled over.
 */
export function parseOccurredAt(value: unknown): string {
  const bad = () =>
    new ValidationError("occurred_at must be an RFC 3339 time in UTC with at most millisecond precision, e.g. 2026-11-20T10:00:00Z", {
      code: "invalid-occurred-at",
      field: "occurred_at",
    });
  if (typeof value !== "string") throw bad();
  if (!OCCURRED_AT.test(value)) throw bad();
  // The pattern lets through only ASCII digits, "-", ":", "." and T/Z in either case, so this changes only a t or z;
  // Date.parse then gets the form ECMAScript defines, not whatever its fallback parser makes of a lowercase one.
  const upper = value.toUpperCase();
  const ms = Date.parse(upper);
  if (!Number.isFinite(ms)) throw bad();
  const iso = new Date(ms).toISOString();
  // Date.parse rolls an impossible day or second over; the canonical form then differs from the input.
  if (iso.slice(0, 19) !== upper.slice(0, 19)) throw bad();
  const unstorable = storedTimeProblem(iso);
  if (unstorable !== null) throw new ValidationError(`occurred_at ${unstorable}`, { code: "invalid-occurred-at", field: "occurred_at" });
  return iso;
}

/** One problem with a body: what the client reads and the stable code for it. */
export interface FieldProblem {
  message: string;
  code: string;
  field?: string;
}

/** The outcome of validating a body: the event, or every problem found. */
export type EarnEventResult = { ok: true; event: EarnEvent } | { ok: false; problems: FieldProblem[] };

const ALLOWED = new Set<string>([...EARN_EVENT_FIELDS, ...EARN_EVENT_OPTIONAL_FIELDS]);
/** Unknown keys reported one by one; the rest are summed up, so a hostile body cannot make a huge answer. */
const MAX_UNKNOWN_REPORTED = 10;
/** Longest key name echoed back in a message. */
const MAX_KEY_ECHO = 64;

function echoKey(key: string): string {
  return JSON.stringify(key.length > MAX_KEY_ECHO ? `${key.slice(0, MAX_KEY_ECHO)}...` : key);
}

function problemOf(err: unknown, field: string): FieldProblem {
  // Stryker disable next-line ConditionalExpression: equivalent, the parsers it wraps throw only ValidationError; the guard keeps a bug from passing as a client's mistake
  if (err instanceof ValidationError) return { message: err.message, code: err.code, field };
  throw err;
}

/**
 * Validates one raw earn event body. The spec's four fields are required, `occurred_at` and
 * `idempotency_key` are optional (null counts as absent); any other key is refused
 * (including `__proto__`, `constructor` and `prototype`, which JSON.parse keeps as own keys).
 * Every problem is listed, in a fixed order: unknown keys, missing fields (in the spec's order),
 * then the values of the fields present, so a missing field never hides another field's problem.
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
  const present = (field: string) => Object.hasOwn(record, field) && record[field] !== null && record[field] !== undefined;
  for (const field of EARN_EVENT_FIELDS) {
    if (!present(field)) problems.push({ message: `${field} is required`, code: "missing-field", field });
  }

  // A missing field has its problem already; the checks below judge only the fields that are there.
  let identityType: IdentityType | undefined;
  if (present("identity_type")) {
    if (isIdentityType(record.identity_type)) identityType = record.identity_type;
    else problems.push({ message: "invalid identity_type", code: "validation-failed", field: "identity_type" });
  }

  let accountId: string | undefined;
  if (present("account_id") && identityType) {
    // The message names the type for a wrong JSON type too ("... X_PROVIDER_ID: must be a string, got a number").
    try {
      // An earn event brings new points in: an identity nobody can hold (the EVM zero address) is refused here.
      accountId = normalizeAccountId(identityType, record.account_id, { entry: true });
    } catch (err) {
      problems.push(problemOf(err, "account_id"));
    }
  } else if (present("account_id") && typeof record.account_id !== "string") {
    // Without a valid identity_type (missing or invalid) a string cannot be judged, but any other JSON type is wrong for every type.
    problems.push({ message: "account_id must be a string", code: "invalid-account-id", field: "account_id" });
  }

  let amount: string | undefined;
  if (present("amount")) {
    try {
      amount = parseAmount(record.amount);
    } catch (err) {
      problems.push(problemOf(err, "amount"));
    }
  }

  const reg = record.reg_event_id;
  if (present("reg_event_id") && (typeof reg !== "string" || !UUID_PATTERN.test(reg))) {
    problems.push({ message: "reg_event_id must be a UUID", code: "invalid-reg-event-id", field: "reg_event_id" });
  }

  let occurredAt: string | undefined;
  if (record.occurred_at !== undefined && record.occurred_at !== null) {
    try {
      occurredAt = parseOccurredAt(record.occurred_at);
    } catch (err) {
      problems.push(problemOf(err, "occurred_at"));
    }
  }

  const key = record.idempotency_key;
  if (key !== undefined && key !== null && (typeof key !== "string" || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(key))) {
    problems.push({
      message: `idempotency_key must be a string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
      code: "invalid-idempotency-key",
      field: "idempotency_key",
    });
  }

  if (problems.length > 0) return { ok: false, problems };
  // Every path above that leaves identityType, accountId or amount undefined (a missing field included) has added a problem.
  const event: EarnEvent = { account_id: accountId!, identity_type: identityType!, amount: amount!, reg_event_id: (reg as string).toLowerCase() };
  if (occurredAt !== undefined) event.occurred_at = occurredAt;
  if (typeof key === "string") event.idempotency_key = key;
  return { ok: true, event };
}
