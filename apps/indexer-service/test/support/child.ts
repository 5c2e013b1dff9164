// Test support for the indexer: runs the service as a child process and collects its JSON log lines.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

/** The indexer service running as a child process, with its parsed JSON log lines. */
export interface IndexerChild {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  /** Resolves when `count` lines with message `msg` (a prefix) were logged. */
  waitFor(msgPrefix: string, count?: number): Promise<void>;
  exited: Promise<number | null>;
}

const APP = join(__dirname, "..", "..");

/** Starts `main.ts run --config <file>` through tsx, as the deployed binary would run. */
export function spawnIndexer(configFile: string, env: Record<string, string>): IndexerChild {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", "src/main.ts", "run", "--config", configFile], {
    cwd: APP,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { prefix: string; count: number; resolve: () => void }[] = [];
  let buffer = "";
  const check = () => {
    for (const w of [...waiters]) {
      if (lines.filter((l) => String(l.msg).startsWith(w.prefix)).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout?.on("data", (d: Buffer) => {
    buffer += d.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    for (const p of parts) if (p.trim().startsWith("{")) lines.push(JSON.parse(p) as Record<string, unknown>);
    check();
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitFor: (prefix, count = 1) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ prefix, count, resolve });
        check();
        void exited.then((code) =>
          reject(new Error(`indexer exited (${code}) before logging "${prefix}" x${count}: ${stderr}\n${JSON.stringify(lines.slice(-5))}`)),
        );
      }),
  };
}
