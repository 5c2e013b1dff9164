// parseWith's messages for zod's own checks: the service's words instead of zod's, a schema's own message kept, the body named as a whole.
import { describe, expect, it } from "@jest/globals";
import { ValidationError } from "@pointwise/errors";
import { z } from "zod";
import { parseWith } from "./http";

const schema = z
  .object({
    name: z.string().min(1),
    kind: z.enum(["manual", "token-claim"]),
    id: z.string().uuid(),
    n: z.number().int().min(1).max(10),
    ratio: z.number().gt(0).lt(1),
    tags: z.array(z.string()).max(1),
    currencies: z.record(z.string().regex(/^[a-z]+$/, "must be lowercase letters"), z.string()),
    keyed: z.record(z.string().min(2), z.string()),
    on: z.boolean(),
    custom: z.string().min(3, "must be at least 3 letters"),
  })
  .strict();
const valid = {
  name: "x",
  kind: "manual",
  id: "8c0a5e2b-1d7f-4f3a-a6c9-5e4d3b2a1f00",
  n: 2,
  ratio: 0.5,
  tags: [],
  currencies: { xp: "XP" },
  keyed: { ab: "1" },
  on: true,
  custom: "abc",
};

const messageOf = (over: Record<string, unknown>) => {
  try {
    parseWith(schema, { ...valid, ...over });
  } catch (err) {
    return (err as Error).message;
  }
  return "accepted";
};

describe("parseWith's messages for zod's own checks", () => {
  it.each([
    [{ name: undefined }, "name: is required"],
    [{ name: "" }, "name: must not be empty"],
    [{ name: 5 }, "name: must be a string"],
    [{ kind: "x" }, 'kind: must be one of "manual", "token-claim"'],
    [{ id: "nope" }, "id: must be a UUID"],
    [{ n: 0.5 }, "n: must be a whole number"],
    [{ n: 0 }, "n: must be at least 1"],
    [{ n: 11 }, "n: must be at most 10"],
    [{ ratio: 0 }, "ratio: must be greater than 0"],
    [{ ratio: 1 }, "ratio: must be less than 1"],
    [{ tags: ["a", "b"] }, "tags: must hold at most 1 item"],
    [{ keyed: { a: "1" } }, "keyed.a: key must be at least 2 characters"],
    [{ on: "yes" }, "on: must be true or false"],
    [{ extra: 1 }, 'unknown field "extra"'],
    [{ extra: 1, more: 2 }, 'unknown fields "extra", "more"'],
  ])("%j -> %s", (over, message) => {
    expect(messageOf(over)).toBe(message);
  });

  it.each([
    ["a union", z.object({ u: z.union([z.literal("all"), z.number().int()]) }), { u: "x" }, 'u: must be "all" or a number'],
    ["an exact length", z.object({ code: z.string().length(3) }), { code: "ab" }, "code: must be exactly 3 characters"],
    ["an exact count", z.object({ pair: z.array(z.number()).length(2) }), { pair: [1] }, "pair: must hold exactly 2 items"],
    ["a prefix", z.object({ hex: z.string().startsWith("0x") }), { hex: "ff" }, 'hex: must start with "0x"'],
    ["a pattern", z.object({ id: z.string().regex(/^a+$/) }), { id: "b" }, "id: must match /^a+$/"],
    ["a multiple", z.object({ step: z.number().multipleOf(5) }), { step: 7 }, "step: must be a multiple of 5"],
    // A bigint literal: JSON.stringify would throw inside the error map and turn a 400 into a 500.
    ["a bigint literal", z.object({ big: z.literal(10n) }), { big: 1n }, "big: must be 10"],
  ])("says what is wrong with %s", (_what, schema, value, message) => {
    expect(() => parseWith(schema, value)).toThrow(new ValidationError(message));
  });

  it("names the body when it is not an object at all, and says how to send one when none came as JSON", () => {
    expect(() => parseWith(schema, undefined)).toThrow(new ValidationError("body: must be a JSON object, sent with Content-Type: application/json"));
    expect(() => parseWith(schema, [])).toThrow(new ValidationError("body: must be an object"));
    expect(() => parseWith(schema, "text")).toThrow(new ValidationError("body: must be an object"));
  });

  it("keeps a message the schema wrote itself, for a value and for a record key", () => {
    expect(messageOf({ custom: "ab" })).toBe("custom: must be at least 3 letters");
    expect(messageOf({ currencies: { XP: "1" } })).toBe("currencies.XP: key must be lowercase letters");
    expect(messageOf({})).toBe("accepted");
  });
});
