// The locked dependencies install cleanly on every Node the root package.json admits: each one with an install script
// has a decision in `allowScripts` (npm 11 skips undecided ones with a warning, docs/decisions.md), and none requires
// a newer Node than the oldest we support (npm would warn EBADENGINE at every install, and the package may not run).
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";
import semver from "semver";

interface Locked {
  hasInstallScript?: boolean;
  engines?: { node?: string };
}
const root = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, Locked> };

/** A locked package's name from its path in the lock (`node_modules/a/node_modules/@b/c` -> `@b/c`). */
const nameOf = (where: string): string => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
const locked = Object.entries(lock.packages).filter(([where]) => where.includes("node_modules/"));

describe("locked dependencies", () => {
  it("decides on every install script in allowScripts", () => {
    const withScripts = locked.filter(([, p]) => p.hasInstallScript === true).map(([where]) => nameOf(where));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = [...new Set(withScripts)].filter((name) => typeof root.allowScripts?.[name] !== "boolean");
    expect(undecided).toEqual([]);
  });

  it("leaves no decision for a package that is no longer locked with an install script", () => {
    const withScripts = new Set(locked.filter(([, p]) => p.hasInstallScript === true).map(([where]) => nameOf(where)));
    expect(Object.keys(root.allowScripts ?? {}).filter((name) => !withScripts.has(name))).toEqual([]);
  });

  it("runs on the oldest Node the root package.json admits", () => {
    const oldest = semver.minVersion(root.engines.node)?.version;
    expect(oldest).toBe("20.19.0");
    const refusing = locked.flatMap(([where, p]) => {
      const range = p.engines?.node;
      return range !== undefined && !semver.satisfies(oldest as string, range) ? [`${nameOf(where)} requires node ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
