// Says what bounds a missed target: a V8 CPU profile of the app under the same load, summarised as
// self time by package (each app is one bundle, dist/main.js, read back to its sources through its
// source map) and the hottest functions.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AppName, spawnApp } from "@pointwise/testkit";

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

/** The package a source path belongs to: node_modules/<pkg>, a @pointwise package or app, or node itself. */
function packageOf(file: string): string {
  if (file.startsWith("node:")) return "node internals";
  const nm = file.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const [scope, name] = file.slice(nm + 13).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? file);
  }
  const own = /(?:^|\/)(apps|packages(?:\/adapters)?)\/([^/]+)\//.exec(file);
  return own ? `@pointwise/${own[2]}` : path.basename(file);
}

const maps = new Map<string, SourceMap | null>();

/** Where a profiled frame's code came from, through the bundle's source map when it has one. */
function sourceOf(url: string, line: number, column: number): string {
  if (!url) return "";
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : null);
  const entry = maps.get(file)?.findEntry(line, column) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? file;
}

/** One line saying where the busy time of a profile went: by package, then the hottest functions. */
export function describeProfile(profile: { nodes: ProfileNode[] }): string {
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (!hits || functionName === "(idle)" || functionName === "(program)") continue;
    total += hits;
    const source = sourceOf(url, lineNumber, columnNumber);
    const pkg = functionName === "(garbage collector)" ? "garbage collection" : source ? packageOf(source) : "native";
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const fn = `${functionName || "(anonymous)"} (${pkg})`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, h]) => `${name} ${Math.round((100 * h) / total)}%`)
      .join(", ");
  return total ? `busy time by package: ${top(byPackage, 6)}; hottest functions: ${top(byFunction, 4)}` : "the profile holds no samples";
}

/** Runs a process with the V8 profiler (`run` gets the node flags to start it with) and says where its time went. */
export async function profileProcess(run: (nodeArgs: string[]) => Promise<unknown>): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pw-prof-"));
  try {
    await run(["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    return file ? describeProfile(JSON.parse(readFileSync(path.join(dir, file), "utf8"))) : "no profile was written";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Profiles the built app while `drive` loads its URL (the profile is written when it stops): what was driven and where the time went. */
export async function profileApp(name: AppName, env: Record<string, string>, what: string, drive: (url: string) => Promise<unknown>): Promise<string> {
  const profile = await profileProcess(async (nodeArgs) => {
    const app = await spawnApp(name, env, { nodeArgs });
    try {
      await drive(app.url);
    } finally {
      await app.stop();
    }
  });
  return `${name} under ${what}: ${profile}`;
}
