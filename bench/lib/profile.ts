// Summarises a V8 .cpuprofile (written by `node --cpu-prof`) into where the time went: self time
// by package (node_modules/<pkg>, node internals, our own code) and the hottest functions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { withTempDir } from "./temp-dir";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Self-time shares of one profile. */
export interface ProfileSummary {
  samples: number;
  byPackage: { name: string; share: number }[];
  topFunctions: { name: string; share: number }[];
}

function packageOf(url: string): string {
  if (!url) return "(native / idle / gc)";
  if (url.startsWith("node:")) return "node internals";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const adapter = /\/packages\/adapters\/([^/]+)\//.exec(url);
  if (adapter) return `@pointwise/adapter-${adapter[1]}`;
  const apps = /\/(apps|packages)\/([^/]+)\//.exec(url);
  return apps ? `@pointwise/${apps[2]}` : path.basename(url);
}

/**
 * Runs `fn` with a new temporary directory for `node --cpu-prof` to write into, and removes the
 * directory when `fn` has finished or failed: a benchmark reads its profile into a report line, and
 * a profile kept after that would only pile up (several hundred KiB per profiled run).
 */
export function withProfileDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  return withTempDir("pw-prof-", fn);
}

/** Reads the newest .cpuprofile in `dir` and summarises it. */
export function summariseProfile(dir: string, top = 8): ProfileSummary | null {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort();
  const file = files.at(-1);
  if (!file) return null;
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { nodes: ProfileNode[] };
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") continue;
    total += hits;
    const pkg = packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const fn = `${functionName || "(anonymous)"} ${url ? `${pkg}:${lineNumber + 1}` : ""}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, share: total ? hits / total : 0 }));
  return { samples: total, byPackage: rank(byPackage), topFunctions: rank(byFunction) };
}

/** One line per summary for the report: "pg 31%, @pointwise/ingest-core 12%, ...". */
export function describeProfile(summary: ProfileSummary | null): string {
  if (!summary) return "no profile was written";
  const pct = (s: number) => `${Math.round(s * 100)}%`;
  return `busy time by package: ${summary.byPackage.map((p) => `${p.name} ${pct(p.share)}`).join(", ")}; hottest functions: ${summary.topFunctions
    .slice(0, 4)
    .map((f) => `${f.name} ${pct(f.share)}`)
    .join(", ")}`;
}
