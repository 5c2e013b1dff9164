// The chaos suite's app processes: each with a PostgreSQL application_name of its own, watched for exits the test did not cause.
import { setTimeout as sleep } from "node:timers/promises";
import { type AppName, type AppProcess, freePort, spawnApp } from "@pointwise/testkit";

/** An exit the test did not cause, with what the process logged last. */
export interface Crash {
  member: string;
  /** Milliseconds since the run started. */
  atMs: number;
  /** The fault in progress (or "traffic" between faults). */
  during: string;
  code: number | null;
  signal: string | null;
  log: string[];
  /** Everything the process wrote before it exited. */
  output: string;
}

/** One supervised app process; `process` changes when it is started again. */
export interface Member {
  /** ingest-api, scoring-worker-1, ... */
  name: string;
  app: AppName;
  /** The application_name its PostgreSQL connections carry: unique to this run, so only its backends are ever terminated. */
  applicationName: string;
  url: string;
  process: AppProcess;
  /** How often the test killed it. */
  kills: number;
  /** How often it was started again after an exit the test did not cause. */
  restarts: number;
}

/** The supervised processes of one run. */
export interface Cluster {
  members: Member[];
  crashes: Crash[];
  /** What the crash records name as in progress. */
  phase: string;
  member(name: string): Member;
  /** SIGKILLs a member and starts it again at once (not waiting for readiness). */
  kill(member: Member): Promise<void>;
  /** Members whose process is not running now. */
  dead(): Member[];
  /** SIGKILLs everything; nothing is restarted any more. */
  stop(): Promise<void>;
}

/** What to start: a member name, its app and its settings on top of the shared ones. */
export interface MemberSpec {
  name: string;
  app: AppName;
  env?: Record<string, string>;
}

// A crash-looping process is started again at most this often, so a broken app cannot keep the run busy.
const MAX_RESTARTS = 10;

/**
 * What explains an exit: the uncaught exception's report (its message, the frames outside Node's
 * internals, where it was emitted), else the error-level log lines, else the last lines written.
 */
export function logTail(output: string, lines = 10): string[] {
  const tail = output
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.includes('"msg":"request"'))
    .slice(-80);
  const thrown = tail.findLastIndex((l) => /Unhandled|Uncaught|^\s*throw /.test(l));
  const errors = tail.filter((l) => /"level":("error"|"fatal"|50|60)/.test(l));
  const picked =
    thrown >= 0
      ? tail.slice(thrown).filter((l) => !/\(node:|^\s+at node:|^\s*\^\s*$|\[\.\.\. lines/.test(l))
      : errors.length > 0
        ? errors.slice(-lines)
        : tail.slice(-lines);
  return picked.slice(0, lines).map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l.trimEnd()));
}

/** `url` with `application_name` set, which takes precedence over what the app's pool asks for. */
export function withApplicationName(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", applicationName);
  return u.toString();
}

/**
 * Starts every member (waiting for readiness) with `shared` settings and a unique application_name
 * `<prefix>_<name>`. An exit the test did not cause is recorded with the log tail, and the process
 * is started again so the run goes on and its data can still be checked; the run fails on it.
 */
export async function startCluster(specs: MemberSpec[], shared: Record<string, string>, prefix: string, startedAt: number): Promise<Cluster> {
  const crashes: Crash[] = [];
  let stopping = false;
  const expected = new WeakSet<AppProcess>();
  const cluster: Cluster = {
    members: [],
    crashes,
    phase: "start-up",
    member(name) {
      const m = cluster.members.find((x) => x.name === name);
      if (!m) throw new Error(`no member ${name}`);
      return m;
    },
    async kill(member) {
      expected.add(member.process);
      member.kills += 1;
      await member.process.stop("SIGKILL");
      await launch(member, false);
    },
    dead: () => cluster.members.filter((m) => m.process.child.exitCode !== null || m.process.child.signalCode !== null),
    async stop() {
      stopping = true;
      await Promise.all(cluster.members.map((m) => m.process.stop("SIGKILL")));
    },
  };
  const envs = new Map<string, Record<string, string>>();

  async function launch(member: Member, waitReady: boolean): Promise<void> {
    const proc = await spawnApp(member.app, envs.get(member.name)!, { waitReady });
    member.process = proc;
    proc.child.once("exit", (code, signal) => {
      if (stopping || expected.has(proc)) return;
      crashes.push({
        member: member.name,
        atMs: Date.now() - startedAt,
        during: cluster.phase,
        code,
        signal,
        log: logTail(proc.output()),
        output: proc.output(),
      });
      if (member.restarts >= MAX_RESTARTS) return;
      member.restarts += 1;
      // Started again without waiting: an app that hangs at start-up shows as not ready, not as a stuck test.
      void sleep(200).then(() => (stopping ? undefined : launch(member, false).catch(() => undefined)));
    });
  }

  const members = await Promise.all(
    specs.map(async (spec) => {
      const port = await freePort();
      const applicationName = `${prefix}_${spec.name.replace(/-/g, "_")}`;
      const env = { ...shared, ...spec.env, PORT: String(port), DATABASE_URL: withApplicationName(shared.DATABASE_URL!, applicationName) };
      envs.set(spec.name, env);
      return { name: spec.name, app: spec.app, applicationName, url: `http://127.0.0.1:${port}`, kills: 0, restarts: 0 } as Member;
    }),
  );
  cluster.members = members;
  // ingest-api first, as `npm start` does; then the rest together.
  const [first, ...rest] = members;
  await launch(first!, true);
  await Promise.all(rest.map((m) => launch(m, true)));
  cluster.phase = "traffic";
  return cluster;
}

/** The member's /readyz status, or 0 when nothing answers. */
export async function readyStatus(member: Member): Promise<number> {
  try {
    const res = await fetch(`${member.url}/readyz`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Milliseconds from `since` until the member's /readyz answers 200, or null when it did not before `deadlineMs` from now. */
export async function timeUntilReady(member: Member, since: number, deadlineMs: number): Promise<number | null> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if ((await readyStatus(member)) === 200) return Math.max(0, Date.now() - since);
    if (Date.now() > deadline) return null;
    await sleep(100);
  }
}
