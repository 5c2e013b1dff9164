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

/** A value as a message shows it: JSON, except a bigint (which JSON.stringify refuses) as its digits. */
const shown = (value: unknown) => (typeof value === "bigint" ? String(value) : JSON.stringify(value));

function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, least: boolean, exact: boolean | undefined): string {
  const count = origin === "string" ? "character" : origin === "array" || origin === "set" ? "item" : undefined;
  const verb = origin === "string" ? "be" : "hold";
  if (exact && count) return `must ${verb} exactly ${plural(limit, count)}`;
  if (count) {
    if (least && inclusive !== false && Number(limit) === 1) return "must not be empty";
    const side = least ? (inclusive === false ? "more than" : "at least") : inclusive === false ? "fewer than" : "at most";
    return `must ${verb} ${side} ${plural(limit, count)}`;
  }
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
      return bound(issue.origin, issue.minimum, issue.inclusive, true, issue.exact);
    case "too_big":
      return bound(issue.origin, issue.maximum, issue.inclusive, false, issue.exact);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${shown(issue.values[0])}` : `must be one of ${issue.values.map(shown).join(", ")}`;
    case "unrecognized_keys":
      return `${issue.keys.length === 1 ? "unknown field" : "unknown fields"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    case "invalid_key": {
      // A record key breaking its own schema: that schema's message says why.
      const inner = issue.issues[0]?.message;
      return inner ? `key ${inner}` : "is not an allowed key";
    }
    case "invalid_union":
      return unionMessage(issue.errors);
    case "invalid_format":
      return formatMessage(issue);
    default:
      return undefined;
  }
};

/** What each form of a union asks for, in one sentence: `must be "all" or a number`. */
function unionMessage(branches: readonly (readonly z.core.$ZodIssue[])[]): string {
  // A branch's issues keep zod's wording: each first one is said again in the service's. They no longer carry the
  // input, so a type issue is what the branch expected, not "is required".
  const say = (issue: z.core.$ZodIssue) =>
    issue.code === "invalid_type"
      ? `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`
      : ((plainIssue(issue as never) as string | undefined) ?? issue.message);
  const wants = [...new Set(branches.flatMap((issues) => (issues[0] ? [say(issues[0])] : [])))];
  if (wants.length === 0) return "does not match any of the allowed forms";
  return wants.every((m) => m.startsWith("must be ")) ? `must be ${wants.map((m) => m.slice("must be ".length)).join(" or ")}` : wants.join("; or ");
}

/** A string format zod checked: a named one, or the prefix, suffix, text or pattern it needed. */
function formatMessage(issue: { format: string; pattern?: string; prefix?: string; suffix?: string; includes?: string }): string | undefined {
  const name = FORMAT_NAMES[issue.format];
  if (name) return `must be ${name}`;
  if (issue.format === "starts_with") return `must start with ${JSON.stringify(issue.prefix)}`;
  if (issue.format === "ends_with") return `must end with ${JSON.stringify(issue.suffix)}`;
  if (issue.format === "includes") return `must contain ${JSON.stringify(issue.includes)}`;
  if (issue.format === "regex" && issue.pattern) return `must match ${issue.pattern}`;
  return undefined;
}
