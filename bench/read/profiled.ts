// Profiles read-api under one kind of load and says what bounds it: how busy the app's own thread
// was while the load ran (near 100% means the app's CPU is the limit; well below means it waited on
// something else: the load generator on the shared cores, Redis, PostgreSQL) and where its time went.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { spawnApp } from "@pointwise/testkit";
import { describeProfile, summariseProfile, withProfileDir } from "../lib/profile";

interface ProfileFile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stretch of time in microseconds of the monotonic clock, the clock V8 stamps profile samples with on Linux. */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** Now on the monotonic clock, in microseconds (comparable with .cpuprofile sample times of another process). */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The share of samples inside `windows` of the newest .cpuprofile in `dir` in which the main thread was not idle. */
export function busyShare(dir: string, windows: readonly Window[]): number | null {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .at(-1);
  if (!file) return null;
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ProfileFile;
  const idleNodes = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let at = profile.startTime;
  let all = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (!windows.some((w) => at >= w.fromUs && at <= w.toUs)) continue;
    all += 1;
    if (idleNodes.has(profile.samples[i] as number)) idle += 1;
  }
  return all ? 1 - idle / all : null;
}

/**
 * Starts a profiled read-api, runs `drive` against its URL (wrapping each load in `underLoad`, so
 * warm-up and shutdown are left out of the busy share), stops it (the profile is written on exit)
 * and returns one report line: what was driven, how busy the app was under load, where the time went.
 */
export async function profileUnder(
  what: string,
  env: Record<string, string>,
  drive: (url: string, underLoad: <T>(run: () => Promise<T>) => Promise<T>) => Promise<void>,
): Promise<string> {
  return withProfileDir(async (dir) => {
    const app = await spawnApp("read-api", env, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    const windows: Window[] = [];
    const underLoad = async <T>(run: () => Promise<T>): Promise<T> => {
      const fromUs = monotonicUs();
      try {
        return await run();
      } finally {
        windows.push({ fromUs, toUs: monotonicUs() });
      }
    };
    let stopMs = 0;
    let exitCode: number | null = null;
    try {
      await drive(app.url, underLoad);
    } finally {
      const stopping = Date.now();
      exitCode = await app.stop();
      stopMs = Date.now() - stopping;
    }
    const busy = busyShare(dir, windows);
    const bound =
      busy === null
        ? ""
        : `read-api's main thread was busy ${Math.round(busy * 100)}% of the time under load (${busy >= 0.9 ? "its own CPU is the bound" : "it also waited: on the load generator sharing the cores, Redis or PostgreSQL"}); `;
    // A slow or failed stop is worth seeing: SIGTERM should end read-api in well under a second.
    const stop = stopMs > 2000 || exitCode !== 0 ? ` (read-api took ${(stopMs / 1000).toFixed(1)} s to stop after SIGTERM and exited ${exitCode})` : "";
    return `profile of ${what}${stop}: ${bound}${describeProfile(summariseProfile(dir))}`;
  });
}
