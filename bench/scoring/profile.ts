// Summarises a CPU profile of the built worker by original source: the bundle (dist/main.js) holds
// the worker and every @pointwise package, so its source map is used to tell the rules engine
// from the worker's SQL and JSON code, beside node-postgres, NATS, zod and garbage collection.
import { readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

function groupOf(url: string, functionName: string): string {
  if (functionName === "(garbage collector)") return "garbage collection";
  if (!url) return "native (JSON, buffers, sockets)";
  if (url.startsWith("node:")) return "node internals";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const [scope, name] = url.slice(nm + 13).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? url);
  }
  return url;
}

/** Self time by group (the rules engine, the worker, each library) of the newest profile in `dir`, as one line. */
export function describeWorkerProfile(dir: string, top = 8): string {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .at(-1);
  if (!file) return "no profile was written";
  const map = new SourceMap(JSON.parse(readFileSync(path.join(repoRoot, "apps", "scoring-worker", "dist", "main.js.map"), "utf8")));
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { nodes: ProfileNode[] };
  const hits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const n = node.hitCount ?? 0;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (!n || functionName === "(idle)" || functionName === "(program)") continue;
    total += n;
    let group = groupOf(url, functionName);
    if (url.endsWith("dist/main.js")) {
      const source = (map.findEntry(lineNumber, columnNumber) as { originalSource?: string }).originalSource ?? "";
      const pkg = /packages\/([^/]+)\//.exec(source)?.[1];
      group = pkg === "rules" ? "rules engine" : pkg ? `@pointwise/${pkg}` : "worker (SQL documents, inbox, intake)";
    }
    hits.set(group, (hits.get(group) ?? 0) + n);
  }
  const parts = [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([group, n]) => `${group} ${Math.round((100 * n) / total)}%`);
  return `worker CPU by source: ${parts.join(", ")}`;
}
