// The helpers of account-id checks: results as values, and how characters and types are named in messages.
import { describeChar, describeType, fail, ok } from "./identity-check";

describe("identity checks", () => {
  it("carries a passed value or a failure reason", () => {
    expect(ok("x")).toEqual({ ok: true, value: "x" });
    expect(fail("must not be empty")).toEqual({ ok: false, reason: "must not be empty" });
  });

  it.each([
    ["!", "'!'"],
    ["a", "'a'"],
    ["~", "'~'"],
    [" ", "U+0020"],
    ["\u007f", "U+007F"],
    ["\u0000", "U+0000"],
    ["\u00e9", "U+00E9"],
    ["\u200b", "U+200B"],
    ["\u{1f600}", "U+1F600"],
  ])("names %j as %s: printable ASCII quoted, anything else by code point", (char, named) => {
    expect(describeChar(char)).toBe(named);
  });

  it("names the empty string as U+0000 rather than failing", () => {
    expect(describeChar("")).toBe("U+0000");
  });

  it.each([
    [null, "null"],
    [undefined, "undefined"],
    [[1], "an array"],
    [{}, "an object"],
    [1, "a number"],
    [1n, "a bigint"],
    [true, "a boolean"],
    ["s", "a string"],
    [Symbol("s"), "a symbol"],
    [() => 1, "a function"],
  ])("names the type of %p as %s", (value, named) => {
    expect(describeType(value)).toBe(named);
  });
});
