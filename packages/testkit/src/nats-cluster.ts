// A NATS JetStream cluster of real nats-server processes on loopback, for tests that lose a node.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createBus } from "@pointwise/bus";
import { freePort, waitUntil } from "./processes";

/** One server of the cluster, with its own port, cluster port and storage folder. */
export interface NatsNode {
  /** The server name (`-n`), as JetStream reports stream leaders and peers. */
  name: string;
  url: string;
  running(): boolean;
  /** Starts the server (again) on the same ports and storage; resolves when its client port answers. */
  start(): Promise<void>;
  /** Ends the server with `signal` (SIGKILL: a machine lost) and waits for its exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A cluster of `nodes.length` servers; `url` names every server, comma-separated, as NATS_URL takes it. */
export interface NatsCluster {
  url: string;
  nodes: NatsNode[];
  /** Stops every server and deletes their storage folders. */
  destroy(): Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/**
 * Starts `size` nats-server processes on free loopback ports as one JetStream cluster (`-cluster`,
 * `-routes` to every other server, a storage folder each) and waits until JetStream answers through it.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const bin = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].find((p) => existsSync(p)) ?? "nats-server";
  const root = mkdtempSync(path.join(os.tmpdir(), "pw-nats-cluster-"));
  const ports: { client: number; cluster: number }[] = [];
  for (let i = 0; i < size; i++) ports.push({ client: await freePort(), cluster: await freePort() });
  const clusterName = `pw${path.basename(root).slice(-6).toLowerCase()}`;
  const nodes: NatsNode[] = ports.map((p, i) => {
    const name = `${clusterName}-n${i + 1}`;
    const store = path.join(root, name);
    const routes = ports
      .filter((_q, j) => j !== i)
      .map((q) => `nats://127.0.0.1:${q.cluster}`)
      .join(",");
    let child: ChildProcess | undefined;
    const node: NatsNode = {
      name,
      url: `nats://127.0.0.1:${p.client}`,
      running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      async start() {
        const args = ["-a", "127.0.0.1", "-p", String(p.client), "-n", name, "-js", "-sd", store];
        args.push("--cluster_name", clusterName, "-cluster", `nats://127.0.0.1:${p.cluster}`, "-routes", routes);
        child = spawn(bin, args, { stdio: "ignore" });
        await waitUntil(() => portOpen(p.client), 10_000, `nats-server ${name}`);
      },
      async kill(signal = "SIGKILL") {
        const c = child;
        if (!c || c.exitCode !== null || c.signalCode !== null) return;
        await new Promise<void>((resolve) => {
          c.once("exit", () => resolve());
          c.kill(signal);
        });
      },
    };
    return node;
  });
  const cluster: NatsCluster = {
    url: nodes.map((n) => n.url).join(","),
    nodes,
    async destroy() {
      await Promise.all(nodes.map((n) => n.kill("SIGTERM")));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    // The servers must find each other and elect a JetStream meta leader before streams can be made.
    const probe = await createBus({ url: cluster.url, namespace: "pwclusterprobe", firstConnect: "background" });
    try {
      await waitUntil(() => probe.ping(), 30_000, "the NATS cluster's JetStream");
    } finally {
      await probe.close();
    }
  } catch (err) {
    await cluster.destroy();
    throw err;
  }
  return cluster;
}
