// parseBatchBody: the items of { events: [...] }, malformed bodies, and the too-many-events limit.
import { parseBatchBody } from "./batch-body";

describe("parseBatchBody", () => {
  it("returns the items of { events: [...] }", () => {
    expect(parseBatchBody({ events: [1, {}] })).toEqual({ ok: true, events: [1, {}] });
    expect(parseBatchBody({ events: [] })).toEqual({ ok: true, events: [] });
  });

  it.each([
    ["an array", [], "invalid-body"],
    ["null", null, "invalid-body"],
    ["a string", "x", "invalid-body"],
    ["no events", {}, "missing-field"],
    ["events null", { events: null }, "missing-field"],
    ["events an object", { events: {} }, "invalid-body"],
    ["an extra field", { events: [], extra: 1 }, "unknown-field"],
    ["a __proto__ key", JSON.parse('{"events":[],"__proto__":{}}'), "unknown-field"],
  ])("refuses %s", (_name, body, code) => {
    const result = parseBatchBody(body);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]?.code).toBe(code);
  });

  it("refuses more items than the limit with too-many-events", () => {
    expect(parseBatchBody({ events: new Array(1000).fill({}) }).ok).toBe(true);
    expect(parseBatchBody({ events: new Array(1001).fill({}) })).toEqual({
      ok: false,
      problems: [{ message: "events must hold at most 1000 items, got 1001", code: "too-many-events" }],
    });
    expect(parseBatchBody({ events: [1, 2, 3] }, 2).ok).toBe(false);
  });
});
