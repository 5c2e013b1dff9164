// The adapter registry: adapters by id, sorted, refusing duplicate or malformed ids and versions.
import { z } from "zod";
import { defineAdapter } from "./adapter";
import { AdapterRegistry, isSemver } from "./registry";

const def = (id: string, version = "1.0.0") =>
  defineAdapter({ id, version, description: "d", paramsSchema: z.object({}), create: () => ({ filters: [], contracts: [], handle: () => [] }) });

describe("adapter registry", () => {
  it("registers adapters by id and lists them sorted", () => {
    const registry = new AdapterRegistry([def("zeta"), def("alpha")]);
    registry.register(def("mid"));
    expect(registry.ids()).toEqual(["alpha", "mid", "zeta"]);
    expect(registry.get("mid")?.version).toBe("1.0.0");
  });

  it("rejects a duplicate id, a malformed id and a version that is not semver", () => {
    const registry = new AdapterRegistry([def("one")]);
    expect(() => registry.register(def("one"))).toThrow("adapter one is already registered");
    expect(() => registry.register(def("Bad Id"))).toThrow("adapter id must be lowercase letters, digits or '-': Bad Id");
    expect(() => registry.register(def("two", "1.0"))).toThrow("adapter two version must be a semver string: 1.0");
    expect(["0.0.1", "1.2.3-beta.1", "10.0.0+build"].every(isSemver)).toBe(true);
  });

  it("accepts ids of 1 to 64 lowercase letters, digits and '-' that start with a letter or digit", () => {
    const registry = new AdapterRegistry();
    for (const id of ["a", "0", "amm-v2", `a${"-".repeat(63)}`, "z".repeat(64)]) registry.register(def(id));
    expect(registry.ids()).toHaveLength(5);
    for (const id of ["", "-a", "A", "a_b", "a b", "z".repeat(65), "é"]) {
      expect(() => registry.register(def(id))).toThrow(`adapter id must be lowercase letters, digits or '-': ${id}`);
    }
  });

  it("checks versions against semver 2.0: no leading zeros, no prefix, pre-release and build parts", () => {
    for (const ok of ["0.0.0", "1.22.333", "1.0.0-rc.1", "1.0.0-alpha-2", "1.0.0+sha.5114f85", "1.0.0-rc.1+build.2"]) expect(isSemver(ok)).toBe(true);
    for (const bad of ["01.0.0", "1.02.0", "1.0.03", "v1.0.0", "1.0", "1.0.0.0", "1.0.0-", "1.0.0+", "1.0.0-a_b", " 1.0.0", "1.0.0 ", "a.b.c"]) {
      expect(isSemver(bad)).toBe(false);
    }
  });

  it("answers undefined for an id nobody registered, and starts empty", () => {
    const registry = new AdapterRegistry();
    expect(registry.ids()).toEqual([]);
    expect(registry.get("nope")).toBeUndefined();
  });
});
