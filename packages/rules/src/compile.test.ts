// Compiling a rule version: validated and indexed once per object, so every batch of a version reuses the same work.
import { LOGIN, rules } from "../test/fixtures";
import { compile } from "./compile";

describe("compile", () => {
  const version = () => rules({ rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" } }] });

  it("returns the same compiled value for the same rule version object", () => {
    const rv = version();
    expect(compile(rv)).toBe(compile(rv));
  });

  it("compiles an equal but distinct object anew, to an equal value", () => {
    const first = compile(version());
    const second = compile(version());
    expect(second).not.toBe(first);
    expect([...second.byEvent.keys()]).toEqual([...first.byEvent.keys()]);
  });

  it("indexes rules by their event type id in lowercase, as PostgreSQL compares uuids", () => {
    const rv = rules({ rules: [{ id: "login", regEventId: "ABCDEF01-2345-4678-89AB-CDEF01234567", currency: "xp", base: { kind: "fixed", points: "10" } }] });
    expect([...compile(rv).byEvent.keys()]).toEqual(["abcdef01-2345-4678-89ab-cdef01234567"]);
  });
});
