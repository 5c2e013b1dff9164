// A PostgreSQL primary and its streaming replica as two real clusters of the test's own, on loopback ports.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./processes";

/** One PostgreSQL cluster of the pair. */
export interface PgNode {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  start(): void;
  /** A fast shutdown (`pg_ctl stop -m fast`). */
  stop(): void;
}

/** A primary and a replica streaming from it (`pg_basebackup -R`). */
export interface PgReplicaPair {
  primary: PgNode;
  replica: PgNode;
  /** Stops both clusters and deletes their folders. */
  destroy(): void;
}

/** The folder of PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup), the newest version installed. */
function pgBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, "bin", "pg_ctl"))) return path.join(root, v, "bin");
  throw new Error("PostgreSQL server programs not found under /usr/lib/postgresql/*/bin");
}

/**
 * PostgreSQL refuses to run as root: as root the programs run as the `postgres` OS user (runuser),
 * which then owns the folders; as anyone else they run as that user.
 */
function runner(): { run(bin: string, args: string[]): void; own(dir: string): void } {
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? Number(execFileSync("id", ["-u", "postgres"]).toString().trim()) : undefined;
  const pgGroup = asRoot ? Number(execFileSync("id", ["-g", "postgres"]).toString().trim()) : undefined;
  return {
    run(bin, args) {
      if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", bin, ...args], { stdio: "pipe" });
      else execFileSync(bin, args, { stdio: "pipe" });
    },
    own(dir) {
      if (pgUser !== undefined && pgGroup !== undefined) chownSync(dir, pgUser, pgGroup);
    },
  };
}

/**
 * Creates a primary (initdb, trust on loopback, replication allowed), starts it, copies it with
 * `pg_basebackup -R -X stream` into a replica folder and starts the replica in standby mode; each on a
 * free port with its socket in the test's folder. Takes a few seconds.
 */
export async function startPostgresReplicaPair(): Promise<PgReplicaPair> {
  const bin = pgBin();
  const { run, own } = runner();
  const root = mkdtempSync(path.join(os.tmpdir(), "pw-pg-replica-"));
  chmodSync(root, 0o755);
  own(root);
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const node = (name: string, port: number): PgNode => {
    const data = path.join(root, name);
    const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_wal_senders=4`;
    return {
      port,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      start: () => run(path.join(bin, "pg_ctl"), ["-D", data, "-l", path.join(root, `${name}.log`), "-w", "-t", "30", "-o", options, "start"]),
      stop: () => {
        if (existsSync(path.join(data, "postmaster.pid"))) run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
      },
    };
  };
  const primary = node("primary", primaryPort);
  const replica = node("replica", replicaPort);
  const pair: PgReplicaPair = {
    primary,
    replica,
    destroy() {
      for (const n of [replica, primary]) {
        try {
          n.stop();
        } catch {
          // Already stopped, or never started: the folder goes either way.
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    run(path.join(bin, "initdb"), ["-D", path.join(root, "primary"), "-U", "postgres", "-A", "trust", "--no-sync"]);
    // initdb's trust setup already allows replication connections from 127.0.0.1; say it outright.
    writeFileSync(path.join(root, "primary", "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n");
    primary.start();
    const replicaDir = path.join(root, "replica");
    run(path.join(bin, "pg_basebackup"), [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      replicaDir,
      "-R",
      "-X",
      "stream",
      "--checkpoint=fast",
    ]);
    replica.start();
  } catch (err) {
    pair.destroy();
    throw err;
  }
  return pair;
}
