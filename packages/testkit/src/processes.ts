// Runs built apps and a NATS server as real child processes for tests, on free ports, cleaned up on exit.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The repository root (testkit lives at packages/testkit). */
export const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it is true or `timeoutMs` passes. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A running app process. */
export interface AppProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far (JSON log lines). */
  output(): string;
  /** Sends a signal and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The apps that `spawnApp` can start (their built bundle at apps/<name>/dist/main.js). */
export type AppName = "ingest-api" | "scoring-worker" | "read-api" | "admin-api" | "indexer-service" | "portal-api";

// Apps still running when this process exits (a test or benchmark that failed before stopping
// them) are killed with it, so none is left behind holding ports and connections.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Starts a built app as a real process on a free port and waits until its /readyz answers 200.
 * `npm test` builds the apps before running tests.
 */
export async function spawnApp(name: AppName, env: Record<string, string>, options: { waitReady?: boolean; nodeArgs?: string[] } = {}): Promise<AppProcess> {
  const entry = path.join(repoRoot, "apps", name, "dist", "main.js");
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (npm test does it)`);
  const port = Number(env.PORT ?? (await freePort()));
  let out = "";
  const child = spawn(process.execPath, ["--enable-source-maps", ...(options.nodeArgs ?? []), entry], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const app: AppProcess = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) {
    try {
      // The wait is long because two test files each starting a stack of apps on two cores can take that long to
      // load them; an app that exits ends the wait at once (waitUntil takes a failing check for "not yet").
      let exitCode: number | null = null;
      await waitUntil(
        async () => {
          exitCode = child.exitCode;
          return exitCode !== null || (await fetch(`${app.url}/readyz`)).status === 200;
        },
        45_000,
        `${name} to be ready`,
      );
      if (exitCode !== null) throw new Error(`${name} exited with ${exitCode}`);
    } catch (err) {
      await app.stop("SIGKILL");
      throw new Error(`${name} did not become ready: ${(err as Error).message}\n${out}`);
    }
  }
  return app;
}

/** A private NATS server with JetStream (file storage) that a test may stop and start again. */
export interface NatsServer {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and removes its store. */
  destroy(): Promise<void>;
}

/** Starts a nats-server of our own on a free port, so outage tests never touch the shared one. */
export async function startNatsServer(): Promise<NatsServer> {
  const bin = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].find((p) => existsSync(p)) ?? "nats-server";
  const port = await freePort();
  const store = mkdtempSync(path.join(os.tmpdir(), "pw-nats-"));
  let child: ChildProcess | undefined;
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(bin, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", store], { stdio: "ignore" });
      await waitUntil(
        () =>
          new Promise<boolean>((resolve) => {
            const socket = net.connect(port, "127.0.0.1", () => {
              socket.end();
              resolve(true);
            });
            socket.on("error", () => resolve(false));
          }),
        10_000,
        "nats-server",
      );
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGTERM");
      });
    },
    async destroy() {
      await server.stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** A NATS URL that refuses every connection, for tests of a service while NATS is away. */
export interface UnreachableNats {
  url: string;
  /**
   * Lets clients that are still trying to connect finish, then removes the server: nats.js retries a
   * first connection for ever and nothing cancels it, so a closed client lets go only once it connects.
   */
  release(): Promise<void>;
}

/** A private NATS server, stopped: its port refuses connections until `release`. */
export async function unreachableNats(): Promise<UnreachableNats> {
  const nats = await startNatsServer();
  await nats.stop();
  return {
    url: nats.url,
    async release() {
      await nats.start();
      // Clients try again every 500 ms (the bus's reconnectTimeWait); give them a few attempts.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await nats.destroy();
    },
  };
}
