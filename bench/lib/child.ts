// The benchmark's processes and how they hand back a result: a script run with `--import tsx` prints one line
// `PREFIX <json>` on stdout, and the parent reads that line once the process ends (or its `ready <port>` line).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const tsx = (script: string, args: readonly string[], stdin: "ignore" | "pipe") =>
  spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: [stdin, "pipe", "inherit"] });

/** Prints `value` as the stdout line `PREFIX <json>` that runScript reads. */
export function printResult(prefix: string, value: unknown): void {
  process.stdout.write(`\n${prefix} ${JSON.stringify(value)}\n`);
}

/**
 * Runs a TypeScript script in a process of its own (`input`, if any, on its stdin) and resolves with the JSON of its
 * stdout line starting with `prefix`; rejects, saying how it exited, when it ends without one.
 */
export function runScript<T>(script: string, args: readonly string[], prefix: string, input?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = tsx(script, args, input === undefined ? "ignore" : "pipe");
    child.stdin?.end(input);
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(`${prefix} `));
      if (line) resolve(JSON.parse(line.slice(prefix.length + 1)) as T);
      else reject(new Error(`${path.basename(path.dirname(script))}/${path.basename(script)} exited with ${code} and no result`));
    });
  });
}

/** Starts a script as a long-lived child process and resolves once it prints `ready <port>`. */
export function startChild(script: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = tsx(script, args, "ignore");
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Runs a script's main and exits 1 with the error's stack when it fails. */
export function main(fn: () => Promise<void>): void {
  fn().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
