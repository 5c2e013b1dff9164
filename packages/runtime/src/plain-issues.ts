// Plain-English messages for zod's own checks in request bodies, so an API user reads the rule, not zod's internal wording.
import type { z } from "zod";

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
  date: "a date",
  null: "null",
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: "a UUID",
  guid: "a UUID",
  email: "an e-mail address",
  url: "a URL",
  datetime: "an ISO 8601 date-time such as 2026-03-01T12:00:00Z",
  date: "a date such as 2026-03-01",
};

const plural = (n: number | bigint, one: string) => `${n} ${one}${n === 1 || n === 1n ? "" : "s"}`;

function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, least: boolean): string {
  const side = least ? (inclusive === false ? "more than" : "at least") : inclusive === false ? "fewer than" : "at most";
  if (origin === "string") return least && inclusive !== false && Number(limit) === 1 ? "must not be empty" : `must be ${side} ${plural(limit, "character")}`;
  if (origin === "array" || origin === "set")
    return least && inclusive !== false && Number(limit) === 1 ? "must not be empty" : `must hold ${side} ${plural(limit, "item")}`;
  const compare = least ? (inclusive === false ? "greater than" : "at least") : inclusive === false ? "less than" : "at most";
  return `must be ${compare} ${limit}`;
}

/**
 * The message of an issue zod raised with its own wording (`Invalid input: expected string, received undefined`) in the
 * service's words (`is required`, `must be a string`, `must be one of "a", "b"`); undefined keeps zod's, and a message
 * a schema wrote itself always wins over this one. Passed to `safeParse` as its per-parse error map.
 */
export const plainIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound(issue.origin, issue.minimum, issue.inclusive, true);
    case "too_big":
      return bound(issue.origin, issue.maximum, issue.inclusive, false);
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `${issue.keys.length === 1 ? "unknown field" : "unknown fields"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    case "invalid_key": {
      // A record key breaking its own schema: that schema's message says why.
      const inner = issue.issues[0]?.message;
      return inner ? `key ${inner}` : "is not an allowed key";
    }
    case "invalid_format":
      return FORMAT_NAMES[issue.format] ? `must be ${FORMAT_NAMES[issue.format]}` : undefined;
    default:
      return undefined;
  }
};
