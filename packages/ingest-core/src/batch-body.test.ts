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

  it.each([
    ["an array", [], 'body must be a JSON object { "events": [ ... ] }'],
    ["null", null, 'body must be a JSON object { "events": [ ... ] }'],
    ["a number", 3, 'body must be a JSON object { "events": [ ... ] }'],
    ["no events", {}, "events is required"],
    ["events undefined", { events: undefined }, "events is required"],
    ["events a string", { events: "x" }, "events must be an array"],
    ["an extra field", { events: [], extra: 1 }, 'unknown field "extra"'],
  ])("says why it refuses %s", (_name, body, message) => {
    const result = parseBatchBody(body);
    expect(!result.ok && result.problems.map((p) => p.message)).toEqual([message]);
  });

  it("names at most 10 unknown fields, each cut to 64 characters, and counts the rest", () => {
    const body: Record<string, unknown> = { events: [] };
    for (let i = 0; i < 12; i++) body[`f${i}`] = i;
    const result = parseBatchBody(body);
    expect(!result.ok && result.problems[0]?.message).toBe('unknown field "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9" and 2 more');
    const long = `${"k".repeat(64)}x`;
    const cut = parseBatchBody({ [long]: 1, [`${"j".repeat(64)}`]: 2 });
    expect(!cut.ok && cut.problems[0]?.message).toBe(`unknown field "${"k".repeat(64)}...", "${"j".repeat(64)}"`);
    const ten: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) ten[`g${i}`] = i;
    const exact = parseBatchBody(ten);
    expect(!exact.ok && exact.problems[0]?.message).toBe('unknown field "g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9"');
  });

  it("refuses more items than the limit with too-many-events", () => {
    expect(parseBatchBody({ events: new Array(1000).fill({}) }).ok).toBe(true);
    expect(parseBatchBody({ events: new Array(1001).fill({}) })).toEqual({
      ok: false,
      problems: [{ message: "events must hold at most 1000 items, got 1001", code: "too-many-events" }],
    });
    expect(parseBatchBody({ events: [1, 2, 3] }, 2).ok).toBe(false);
    expect(parseBatchBody({ events: [1, 2] }, 2)).toEqual({ ok: true, events: [1, 2] });
  });
});
