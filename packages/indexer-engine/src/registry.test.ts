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
});
